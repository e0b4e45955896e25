import { BACKOFFICE_MESSAGES, type components } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { orderKeys } from './get-orders';
import { refreshQueries } from '../../../lib/refresh-queries';

export type RefundBody = components['schemas']['RefundDto'];

/** Cancels an order; a paid one only with its refund (method, amount paid, reference). */
export async function cancelOrder(id: string, refund?: RefundBody) {
  return unwrap(
    await api.PATCH('/api/orders/cancel/{id}', {
      params: { path: { id } },
      ...(refund ? { body: { refund } } : {}),
    }),
  );
}

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, refund }: { id: string; refund?: RefundBody }) => cancelOrder(id, refund),
    meta: { errorMessage: BACKOFFICE_MESSAGES.cancelError },
    onSettled: () => refreshQueries(queryClient, orderKeys.all),
  });
}
