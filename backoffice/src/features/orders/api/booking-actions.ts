import { BACKOFFICE_MESSAGES, type BookingDepositPayload } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@spc/shared-contracts/web-client';
import { api } from '../../../lib/api-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { orderKeys } from './get-orders';

/** After a booking changes: the orders (the open detail too), the bookings queue and the batches. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [orderKeys.all, ['bookings'], ['batches'], ['sales']].map((key) =>
        refreshQueries(queryClient, key),
      ),
    );
}

/** Staff record a deposit paid in cash or seen on M-Pesa: exactly the booking's deposit. */
export function useRecordDeposit(orderId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: BookingDepositPayload) =>
      unwrap(
        await api.POST('/api/orders/{id}/booking/deposit', {
          params: { path: { id: orderId } },
          body,
        }),
      ),
    meta: { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong },
    onSettled: refresh,
  });
}

/** An affected booking moves to another growing batch of the same product, keeping its deposit. */
export function useMoveBooking(orderId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (batchId: string) =>
      unwrap(
        await api.POST('/api/orders/{id}/booking/move', {
          params: { path: { id: orderId } },
          body: { batchId },
        }),
      ),
    meta: { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong },
    onSettled: refresh,
  });
}

/** An affected booking's deposit is refunded and the order cancelled. */
export function useRefundBooking(orderId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/api/orders/{id}/booking/refund', { params: { path: { id: orderId } } }),
      ),
    meta: { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong },
    onSettled: refresh,
  });
}

/**
 * The growing batches of this booking's product that still have room, to move it to (the batches
 * list of the API, asked from here so the order page needs nothing of the batches screens).
 */
export async function getBatchesWithRoom(productId: string, exceptBatchId: string) {
  const answer = unwrap(
    await api.GET('/api/batches', {
      params: { query: { productId, status: 'Growing', page: 1, limit: 100 } },
    }),
  );
  return answer.items.filter((b) => b._id !== exceptBatchId && b.available > 0);
}
