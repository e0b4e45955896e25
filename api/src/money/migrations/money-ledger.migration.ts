import { createHash } from 'node:crypto';
import type { AnyBulkWriteOperation, Db, Document, ObjectId } from 'mongodb';
import { MPESA_EXPRESS_NAME, MPESA_MAX_AMOUNT_KES, toMpesaPhone } from '@spc/shared-contracts';
import { canonicalReceiptCode, isReceiptCode } from '../../common/identifiers';
import { isDuplicateKeyError } from '../../common/mongo-errors';
import type { MoneyEntry, MoneyInKind, MoneyOutKind } from '../schemas/money-entry.schema';
import { MONEY_CODE_INDEX } from '../schemas/money-entry.schema';

/** What the money-ledger migration did. */
export interface MoneyLedgerMigration {
  /** Orders given their entries, `moneyCredits` and `amountPaid` from them. */
  migrated: number;
  /** Orders with money that had their entries already. */
  alreadyMigrated: number;
  /** Entries written: money in (orders' payments, inbox payments) and back (refunds, payouts). */
  entriesIn: number;
  entriesOut: number;
  /** What the old records say that the ledger cannot hold as it is: for a person to look at. */
  notes: string[];
}

const BATCH = 500;
const MPESA_SYSTEM = { byId: 'mpesa-express', byName: MPESA_EXPRESS_NAME, byRole: 'system' };

type Entry = Omit<MoneyEntry, 'code' | 'unconfirmed' | 'verified'> & {
  code?: string;
  unconfirmed?: boolean;
  verified?: boolean;
};

interface OldOrder {
  _id: ObjectId;
  purchaseNumber: string;
  paymentStatus: string;
  paymentMethod: string | null;
  paymentDetails: {
    amount?: number;
    transactionCode?: string;
    timePaid?: Date | null;
    completedById?: string;
    completedByName?: string;
  } | null;
  totalAmount: number;
  amountPaid?: number;
  paidAt?: Date | null;
  orderDate: Date;
  mpesaCredits?: { transId: string; amount: number; at: Date }[];
  booking?: { deposit: number } | null;
}

interface C2bDoc {
  _id: string;
  amount: number;
  phone: string;
  paidAt: Date;
  status: string;
  reason?: string;
  orderId: string | null;
  excess?: number;
  refundId?: string | null;
  queries?: number;
  updatedAt?: Date;
}

interface PushDoc {
  _id: string;
  orderId: string;
  phone: string;
  amount: number;
  receipt?: string | null;
  receipts?: string[];
  callback?: { transactionDate?: Date | null } | null;
}

interface RefundDoc {
  _id: ObjectId;
  orderId: string;
  method: string;
  amount: number;
  reference?: string;
  sendByMpesa?: boolean;
  refundedById: string;
  refundedByName: string;
  refundedAt: Date;
}

interface TransferDoc {
  _id: string;
  method: 'reversal' | 'b2c';
  amount: number;
  phone?: string;
  originalTransId?: string | null;
  transactionId?: string | null;
  createdAt?: Date;
}

/** What one order's money was before the ledger, read from every old record of it. */
export interface OldMoney {
  order: OldOrder;
  /** Its paybill payments, by TransID. */
  paybill: Map<string, C2bDoc>;
  /** Its paid M-Pesa Express prompts. */
  prompts: PushDoc[];
  refund: RefundDoc | null;
  /** M-Pesa transfers (mpesa_refunds) by id: `order:<id>`, `excess:<TransID>`. */
  transfers: Map<string, TransferDoc>;
}

/** An order's entries and what the order keeps of them. */
export interface OrderLedger {
  entries: Entry[];
  credits: {
    entry: string;
    amount: number;
    deposit: number;
    balance: number;
    excess: number;
    at: Date;
  }[];
  amountPaid: number;
  /** Its refund's outgoing entries, which its cancellation names. */
  refundOut: string[];
  notes: string[];
}

/** A stable id for what has no id of its own, so a second run writes the same entry. */
const stableId = (...parts: string[]) =>
  createHash('sha1').update(parts.join('\0')).digest('hex').slice(0, 24);

/** A code in its one spelling, or null when it is no M-Pesa code. */
function mpesaCode(typed: string | null | undefined): string | null {
  const code = canonicalReceiptCode(typed ?? '');
  return code && isReceiptCode(code) ? code : null;
}

const wholeShillings = (n: number) => Number.isInteger(n) && n > 0;

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

/** A paybill payment waiting in the inbox (or given back from it): its open entry, and its reversal. */
export function ledgerOfInboxPayment(
  doc: C2bDoc,
  transfer: TransferDoc | undefined,
  now = new Date(),
): Entry[] {
  const unconfirmed =
    doc.status === 'verifying' || /^M-Pesa did not confirm/.test(doc.reason ?? '');
  const entry: Entry = {
    _id: `c2b:${doc._id}`,
    direction: 'in',
    kind: 'paybill',
    amount: doc.amount,
    code: doc._id,
    reference: '',
    orderId: null,
    purchaseNumber: null,
    payer: toMpesaPhone(doc.phone) ?? null,
    state: 'open',
    meantFor: null,
    ...(unconfirmed ? { unconfirmed: true } : {}),
    ...((doc.queries ?? 0) > 0 && !unconfirmed ? { verified: true } : {}),
    split: null,
    returnable: doc.amount,
    returned: 0,
    returns: [],
    of: null,
    purpose: null,
    send: false,
    transfer: null,
    ...MPESA_SYSTEM,
    at: new Date(doc.paidAt),
    claimedAt: null,
    createdAt: new Date(doc.paidAt),
    updatedAt: now,
  };
  if (doc.status !== 'refund' || !doc.refundId) return [entry];
  entry.returnable = 0;
  entry.returned = doc.amount;
  entry.returns = [{ out: doc.refundId, amount: doc.amount }];
  const at = new Date(transfer?.createdAt ?? doc.updatedAt ?? doc.paidAt);
  return [
    entry,
    {
      _id: doc.refundId,
      direction: 'out',
      kind: 'reversal',
      amount: doc.amount,
      reference: transfer?.transactionId ?? '',
      orderId: null,
      purchaseNumber: null,
      payer: null,
      state: 'recorded',
      meantFor: null,
      split: null,
      returnable: 0,
      returned: 0,
      returns: [],
      of: entry._id,
      purpose: 'inbox',
      send: true,
      transfer: transfer ? transfer._id : null,
      ...MPESA_SYSTEM,
      at,
      claimedAt: null,
      createdAt: at,
      updatedAt: now,
    },
  ];
}

/**
 * Moves the money of orders written before the money ledger (issue 38) into it: every payment an
 * order's old records show (paybill credits, prompts, the desk, cash, a booking's deposit) becomes
 * an incoming entry credited to it, with `moneyCredits` and `amountPaid` written from them; its
 * refund (named by the order's `refundOut`, as a cancellation names it) and a paybill
 * over-payment's payout become outgoing entries against them, linked to the
 * M-Pesa transfer that sent them; paybill payments waiting in the inbox get their open entry.
 *
 * Idempotent: every entry has an id its records give it (a second run finds it there), and an order
 * is migrated by one conditional write once it has no `moneyCredits` (orders the ledger credited
 * have them), after its entries. A code already on another entry (one code credited on two orders
 * before the ledger) is written without it and named in `notes`, for a person to check.
 */
export async function migrateMoneyLedger(db: Db, now = new Date()): Promise<MoneyLedgerMigration> {
  const result: MoneyLedgerMigration = {
    migrated: 0,
    alreadyMigrated: 0,
    entriesIn: 0,
    entriesOut: 0,
    notes: [],
  };
  const ledger = db.collection<Entry>('money_entries');
  // The unique code first (as the API builds it at start): what tells a code taken.
  const indexed = await ledger
    .listIndexes()
    .toArray()
    .catch(() => [] as Document[]);
  if (!indexed.some((i) => i.name === MONEY_CODE_INDEX))
    await ledger.createIndex(
      { code: 1 },
      {
        unique: true,
        name: MONEY_CODE_INDEX,
        partialFilterExpression: { code: { $type: 'string' } },
      },
    );
  const orders = db.collection<OldOrder & { moneyCredits?: unknown[] }>('orders');
  const withMoney = {
    $or: [
      { paymentStatus: 'Paid' },
      { amountPaid: { $gt: 0 } },
      { 'mpesaCredits.0': { $exists: true } },
    ],
  };
  result.alreadyMigrated = await orders.countDocuments({
    moneyCredits: { $exists: true },
    ...withMoney,
  });
  let batch: OldOrder[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const done = await migrateBatch(db, batch, now, result);
    result.migrated += done;
    batch = [];
  };
  for await (const o of orders.find(
    { moneyCredits: { $exists: false }, ...withMoney },
    {
      projection: {
        purchaseNumber: 1,
        paymentStatus: 1,
        paymentMethod: 1,
        paymentDetails: 1,
        totalAmount: 1,
        amountPaid: 1,
        paidAt: 1,
        orderDate: 1,
        mpesaCredits: 1,
        'booking.deposit': 1,
      },
    },
  )) {
    batch.push(o);
    if (batch.length >= BATCH) await flush();
  }
  await flush();

  // Paybill payments that no order took: open in the inbox (or given back from it).
  const payments = db.collection<C2bDoc>('mpesa_c2b_payments');
  let waiting: C2bDoc[] = [];
  const flushInbox = async () => {
    if (!waiting.length) return;
    const have = new Set(
      (
        await ledger
          .find({ _id: { $in: waiting.map((p) => `c2b:${p._id}`) } }, { projection: { _id: 1 } })
          .toArray()
      ).map((e) => e._id),
    );
    const transfers = await transfersById(
      db,
      waiting.map((p) => p.refundId).filter((id): id is string => !!id),
    );
    // A TransID already on another entry counts for nothing again (as a replayed confirmation).
    const taken = new Set(
      (
        await ledger
          .find({ code: { $in: waiting.map((p) => p._id) } }, { projection: { code: 1 } })
          .toArray()
      ).map((e) => e.code),
    );
    const entries: Entry[] = [];
    for (const p of waiting) {
      if (have.has(`c2b:${p._id}`)) continue;
      if (taken.has(p._id)) {
        result.notes.push(
          `paybill payment ${p._id} waits in the inbox, but its code is already a payment's: it has no entry`,
        );
        continue;
      }
      if (!wholeShillings(p.amount) || p.amount > MPESA_MAX_AMOUNT_KES) {
        result.notes.push(
          `paybill payment ${p._id} of KES ${p.amount} is not a believable amount: it has no entry; give it back by hand`,
        );
        continue;
      }
      entries.push(
        ...ledgerOfInboxPayment(p, p.refundId ? transfers.get(p.refundId) : undefined, now),
      );
    }
    await insertEntries(db, entries, result);
    waiting = [];
  };
  for await (const p of payments.find({
    status: { $in: ['inbox', 'refund', 'verifying', 'matching'] },
  })) {
    waiting.push(p);
    if (waiting.length >= BATCH) await flushInbox();
  }
  await flushInbox();
  return result;
}

async function transfersById(db: Db, ids: string[]): Promise<Map<string, TransferDoc>> {
  if (!ids.length) return new Map();
  const docs = await db
    .collection<TransferDoc>('mpesa_refunds')
    .find({ _id: { $in: ids } })
    .toArray();
  return new Map(docs.map((t) => [t._id, t]));
}

/** One batch of orders: their old records read together, their entries, then the orders. */
async function migrateBatch(
  db: Db,
  orders: OldOrder[],
  now: Date,
  result: MoneyLedgerMigration,
): Promise<number> {
  const ids = orders.map((o) => o._id.toHexString());
  const paybill = await db
    .collection<C2bDoc>('mpesa_c2b_payments')
    .find({ orderId: { $in: ids } })
    .toArray();
  const prompts = await db
    .collection<PushDoc>('mpesa_pushes')
    .find({ orderId: { $in: ids }, status: 'paid' })
    .toArray();
  const refunds = await db
    .collection<RefundDoc>('order_refunds')
    .find({ orderId: { $in: ids } })
    .toArray();
  const transfers = await transfersById(db, [
    ...ids.map((id) => `order:${id}`),
    ...paybill.map((p) => p.refundId).filter((id): id is string => !!id),
  ]);
  const entries: Entry[] = [];
  const updates: AnyBulkWriteOperation<Document>[] = [];
  for (const order of orders) {
    const id = order._id.toHexString();
    const ledger = ledgerOfOrder(
      {
        order,
        paybill: new Map(paybill.filter((p) => p.orderId === id).map((p) => [p._id, p])),
        prompts: prompts.filter((p) => p.orderId === id),
        refund: refunds.find((r) => r.orderId === id) ?? null,
        transfers,
      },
      now,
    );
    result.notes.push(...ledger.notes);
    entries.push(...ledger.entries);
    updates.push({
      updateOne: {
        filter: { _id: order._id, moneyCredits: { $exists: false } },
        update: {
          $set: {
            moneyCredits: ledger.credits,
            amountPaid: ledger.amountPaid,
            ...(ledger.refundOut.length ? { refundOut: ledger.refundOut } : {}),
          },
        },
      },
    });
  }
  await insertEntries(db, entries, result);
  const res = await db.collection('orders').bulkWrite(updates, { ordered: false });
  return res.modifiedCount;
}

/**
 * Writes entries once: one already there (a second run) is left as it is; one whose code another
 * entry holds is written without it, and noted.
 */
async function insertEntries(
  db: Db,
  entries: Entry[],
  result: MoneyLedgerMigration,
): Promise<void> {
  if (!entries.length) return;
  const ledger = db.collection<Entry>('money_entries');
  const failed = new Set<number>();
  try {
    await ledger.insertMany(entries, { ordered: false });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const errors = (error as { writeErrors?: { index: number; code: number }[] }).writeErrors ?? [];
    for (const w of errors) {
      if (w.code !== 11000) throw error;
      failed.add(w.index);
    }
  }
  for (const [i, e] of entries.entries()) {
    if (!failed.has(i)) {
      if (e.direction === 'in') result.entriesIn++;
      else result.entriesOut++;
      continue;
    }
    if (await ledger.findOne({ _id: e._id }, { projection: { _id: 1 } })) continue;
    // Its code is another entry's: one code counted twice before the ledger.
    const other = await ledger.findOne({ code: e.code }, { projection: { purchaseNumber: 1 } });
    const { code, ...rest } = e;
    await ledger.insertOne({ ...rest, reference: rest.reference || code || '' });
    result.entriesIn++;
    result.notes.push(
      `the code ${code} is on a payment of order ${other?.purchaseNumber ?? '(the inbox)'} and of order ${e.purchaseNumber ?? '(the inbox)'}: counted twice before the ledger; the second is kept without the code, check the M-Pesa statement`,
    );
  }
}
