import type { TillPaymentInput, TillSaleView } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, looseApi } from '../../../lib/api-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { tillKeys } from './till-keys';

/** The most bookings the gate lists at once. */
const BOOKINGS_SHOWN = 100;

/** `GET /api/bookings/queue?tab=balances`: bookings whose batch is ready and balance is due. */
export async function getBookingsToCollect() {
  const answer = unwrap(
    await api.GET('/api/bookings/queue', {
      params: { query: { tab: 'balances', page: 1, limit: BOOKINGS_SHOWN } },
    }),
  );
  return answer.orders;
}

export type BookingToCollect = Awaited<ReturnType<typeof getBookingsToCollect>>[number];

export const useBookingsToCollect = () =>
  useQuery({ queryKey: tillKeys.bookings(), queryFn: getBookingsToCollect });

/** What is left to pay of a booking: its total less what was paid (the deposit). */
export const balanceOf = (order: BookingToCollect) => order.totalAmount - order.amountPaid;

/**
 * `POST /api/till/bookings/:orderId/collect`: the balance taken in the clerk's session and the
 * seedlings handed over, in one call; answers the gate sale (its receipt).
 */
export function useCollectBooking() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      orderId,
      sessionId,
      payments,
    }: {
      orderId: string;
      sessionId: string;
      payments: TillPaymentInput[];
    }) =>
      unwrap(
        looseApi.POST<{ message: string; sale: TillSaleView }>(
          `/api/till/bookings/${orderId}/collect`,
          { body: { sessionId, payments } },
        ),
      ),
    meta: { successToast: false },
    onSuccess: ({ sale }) => client.setQueryData(tillKeys.sale(sale.orderId), sale),
    onSettled: () => refreshQueries(client, tillKeys.all),
  });
}
