import { AVAILABILITY_FILTERS, PAGE_SIZE, type AvailabilityFilter } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export interface ProductFilters {
  page?: number;
  limit?: number;
  search?: string;
  category?: string;
  maxPrice?: number;
  sortBy?: 'price' | 'createdAt';
  /** Ready stock now, or a bookable batch ready for the coming long or short rains. */
  availability?: Availability;
}

export type Availability = AvailabilityFilter;

const availabilityOf = (v: string | null): Availability | undefined =>
  AVAILABILITY_FILTERS.find((a) => a === v);

const positiveInt = (v: string | null) => {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : undefined;
};

/** The shop's filters as /shop/products carries them in its query string. */
export function productFiltersFrom(
  params: URLSearchParams,
): Required<Pick<ProductFilters, 'page' | 'search' | 'category'>> &
  Pick<ProductFilters, 'maxPrice' | 'availability'> {
  return {
    page: positiveInt(params.get('page')) ?? 1,
    search: params.get('search')?.trim() || params.get('name')?.trim() || '',
    category: params.get('category') ?? '',
    maxPrice: positiveInt(params.get('maxPrice')),
    availability: availabilityOf(params.get('availability')),
  };
}

export const productKeys = {
  all: ['products'] as const,
  list: (filters: ProductFilters) => [...productKeys.all, 'list', filters] as const,
  detail: (id: string) => [...productKeys.all, 'detail', id] as const,
};

export function getProducts(filters: ProductFilters) {
  return unwrap(
    api.GET('/api/products', {
      params: {
        query: {
          page: filters.page ?? 1,
          limit: filters.limit ?? PAGE_SIZE.products,
          search: filters.search || undefined,
          category: filters.category || undefined,
          maxPrice: filters.maxPrice,
          sortBy: filters.sortBy ?? 'price',
          sortOrder: 'asc',
          availability: filters.availability,
        },
      },
    }),
  );
}

export const productsQueryOptions = (filters: ProductFilters) =>
  queryOptions({
    queryKey: productKeys.list(filters),
    queryFn: () => getProducts(filters),
    placeholderData: keepPreviousData,
  });

export const useProducts = (filters: ProductFilters) => useQuery(productsQueryOptions(filters));
