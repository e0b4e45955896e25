import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { userKeys } from './get-profile';

export const cancelOrder = (id: string) =>
  unwrap(api.PATCH('/api/orders/cancel/{id}', { params: { path: { id } } }));

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    // A refusal too: the API refuses a customer's cancel once money came in, which the page shows.
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.allOrders }),
  });
}
