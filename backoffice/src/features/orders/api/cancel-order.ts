import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '../../../lib/api-error';
import { orderKeys } from './get-orders';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function cancelOrder(id: string) {
  return unwrap(await api.PATCH('/api/orders/cancel/{id}', { params: { path: { id } } }));
}

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    meta: { errorMessage: BACKOFFICE_MESSAGES.cancelError },
    onSettled: () => refreshQueries(queryClient, orderKeys.all),
  });
}
