import type { components } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { userKeys } from './get-profile';

/** The detail's data (the answer without its envelope). */
export type MyOrderDetail = Omit<
  components['schemas']['OrderDetailResponseDto'],
  'success' | 'message'
>;

/** Under the customer's orders key, so cancelling refreshes it. */
export const myOrderKey = (id: string) => [...userKeys.allOrders, 'detail', id] as const;

export const getMyOrder = (id: string) =>
  unwrap(api.GET('/api/orders/{id}/detail', { params: { path: { id } } }));

export const myOrderQueryOptions = (id: string) =>
  queryOptions({ queryKey: myOrderKey(id), queryFn: () => getMyOrder(id) });

export const useMyOrder = (id: string) => useQuery(myOrderQueryOptions(id));
