import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { staffKeys } from './get-staff';

export async function getStaffMember(id: string) {
  return unwrap(await api.GET('/api/staff/{id}', { params: { path: { id } } })).staff;
}

export const staffMemberQueryOptions = (id: string) =>
  queryOptions({ queryKey: staffKeys.detail(id), queryFn: () => getStaffMember(id) });

export const useStaffMember = (id: string) => useQuery(staffMemberQueryOptions(id));
