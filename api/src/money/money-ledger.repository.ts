import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model } from 'mongoose';
import { duplicateKeyField, isDuplicateKeyError } from '../common/mongo-errors';
import { MONEY_CODE_INDEX, MoneyEntry, type MoneyEntryState } from './schemas/money-entry.schema';

/** An entry as the ledger answers it. */
export type MoneyEntryRecord = Omit<MoneyEntry, 'createdAt' | 'updatedAt'> & {
  createdAt: Date;
  updatedAt: Date;
};

/** A new entry: what it is; the ledger fills in its state of giving back. */
export type NewMoneyEntry = Pick<
  MoneyEntry,
  '_id' | 'direction' | 'kind' | 'amount' | 'orderId' | 'purchaseNumber' | 'payer' | 'state' | 'at'
> &
  Partial<
    Pick<
      MoneyEntry,
      | 'code'
      | 'reference'
      | 'unconfirmed'
      | 'verified'
      | 'split'
      | 'of'
      | 'purpose'
      | 'send'
      | 'byId'
      | 'byName'
      | 'byRole'
      | 'claimedAt'
      | 'invoiceId'
    >
  >;

/** What inserting an entry came to: written, the same entry already there, or its code taken. */
export type Inserted =
  | { state: 'new'; entry: MoneyEntryRecord }
  | { state: 'exists'; entry: MoneyEntryRecord }
  | { state: 'code-taken'; entry: MoneyEntryRecord };

/**
 * The money ledger's storage: every method is one atomic operation on one entry (an insert under
 * the unique code, or a conditional update), named for what it means.
 */
@Injectable()
export class MoneyLedgerRepository {
  constructor(@InjectModel(MoneyEntry.name) private readonly entries: Model<MoneyEntry>) {}

  /** Writes an entry once: its id or its code already there answers that entry instead. */
  async insert(entry: NewMoneyEntry): Promise<Inserted> {
    try {
      const doc = await this.entries.create({
        reference: '',
        split: null,
        returnable: entry.direction === 'in' ? entry.amount : 0,
        returned: 0,
        returns: [],
        of: null,
        purpose: null,
        send: false,
        transfer: null,
        byId: '',
        byName: '',
        byRole: '',
        claimedAt: null,
        meantFor: null,
        ...entry,
      });
      return { state: 'new', entry: doc.toObject() as MoneyEntryRecord };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const byCode =
        entry.code &&
        (duplicateKeyField(error) === 'code' || String(error).includes(MONEY_CODE_INDEX));
      const other = byCode ? await this.findByCode(entry.code!) : await this.findById(entry._id);
      if (!other) throw error;
      return { state: other._id === entry._id ? 'exists' : 'code-taken', entry: other };
    }
  }

  findById(id: string): Promise<MoneyEntryRecord | null> {
    return this.entries.findById(id).lean<MoneyEntryRecord>().exec();
  }

  findByIds(ids: string[]): Promise<MoneyEntryRecord[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.entries
      .find({ _id: { $in: ids } })
      .lean<MoneyEntryRecord[]>()
      .exec();
  }

  findByCode(code: string): Promise<MoneyEntryRecord | null> {
    return this.entries.findOne({ code }).lean<MoneyEntryRecord>().exec();
  }

  /** An order's entries, oldest first. */
  ofOrder(orderId: string): Promise<MoneyEntryRecord[]> {
    return this.entries
      .find({ orderId })
      .sort({ createdAt: 1, _id: 1 })
      .lean<MoneyEntryRecord[]>()
      .exec();
  }

  /** Entries of these kinds moved in [from, to), for the money figures. */
  between(direction: 'in' | 'out', from: Date, to: Date): Promise<MoneyEntryRecord[]> {
    return this.entries
      .find({
        direction,
        at: { $gte: from, $lt: to },
        state: direction === 'in' ? 'credited' : 'recorded',
      })
      .lean<MoneyEntryRecord[]>()
      .exec();
  }

  /** An open (inbox) entry claimed for an order, once; null when it is not open, or unconfirmed. */
  claim(
    id: string,
    order: { orderId: string; purchaseNumber: string },
    by: { id: string; fullName: string; role: string },
  ): Promise<MoneyEntryRecord | null> {
    return this.entries
      .findOneAndUpdate(
        {
          _id: id,
          direction: 'in',
          returned: 0,
          unconfirmed: { $ne: true },
          // Open in the inbox, or already claimed for this order (a retry after a crash).
          $or: [{ state: 'open' }, { state: 'claimed', orderId: order.orderId }],
        },
        {
          $set: {
            state: 'claimed',
            orderId: order.orderId,
            purchaseNumber: order.purchaseNumber,
            claimedAt: new Date(),
            byId: by.id,
            byName: by.fullName,
            byRole: by.role,
          },
        },
        { new: true },
      )
      .lean<MoneyEntryRecord>()
      .exec();
  }

  /**
   * A claim of this order's taken up again (a gate sale resumed after a crash): its claim time
   * now, so the reconciler no longer takes it for a dead request's. Null when it is no longer
   * claimed for the order (credited, or undone by the reconciler meanwhile).
   */
  reclaim(id: string, orderId: string): Promise<MoneyEntryRecord | null> {
    return this.entries
      .findOneAndUpdate(
        { _id: id, orderId, state: 'claimed' },
        { $set: { claimedAt: new Date() } },
        { new: true },
      )
      .lean<MoneyEntryRecord>()
      .exec();
  }

  /** A claimed entry counts on its order now, with its split. */
  async credited(id: string, orderId: string, split: MoneyEntry['split']): Promise<boolean> {
    const res = await this.entries.updateOne(
      { _id: id, orderId, state: { $in: ['claimed', 'credited'] } },
      { $set: { state: 'credited', split, claimedAt: null } },
    );
    return res.matchedCount === 1;
  }

  /** A claim the order refused: back to the inbox (`open`), or gone (an entry made for the claim). */
  async unclaim(
    entry: Pick<MoneyEntryRecord, '_id' | 'purchaseNumber'>,
    to: 'open' | 'gone',
    claimedAt?: Date | null,
  ): Promise<void> {
    // `claimedAt`: only the claim as read (a reconciler's stale one), not one taken up since.
    const filter = { _id: entry._id, state: 'claimed', ...(claimedAt ? { claimedAt } : {}) };
    if (to === 'gone') {
      await this.entries.deleteOne(filter);
      return;
    }
    await this.entries.updateOne(filter, {
      $set: {
        state: 'open',
        orderId: null,
        purchaseNumber: null,
        claimedAt: null,
        meantFor: entry.purchaseNumber,
      },
    });
  }

  /**
   * An inbox (open) entry credited to an invoice (issue 44), once: still open and confirmed, or
   * already credited to this invoice (a retry). Null when it cannot be.
   */
  creditToInvoice(
    id: string,
    invoice: { invoiceId: string; number: string },
  ): Promise<MoneyEntryRecord | null> {
    return this.entries
      .findOneAndUpdate(
        {
          _id: id,
          direction: 'in',
          returned: 0,
          unconfirmed: { $ne: true },
          $or: [{ state: 'open' }, { state: 'credited', invoiceId: invoice.invoiceId }],
        },
        {
          $set: {
            state: 'credited',
            invoiceId: invoice.invoiceId,
            purchaseNumber: invoice.number,
            meantFor: null,
            claimedAt: null,
          },
        },
        { new: true },
      )
      .lean<MoneyEntryRecord>()
      .exec();
  }

  /** The invoice counted the entry: its split (what it took off, the excess), once. */
  async invoiceCounted(id: string, invoiceId: string, split: MoneyEntry['split']): Promise<void> {
    await this.entries.updateOne({ _id: id, invoiceId, split: null }, { $set: { split } });
  }

  /**
   * Entries credited to an invoice that it has not counted yet (`split` null), written before
   * `before`: a crash between the entry and the invoice's write.
   */
  async uncountedForInvoices(before: Date, limit = 50): Promise<MoneyEntryRecord[]> {
    // Any invoice's id by a range over the strings, and the time looked at here: a server that
    // plans by rules scans for a `$type` or a second range. The uncounted ones are a handful (those
    // in hand and those a crash left).
    const uncounted = await this.entries
      .find({ split: null, state: 'credited', invoiceId: { $gt: '' } })
      .sort({ split: 1, state: 1, invoiceId: 1, _id: 1 })
      .limit(20 * limit)
      .lean<MoneyEntryRecord[]>()
      .exec();
    return uncounted.filter((e) => e.createdAt < before).slice(0, limit);
  }

  /** An entry written for an invoice that refused it (not counted): gone. */
  async removeUncounted(id: string, invoiceId: string): Promise<boolean> {
    const res = await this.entries.deleteOne({ _id: id, invoiceId, split: null, returned: 0 });
    return res.deletedCount === 1;
  }

  /** Orders that money from this payer's number was credited to (M-Pesa named the payer). */
  async ordersPaidBy(payer: string, limit = 100): Promise<string[]> {
    const docs = await this.entries
      .find({ payer, direction: 'in', state: 'credited' })
      .select({ orderId: 1 })
      .limit(limit)
      .lean<{ orderId: string | null }[]>();
    return [...new Set(docs.map((d) => d.orderId).filter((id): id is string => !!id))];
  }

  /** Credited entries of a kind that were paid beyond their order's total. */
  withExcess(kind: string, limit = 200): Promise<MoneyEntryRecord[]> {
    return this.entries
      .find({ kind, 'split.excess': { $gt: 0 }, state: 'credited' })
      .limit(limit)
      .lean<MoneyEntryRecord[]>()
      .exec();
  }

  /** Open entries of a kind (money no order took), newest first. */
  openOfKind(kind: string, limit = 200): Promise<MoneyEntryRecord[]> {
    return this.entries
      .find({ kind, state: 'open' })
      .sort({ at: -1 })
      .limit(limit)
      .lean<MoneyEntryRecord[]>()
      .exec();
  }

  /**
   * M-Pesa Express payments of this amount received without their receipt (the status query
   * settled them), in [from, to], of this payer when one is named.
   */
  codelessPrompts(
    amount: number,
    from: Date,
    to: Date,
    payer?: string,
  ): Promise<MoneyEntryRecord[]> {
    return this.entries
      .find({
        kind: 'mpesa-express',
        state: { $in: ['open', 'claimed', 'credited'] },
        at: { $gte: from, $lte: to },
        amount,
        code: { $exists: false },
        ...(payer ? { payer } : {}),
      })
      .limit(5)
      .lean<MoneyEntryRecord[]>()
      .exec();
  }

  /**
   * Claims or outgoing entries left midway since before `before` (a crash): one read per state, each
   * a range of the `{ state, claimedAt }` index (SecantusDB plans an `$in` beside a range as a
   * collection scan, and this runs every few seconds).
   */
  async unfinished(before: Date, limit = 50): Promise<MoneyEntryRecord[]> {
    const found: MoneyEntryRecord[] = [];
    for (const state of ['claimed', 'claiming'] as const) {
      if (found.length >= limit) break;
      found.push(
        ...(await this.entries
          .find({ state, claimedAt: { $lt: before } })
          .limit(limit - found.length)
          .lean<MoneyEntryRecord[]>()
          .exec()),
      );
    }
    return found;
  }

  /**
   * Takes `amount` of an incoming entry for outgoing entry `outId`: once per outgoing entry, never
   * beyond what the incoming one brought less what went back already, and only while it is in one
   * of `states` on order `orderId` (null: in the inbox). False when it cannot.
   */
  async takeReturn(
    inId: string,
    outId: string,
    amount: number,
    states: MoneyEntryState[],
    orderId: string | null,
  ): Promise<boolean> {
    const res = await this.entries.updateOne(
      {
        _id: inId,
        direction: 'in',
        state: { $in: states },
        // Still the money of the order it was read for (or of none, in the inbox).
        orderId,
        returnable: { $gte: amount },
        'returns.out': { $ne: outId },
      },
      {
        $inc: { returnable: -amount, returned: amount },
        $push: { returns: { out: outId, amount } },
      },
    );
    return res.modifiedCount === 1;
  }

  /** Gives back what `takeReturn` took for `outId` (its step did not happen). */
  async untakeReturn(inId: string, outId: string): Promise<void> {
    const doc = await this.entries
      .findOne({ _id: inId, 'returns.out': outId })
      .lean<MoneyEntryRecord>();
    const taken = doc?.returns.find((r) => r.out === outId);
    if (!taken) return;
    await this.entries.updateOne(
      { _id: inId, 'returns.out': outId },
      {
        $inc: { returnable: taken.amount, returned: -taken.amount },
        $pull: { returns: { out: outId } },
      },
    );
  }

  /** An outgoing entry's state from `from`; false when it was not in it. */
  async setState(
    id: string,
    from: MoneyEntryState,
    to: MoneyEntryState,
    set: Partial<MoneyEntry> = {},
  ): Promise<boolean> {
    const res = await this.entries.updateOne(
      { _id: id, state: from },
      {
        $set: {
          state: to,
          ...(to === 'recorded' || to === 'credited' ? { claimedAt: null } : {}),
          ...set,
        },
      },
    );
    return res.modifiedCount === 1;
  }

  async remove(id: string, state: MoneyEntryState): Promise<void> {
    await this.entries.deleteOne({ _id: id, state });
  }

  /** Sets fields of an entry that matches `guard` (its code, its transfer, confirmed); false if not. */
  async update(
    id: string,
    guard: FilterQuery<MoneyEntry>,
    set: Partial<MoneyEntry>,
  ): Promise<boolean> {
    try {
      const res = await this.entries.updateOne({ _id: id, ...guard }, { $set: set });
      return res.modifiedCount === 1;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Recorded outgoing entries to send through Daraja that have no transfer yet. */
  toSend(limit = 20): Promise<MoneyEntryRecord[]> {
    return this.entries
      .find({ send: true, transfer: null, state: 'recorded' })
      .limit(limit)
      .lean<MoneyEntryRecord[]>()
      .exec();
  }

  /** Every entry, in pages, for `money:check` and the migration's idempotence. */
  async *all(filter: FilterQuery<MoneyEntry> = {}): AsyncGenerator<MoneyEntryRecord> {
    for await (const doc of this.entries.find(filter).lean<MoneyEntryRecord>().cursor())
      yield doc as MoneyEntryRecord;
  }
}
