import {
  PAGE_SIZE,
  type components,
  type OrderQueue,
  type OrderSortField,
  type OrderStatus,
  type PaymentStatus,
  type SortOrder,
} from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export type Order = components['schemas']['OrderDto'];

/** What an orders list asks for: the page and the filters, named as the API's query names them. */
export interface OrdersFilter {
  page: number;
  status?: OrderStatus;
  search?: string;
  paymentStatus?: PaymentStatus;
  queue?: OrderQueue;
  from?: string;
  to?: string;
  sortBy?: OrderSortField;
  sortOrder?: SortOrder;
}

/** The filter as the API's query, without the paging and without empty values. */
export function ordersQuery({ page: _page, ...filter }: OrdersFilter) {
  return Object.fromEntries(
    Object.entries(filter).filter(([, v]) => v !== undefined && v !== ''),
  ) as Omit<OrdersFilter, 'page'>;
}

export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  list: (filter: OrdersFilter) => [...orderKeys.lists(), filter] as const,
};

export async function getOrders(filter: OrdersFilter) {
  return unwrap(
    await api.GET('/api/orders', {
      params: { query: { page: filter.page, limit: PAGE_SIZE.orders, ...ordersQuery(filter) } },
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
