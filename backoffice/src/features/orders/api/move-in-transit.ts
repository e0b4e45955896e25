import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { orderKeys } from './get-orders';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function moveInTransit(id: string) {
  return unwrap(await api.PATCH('/api/orders/inTransit/{id}', { params: { path: { id } } }));
}

export function useMoveInTransit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moveInTransit,
    meta: { errorMessage: BACKOFFICE_MESSAGES.inTransitError },
    onSettled: () => refreshQueries(queryClient, orderKeys.all),
  });
}
