import type { DeliveryZoneForm } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { deliveryZoneKeys } from './get-delivery-zones';

/** Creates a zone, or replaces it when an id is given. */
export async function saveDeliveryZone({ id, body }: { id?: string; body: DeliveryZoneForm }) {
  return id
    ? unwrap(await api.PUT('/api/delivery/zones/{id}', { params: { path: { id } }, body }))
    : unwrap(await api.POST('/api/delivery/zones', { body }));
}

export function useSaveDeliveryZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDeliveryZone,
    meta: { errorMessage: 'Could not save the delivery zone' },
    onSuccess: () => refreshQueries(queryClient, deliveryZoneKeys.all),
  });
}
