import {
  BACKOFFICE_MESSAGES,
  type BatchStatus,
  MAX_PAGE_SIZE,
  type BatchLossPayload,
  type NewBatchPayload,
} from '@spc/shared-contracts';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { unwrap } from '@spc/shared-contracts/web-client';
import { api } from '../../../lib/api-client';
import { refreshQueries } from '../../../lib/refresh-queries';

export interface BatchesFilter {
  page: number;
  productId?: string;
  status?: BatchStatus;
  /** Ready on or after / on or before these days (YYYY-MM-DD). */
  readyFrom?: string;
  readyTo?: string;
}

export const batchKeys = {
  all: ['batches'] as const,
  lists: () => [...batchKeys.all, 'list'] as const,
  list: (filter: BatchesFilter) => [...batchKeys.lists(), filter] as const,
  detail: (id: string) => [...batchKeys.all, 'detail', id] as const,
};

export const BATCHES_PAGE_SIZE = 20;

export async function getBatches({ page, productId, status, readyFrom, readyTo }: BatchesFilter) {
  return unwrap(
    await api.GET('/api/batches', {
      params: {
        query: {
          page,
          limit: BATCHES_PAGE_SIZE,
          ...(productId ? { productId } : {}),
          ...(status ? { status } : {}),
          ...(readyFrom ? { readyFrom } : {}),
          ...(readyTo ? { readyTo } : {}),
        },
      },
    }),
  );
}

export const batchesQueryOptions = (filter: BatchesFilter) =>
  queryOptions({
    queryKey: batchKeys.list(filter),
    queryFn: () => getBatches(filter),
    placeholderData: keepPreviousData,
  });

/** Batches by ready date, with booked against available. */
export const useBatches = (filter: BatchesFilter) => useQuery(batchesQueryOptions(filter));

export type BatchesPage = Awaited<ReturnType<typeof getBatches>>;
export type BatchRow = BatchesPage['items'][number];

export async function getBatch(id: string) {
  return unwrap(await api.GET('/api/batches/{id}', { params: { path: { id } } }));
}

export const batchQueryOptions = (id: string) =>
  queryOptions({ queryKey: batchKeys.detail(id), queryFn: () => getBatch(id) });

/** One batch with its bookings in booking order. */
export const useBatch = (id: string) => useQuery(batchQueryOptions(id));

export type BatchDetail = Awaited<ReturnType<typeof getBatch>>['batch'];
export type BatchBooking = BatchDetail['bookings'][number];

/** After a batch changes: the batches, the product's stock and lists, bookings and orders. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [batchKeys.all, ['products'], ['stock'], ['bookings'], ['orders'], ['sales']].map((key) =>
        refreshQueries(queryClient, key),
      ),
    );
}

export function useCreateBatch() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: NewBatchPayload) =>
      unwrap(await api.POST('/api/batches', { body: { ...body, note: body.note || undefined } })),
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSuccess: refresh,
  });
}

export function useRecordBatchLoss(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: BatchLossPayload) =>
      unwrap(
        await api.POST('/api/batches/{id}/losses', {
          params: { path: { id } },
          body: { quantity: body.quantity, reason: body.reason, note: body.note ?? '' },
        }),
      ),
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSuccess: refresh,
  });
}

export function useMarkBatchReady(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/api/batches/{id}/ready', { params: { path: { id } } })),
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSettled: refresh,
  });
}

export function useMarkBatchFailed(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (note: string) =>
      unwrap(
        await api.POST('/api/batches/{id}/fail', { params: { path: { id } }, body: { note } }),
      ),
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSettled: refresh,
  });
}

/** Products to choose from in the batch forms and filters (names only, the first page of 100). */
export async function getProductChoices() {
  const answer = unwrap(
    await api.GET('/api/products', { params: { query: { page: 1, limit: MAX_PAGE_SIZE } } }),
  );
  return answer.products.map((p) => ({ value: p._id, label: p.productName }));
}

export const useProductChoices = () =>
  useQuery({ queryKey: ['products', 'choices'], queryFn: getProductChoices });
