import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

/** Products low or out of stock: the dashboard tile, the staff queue tile and the products filter. */
export const lowStockKeys = { all: ['stock', 'low'] as const };

export async function getLowStock() {
  return unwrap(await api.GET('/api/stock/low'));
}

export const lowStockQueryOptions = () =>
  queryOptions({ queryKey: lowStockKeys.all, queryFn: getLowStock });

export const useLowStock = () => useQuery(lowStockQueryOptions());

export type LowStock = Awaited<ReturnType<typeof getLowStock>>;
