import { BACKOFFICE_MESSAGES, type LossReason, type StockReason } from '@spc/shared-contracts';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { lowStockKeys } from '../../../lib/low-stock';
import { refreshQueries } from '../../../lib/refresh-queries';

export interface MovementsFilter {
  page: number;
  reason?: StockReason | 'loss';
}

export const stockKeys = {
  all: ['stock'] as const,
  movements: (id: string) => [...stockKeys.all, 'movements', id] as const,
  page: (id: string, filter: MovementsFilter) => [...stockKeys.movements(id), filter] as const,
};

export async function getMovements(id: string, { page, reason }: MovementsFilter) {
  return unwrap(
    await api.GET('/api/stock/products/{id}/movements', {
      params: {
        path: { id },
        query: { page, ...(reason ? { reason: reason as never } : {}) },
      },
    }),
  );
}

export const movementsQueryOptions = (id: string, filter: MovementsFilter) =>
  queryOptions({
    queryKey: stockKeys.page(id, filter),
    queryFn: () => getMovements(id, filter),
    placeholderData: keepPreviousData,
  });

export const useMovements = (id: string, filter: MovementsFilter) =>
  useQuery(movementsQueryOptions(id, filter));

export type MovementsPage = Awaited<ReturnType<typeof getMovements>>;
export type Movement = MovementsPage['movements'][number];

/** After a change: the product's ledger, the low-stock tiles and the product lists. */
function useRefresh(id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      refreshQueries(queryClient, stockKeys.movements(id)),
      refreshQueries(queryClient, lowStockKeys.all),
      refreshQueries(queryClient, ['products']),
    ]);
}

export function useRecordLoss(id: string) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: async (body: { quantity: number; reason: LossReason; note?: string }) =>
      unwrap(await api.POST('/api/stock/products/{id}/losses', { params: { path: { id } }, body })),
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSuccess: refresh,
  });
}

export function useRecordCount(id: string) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: async (body: { countedQuantity: number; note?: string }) =>
      unwrap(await api.POST('/api/stock/products/{id}/counts', { params: { path: { id } }, body })),
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSuccess: refresh,
  });
}

export function useSetThreshold(id: string) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: async (lowStockThreshold: number | null) =>
      unwrap(
        await api.PATCH('/api/stock/products/{id}/threshold', {
          params: { path: { id } },
          body: { lowStockThreshold },
        }),
      ),
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSuccess: refresh,
  });
}
