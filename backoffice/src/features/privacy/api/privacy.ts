import type { components } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download';
import { refreshQueries } from '../../../lib/refresh-queries';

export type DataRequest = components['schemas']['DataRequestDto'];
export type PrivacySettings = components['schemas']['PrivacySettingsDto'];
export type PrivacySettingsChanges = components['schemas']['UpdatePrivacySettingsDto'];

export const privacyKeys = {
  all: ['privacy'] as const,
  requests: ['privacy', 'requests'] as const,
  settings: ['privacy', 'settings'] as const,
};

export const useDataRequests = () =>
  useQuery({
    queryKey: privacyKeys.requests,
    queryFn: async () => unwrap(await api.GET('/api/admin/data-requests')).requests,
  });

export const usePrivacySettings = () =>
  useQuery({
    queryKey: privacyKeys.settings,
    queryFn: async () => unwrap(await api.GET('/api/admin/privacy/settings')).settings,
  });

export function useSavePrivacySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: PrivacySettingsChanges) =>
      unwrap(await api.PUT('/api/admin/privacy/settings', { body })),
    meta: { errorMessage: 'Could not save the privacy settings' },
    onSuccess: () => refreshQueries(queryClient, privacyKeys.settings),
  });
}

/** Answers a request with the guest's data: the file is downloaded, to send to the guest. */
export function useAnswerWithExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const result = await api.POST('/api/admin/data-requests/{id}/export', {
        params: { path: { id } },
        parseAs: 'blob',
      });
      const data = unwrap(result);
      const header = result.response.headers.get('content-disposition') ?? '';
      const fileName = /filename="([^"]+)"/.exec(header)?.[1] ?? 'guest-data.json';
      saveBlob(data as unknown as Blob, fileName);
      return fileName;
    },
    meta: { errorMessage: 'Could not answer the request', successToast: false },
    onSuccess: () => refreshQueries(queryClient, privacyKeys.requests),
  });
}

export function useAnswerWithErasure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.POST('/api/admin/data-requests/{id}/erase', { params: { path: { id } } })),
    meta: { errorMessage: 'Could not erase the data' },
    onSuccess: () => refreshQueries(queryClient, privacyKeys.requests),
  });
}
