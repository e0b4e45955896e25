import { BACKOFFICE_MESSAGES, type components } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { orderKeys } from './get-orders';
import { refreshQueries } from '../../../lib/refresh-queries';

export type CompletePaymentBody = components['schemas']['CompletePaymentDto'];

export async function completePayment(orderId: string, body: CompletePaymentBody) {
  return unwrap(
    await api.PATCH('/api/orders/complete-payment/{orderId}', {
      params: { path: { orderId } },
      body,
    }),
  );
}

export function useCompletePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, body }: { orderId: string; body: CompletePaymentBody }) =>
      completePayment(orderId, body),
    meta: { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong },
    onSettled: () => refreshQueries(queryClient, orderKeys.all),
  });
}
