import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export const featuredKeys = { list: ['products', 'featured'] as const };

export const getFeaturedProducts = () =>
  unwrap(api.GET('/api/products', { params: { query: { page: 1, limit: 8 } } }));

export const featuredProductsQueryOptions = () =>
  queryOptions({ queryKey: featuredKeys.list, queryFn: getFeaturedProducts });

export const useFeaturedProducts = () => useQuery(featuredProductsQueryOptions());
