import { useMutation } from '@tanstack/react-query';
import type { CheckoutForm, DeliveryMethod } from '@spc/shared-contracts';
import { api, unwrap } from '../../../lib/api-client';

export interface PlaceOrderInput {
  guestInfo: CheckoutForm;
  /**
   * `unitId` names a sale unit other than the single seedling; `batchId` makes the line a booking
   * of that growing batch (all lines of a booking order are of one batch).
   */
  products: { _id: string; quantity: number; unitId?: string; batchId?: string }[];
  /** Delivered (the zone's fee, computed by the server) or collected at the nursery. */
  deliveryMethod: DeliveryMethod;
  /** One key per checkout attempt: a double click or a retry returns the first order. */
  idempotencyKey: string;
}

export const placeOrder = ({
  guestInfo,
  products,
  deliveryMethod,
  idempotencyKey,
}: PlaceOrderInput) =>
  unwrap(
    api.POST('/api/orders', {
      body: { guestInfo, products, deliveryMethod, placedBy: null },
      params: { header: { 'Idempotency-Key': idempotencyKey } },
    }),
  );

export const usePlaceOrder = () => useMutation({ mutationFn: placeOrder });
