import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { userKeys } from './get-profile';

export const cancelOrder = (id: string) =>
  unwrap(api.PATCH('/api/orders/cancel/{id}', { params: { path: { id } } }));

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.allOrders }),
  });
}
