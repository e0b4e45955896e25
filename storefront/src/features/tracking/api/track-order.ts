import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export const trackKeys = { order: (purchaseNumber: string) => ['track', purchaseNumber] as const };

export const trackOrder = (purchaseNumber: string) =>
  unwrap(api.GET('/api/orders/track/new-order', { params: { query: { purchaseNumber } } }));

/** The lookup is skipped while the number is empty. */
export const trackOrderQueryOptions = (purchaseNumber: string) =>
  queryOptions({
    queryKey: trackKeys.order(purchaseNumber),
    queryFn: () => trackOrder(purchaseNumber),
    enabled: purchaseNumber !== '',
    retry: false,
  });

export const useTrackOrder = (purchaseNumber: string) =>
  useQuery(trackOrderQueryOptions(purchaseNumber));
