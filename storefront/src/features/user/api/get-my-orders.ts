import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE } from '@spc/shared-contracts';
import { api, unwrap } from '../../../lib/api-client';
import { userKeys } from './get-profile';

export const getMyOrders = (page: number) =>
  unwrap(api.GET('/api/orders/user', { params: { query: { page, limit: PAGE_SIZE.orders } } }));

export const myOrdersQueryOptions = (page: number) =>
  queryOptions({
    queryKey: userKeys.orders(page),
    queryFn: () => getMyOrders(page),
    placeholderData: keepPreviousData,
  });

export const useMyOrders = (page: number) => useQuery(myOrdersQueryOptions(page));
