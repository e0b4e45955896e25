/**
 * The booking state machine (which money each state takes, who may act in it, the deposit and
 * the refusals), shared so that the API enforces it and both apps offer only what it would take.
 */
import { BOOKING_CREDIT } from './booking-money';
import type { ActorKind } from './constants';
import { BOOKING_STATES, type BookingState } from './bookings';

export { BOOKING_CREDIT, bookingTakesMoney } from './booking-money';

/** What is done to a booking, apart from the order actions of `ORDER_RULES`. */
export type BookingAction =
  /** money toward it (M-Pesa, the paybill, the desk) */
  | 'pay'
  /** the deposit recorded by staff */
  | 'recordDeposit'
  /** its batch is ready */
  | 'ready'
  /** its batch failed or fell short */
  | 'affect'
  /** to another batch of the product */
  | 'move'
  /** its money given back after its batch failed or fell short */
  | 'refund'
  /** its balance unpaid after its day */
  | 'release'
  /** sent out (the order's `inTransit`) */
  | 'handOver';

/** One state of a booking. */
export interface BookingStateRule {
  /** What money it may be credited (`BOOKING_CREDIT`, the storefront's small piece of this table). */
  takes: 'deposit' | 'balance' | null;
  /** Its batch still holds its seedlings. */
  holds: boolean;
  /** The booking actions it may take, and by whom. */
  acts: Partial<Record<BookingAction, readonly ActorKind[]>>;
  /** What it waits for before it may be handed over, when it will be (its batch, then its balance). */
  waitsFor?: 'batch' | 'balance';
  /** Why it takes no money: "booking {purchase number} {closed}" (its state's name otherwise). */
  closed?: string;
}

const SHOP = ['staff', 'admin'] as const;
const PAYERS = [...SHOP, 'customer', 'system'] as const;
const OWNER_OR_SHOP = [...SHOP, 'customer'] as const;
const BATCH_NEWS = { ready: ['system'], affect: ['system'] } as const;

const STATES: Record<BookingState, Omit<BookingStateRule, 'takes'>> = {
  'Deposit due': {
    holds: true,
    waitsFor: 'batch',
    acts: { pay: PAYERS, recordDeposit: [...SHOP, 'system'], ...BATCH_NEWS },
  },
  Booked: {
    holds: true,
    waitsFor: 'batch',
    acts: { pay: PAYERS, ...BATCH_NEWS },
  },
  'Balance due': {
    holds: true,
    waitsFor: 'balance',
    acts: { pay: PAYERS, release: ['system'], affect: ['system'] },
  },
  Paid: { holds: true, acts: { handOver: SHOP, ...BATCH_NEWS } },
  Expired: { holds: false, acts: {} },
  Released: { holds: false, acts: {} },
  Affected: {
    holds: false,
    acts: { move: OWNER_OR_SHOP, refund: OWNER_OR_SHOP },
    closed: 'waits to be moved to another batch or refunded',
  },
  Refunded: { holds: false, acts: {} },
};

/**
 * The booking state machine, written once: Deposit due → Booked (deposit paid) → Balance due
 * (batch ready) → Paid → handed over; side exits Expired, Released, Affected, Refunded. The API's
 * guards, the money ledger's credits and both apps' buttons read it.
 */
export const BOOKING_RULES = /* @__PURE__ */ Object.fromEntries(
  /* @__PURE__ */ BOOKING_STATES.map((s) => [
    s,
    { ...STATES[s], takes: BOOKING_CREDIT[s] ?? null },
  ]),
) as Record<BookingState, BookingStateRule>;

/** Booking states whose seedlings the batch still holds. */
export const LIVE_BOOKING_STATES: readonly BookingState[] = /* @__PURE__ */ BOOKING_STATES.filter(
  (s) => BOOKING_RULES[s].holds,
);

/** Whole KES of a booking's deposit: the total's share, rounded, at least 1 and at most the total. */
export const bookingDeposit = (total: number, percent: number): number =>
  Math.min(total, Math.max(1, Math.round((total * percent) / 100)));

/** Why a booking cannot take money now, or null when it can. */
export function bookingMoneyRefusal(purchaseNumber: string, state: BookingState): string | null {
  const rule = BOOKING_RULES[state];
  if (rule.takes) return null;
  return `booking ${purchaseNumber} ${rule.closed ?? `is ${state.toLowerCase()}`}`;
}

/** The refusals the back office shows on a booking's order buttons. */
export const BOOKING_REFUSALS = {
  noPayment: (state: string) => `This booking is ${state.toLowerCase()}: it takes no payment`,
  notReady: (readyOn: string) => `This booking's batch is not ready yet (expected ${readyOn})`,
  balanceFirst: 'Record the balance of this booking before it goes out',
  notOut: (state: string) => `This booking is ${state.toLowerCase()}: it does not go out`,
} as const;
