import { Injectable, NotImplementedException } from '@nestjs/common';
import type { Principal } from '../common/principal';
import type { OrderRecord } from './order.types';

/** One line of an accepted quotation version, at the price agreed. */
export interface QuotationOrderLine {
  productId: string;
  unitId: string;
  /** Units of `unitId`. */
  quantity: number;
  /** Whole KES per unit, as the version priced it (not the shop's price today). */
  unitPrice: number;
  /** The growing batch that holds the line; null: ready stock. */
  batchId: string | null;
}

/** What accepting a quotation asks of the orders: one order, holding each line by its own hold. */
export interface QuotationOrderRequest {
  /** One order per quotation, however often (or concurrently) this is asked. */
  quotationId: string;
  version: number;
  organisationId: string;
  /** Who accepts: the organisation's approver, or staff on the buyer's written word. */
  actor: Principal;
  /** The customer account the order is placed for (its `placedBy`): the approver or the requester. */
  buyerAccountId: string;
  lines: QuotationOrderLine[];
  delivery: {
    fullName: string;
    phoneNumber: string;
    email: string;
    county: string;
    subCounty?: string | null;
    streetAddress: string;
  };
  /** Whole KES, as the version priced it. */
  deliveryFee: number;
  lpoNumber: string;
}

/**
 * Makes the order an accepted quotation becomes (issue 42): its lines at the prices agreed, each
 * held by its own hold (ready stock, or the batch it names); the organisation's credit limit
 * claimed; the caps on anonymous unpaid orders not applied. Refuses 409 `SHORT` (with the lines
 * short and the batches that could grow them) or `CREDIT_LIMIT`, changing nothing.
 */
@Injectable()
export class OrderFromQuotationService {
  place(request: QuotationOrderRequest): Promise<OrderRecord> {
    throw new NotImplementedException(
      `Orders from quotations are not built yet (${request.quotationId})`,
    );
  }
}
