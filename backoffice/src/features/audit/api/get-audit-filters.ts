import type { components } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { auditKeys } from './get-audit-logs';

export type AuditPerson = components['schemas']['AuditPersonDto'];

/** The admins and staff, and the action codes, the trail holds: what its filters offer. */
export async function getAuditFilters() {
  const { people, actions } = unwrap(await api.GET('/api/audit-logs/filters'));
  return { people, actions };
}

export const auditFiltersQueryOptions = () =>
  queryOptions({ queryKey: auditKeys.filters(), queryFn: getAuditFilters });

export const useAuditFilters = () => useQuery(auditFiltersQueryOptions());
