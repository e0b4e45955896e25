import { PAGE_SIZE } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { orderKeys, ordersQuery, type OrdersFilter } from './get-orders';

export const userOrderKeys = {
  list: (userId: string, filter: OrdersFilter) =>
    [...orderKeys.all, 'user', userId, filter] as const,
};

/** One customer's orders, paged and filtered like every orders list (`GET /api/orders/user/:id`). */
export async function getUserOrders(userId: string, filter: OrdersFilter) {
  return unwrap(
    await api.GET('/api/orders/user/{id}', {
      params: {
        path: { id: userId },
        query: { page: filter.page, limit: PAGE_SIZE.orders, ...ordersQuery(filter) },
      },
    }),
  );
}

export const userOrdersQueryOptions = (userId: string, filter: OrdersFilter) =>
  queryOptions({
    queryKey: userOrderKeys.list(userId, filter),
    queryFn: () => getUserOrders(userId, filter),
    placeholderData: keepPreviousData,
  });

export const useUserOrders = (userId: string, filter: OrdersFilter) =>
  useQuery(userOrdersQueryOptions(userId, filter));
