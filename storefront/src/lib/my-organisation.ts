import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from './api-client';

/**
 * The organisation the signed-in customer buys for and their role (nulls: none): the organisation's
 * area reads it, and the cart asks it to offer "Request a quote".
 */
export const myOrganisationQueryOptions = () =>
  queryOptions({
    queryKey: ['organisations', 'mine'] as const,
    queryFn: () => unwrap(api.GET('/api/organisations/mine')),
  });
