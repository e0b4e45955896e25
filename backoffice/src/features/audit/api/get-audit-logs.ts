import { PAGE_SIZE, TOTAL_IS_LOWER_BOUND_HEADER, type components } from '@spc/shared-contracts';
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

/**
 * A plain array, newest first; the total comes in the X-Total-Count header, counted up to a bound:
 * past it X-Total-Is-Lower-Bound says "true" (the pagination then offers the pages after the last
 * counted; asking for one counts further).
 */
export async function getAuditLogs(filters: AuditFilters, page: number) {
  const result = await api.GET('/api/audit-logs', {
    params: { query: { ...auditApiQuery(filters), page, limit: PAGE_SIZE.auditLogs } },
  });
  const logs = unwrap(result);
  const headers = result.response.headers;
  const total = Number(headers.get('X-Total-Count') ?? logs.length);
  const totalIsLowerBound = headers.get(TOTAL_IS_LOWER_BOUND_HEADER) === 'true';
  return {
    logs,
    total,
    totalIsLowerBound,
    totalPages: Math.ceil(total / PAGE_SIZE.auditLogs),
  };
}

export const auditLogsQueryOptions = (filters: AuditFilters, page: number) =>
  queryOptions({
    queryKey: auditKeys.list(filters, page),
    queryFn: () => getAuditLogs(filters, page),
    placeholderData: keepPreviousData,
  });

export const useAuditLogs = (filters: AuditFilters, page: number) =>
  useQuery(auditLogsQueryOptions(filters, page));
