import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { orderKeys } from './get-orders';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function completeOrder(id: string) {
  return unwrap(await api.PATCH('/api/orders/complete-order/{id}', { params: { path: { id } } }));
}

export function useCompleteOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeOrder,
    meta: { errorMessage: BACKOFFICE_MESSAGES.completeOrderError },
    onSettled: () => refreshQueries(queryClient, orderKeys.all),
  });
}
