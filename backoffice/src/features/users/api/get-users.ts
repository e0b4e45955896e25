import { PAGE_SIZE, type components } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export type User = components['schemas']['UserDto'];

export interface UsersFilter {
  page: number;
  search?: string;
}

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (filter: UsersFilter) => [...userKeys.lists(), filter] as const,
  details: () => [...userKeys.all, 'detail'] as const,
  detail: (id: string) => [...userKeys.details(), id] as const,
};

export async function getUsers({ page, search }: UsersFilter) {
  return unwrap(
    await api.GET('/api/users', {
      params: { query: { page, limit: PAGE_SIZE.users, ...(search ? { search } : {}) } },
    }),
  );
}

export const usersQueryOptions = (filter: UsersFilter) =>
  queryOptions({
    queryKey: userKeys.list(filter),
    queryFn: () => getUsers(filter),
    placeholderData: keepPreviousData,
  });

export const useUsers = (filter: UsersFilter) => useQuery(usersQueryOptions(filter));
