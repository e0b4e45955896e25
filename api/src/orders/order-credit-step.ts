import type { PaymentMethod } from '@spc/shared-contracts';
import { formatMoney, ORDER_RULES } from '@spc/shared-contracts';
import type { UpdateQuery } from 'mongoose';
import type { Actor } from '../common/principal';
import type { MoneyEntryRecord } from '../money/money-ledger.repository';
import { addDays, shopDay } from '../common/shop-clock';
import type { OrderStep } from './order-actions';
import {
  bookingClosedReason,
  creditGuard,
  type CreditPlan,
  type CreditPurpose,
} from './order-credit-rule';
import type { OrderRecord } from './order.types';
import type { Order } from './schemas/order.schema';

/** What came of crediting a payment to an order. */
export type CreditResult =
  | { state: 'part'; order: OrderRecord }
  | { state: 'paid'; order: OrderRecord; excess: number }
  /** This entry was credited to this order before: nothing changed. */
  | { state: 'already'; order: OrderRecord };

/** The statuses an unpaid order may take a payment in (the state table's completePayment). */
export const OPEN = ORDER_RULES.completePayment.from;

/** Why an order cannot take a payment, or null when it can. */
export function closedReason(order: OrderRecord): string | null {
  if (order.paymentStatus === 'Paid') return `order ${order.purchaseNumber} is already paid`;
  if (!(OPEN as readonly string[]).includes(order.orderStatus))
    return `order ${order.purchaseNumber} is ${order.orderStatus.toLowerCase()}`;
  return bookingClosedReason(order);
}

export interface CreditInput {
  entry: MoneyEntryRecord;
  plan: CreditPlan;
  purpose: CreditPurpose;
  method: PaymentMethod;
  how: string;
  timePaid: Date | null;
  balanceDays: number;
}

export const codeOf = (e: MoneyEntryRecord) => e.code ?? e.reference ?? '';

/** The one conditional write of a credit: its amount, the entry, and the state it brings. */
function creditUpdate(
  order: OrderRecord,
  input: CreditInput,
  actor: Actor,
  now: Date,
): UpdateQuery<Order> {
  const { entry, plan } = input;
  const b = order.booking;
  const code = codeOf(entry);
  const set: Record<string, unknown> = { amountPaid: plan.paidAfter };
  const unset: Record<string, ''> = {};
  if (plan.outcome === 'paid') {
    const paidAt = input.timePaid ?? now;
    Object.assign(set, {
      paymentStatus: 'Paid',
      paymentMethod: input.method,
      paymentDetails: {
        amount:
          input.purpose === 'due'
            ? entry.amount
            : b?.depositPaidAt
              ? order.totalAmount - b.deposit
              : order.totalAmount,
        transactionCode: code,
        timePaid: input.timePaid,
        completedById: actor.id,
        completedByName: actor.fullName,
      },
      paidAt,
      ...(order.orderStatus === 'Pending' ? { orderStatus: 'Processing' } : {}),
    });
    if (b) {
      Object.assign(set, {
        'booking.state': 'Paid',
        'booking.balancePaidAt': paidAt,
        ...(b.depositPaidAt
          ? {}
          : { 'booking.depositPaidAt': paidAt, 'booking.depositReceipt': code }),
      });
      unset.holdSlots = '';
    }
  } else if (plan.outcome === 'deposit' && b) {
    const ready = !!b.readyAt;
    Object.assign(set, {
      'booking.state': ready ? 'Balance due' : 'Booked',
      'booking.depositPaidAt': now,
      'booking.depositReceipt': code,
      ...(ready ? { 'booking.balanceDueBy': addDays(shopDay(now), input.balanceDays) } : {}),
    });
    // A booking with its deposit paid no longer counts among the open unpaid orders.
    unset.holdSlots = '';
  }
  return {
    $set: set,
    ...(Object.keys(unset).length ? { $unset: unset } : {}),
    $push: { moneyCredits: { entry: entry._id, amount: entry.amount, ...plan.split, at: now } },
  };
}

const auditAction = (plan: CreditPlan) =>
  plan.outcome === 'paid'
    ? 'order.payment'
    : plan.outcome === 'deposit'
      ? 'booking.deposit'
      : 'order.payment.part';

/** A money-ledger entry credited to an order: the order's amounts and state in one conditional write. */
export const CREDIT: OrderStep<CreditInput> = {
  rule: 'completePayment',
  event: ({ input }) =>
    input.plan.outcome === 'paid'
      ? 'order.paid'
      : input.plan.outcome === 'deposit'
        ? 'booking.depositPaid'
        : 'order.partPaid',
  by: ['system', 'staff', 'admin'],
  guard: ({ order, input }) => creditGuard(order, input.entry._id),
  prepare: ({ order, input, actor, now }) => creditUpdate(order, input, actor, now),
  after: async ({ money, order, input }) => {
    await money.ledger.credited(input.entry._id, order._id, input.plan.split);
  },
  sms: ({ input }) =>
    input.plan.outcome === 'paid'
      ? 'paid'
      : input.plan.outcome === 'deposit'
        ? 'deposit'
        : undefined,
  audit: {
    action: ({ input }) => auditAction(input.plan),
    text: ({ actor, order, input }) => {
      const { entry, plan } = input;
      const code = codeOf(entry);
      const what = `${input.method === 'Cash' ? 'a Cash' : 'an Mpesa'} payment of ${formatMoney(entry.amount)}${code ? ` (${code})` : ''}`;
      if (plan.outcome === 'paid')
        return `${actor.fullName} recorded ${what} for order ${order.purchaseNumber} (${input.how}): paid, ${formatMoney(plan.paidAfter)} of ${formatMoney(order.totalAmount)}`;
      if (plan.outcome === 'deposit')
        return `${actor.fullName} recorded the deposit of booking ${order.purchaseNumber}: ${what} (${input.how}), ${formatMoney(plan.paidAfter)} paid of a deposit of ${formatMoney(order.booking!.deposit)}`;
      return `${actor.fullName} credited ${what} to order ${order.purchaseNumber} (${input.how})${plan.split.deposit ? ` toward the deposit of ${formatMoney(order.booking!.deposit)}` : ''}: part-paid, ${formatMoney(plan.paidAfter)} of ${formatMoney(order.totalAmount)}, ${formatMoney(order.totalAmount - plan.paidAfter)} outstanding`;
    },
  },
  mail: (ctx) => (ctx.input.plan.outcome === 'paid' ? 'paid' : undefined),
};
