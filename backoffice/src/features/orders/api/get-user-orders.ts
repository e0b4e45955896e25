import { PAGE_SIZE } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '../../../lib/api-error';
import { orderKeys } from './get-orders';

export const userOrderKeys = {
  list: (userId: string, page: number) => [...orderKeys.all, 'user', userId, { page }] as const,
};

/** One customer's orders, paged (`GET /api/orders/user/:id`). */
export async function getUserOrders(userId: string, page: number) {
  return unwrap(
    await api.GET('/api/orders/user/{id}', {
      params: { path: { id: userId }, query: { page, limit: PAGE_SIZE.orders } },
    }),
  );
}

export const userOrdersQueryOptions = (userId: string, page: number) =>
  queryOptions({
    queryKey: userOrderKeys.list(userId, page),
    queryFn: () => getUserOrders(userId, page),
    placeholderData: keepPreviousData,
  });

export const useUserOrders = (userId: string, page: number) =>
  useQuery(userOrdersQueryOptions(userId, page));
