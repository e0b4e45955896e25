import { PAGE_SIZE, type components } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { auditApiQuery, type AuditFilters } from './audit-query';

export type AuditLog = components['schemas']['AuditLogDto'];

export const auditKeys = {
  all: ['audit-logs'] as const,
  list: (filters: AuditFilters, page: number) =>
    [...auditKeys.all, 'list', { ...filters, page }] as const,
  filters: () => [...auditKeys.all, 'filters'] as const,
};

/** A plain array, newest first; the total comes in the X-Total-Count header. */
export async function getAuditLogs(filters: AuditFilters, page: number) {
  const result = await api.GET('/api/audit-logs', {
    params: { query: { ...auditApiQuery(filters), page, limit: PAGE_SIZE.auditLogs } },
  });
  const logs = unwrap(result);
  const total = Number(result.response.headers.get('X-Total-Count') ?? logs.length);
  return { logs, total, totalPages: Math.ceil(total / PAGE_SIZE.auditLogs) };
}

export const auditLogsQueryOptions = (filters: AuditFilters, page: number) =>
  queryOptions({
    queryKey: auditKeys.list(filters, page),
    queryFn: () => getAuditLogs(filters, page),
    placeholderData: keepPreviousData,
  });

export const useAuditLogs = (filters: AuditFilters, page: number) =>
  useQuery(auditLogsQueryOptions(filters, page));
