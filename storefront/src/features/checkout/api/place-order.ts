import { useMutation } from '@tanstack/react-query';
import type { CheckoutForm, DeliveryMethod } from '@spc/shared-contracts';
import { api, unwrap } from '../../../lib/api-client';

export interface PlaceOrderInput {
  guestInfo: Omit<CheckoutForm, 'kraPin'>;
  /**
   * The buyer's KRA PIN, for a receipt that is a tax invoice in their name: '' for none; left out,
   * a signed-in customer's profile PIN.
   */
  kraPin?: string;
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
  kraPin,
  products,
  deliveryMethod,
  idempotencyKey,
}: PlaceOrderInput) =>
  unwrap(
    api.POST('/api/orders', {
      body: {
        guestInfo,
        products,
        deliveryMethod,
        placedBy: null,
        ...(kraPin === undefined ? {} : { kraPin }),
      },
      params: { header: { 'Idempotency-Key': idempotencyKey } },
    }),
  );

export const usePlaceOrder = () => useMutation({ mutationFn: placeOrder });
