import { Injectable } from '@nestjs/common';
import { nextInSequence } from '../common/counters';
import { InjectModel } from '@nestjs/mongoose';
import { invoiceNumber, type InvoiceFilter, type InvoiceState } from '@spc/shared-contracts';
import { Types, type Model } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import {
  Invoice,
  InvoiceCounter,
  type InvoiceLine,
  type InvoiceReminderSent,
  type InvoiceSettlement,
  type InvoiceSite,
} from './schemas/invoice.schema';

/** An invoice as the repository answers it (plain, its id as text). */
export interface InvoiceRecord {
  _id: string;
  number: string | null;
  organisationId: string;
  organisationName: string;
  organisationKraPin: string;
  shopName: string;
  shopKraPin: string;
  orderId: string;
  purchaseNumber: string;
  lpoNumber: string;
  tranche: number | null;
  trancheKey: string;
  site: InvoiceSite | null;
  lines: InvoiceLine[];
  fee: number;
  total: number;
  issuedAt: Date;
  dueDate: string;
  paid: number;
  withheld: number;
  credited: number;
  excess: number;
  balance: number;
  state: InvoiceState;
  settlements: InvoiceSettlement[];
  reminders: InvoiceReminderSent[];
  rev: number;
  byId: string;
  byName: string;
  byRole: string;
}

/** What issuing writes: the invoice before its number (its sums start at nothing settled). */
export type InvoiceDraft = Omit<
  InvoiceRecord,
  | '_id'
  | 'number'
  | 'paid'
  | 'withheld'
  | 'credited'
  | 'excess'
  | 'balance'
  | 'state'
  | 'settlements'
  | 'reminders'
  | 'rev'
>;

/** What a list asks: a filter, an organisation's, the shop's day (overdue is before it). */
export interface InvoiceQuery {
  filter: InvoiceFilter;
  organisationId?: string;
  today: string;
}

type Doc = Omit<InvoiceRecord, '_id'> & { _id: Types.ObjectId; carriesFee?: boolean };

const toRecord = (doc: Doc): InvoiceRecord => ({
  _id: doc._id.toHexString(),
  number: doc.number ?? null,
  organisationId: doc.organisationId,
  organisationName: doc.organisationName,
  organisationKraPin: doc.organisationKraPin,
  shopName: doc.shopName,
  shopKraPin: doc.shopKraPin ?? '',
  orderId: doc.orderId,
  purchaseNumber: doc.purchaseNumber,
  lpoNumber: doc.lpoNumber,
  tranche: doc.tranche ?? null,
  trancheKey: doc.trancheKey,
  site: doc.site ?? null,
  lines: doc.lines ?? [],
  fee: doc.fee ?? 0,
  total: doc.total,
  issuedAt: doc.issuedAt,
  dueDate: doc.dueDate,
  paid: doc.paid ?? 0,
  withheld: doc.withheld ?? 0,
  credited: doc.credited ?? 0,
  excess: doc.excess ?? 0,
  balance: doc.balance,
  state: doc.state,
  settlements: doc.settlements ?? [],
  reminders: doc.reminders ?? [],
  rev: doc.rev ?? 0,
  byId: doc.byId ?? '',
  byName: doc.byName ?? '',
  byRole: doc.byRole ?? 'system',
});

/** The counter document of the invoices' numbers. */
const SEQUENCE = 'invoices';

/** How long a caller who found the invoice written by another waits for its number. */
const NUMBER_WAIT_MS = 2_000;

/**
 * The only code writing `invoices` and the invoices' counter, and what the other invoice modules
 * read invoices through (`find`, `findByNumber`, `ofOrder`, `list`). An invoice is written once
 * per order and key (a unique index: a second issue answers the first), then numbered from the
 * counter in a second step: a crash between leaves it without a number, which the sweep gives it
 * (`numberLeft`); a number taken and not written is skipped, never reused.
 */
@Injectable()
export class InvoicesRepository {
  constructor(
    @InjectModel(Invoice.name) private readonly model: Model<Invoice>,
    @InjectModel(InvoiceCounter.name) private readonly counters: Model<InvoiceCounter>,
  ) {}

  private collection() {
    return this.model.collection;
  }

  /**
   * Writes the invoice unless its order and key have one (then answers that one, `created`
   * false), and numbers it. The order's delivery fee goes on one invoice of the order only (a
   * unique index on the invoice carrying it): when another took it meanwhile, this one is
   * written without it.
   */
  async insert(draft: InvoiceDraft): Promise<{ invoice: InvoiceRecord; created: boolean }> {
    const existing = await this.findFor(draft.orderId, draft.trancheKey);
    if (existing) return { invoice: await this.withNumber(existing), created: false };
    let body = draft;
    for (let attempt = 0; attempt < 2; attempt++) {
      const _id = new Types.ObjectId();
      try {
        await this.collection().insertOne({
          _id,
          ...body,
          number: null,
          carriesFee: body.fee > 0,
          paid: 0,
          withheld: 0,
          credited: 0,
          excess: 0,
          balance: body.total,
          state: body.total > 0 ? 'Open' : 'Paid',
          settlements: [],
          reminders: [],
          rev: 0,
        } as never);
        return { invoice: await this.number(_id.toHexString()), created: true };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const first = await this.findFor(draft.orderId, draft.trancheKey);
        if (first) return { invoice: await this.withNumber(first), created: false };
        if (body.fee === 0) throw error;
        // Another invoice of the order carries its delivery fee: this one does not.
        body = { ...body, fee: 0, total: body.total - body.fee };
      }
    }
    throw new Error(`The invoice of order ${draft.purchaseNumber} could not be written`);
  }

  /** Gives an invoice written without a number the next number (once: a numbered one stays). */
  async number(id: string): Promise<InvoiceRecord> {
    const _id = new Types.ObjectId(id);
    const current = await this.find(id);
    if (!current || current.number) return current!;
    const seq = await nextInSequence(this.counters.collection, SEQUENCE);
    await this.collection().updateOne(
      { _id, number: { $type: 'null' } },
      { $set: { number: invoiceNumber(seq) } },
    );
    return (await this.find(id))!;
  }

  /**
   * An invoice another call wrote: its number once that call gives it (waited for a moment), or
   * given here when none comes (its writer died; the sweep would give it otherwise).
   */
  async withNumber(invoice: InvoiceRecord): Promise<InvoiceRecord> {
    const until = Date.now() + NUMBER_WAIT_MS;
    let now = invoice;
    while (!now.number && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      now = (await this.find(invoice._id)) ?? now;
    }
    return now.number ? now : this.number(invoice._id);
  }

  /**
   * Invoices issued at or after `since`, oldest first, at most `limit` (the eTIMS sweep pages by
   * the last one's `issuedAt`); read by the `{ issuedAt: -1, _id: -1 }` index, walked backwards.
   */
  async issuedSince(since: Date, limit: number): Promise<InvoiceRecord[]> {
    const docs = (await this.collection()
      .find({ issuedAt: { $gte: since } })
      .sort({ issuedAt: 1, _id: 1 })
      .limit(limit)
      .toArray()) as unknown as Doc[];
    return docs.map(toRecord);
  }

  /** Invoices written before `before` and still without a number (a crash), numbered. */
  async numberLeft(before: Date, limit = 100): Promise<number> {
    const docs = (await this.collection()
      .find({ number: null, issuedAt: { $lt: before } })
      .sort({ issuedAt: 1, _id: 1 })
      .limit(limit)
      .project({ _id: 1 })
      .toArray()) as { _id: Types.ObjectId }[];
    for (const d of docs) await this.number(d._id.toHexString());
    return docs.length;
  }

  async find(id: string): Promise<InvoiceRecord | null> {
    if (!Types.ObjectId.isValid(id)) return null;
    const doc = (await this.collection().findOne({ _id: new Types.ObjectId(id) })) as Doc | null;
    return doc ? toRecord(doc) : null;
  }

  /** By its number (`INV-000042`, as `invoiceNumberOf` reads a typed one). */
  async findByNumber(number: string): Promise<InvoiceRecord | null> {
    const doc = (await this.collection().findOne({ number })) as Doc | null;
    return doc ? toRecord(doc) : null;
  }

  /** The invoice of an order and key ('T1', 'T2'… or 'order'). */
  async findFor(orderId: string, trancheKey: string): Promise<InvoiceRecord | null> {
    const doc = (await this.collection().findOne({ orderId, trancheKey })) as Doc | null;
    return doc ? toRecord(doc) : null;
  }

  /** An order's invoices, the whole order's first, then by tranche. */
  async ofOrder(orderId: string): Promise<InvoiceRecord[]> {
    const docs = (await this.collection()
      .find({ orderId })
      .sort({ tranche: 1, issuedAt: 1 })
      .toArray()) as unknown as Doc[];
    return docs.map(toRecord);
  }

  /** The invoices of these orders (a person's data export and erasure). */
  async forOrders(orderIds: readonly string[]): Promise<InvoiceRecord[]> {
    if (!orderIds.length) return [];
    const docs = (await this.collection()
      .find({ orderId: { $in: [...orderIds] } })
      .toArray()) as unknown as Doc[];
    return docs.map(toRecord);
  }

  /** The site's name without a person's (an erasure); the invoice's sums are not touched. */
  async renameSite(id: string, name: string): Promise<void> {
    await this.collection().updateOne(
      { _id: new Types.ObjectId(id) },
      { $set: { 'site.name': name }, $inc: { rev: 1 } },
    );
  }

  /** Of these orders, those that have an invoice. */
  async invoicedOrders(orderIds: readonly string[]): Promise<Set<string>> {
    if (!orderIds.length) return new Set();
    const ids = (await this.collection().distinct('orderId', {
      orderId: { $in: [...orderIds] },
    })) as string[];
    return new Set(ids);
  }

  /**
   * One page of invoices: newest first (the overdue ones: the oldest due first), how many, and
   * what the listed filter owes in all.
   */
  async list(
    query: InvoiceQuery,
    skip: number,
    limit: number,
  ): Promise<{ items: InvoiceRecord[]; total: number; owed: number }> {
    const match = matchOf(query);
    const sort: Record<string, 1 | -1> =
      query.filter === 'overdue' ? { dueDate: 1, _id: 1 } : { issuedAt: -1, _id: -1 };
    const [docs, total, owed] = await Promise.all([
      this.collection().find(match).sort(sort).skip(skip).limit(limit).toArray(),
      this.collection().countDocuments(match),
      this.collection()
        .aggregate([{ $match: match }, { $group: { _id: null, owed: { $sum: '$balance' } } }])
        .toArray(),
    ]);
    return {
      items: (docs as unknown as Doc[]).map(toRecord),
      total,
      owed: (owed[0] as { owed?: number } | undefined)?.owed ?? 0,
    };
  }
}

/** The conditions of a list's filter. */
function matchOf(query: InvoiceQuery): Record<string, unknown> {
  const org = query.organisationId ? { organisationId: query.organisationId } : {};
  switch (query.filter) {
    case 'open':
      return { ...org, state: 'Open' };
    case 'overdue':
      return { ...org, state: 'Open', dueDate: { $lt: query.today } };
    case 'paid':
      return { ...org, state: { $in: ['Paid', 'Credited'] } };
    case 'all':
      return org;
  }
}
