import { PAGE_SIZE, type components } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '../../../lib/api-error';

export type AuditLog = components['schemas']['AuditLogDto'];

export const auditKeys = {
  all: ['audit-logs'] as const,
  list: (page: number) => [...auditKeys.all, 'list', { page }] as const,
};

/** A plain array, newest first; the total comes in the X-Total-Count header. */
export async function getAuditLogs(page: number) {
  const result = await api.GET('/api/audit-logs', {
    params: { query: { page, limit: PAGE_SIZE.auditLogs } },
  });
  const logs = unwrap(result);
  const total = Number(result.response.headers.get('X-Total-Count') ?? logs.length);
  return { logs, total, totalPages: Math.ceil(total / PAGE_SIZE.auditLogs) };
}

export const auditLogsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: auditKeys.list(page),
    queryFn: () => getAuditLogs(page),
    placeholderData: keepPreviousData,
  });

export const useAuditLogs = (page: number) => useQuery(auditLogsQueryOptions(page));
