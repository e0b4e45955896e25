import { CONTACT_PAGE_SIZE, type components } from '@spc/shared-contracts';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { refreshQueries } from '../../../lib/refresh-queries';

export type ContactMessage = components['schemas']['ContactMessageViewDto'];
export type MessageFilter = 'all' | 'unread' | 'read';

export const messageKeys = {
  all: ['contact-messages'] as const,
  list: (status: MessageFilter, page: number) =>
    [...messageKeys.all, 'list', { status, page }] as const,
};

/** Contact-form messages, newest first, one page at a time. */
export const getMessages = async (status: MessageFilter, page: number) =>
  unwrap(
    await api.GET('/api/contact-messages', {
      params: { query: { status, page, limit: CONTACT_PAGE_SIZE } },
    }),
  );

export const messagesQueryOptions = (status: MessageFilter, page: number) =>
  queryOptions({
    queryKey: messageKeys.list(status, page),
    queryFn: () => getMessages(status, page),
    placeholderData: keepPreviousData,
  });

export const useMessages = (status: MessageFilter, page: number) =>
  useQuery(messagesQueryOptions(status, page));

export async function markMessage({ id, read }: { id: string; read: boolean }) {
  return unwrap(
    await api.PATCH('/api/contact-messages/{id}/read', {
      params: { path: { id } },
      body: { read },
    }),
  );
}

export function useMarkMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markMessage,
    meta: { errorMessage: 'Could not update the message. Please try again.' },
    onSettled: () => refreshQueries(queryClient, messageKeys.all),
  });
}

/** How many messages nobody has read yet (the Messages entry's count); refreshed with the list. */
export const useUnreadMessageCount = (enabled: boolean) =>
  useQuery({
    queryKey: [...messageKeys.all, 'unread-count'] as const,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/contact-messages', {
          params: { query: { status: 'unread', page: 1, limit: 1 } },
        }),
      ).unread,
    enabled,
    refetchInterval: 60_000,
  });
