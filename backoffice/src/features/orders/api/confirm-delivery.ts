import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { orderKeys } from './get-orders';

export async function confirmDelivery(orderId: string) {
  return unwrap(await api.PATCH('/api/orders/confirm-delivery', { body: { orderId } }));
}

export function useConfirmDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmDelivery,
    meta: { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong },
    onSettled: () => refreshQueries(queryClient, orderKeys.all),
  });
}
