import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import { MPESA_MAX_AMOUNT_KES } from '@spc/shared-contracts';
import { isDuplicateKeyError } from '../../common/mongo-errors';
import { MONEY_CODE_INDEX } from '../schemas/money-entry.schema';
import { ledgerOfInboxPayment } from './inbox-payment-ledger';
import {
  type C2bDoc,
  type Entry,
  type OldOrder,
  type PushDoc,
  type RefundDoc,
  type TransferDoc,
  wholeShillings,
} from './old-money-records';
import { ledgerOfOrder } from './order-ledger';

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
