import type { components } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export type Category = components['schemas']['CategoryDto'];

/** Cards per page of the category grid: whole rows of 2 and of 3 columns. */
export const CATEGORIES_PAGE_SIZE = 12;

export interface CategoriesFilter {
  page: number;
  search?: string;
}

export const categoryKeys = {
  all: ['categories'] as const,
  lists: () => [...categoryKeys.all, 'list'] as const,
  list: (filter: CategoriesFilter) => [...categoryKeys.lists(), filter] as const,
};

/** One page of categories by name, narrowed by a search of name or description. */
export async function getCategories({ page, search }: CategoriesFilter) {
  return unwrap(
    await api.GET('/api/categories', {
      params: {
        query: { page, limit: CATEGORIES_PAGE_SIZE, ...(search ? { search } : {}) },
      },
    }),
  );
}

export const categoriesQueryOptions = (filter: CategoriesFilter) =>
  queryOptions({
    queryKey: categoryKeys.list(filter),
    queryFn: () => getCategories(filter),
    placeholderData: keepPreviousData,
  });

export const useCategories = (filter: CategoriesFilter) => useQuery(categoriesQueryOptions(filter));
