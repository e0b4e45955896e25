import type { OrderSmsEvent, PaymentMethod } from '@spc/shared-contracts';
import { formatMoney } from '@spc/shared-contracts';
import type { UpdateQuery } from 'mongoose';
import type { Actor } from '../common/principal';
import type { MoneyEntryRecord } from '../money/money-ledger.repository';
import type { OrderStep } from './order-actions';
import {
  creditGuard,
  type CreditPlan,
  type CreditPurpose,
  type CreditTerms,
  type TermsNews,
} from './order-credit-rule';
import type { OrderRecord } from './order.types';
import type { Order } from './schemas/order.schema';

/** What came of crediting a payment to an order. */
export type CreditResult =
  | { state: 'part'; order: OrderRecord }
  | { state: 'paid'; order: OrderRecord; excess: number }
  /** This entry was credited to this order before: nothing changed. */
  | { state: 'already'; order: OrderRecord };

export interface CreditInput {
  entry: MoneyEntryRecord;
  plan: CreditPlan;
  purpose: CreditPurpose;
  method: PaymentMethod;
  how: string;
  timePaid: Date | null;
  /** What the order's terms add to the credit (a deposit's state and dates). */
  terms: CreditTerms;
}

export const codeOf = (e: MoneyEntryRecord) => e.code ?? e.reference ?? '';

/** The one conditional write of a credit: its amount, the entry, and the state it brings. */
function creditUpdate(
  order: OrderRecord,
  input: CreditInput,
  actor: Actor,
  now: Date,
): UpdateQuery<Order> {
  const { entry, plan, terms } = input;
  const code = codeOf(entry);
  const paidAt = input.timePaid ?? now;
  const set: Record<string, unknown> = { amountPaid: plan.paidAfter };
  if (plan.outcome === 'paid')
    Object.assign(set, {
      paymentStatus: 'Paid',
      paymentMethod: input.method,
      paymentDetails: {
        amount: input.purpose === 'due' ? entry.amount : terms.paidInFull(order),
        transactionCode: code,
        timePaid: input.timePaid,
        completedById: actor.id,
        completedByName: actor.fullName,
      },
      paidAt,
      ...(order.orderStatus === 'Pending' ? { orderStatus: 'Processing' } : {}),
    });
  const own = terms.change(order, plan, code, paidAt, now);
  Object.assign(set, own.set);
  return {
    $set: set,
    ...(Object.keys(own.unset).length ? { $unset: own.unset } : {}),
    $push: { moneyCredits: { entry: entry._id, amount: entry.amount, ...plan.split, at: now } },
  };
}

/** The news of each outcome: a payment in full, a part payment; the deposit's is the terms'. */
const NEWS: Record<'paid' | 'part', Omit<TermsNews, 'sms'> & { sms?: OrderSmsEvent }> = {
  paid: { event: 'order.paid', audit: 'order.payment', sms: 'paid' },
  part: { event: 'order.partPaid', audit: 'order.payment.part' },
};
const newsOf = ({ plan, terms }: CreditInput) =>
  plan.outcome === 'deposit' ? terms.deposit : NEWS[plan.outcome];

/** A money-ledger entry credited to an order: the order's amounts and state in one conditional write. */
export const CREDIT: OrderStep<CreditInput> = {
  rule: 'completePayment',
  event: ({ input }) => newsOf(input).event,
  by: ['system', 'staff', 'admin'],
  guard: ({ order, input }) => creditGuard(order, input.entry._id),
  prepare: ({ order, input, actor, now }) => creditUpdate(order, input, actor, now),
  after: async ({ money, order, input }) => {
    await money.ledger.credited(input.entry._id, order._id, input.plan.split);
  },
  sms: ({ input }) => newsOf(input).sms,
  audit: {
    action: ({ input }) => newsOf(input).audit,
    text: ({ actor, order, input }) => {
      const { entry, plan, terms } = input;
      const code = codeOf(entry);
      const what = `${input.method === 'Cash' ? 'a Cash' : 'an Mpesa'} payment of ${formatMoney(entry.amount)}${code ? ` (${code})` : ''}`;
      if (plan.outcome === 'paid')
        return `${actor.fullName} recorded ${what} for order ${order.purchaseNumber} (${input.how}): paid, ${formatMoney(plan.paidAfter)} of ${formatMoney(order.totalAmount)}`;
      if (plan.outcome === 'deposit')
        return terms.depositText(actor, order, `${what} (${input.how})`, plan.paidAfter);
      return `${actor.fullName} credited ${what} to order ${order.purchaseNumber} (${input.how})${terms.towardDeposit(order, plan)}: part-paid, ${formatMoney(plan.paidAfter)} of ${formatMoney(order.totalAmount)}, ${formatMoney(order.totalAmount - plan.paidAfter)} outstanding`;
    },
  },
  mail: (ctx) => (ctx.input.plan.outcome === 'paid' ? 'paid' : undefined),
};
