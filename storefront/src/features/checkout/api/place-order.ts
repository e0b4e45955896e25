import { useMutation } from '@tanstack/react-query';
import type { CheckoutForm } from '@spc/shared-contracts';
import { api, unwrap } from '../../../lib/api-client';

export interface PlaceOrderInput {
  guestInfo: CheckoutForm;
  products: { _id: string; quantity: number }[];
  /** One key per checkout attempt: a double click or a retry returns the first order. */
  idempotencyKey: string;
}

export const placeOrder = ({ guestInfo, products, idempotencyKey }: PlaceOrderInput) =>
  unwrap(
    api.POST('/api/orders', {
      body: { guestInfo, products, placedBy: null },
      params: { header: { 'Idempotency-Key': idempotencyKey } },
    }),
  );

export const usePlaceOrder = () => useMutation({ mutationFn: placeOrder });
