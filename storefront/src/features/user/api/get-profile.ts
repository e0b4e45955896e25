import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export const userKeys = {
  profile: ['users', 'profile'] as const,
  orders: (page: number) => ['orders', 'mine', page] as const,
  allOrders: ['orders', 'mine'] as const,
};

export const getProfile = () => unwrap(api.GET('/api/users/profile'));

export const profileQueryOptions = () =>
  queryOptions({ queryKey: userKeys.profile, queryFn: getProfile });

export const useProfile = () => useQuery(profileQueryOptions());
