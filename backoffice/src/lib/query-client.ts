import { notifications } from '@mantine/notifications';
import { BACKOFFICE_MESSAGES, TIMINGS } from '@spc/shared-contracts';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { errorMessage } from '@spc/shared-contracts/web-client';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** The screen's fallback text when the server gives no message. */
      errorMessage?: string;
      /** Set false to keep a mutation's success quiet. */
      successToast?: boolean;
    };
    queryMeta: {
      /** When set, a failed load also shows a toast with this fallback. */
      errorMessage?: string;
    };
  }
}

/** Toasts come from here only: top-right, closing after 3 s. */
export function showToast(kind: 'success' | 'error', message: string) {
  notifications.show({
    color: kind === 'success' ? 'green' : 'red',
    title: kind === 'success' ? 'Success' : 'Error',
    message,
    autoClose: TIMINGS.toastAutoCloseMs,
  });
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: TIMINGS.queryStaleTimeMs, retry: 1, refetchOnWindowFocus: false },
    },
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.errorMessage)
          showToast('error', errorMessage(error, query.meta.errorMessage));
      },
    }),
    mutationCache: new MutationCache({
      onSuccess: (data, _vars, _ctx, mutation) => {
        if (mutation.meta?.successToast === false) return;
        const message = (data as { message?: unknown } | undefined)?.message;
        if (typeof message === 'string' && message) showToast('success', message);
      },
      onError: (error, _vars, _ctx, mutation) => {
        showToast(
          'error',
          errorMessage(
            error,
            mutation.meta?.errorMessage ?? BACKOFFICE_MESSAGES.somethingWentWrong,
          ),
        );
      },
    }),
  });
}

export const queryClient = createQueryClient();
