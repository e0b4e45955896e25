import type { components, OrderDeliveryChoice } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { orderKeys, type Order } from './get-orders';

/** The detail's data (the answer without its envelope). */
export type OrderDetail = Omit<
  components['schemas']['OrderDetailResponseDto'],
  'success' | 'message'
>;

/** Under the orders' key, so every order action refreshes the open detail too. */
export const orderDetailKey = (id: string) => [...orderKeys.all, 'detail', id] as const;

export async function getOrderDetail(id: string): Promise<OrderDetail> {
  return unwrap(await api.GET('/api/orders/{id}/detail', { params: { path: { id } } }));
}

export const orderDetailQueryOptions = (id: string) =>
  queryOptions({ queryKey: orderDetailKey(id), queryFn: () => getOrderDetail(id) });

export const useOrderDetail = (id: string) => useQuery(orderDetailQueryOptions(id));

/** The order's delivery choice, when checkout recorded one (older orders have none). */
export function deliveryOf(order: Order): OrderDeliveryChoice | null {
  return (order as { delivery?: OrderDeliveryChoice | null }).delivery ?? null;
}
