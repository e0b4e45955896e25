import type { FilterQuery } from 'mongoose';
import { formatMoney, type BookingState } from '@spc/shared-contracts';
import type { OrderRecord } from './order.types';
import type { Order } from './schemas/order.schema';

/** Booking states that may still take money: the deposit, then the balance. */
export const PAYABLE_BOOKING_STATES = [
  'Deposit due',
  'Booked',
  'Balance due',
] as const satisfies readonly BookingState[];

type Money = Pick<OrderRecord, 'totalAmount' | 'amountPaid' | 'paymentStatus' | 'orderStatus'> & {
  booking?: { state: BookingState; deposit: number } | null;
};

/**
 * What the customer is asked to pay now: on a booking the rest of the deposit while it is due,
 * then the balance (which may be paid before the batch is ready); on an ordinary order what is
 * still outstanding. 0 once paid or closed.
 */
export function amountDueNow(order: Money): number {
  if (order.paymentStatus === 'Paid' || order.orderStatus === 'Cancelled') return 0;
  const b = order.booking;
  if (!b) return Math.max(0, order.totalAmount - order.amountPaid);
  if (b.state === 'Deposit due') return Math.max(0, b.deposit - order.amountPaid);
  if (b.state === 'Booked' || b.state === 'Balance due')
    return Math.max(0, order.totalAmount - order.amountPaid);
  return 0;
}

/** Why a booking cannot take money now, or null (not a booking, or a payable one). */
export function bookingClosedReason(
  order: Pick<OrderRecord, 'purchaseNumber'> & Money,
): string | null {
  const state = order.booking?.state;
  if (!state || (PAYABLE_BOOKING_STATES as readonly string[]).includes(state)) return null;
  if (state === 'Affected')
    return `booking ${order.purchaseNumber} waits to be moved to another batch or refunded`;
  return `booking ${order.purchaseNumber} is ${state.toLowerCase()}`;
}

/**
 * The amount a payment recorded in full must have: an ordinary order's total; on a booking what
 * is still due of its total once the deposit and any part payments are counted. A booking whose
 * credits already cover it (paybill money counted first) takes the payment as it is.
 */
export function checkPaymentAmount(order: OrderRecord, amount: number): string | null {
  if (!order.booking) {
    return amount === order.totalAmount
      ? null
      : `The amount must equal the order total of ${formatMoney(order.totalAmount)}`;
  }
  const due = order.totalAmount - order.amountPaid;
  if (due <= 0 || amount === due) return null;
  return order.amountPaid > 0
    ? `The amount must equal the balance of this booking, ${formatMoney(due)} (${formatMoney(order.amountPaid)} of ${formatMoney(order.totalAmount)} is paid)`
    : `The amount must equal the order total of ${formatMoney(order.totalAmount)}; to take the deposit only, record the deposit of ${formatMoney(order.booking.deposit)}`;
}

/** The extra condition a payment's write on a booking needs: still payable, no credit meanwhile. */
export function bookingPaymentGuard(order: OrderRecord): FilterQuery<Order> {
  if (!order.booking) return {};
  return {
    'booking.state': { $in: PAYABLE_BOOKING_STATES },
    amountPaid: order.amountPaid > 0 ? order.amountPaid : { $not: { $gt: 0 } },
  };
}

/**
 * What a booking's full payment writes besides the order's: the booking is Paid (its deposit too,
 * if one payment covered it all), and the money counted is the whole total (or more, the excess).
 */
export function bookingPaidChange(order: OrderRecord, paidAt: Date): Record<string, unknown> {
  const b = order.booking;
  if (!b) return {};
  return {
    'booking.state': 'Paid',
    'booking.balancePaidAt': paidAt,
    ...(b.depositPaidAt ? {} : { 'booking.depositPaidAt': paidAt }),
    amountPaid: Math.max(order.amountPaid, order.totalAmount),
  };
}
