/** One order's money before the ledger, as ledger entries: what came in, what went back, and why. */
import { toMpesaPhone } from '@spc/shared-contracts';
import type { MoneyInKind, MoneyOutKind } from '../schemas/money-entry.schema';
import {
  MPESA_SYSTEM,
  mpesaCode,
  stableId,
  type Entry,
  type OldMoney,
  type OldOrder,
  type OrderLedger,
  type PushDoc,
  type RefundDoc,
  type TransferDoc,
} from './old-money-records';

function incoming(
  order: OldOrder,
  e: Pick<Entry, '_id' | 'kind' | 'amount' | 'payer' | 'at' | 'byId' | 'byName' | 'byRole'> &
    Partial<Pick<Entry, 'code' | 'reference' | 'verified'>>,
  now: Date,
): Entry {
  return {
    direction: 'in',
    reference: '',
    orderId: order._id.toHexString(),
    purchaseNumber: order.purchaseNumber,
    state: 'credited',
    meantFor: null,
    split: null,
    returnable: e.amount,
    returned: 0,
    returns: [],
    of: null,
    purpose: null,
    send: false,
    transfer: null,
    claimedAt: null,
    createdAt: e.at,
    updatedAt: now,
    ...e,
  };
}

/**
 * The ledger of one order from its old records (pure): each paybill credit its `c2b:<TransID>`
 * entry; a prompt's money its `stk:<CheckoutRequestID>` entry; a code a clerk typed (a deposit) a
 * `desk-mpesa` entry; the payment in full that `paymentDetails` records, when no credit was it, one
 * entry of its amount (cash, the desk's code, or the prompt's); then its refund as outgoing entries
 * against them (the transfer that sent it first), and a paybill over-payment's B2C.
 */
export function ledgerOfOrder(old: OldMoney, now = new Date()): OrderLedger {
  const { order } = old;
  const orderId = order._id.toHexString();
  const notes: string[] = [];
  const entries: Entry[] = [];
  const promptOf = (code: string) =>
    old.prompts.find(
      (p) => p._id === code || p.receipt === code || (p.receipts ?? []).includes(code),
    );
  const fromPrompt = (p: PushDoc, amount: number, at: Date, typed: string): Entry => {
    const code = mpesaCode(p.receipt) ?? (typed !== p._id ? mpesaCode(typed) : null);
    return incoming(
      order,
      {
        _id: `stk:${p._id}`,
        kind: 'mpesa-express',
        amount,
        ...(code ? { code } : {}),
        reference: p._id,
        payer: toMpesaPhone(p.phone) ?? null,
        at: p.callback?.transactionDate ?? at,
        ...MPESA_SYSTEM,
      },
      now,
    );
  };

  for (const c of order.mpesaCredits ?? []) {
    const paybill = old.paybill.get(c.transId);
    const prompt = paybill ? undefined : promptOf(c.transId);
    if (paybill) {
      entries.push(
        incoming(
          order,
          {
            _id: `c2b:${paybill._id}`,
            kind: 'paybill',
            amount: c.amount,
            code: paybill._id,
            payer: toMpesaPhone(paybill.phone) ?? null,
            at: new Date(paybill.paidAt ?? c.at),
            ...((paybill.queries ?? 0) > 0 ? { verified: true } : {}),
            ...MPESA_SYSTEM,
          },
          now,
        ),
      );
    } else if (prompt) {
      entries.push(fromPrompt(prompt, c.amount, new Date(c.at), c.transId));
    } else {
      // A code a clerk typed for a booking's deposit (the only desk payment kept as a credit).
      const code = mpesaCode(c.transId);
      entries.push(
        incoming(
          order,
          {
            _id: `desk-mpesa:${stableId(orderId, c.transId)}`,
            kind: 'desk-mpesa',
            amount: c.amount,
            ...(code ? { code } : { reference: c.transId }),
            payer: null,
            at: new Date(c.at),
            byId: '',
            byName: '',
            byRole: 'staff',
          },
          now,
        ),
      );
    }
  }

  // The payment in full, unless it was the credit that reached the total.
  const pd = order.paymentDetails;
  const typed = pd?.transactionCode ?? '';
  const typedCode = mpesaCode(typed);
  const isCredit = entries.some(
    (e) =>
      (typed && (e.code === typed || e.reference === typed)) || (typedCode && e.code === typedCode),
  );
  if (order.paymentStatus === 'Paid' && !isCredit) {
    const credited = entries.reduce((n, e) => n + e.amount, 0);
    const amount =
      pd?.amount && pd.amount > 0
        ? pd.amount
        : Math.max((order.amountPaid ?? 0) - credited, order.totalAmount - credited);
    const at = new Date(pd?.timePaid ?? order.paidAt ?? order.orderDate);
    const by = {
      byId: pd?.completedById ?? '',
      byName: pd?.completedByName ?? '',
      byRole: pd?.completedById === MPESA_SYSTEM.byId ? 'system' : 'staff',
    };
    const prompt = typed ? promptOf(typed) : undefined;
    if (order.paymentMethod === 'Cash') {
      entries.push(
        incoming(
          order,
          {
            _id: `cash:${orderId}`,
            kind: 'cash',
            amount,
            reference: typed,
            payer: null,
            at,
            ...by,
          },
          now,
        ),
      );
    } else if (prompt) {
      entries.push(fromPrompt(prompt, amount, at, typed));
    } else {
      // By the prompt (the system recorded it) with no prompt record left, or typed at the desk.
      const byPrompt = pd?.completedById === MPESA_SYSTEM.byId;
      const kind: MoneyInKind = byPrompt ? 'mpesa-express' : 'desk-mpesa';
      entries.push(
        incoming(
          order,
          {
            _id: `${byPrompt ? 'stk' : 'desk-mpesa'}:${orderId}`,
            kind,
            amount,
            ...(typedCode ? { code: typedCode } : {}),
            reference: typedCode ? '' : typed,
            payer: null,
            at,
            ...by,
          },
          now,
        ),
      );
    }
  }

  // How each payment counted: toward the deposit, the balance, beyond the total.
  let paid = 0;
  const deposit = order.booking?.deposit ?? 0;
  const credits = entries.map((e) => {
    const depositPart = Math.min(e.amount, Math.max(0, deposit - paid));
    const excess = Math.max(0, e.amount - Math.max(0, order.totalAmount - paid));
    paid += e.amount;
    e.split = { deposit: depositPart, balance: e.amount - depositPart - excess, excess };
    return { entry: e._id, amount: e.amount, ...e.split, at: e.at };
  });
  if (order.paymentStatus === 'Paid' && paid < order.totalAmount)
    notes.push(
      `order ${order.purchaseNumber} is Paid but its records hold KES ${paid} of KES ${order.totalAmount}`,
    );
  if ((order.amountPaid ?? 0) > paid)
    notes.push(
      `order ${order.purchaseNumber} showed KES ${order.amountPaid} paid; its records hold KES ${paid}`,
    );
  if (order.paymentStatus !== 'Paid' && paid >= order.totalAmount)
    notes.push(
      `order ${order.purchaseNumber} is ${order.paymentStatus} but its records hold KES ${paid} of KES ${order.totalAmount}`,
    );

  const outs: Entry[] = [];
  const giveBack = (
    of: Entry,
    out: Omit<
      Entry,
      | 'direction'
      | 'orderId'
      | 'purchaseNumber'
      | 'of'
      | 'returnable'
      | 'returned'
      | 'returns'
      | 'split'
      | 'state'
      | 'claimedAt'
      | 'createdAt'
      | 'updatedAt'
      | 'meantFor'
    >,
  ) => {
    of.returnable -= out.amount;
    of.returned += out.amount;
    of.returns.push({ out: out._id, amount: out.amount });
    outs.push({
      ...out,
      direction: 'out',
      orderId,
      purchaseNumber: order.purchaseNumber,
      of: of._id,
      returnable: 0,
      returned: 0,
      returns: [],
      split: null,
      state: 'recorded',
      meantFor: null,
      claimedAt: null,
      createdAt: out.at,
      updatedAt: now,
    });
  };

  // A paybill over-payment's excess, sent back by B2C.
  for (const e of entries) {
    const doc = e.kind === 'paybill' ? old.paybill.get(e.code!) : undefined;
    if (!doc?.refundId?.startsWith('excess:') || !(doc.excess ?? 0)) continue;
    const transfer = old.transfers.get(doc.refundId);
    giveBack(e, {
      _id: doc.refundId,
      kind: 'b2c',
      amount: Math.min(doc.excess!, e.returnable),
      reference: transfer?.transactionId ?? '',
      payer: transfer?.phone ? (toMpesaPhone(transfer.phone) ?? transfer.phone) : e.payer,
      purpose: 'excess',
      send: true,
      transfer: transfer ? transfer._id : null,
      at: new Date(transfer?.createdAt ?? doc.updatedAt ?? e.at),
      ...MPESA_SYSTEM,
    });
  }

  // The refund recorded when the order was cancelled: from the payment its transfer reversed,
  // then the latest payments first (an old refund was of the payment in full).
  const r = old.refund;
  if (r) {
    const transfer = r.sendByMpesa ? old.transfers.get(`order:${orderId}`) : undefined;
    const reversed = transfer?.originalTransId ?? null;
    const from = [...entries].reverse();
    from.sort(
      (a, b) =>
        Number(!!reversed && (b.code === reversed || b.reference === reversed)) -
        Number(!!reversed && (a.code === reversed || a.reference === reversed)),
    );
    let left = r.amount;
    let part = 0;
    for (const e of from) {
      if (left <= 0) break;
      const amount = Math.min(left, e.returnable);
      if (amount <= 0) continue;
      const kind = refundKind(r, e, amount, transfer, notes, order.purchaseNumber);
      giveBack(e, {
        _id: `out:${part === 0 ? r._id.toHexString() : stableId(r._id.toHexString(), String(part))}`,
        kind,
        amount,
        reference: transfer?.transactionId ?? r.reference ?? '',
        payer:
          kind === 'b2c'
            ? transfer?.phone
              ? (toMpesaPhone(transfer.phone) ?? transfer.phone)
              : e.payer
            : null,
        purpose: 'refund',
        send: kind === 'reversal' || kind === 'b2c',
        transfer: transfer && (kind === 'reversal' || kind === 'b2c') ? transfer._id : null,
        at: new Date(r.refundedAt),
        byId: r.refundedById,
        byName: r.refundedByName,
        byRole: 'staff',
      });
      left -= amount;
      part++;
    }
    if (left > 0)
      notes.push(
        `order ${order.purchaseNumber}: its refund of KES ${r.amount} is KES ${left} more than its payments brought`,
      );
  }
  const refundOut = outs.filter((e) => e.purpose === 'refund').map((e) => e._id);
  return { entries: [...entries, ...outs], credits, amountPaid: paid, refundOut, notes };
}

/** How an old refund's part went back: cash, by hand, or the M-Pesa transfer that sent it. */
function refundKind(
  r: RefundDoc,
  of: Entry,
  amount: number,
  transfer: TransferDoc | undefined,
  notes: string[],
  purchaseNumber: string,
): MoneyOutKind {
  if (r.method === 'Cash') return 'cash';
  if (!r.sendByMpesa) return 'mpesa-by-hand';
  if (transfer) return transfer.method;
  // Asked to be sent and not sent yet: the refunds sweep sends it, to the number that paid only.
  if (amount === of.amount && of.code) return 'reversal';
  if (of.payer) return 'b2c';
  notes.push(
    `order ${purchaseNumber}: a refund of KES ${amount} was to be sent by M-Pesa, but nobody's number is known for payment ${of.code ?? of._id}: it is recorded as given back by hand; send it by hand`,
  );
  return 'mpesa-by-hand';
}
