/**
 * The money column of the booking state machine (`BOOKING_RULES`), apart so that the storefront's
 * pages take it without the rest of the table.
 */
import type { BookingState } from './bookings';

/**
 * What a booking in each state may be credited: `deposit` the rest of its deposit first, then
 * toward its total; `balance` toward its total (the balance may be paid before the batch is ready).
 * A state absent takes no money (the paybill sends such a payment to the inbox).
 */
export const BOOKING_CREDIT: Partial<Record<BookingState, 'deposit' | 'balance'>> = {
  'Deposit due': 'deposit',
  Booked: 'balance',
  'Balance due': 'balance',
};

/** Whether a booking in this state may be paid now (its deposit, or its balance). */
export const bookingTakesMoney = (state: BookingState | string): boolean =>
  !!BOOKING_CREDIT[state as BookingState];
