import { unwrap } from '@spc/shared-contracts/web-client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
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

export const useTillProducts = (search: string) =>
  useQuery({
    queryKey: tillKeys.products(search),
    queryFn: () => getTillProducts(search),
    placeholderData: keepPreviousData,
  });
