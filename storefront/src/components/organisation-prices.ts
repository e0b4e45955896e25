import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PriceList } from '@spc/shared-contracts';
import { api, unwrap } from '../lib/api-client';
import { useSessionStore } from '../stores/session-store';

/**
 * The organisation the signed-in customer buys for (`GET /api/organisations/mine`), under the key
 * the organisation's area asks it by, so one answer serves the cart, the checkout and the area.
 */
export const myOrganisationQueryOptions = () =>
  queryOptions({
    queryKey: ['organisations', 'mine'] as const,
    queryFn: () => unwrap(api.GET('/api/organisations/mine')),
  });

/** The approved organisation the signed-in customer buys for, or null. */
function useApprovedOrganisation() {
  const customer = useSessionStore(
    (s) => Boolean(s.token || s.refreshToken) && s.user?.role === 'customer',
  );
  const mine = useQuery({ ...myOrganisationQueryOptions(), enabled: customer });
  const organisation = customer ? mine.data?.organisation : null;
  return organisation?.status === 'approved' ? organisation : null;
}

/** Whether the cart offers "Request a quote": a signed-in person of an approved organisation. */
export const useBuysForApprovedOrganisation = () => useApprovedOrganisation() !== null;

/**
 * The price list the signed-in customer's cart is charged at (their approved organisation's, as
 * the API prices their orders), or null: everyone else pays the shop's prices.
 */
export function useCartPriceList(): PriceList | null {
  return useApprovedOrganisation()?.priceList ?? null;
}
