import { MAX_PAGE_SIZE, type components } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '../../../lib/api-error';

export type Category = components['schemas']['CategoryDto'];

export const categoryKeys = {
  all: ['categories'] as const,
  lists: () => [...categoryKeys.all, 'list'] as const,
};

/** The shop has a handful of categories; one page of the maximum size holds them all. */
export async function getCategories() {
  return unwrap(await api.GET('/api/categories', { params: { query: { limit: MAX_PAGE_SIZE } } }));
}

export const categoriesQueryOptions = () =>
  queryOptions({ queryKey: categoryKeys.lists(), queryFn: getCategories });

export const useCategories = () => useQuery(categoriesQueryOptions());
