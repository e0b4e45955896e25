import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export const privacyKeys = {
  notice: ['privacy', 'notice'] as const,
};

export const noticeQueryOptions = () =>
  queryOptions({
    queryKey: privacyKeys.notice,
    queryFn: () => unwrap(api.GET('/api/privacy/notice')).then((r) => r.notice),
  });

export const useNotice = () => useQuery(noticeQueryOptions());

export const askAboutMyData = (body: {
  purchaseNumber: string;
  phoneNumber: string;
  kind: 'export' | 'erasure';
}) => unwrap(api.POST('/api/privacy/requests', { body }));

export const confirmRequest = (id: string, code: string) =>
  unwrap(
    api.POST('/api/privacy/requests/{id}/confirm', { params: { path: { id } }, body: { code } }),
  );
