import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export const deliveryKeys = {
  all: () => ['delivery'] as const,
  options: (county: string, subCounty: string) =>
    [...deliveryKeys.all(), 'options', county, subCounty] as const,
};

export const getDeliveryOptions = (county: string, subCounty: string) =>
  unwrap(
    api.GET('/api/delivery/options', {
      params: { query: subCounty ? { county, subCounty } : { county } },
    }),
  );

/** Delivery (the zone's fee and date) and collection for a place; skipped until a county is chosen. */
export const deliveryOptionsQueryOptions = (county: string, subCounty: string) =>
  queryOptions({
    queryKey: deliveryKeys.options(county, subCounty),
    queryFn: () => getDeliveryOptions(county, subCounty),
    enabled: county !== '',
    retry: false,
    placeholderData: keepPreviousData,
  });

export const useDeliveryOptions = (county: string, subCounty: string) =>
  useQuery(deliveryOptionsQueryOptions(county, subCounty));
