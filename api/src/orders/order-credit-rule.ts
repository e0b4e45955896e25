/**
 * What an order may be credited and what it owes now (`creditRule`, `amountDueNow`), read from the
 * order as it is: the one money rule of ordinary orders and bookings (a booking's from BOOKING_RULES).
 */
import type { FilterQuery } from 'mongoose';
import {
  BOOKING_RULES,
  bookingMoneyRefusal,
  formatMoney,
  ORDER_RULES,
  type BookingState,
  type OrderSmsEvent,
  TILL_MESSAGES,
} from '@spc/shared-contracts';
import type { Actor } from '../common/principal';
import type { OrderEvent, OrderEventName } from './order-events';
import type { OrderRecord } from './order.types';
import type { Order } from './schemas/order.schema';

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
  const takes = BOOKING_RULES[b.state].takes;
  if (takes === 'deposit') return Math.max(0, b.deposit - order.amountPaid);
  if (takes === 'balance') return Math.max(0, order.totalAmount - order.amountPaid);
  return 0;
}

/** Why a booking cannot take money now, or null (not a booking, or a payable one). */
export function bookingClosedReason(
  order: Pick<OrderRecord, 'purchaseNumber'> & Money,
): string | null {
  const state = order.booking?.state;
  return state ? bookingMoneyRefusal(order.purchaseNumber, state) : null;
}

/** The statuses an unpaid order may take a payment in (the state table's completePayment). */
export const OPEN = ORDER_RULES.completePayment.from;

/** Why an order cannot take a payment, or null when it can. */
/**
 * Why an ordinary route (the order page's steps, the desk's payment, the payments inbox, a paybill
 * payment naming it) may not touch this order: a gate sale is paid, voided and refunded at the
 * till only, where its session's cash-up counts it and a void needs a second person's PIN.
 */
export function gateSaleReason(order: Pick<OrderRecord, 'channel'>): string | null {
  return order.channel === 'gate' ? TILL_MESSAGES.gateSaleAtTill : null;
}

export function closedReason(order: OrderRecord): string | null {
  if (order.paymentStatus === 'Paid') return `order ${order.purchaseNumber} is already paid`;
  if (!(OPEN as readonly string[]).includes(order.orderStatus))
    return `order ${order.purchaseNumber} is ${order.orderStatus.toLowerCase()}`;
  return bookingClosedReason(order);
}

/**
 * The amount a payment recorded in full must have: what is still due of the total once the
 * deposit and any part payments are counted (the whole total when nothing was paid).
 */
export function checkPaymentAmount(order: OrderRecord, amount: number): string | null {
  const due = order.totalAmount - order.amountPaid;
  if (amount === due) return null;
  if (order.amountPaid > 0)
    return `The amount must equal ${order.booking ? 'the balance of this booking' : 'what is still due'}, ${formatMoney(due)} (${formatMoney(order.amountPaid)} of ${formatMoney(order.totalAmount)} is paid)`;
  return order.booking
    ? `The amount must equal the order total of ${formatMoney(order.totalAmount)}; to take the deposit only, record the deposit of ${formatMoney(order.booking.deposit)}`
    : `The amount must equal the order total of ${formatMoney(order.totalAmount)}`;
}

/** What a payment is for: any money toward what is due, exactly the deposit, or exactly the rest. */
export type CreditPurpose = 'any' | 'deposit' | 'due';

/** How a payment counts on an order, and what it brings the order to. */
export interface CreditPlan {
  split: { deposit: number; balance: number; excess: number };
  /** `paid`: the total is reached; `deposit`: a booking's deposit is; `part`: neither. */
  outcome: 'part' | 'deposit' | 'paid';
  paidBefore: number;
  paidAfter: number;
}

/** A payment the order cannot take, and whether that is the payment's fault (400) or the order's (409). */
export interface CreditRefusal {
  refuse: string;
  status: 400 | 409;
}

/**
 * The one rule of what an order may be credited, read from the order as it is: an open unpaid
 * order takes money while something is due; a booking takes its deposit only while it is due
 * (for `deposit`, exactly what is left of it), then payments while it is Booked or Balance due (the
 * balance may be paid early), never above its total. An ordinary order may be over-paid (a paybill
 * amount typed too high): the excess is recorded, to be given back.
 */
export function creditRule(
  order: OrderRecord,
  amount: number,
  purpose: CreditPurpose,
  closed: string | null,
): CreditPlan | CreditRefusal {
  if (closed) return { refuse: closed, status: 409 };
  const paid = order.amountPaid;
  const due = order.totalAmount - paid;
  if (due <= 0) return { refuse: `nothing is due on order ${order.purchaseNumber}`, status: 409 };
  const b = order.booking;
  const takesDeposit = !!b && BOOKING_RULES[b.state].takes === 'deposit';
  const depositLeft = b && takesDeposit ? Math.max(0, b.deposit - paid) : 0;
  if (purpose === 'deposit') {
    if (!b) return { refuse: `order ${order.purchaseNumber} is not a booking`, status: 400 };
    if (!takesDeposit || depositLeft === 0)
      return {
        refuse: `the deposit of booking ${order.purchaseNumber} is already paid`,
        status: 409,
      };
    if (amount !== depositLeft)
      return {
        refuse:
          paid > 0
            ? `The deposit of this booking is ${formatMoney(b.deposit)}; ${formatMoney(paid)} is paid, so ${formatMoney(depositLeft)} is due`
            : `The deposit of this booking is ${formatMoney(b.deposit)}`,
        status: 400,
      };
  }
  if (purpose === 'due') {
    const wrong = checkPaymentAmount(order, amount);
    if (wrong) return { refuse: wrong, status: 400 };
  }
  if (b && amount > due)
    return {
      refuse: `${formatMoney(amount)} is more than is due on booking ${order.purchaseNumber} (${formatMoney(due)})`,
      status: 409,
    };
  const excess = Math.max(0, amount - due);
  const deposit = Math.min(amount, depositLeft);
  const paidAfter = paid + amount;
  return {
    split: { deposit, balance: amount - deposit - excess, excess },
    outcome:
      paidAfter >= order.totalAmount
        ? 'paid'
        : b && takesDeposit && paidAfter >= b.deposit
          ? 'deposit'
          : 'part',
    paidBefore: paid,
    paidAfter,
  };
}

/**
 * The condition a credit's write needs: the order still as it was read (no other credit
 * meanwhile, the booking in the same state), and this entry not credited yet.
 */
export function creditGuard(order: OrderRecord, entryId: string): FilterQuery<Order> {
  return {
    paymentStatus: 'Pending',
    amountPaid: order.amountPaid > 0 ? order.amountPaid : { $not: { $gt: 0 } },
    'moneyCredits.entry': { $ne: entryId },
    ...(order.booking ? { 'booking.state': order.booking.state } : {}),
  };
}

/** The event, audit action and text message of a credit's outcome. */
export interface TermsNews {
  event: OrderEventName;
  audit: string;
  sms: OrderSmsEvent;
}

/**
 * The side of a credit an order's terms write (a booking's: `BookingTerms`), so that the credit's
 * step writes the order's amounts and payment alone. Injected as `CREDIT_TERMS`.
 */
export interface CreditTerms {
  /** The news of a credit that reached the deposit. */
  readonly deposit: TermsNews;
  /** The fields the credit sets and unsets on the order's terms (none on an ordinary order). */
  change(
    order: OrderRecord,
    plan: CreditPlan,
    code: string,
    paidAt: Date,
    now: Date,
  ): { set: Record<string, unknown>; unset: Record<string, ''> };
  /** What a payment that completes the order pays (the total, less what the terms took before). */
  paidInFull(order: OrderRecord): number;
  /** The audit text of a credit that reached the deposit (`what`: the payment, and how it came). */
  depositText(actor: Actor, order: OrderRecord, what: string, paidAfter: number): string;
  /** What a part payment's audit text adds of the deposit it went toward ('' for none). */
  towardDeposit(order: OrderRecord, plan: CreditPlan): string;
  /** The events that follow the credit, in order. */
  after(
    actor: Actor,
    before: OrderRecord,
    after: OrderRecord,
    plan: CreditPlan,
  ): { name: 'booking.depositReached' | 'booking.balanceDue'; event: OrderEvent }[];
}

/** The injection token of the orders' `CreditTerms`. */
export const CREDIT_TERMS = 'CREDIT_TERMS';
