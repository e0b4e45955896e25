import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/pdf';

/** The customer's own data (issue 31): consent to offers by SMS, the download, the deletion. */
export const myDataKeys = {
  consent: ['users', 'profile', 'consents'] as const,
};

export const useConsent = () =>
  useQuery({
    queryKey: myDataKeys.consent,
    queryFn: () => unwrap(api.GET('/api/users/profile/consents')).then((r) => r.marketingSms),
  });

export function useSetConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (marketingSms: boolean) =>
      unwrap(api.PATCH('/api/users/profile/consents', { body: { marketingSms } })),
    onSuccess: (res) => queryClient.setQueryData(myDataKeys.consent, res.marketingSms),
  });
}

function fileName(response: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '');
  return match?.[1] ?? fallback;
}

export function useDownloadMyData() {
  return useMutation({
    mutationFn: async () => {
      const { data, error, response } = await api.GET('/api/users/profile/data-export', {
        parseAs: 'blob',
      });
      if (error || !data)
        throw new ApiError(
          (error as { message?: string } | undefined)?.message ?? 'Could not download your data',
          response.status,
        );
      saveBlob(data as Blob, fileName(response, 'my-data.json'));
    },
  });
}

export const deleteAccount = (password: string) =>
  unwrap(api.POST('/api/users/profile/delete', { body: { password } }));
