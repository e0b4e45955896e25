import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { productKeys } from './get-products';

export const getProduct = (id: string) =>
  unwrap(api.GET('/api/products/{id}', { params: { path: { id } } }));

export const productQueryOptions = (id: string) =>
  queryOptions({ queryKey: productKeys.detail(id), queryFn: () => getProduct(id) });

export const useProduct = (id: string) => useQuery(productQueryOptions(id));
