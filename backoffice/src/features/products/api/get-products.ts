import { PAGE_SIZE, type components } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export type Product = components['schemas']['ProductDto'];

export interface ProductsFilter {
  page: number;
  search?: string;
  category?: string;
}

export const productKeys = {
  all: ['products'] as const,
  lists: () => [...productKeys.all, 'list'] as const,
  list: (filter: ProductsFilter) => [...productKeys.lists(), filter] as const,
  /** A product's tax (staff only); under `all`, so a save refreshes it too. */
  tax: (id: string) => [...productKeys.all, 'tax', id] as const,
};

export async function getProducts({ page, search, category }: ProductsFilter) {
  return unwrap(
    await api.GET('/api/products', {
      params: {
        query: {
          page,
          limit: PAGE_SIZE.products,
          ...(search ? { search } : {}),
          ...(category ? { category } : {}),
        },
      },
    }),
  );
}

export const productsQueryOptions = (filter: ProductsFilter) =>
  queryOptions({
    queryKey: productKeys.list(filter),
    queryFn: () => getProducts(filter),
    placeholderData: keepPreviousData,
  });

export const useProducts = (filter: ProductsFilter) => useQuery(productsQueryOptions(filter));

type ProductList = Awaited<ReturnType<typeof getProducts>>;

/**
 * Puts the server's answer for one product into every cached list at once, so the row shows what the
 * server said even before the lists are fetched again.
 */
export function patchProductInLists(queryClient: QueryClient, product: Product | undefined) {
  if (!product?._id) return;
  queryClient.setQueriesData<ProductList>({ queryKey: productKeys.lists() }, (old) =>
    old
      ? { ...old, products: old.products.map((p) => (p._id === product._id ? product : p)) }
      : old,
  );
}
