import type { components } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export type DeliveryZone = components['schemas']['DeliveryZoneDto'];

export const deliveryZoneKeys = {
  all: ['delivery-zones'] as const,
  lists: () => [...deliveryZoneKeys.all, 'list'] as const,
};

/** Every zone (a shop has a few) and the terms where none applies. */
export async function getDeliveryZones() {
  return unwrap(await api.GET('/api/delivery/zones'));
}

export const deliveryZonesQueryOptions = () =>
  queryOptions({ queryKey: deliveryZoneKeys.lists(), queryFn: getDeliveryZones });

export const useDeliveryZones = () => useQuery(deliveryZonesQueryOptions());
