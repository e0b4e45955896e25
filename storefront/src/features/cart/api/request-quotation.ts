import type { QuotationDelivery, QuotationRequestLine, QuotationView } from '@spc/shared-contracts';
import { useMutation } from '@tanstack/react-query';
import type { LooseApiClient } from '@spc/shared-contracts/client';
import { api, unwrap } from '../../../lib/api-client';
import type { CartItem } from '../../../stores/cart-store';

export interface QuotationRequest {
  lines: QuotationRequestLine[];
  note: string;
  delivery: QuotationDelivery;
}

/** The cart's lines as a request asks them: the unit (the single seedling's is the product's), the batch of a booking. */
export const requestLines = (items: CartItem[]): QuotationRequestLine[] =>
  items.map((i) => ({
    productId: i._id,
    unitId: i.unit?._id ?? i._id,
    quantity: i.quantity,
    ...(i.booking ? { batchId: i.booking.batchId } : {}),
  }));

/** The generated API types do not list the quotations' routes yet: the contract types them. */
const looseApi = api as unknown as LooseApiClient;

/** `POST /api/quotations`: a person of an approved organisation asks the shop to price the cart. */
export const useRequestQuotation = () =>
  useMutation({
    mutationFn: (body: QuotationRequest) =>
      unwrap(
        looseApi.POST<{ message: string; quotation: QuotationView }>('/api/quotations', { body }),
      ),
  });
