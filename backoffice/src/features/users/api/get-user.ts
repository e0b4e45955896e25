import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { userKeys } from './get-users';

export async function getUser(id: string) {
  return unwrap(await api.GET('/api/user/{id}', { params: { path: { id } } })).user;
}

export const userQueryOptions = (id: string) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: () => getUser(id) });

export const useUser = (id: string) => useQuery(userQueryOptions(id));
