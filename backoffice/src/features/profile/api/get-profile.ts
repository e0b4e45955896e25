import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export const profileKeys = {
  all: ['profile'] as const,
  me: () => [...profileKeys.all, 'me'] as const,
};

export async function getProfile() {
  return unwrap(await api.GET('/api/users/profile')).user;
}

export const profileQueryOptions = () =>
  queryOptions({ queryKey: profileKeys.me(), queryFn: getProfile });

export const useProfile = () => useQuery(profileQueryOptions());
