import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { deliveryZoneKeys } from './get-delivery-zones';

export async function deleteDeliveryZone(id: string) {
  return unwrap(await api.DELETE('/api/delivery/zones/{id}', { params: { path: { id } } }));
}

export function useDeleteDeliveryZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDeliveryZone,
    meta: { errorMessage: 'Could not delete the delivery zone' },
    onSettled: () => refreshQueries(queryClient, deliveryZoneKeys.all),
  });
}
