/** Bookings of growing batches (issue 32): what orders and products carry, and ready days. */
import type { components } from '@spc/shared-contracts';

/** A batch the shop books from: ready on `readyOn` (YYYY-MM-DD), `available` seedlings left to book. */
export type BookableBatch = components['schemas']['BookableBatchRefDto'];

/** `order.booking`: what a booking order adds to an ordinary one. */
export type OrderBooking = components['schemas']['OrderBookingDto'];

/** What the booking lines of a page show, from an order's booking or from tracking's. */
export interface BookingFactsData {
  readyOn: string;
  state: string;
  deposit: number;
  depositPercent: number;
  depositPaid: boolean;
  /** What is left after the deposit (the total less the deposit). */
  balance: number;
  balancePaid: boolean;
  balanceDueBy: string | null;
  releaseDecision?: 'kept' | 'refunded' | null;
}

/** An order's booking as its booking lines show it. */
export const factsOfOrder = (b: OrderBooking): BookingFactsData => ({
  ...b,
  depositPaid: b.depositPaidAt !== null,
  balancePaid: b.balancePaidAt !== null,
});

/** Tracking's booking (what was paid and what is due) as the booking lines show it. */
export const factsOfTracking = (b: components['schemas']['TrackBookingDto']): BookingFactsData => ({
  ...b,
  depositPaid: b.amountPaid >= b.deposit,
  balance: b.amountPaid + b.balanceDue - b.deposit,
  balancePaid: b.state === 'Paid',
});

/** The M-Pesa button of a booking: which part it pays. */
export const bookingPayLabel = (b: Pick<OrderBooking, 'state'>) =>
  b.state === 'Deposit due' ? 'Pay the deposit with M-Pesa' : 'Pay the balance with M-Pesa';
