import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { orderKeys } from './get-orders';

export const orderQueueKey = [...orderKeys.all, 'queue'] as const;

export async function getOrderQueue() {
  return unwrap(await api.GET('/api/orders/queue'));
}

export const orderQueueQueryOptions = () =>
  queryOptions({ queryKey: orderQueueKey, queryFn: getOrderQueue });

/** How many orders wait in each bucket of the work queue. */
export const useOrderQueue = () => useQuery(orderQueueQueryOptions());
