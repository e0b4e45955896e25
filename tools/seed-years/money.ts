/**
 * The money ledger of a seeded order (issue 38), in the shape the API writes `money_entries`: each
 * payment one incoming entry credited to the order, counted toward its deposit, its balance or
 * beyond its total (the order's `moneyCredits`, whose sum is its `amountPaid`); each refund or
 * payout outgoing entries against the payments they give back, the latest first. A paybill payment
 * that matched no order is an open entry in the inbox. `npm run money:check` holds them to the
 * orders, the refunds and the paybill records.
 */
import { ObjectId } from 'mongodb';
import type { Person } from './history';

/** Who the API records a payment M-Pesa confirmed on its own (a prompt, the paybill) under. */
export const MPESA_SYSTEM: Person = {
  id: 'mpesa-express',
  fullName: 'M-Pesa Express',
  role: 'system',
};

type InKind = 'mpesa-express' | 'paybill' | 'desk-mpesa' | 'cash';
type OutKind = 'reversal' | 'b2c' | 'mpesa-by-hand' | 'cash';

export interface SeedPayment {
  kind: InKind;
  amount: number;
  at: Date;
  /** The M-Pesa code (a paybill payment's TransID, a prompt's receipt, a code typed at the desk). */
  code?: string;
  /** The number that paid (2547XXXXXXXX) where M-Pesa named it. */
  payer?: string | null;
  by: Person;
  /** A paybill payment checked with M-Pesa's status query. */
  verified?: boolean;
}

export interface SeedPayback {
  kind: OutKind;
  amount: number;
  at: Date;
  by: Person;
  purpose: 'refund' | 'excess';
  reference?: string;
  /** Its id where something else names it (`excess:<TransID>`); `out:<ObjectId>` otherwise. */
  id?: string;
  /** Only from this payment (an over-payment's excess); else the latest payments first. */
  of?: string;
  /** Sent by Daraja, as this M-Pesa transfer (`mpesa_refunds`). */
  transfer?: string;
}

type Entry = Record<string, unknown> & {
  _id: string;
  amount: number;
  returnable: number;
  returned: number;
  returns: { out: string; amount: number }[];
  payer: string | null;
};

const entry = (fields: Record<string, unknown> & { _id: string; at: Date; amount: number }) => ({
  direction: 'in',
  reference: '',
  orderId: null,
  purchaseNumber: null,
  payer: null,
  meantFor: null,
  split: null,
  returnable: fields.amount,
  returned: 0,
  returns: [],
  of: null,
  purpose: null,
  send: false,
  transfer: null,
  claimedAt: null,
  createdAt: fields.at,
  updatedAt: fields.at,
  ...fields,
});

/** A fresh M-Pesa Express CheckoutRequestID, as Daraja names a prompt. */
const checkoutRequestId = (at: Date) =>
  `ws_CO_${at.toISOString().replace(/\D/g, '').slice(0, 14)}${new ObjectId().toHexString().slice(-10)}`;

/** One order's entries, its credits and what it was paid, as its payments and refunds come. */
export class MoneyBook {
  readonly entries: Entry[] = [];
  readonly credits: {
    entry: string;
    amount: number;
    deposit: number;
    balance: number;
    excess: number;
    at: Date;
  }[] = [];
  amountPaid = 0;
  /** The refund's outgoing entries, which the cancellation names (the order's `refundOut`). */
  readonly refundOut: string[] = [];

  constructor(
    private readonly order: {
      id: string;
      purchaseNumber: string;
      totalAmount: number;
      /** A booking's deposit (counted first); 0 on an ordinary order. */
      deposit: number;
    },
  ) {}

  /** A payment credited to the order; answers its entry's id. */
  pay(p: SeedPayment): string {
    const _id =
      p.kind === 'paybill'
        ? `c2b:${p.code}`
        : p.kind === 'mpesa-express'
          ? `stk:${checkoutRequestId(p.at)}`
          : `${p.kind}:${new ObjectId().toHexString()}`;
    const { totalAmount, deposit } = this.order;
    const toDeposit = Math.min(p.amount, Math.max(0, deposit - this.amountPaid));
    const excess = Math.max(0, p.amount - Math.max(0, totalAmount - this.amountPaid));
    const split = { deposit: toDeposit, balance: p.amount - toDeposit - excess, excess };
    this.amountPaid += p.amount;
    this.entries.push(
      entry({
        _id,
        kind: p.kind,
        amount: p.amount,
        ...(p.code ? { code: p.code } : {}),
        reference: p.kind === 'mpesa-express' ? _id.slice(4) : '',
        orderId: this.order.id,
        purchaseNumber: this.order.purchaseNumber,
        payer: p.payer ?? null,
        state: 'credited',
        ...(p.verified ? { verified: true } : {}),
        split,
        byId: p.by.id,
        byName: p.by.fullName,
        byRole: p.by.role,
        at: p.at,
      }) as Entry,
    );
    this.credits.push({ entry: _id, amount: p.amount, ...split, at: p.at });
    return _id;
  }

  /** Money given back: outgoing entries against the payments that brought it, the latest first. */
  giveBack(b: SeedPayback): void {
    let left = b.amount;
    const from = b.of
      ? this.entries.filter((e) => e._id === b.of)
      : this.entries.filter((e) => e.direction === 'in').reverse();
    for (const of of from) {
      const amount = Math.min(left, of.returnable);
      if (amount <= 0) continue;
      const _id = (left === b.amount && b.id) || `out:${new ObjectId().toHexString()}`;
      of.returnable -= amount;
      of.returned += amount;
      of.returns.push({ out: _id, amount });
      if (b.purpose === 'refund') this.refundOut.push(_id);
      this.entries.push(
        entry({
          _id,
          direction: 'out',
          kind: b.kind,
          amount,
          reference: b.reference ?? '',
          orderId: this.order.id,
          purchaseNumber: this.order.purchaseNumber,
          payer: b.kind === 'b2c' ? of.payer : null,
          state: 'recorded',
          returnable: 0,
          of: of._id,
          purpose: b.purpose,
          send: b.kind === 'reversal' || b.kind === 'b2c',
          transfer: b.transfer ?? null,
          byId: b.by.id,
          byName: b.by.fullName,
          byRole: b.by.role,
          at: b.at,
        }) as Entry,
      );
      left -= amount;
      if (left === 0) return;
    }
    throw new Error(
      `order ${this.order.purchaseNumber}: KES ${b.amount} to give back, KES ${left} more than came in`,
    );
  }
}

/** A paybill payment that matched no order: open in the payments inbox. */
export function inboxEntry(p: {
  transId: string;
  amount: number;
  at: Date;
  payer: string;
}): Record<string, unknown> {
  return entry({
    _id: `c2b:${p.transId}`,
    kind: 'paybill',
    amount: p.amount,
    code: p.transId,
    payer: p.payer,
    state: 'open',
    verified: true,
    byId: MPESA_SYSTEM.id,
    byName: MPESA_SYSTEM.fullName,
    byRole: MPESA_SYSTEM.role,
    at: p.at,
  });
}
