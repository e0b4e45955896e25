import { ApiError, unwrap } from '@spc/shared-contracts/web-client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { searchCatalogue } from '../offline/offline-sync';
import { tillKeys } from './till-keys';

/** How many products the till shows for a search. */
export const TILL_PRODUCTS_SHOWN = 12;

/** `GET /api/products`: the catalogue's products by name, with their sale units and tiers. */
export async function getTillProducts(search: string) {
  const answer = unwrap(
    await api.GET('/api/products', {
      params: { query: { page: 1, limit: TILL_PRODUCTS_SHOWN, ...(search ? { search } : {}) } },
    }),
  );
  return answer.products;
}

export type TillProduct = Awaited<ReturnType<typeof getTillProducts>>[number];

/** The catalogue kept on the device answers while offline, or when the network fails. */
export const useTillProducts = (search: string, online: boolean) =>
  useQuery({
    queryKey: [...tillKeys.products(search), { online }],
    queryFn: async () => {
      if (!online) return searchCatalogue(search, TILL_PRODUCTS_SHOWN);
      try {
        return await getTillProducts(search);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        return searchCatalogue(search, TILL_PRODUCTS_SHOWN);
      }
    },
    placeholderData: keepPreviousData,
    // Offline, the kept catalogue answers: the query runs rather than waits for the network.
    networkMode: 'always',
  });
