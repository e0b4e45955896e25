import { PAGE_SIZE, type components } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export type StaffMember = components['schemas']['UserDto'];

export interface StaffFilter {
  page: number;
  search?: string;
  inactive?: boolean;
}

export const staffKeys = {
  all: ['staff'] as const,
  lists: () => [...staffKeys.all, 'list'] as const,
  list: (filter: StaffFilter) => [...staffKeys.lists(), filter] as const,
  details: () => [...staffKeys.all, 'detail'] as const,
  detail: (id: string) => [...staffKeys.details(), id] as const,
};

/** Active staff (`/staff`) or deactivated staff (`/staff/inactive`). */
export async function getStaff({ page, search, inactive }: StaffFilter) {
  const query = { page, limit: PAGE_SIZE.staff, ...(search ? { search } : {}) };
  return inactive
    ? unwrap(await api.GET('/api/staff/inactive', { params: { query } }))
    : unwrap(await api.GET('/api/staff', { params: { query } }));
}

export const staffQueryOptions = (filter: StaffFilter) =>
  queryOptions({
    queryKey: staffKeys.list(filter),
    queryFn: () => getStaff(filter),
    placeholderData: keepPreviousData,
  });

export const useStaff = (filter: StaffFilter) => useQuery(staffQueryOptions(filter));
