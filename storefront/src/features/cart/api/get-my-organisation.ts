import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

/**
 * Whether the signed-in customer buys for an approved organisation: the cart then offers "Request a
 * quote". The organisation's area asks the same route under the same key, so one answer serves both
 * (a module shared by the two would be a chunk of its own, and its name a few bytes more of the
 * first load, which is at its budget).
 */
const myOrganisationQueryOptions = () =>
  queryOptions({
    queryKey: ['organisations', 'mine'] as const,
    queryFn: () => unwrap(api.GET('/api/organisations/mine')),
  });

export const useBuysForApprovedOrganisation = (customer: boolean) => {
  const mine = useQuery({ ...myOrganisationQueryOptions(), enabled: customer });
  return customer && mine.data?.organisation?.status === 'approved';
};
