import { PAGE_SIZE, type components, type OrderStatus } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '../../../lib/api-error';

export type Order = components['schemas']['OrderDto'];

export interface OrdersFilter {
  page: number;
  status?: OrderStatus;
  search?: string;
}

export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  list: (filter: OrdersFilter) => [...orderKeys.lists(), filter] as const,
};

export async function getOrders({ page, status, search }: OrdersFilter) {
  return unwrap(
    await api.GET('/api/orders', {
      params: {
        query: {
          page,
          limit: PAGE_SIZE.orders,
          ...(status ? { status } : {}),
          ...(search ? { search } : {}),
        },
      },
    }),
  );
}

export const ordersQueryOptions = (filter: OrdersFilter) =>
  queryOptions({
    queryKey: orderKeys.list(filter),
    queryFn: () => getOrders(filter),
    placeholderData: keepPreviousData,
  });

export const useOrders = (filter: OrdersFilter) => useQuery(ordersQueryOptions(filter));
