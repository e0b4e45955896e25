import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { TrancheState } from '@spc/shared-contracts';
import { Types, type Model } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { OrderTranches } from './schemas/order-tranches.schema';
import type {
  OrderLineCopy,
  OrderTranchesRecord,
  TrancheRecord,
  WorkRecord,
} from './tranche-record';

type Doc = Omit<OrderTranchesRecord, '_id'> & {
  _id: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
};

const toRecord = (doc: Doc): OrderTranchesRecord => ({
  _id: doc._id.toHexString(),
  purchaseNumber: doc.purchaseNumber,
  organisationId: doc.organisationId,
  lpoNumber: doc.lpoNumber,
  lines: doc.lines,
  tranches: (doc.tranches ?? []).map((t) => ({ ...t, lines: t.lines.map((l) => ({ ...l })) })),
  next: doc.next,
  rev: doc.rev,
  work: doc.work ?? [],
});

/** What a tranche list filters on: a state, its day between two (included), an organisation's. */
export interface TrancheFilter {
  states?: TrancheState[];
  from?: string;
  to?: string;
  organisationId?: string;
}

/** One tranche in a list, with its order's number, LPO and organisation. */
export interface ListedTranche {
  orderId: string;
  purchaseNumber: string;
  organisationId: string;
  lpoNumber: string;
  lines: OrderLineCopy[];
  tranche: TrancheRecord;
}

/**
 * The only code touching `order_tranches`: one document per order holding its tranches. Every
 * change is one conditional write on the `rev` read (`replace`), so two clerks (on one API
 * instance or two) never both change what one read.
 */
@Injectable()
export class TranchesRepository {
  constructor(@InjectModel(OrderTranches.name) private readonly model: Model<OrderTranches>) {}

  private collection() {
    return this.model.collection;
  }

  async find(orderId: string): Promise<OrderTranchesRecord | null> {
    if (!Types.ObjectId.isValid(orderId)) return null;
    const doc = (await this.collection().findOne({
      _id: new Types.ObjectId(orderId),
    })) as Doc | null;
    return doc ? toRecord(doc) : null;
  }

  /** The order's first tranches document; false when one was written first (read it again). */
  async create(record: Omit<OrderTranchesRecord, 'rev'> & { rev?: number }): Promise<boolean> {
    const now = new Date();
    try {
      await this.collection().insertOne({
        ...record,
        _id: new Types.ObjectId(record._id),
        rev: 1,
        createdAt: now,
        updatedAt: now,
      } as never);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /**
   * Writes the tranches, the next number and the work left, only if the document is still at
   * `rev` (then `rev + 1`); false when another change came first (read it again).
   */
  async replace(
    orderId: string,
    rev: number,
    change: Pick<OrderTranchesRecord, 'tranches' | 'next' | 'work'>,
  ): Promise<boolean> {
    const res = await this.collection().updateOne(
      { _id: new Types.ObjectId(orderId), rev },
      {
        $set: {
          tranches: change.tranches,
          next: change.next,
          work: change.work,
          updatedAt: new Date(),
        },
        $inc: { rev: 1 },
      },
    );
    return res.modifiedCount === 1;
  }

  /** Orders whose work a step left before `before` (a crash), oldest first. */
  async withWorkBefore(before: Date, limit = 100): Promise<OrderTranchesRecord[]> {
    const docs = (await this.collection()
      .find({ 'work.at': { $lt: before } })
      .limit(limit)
      .toArray()) as unknown as Doc[];
    return docs.map(toRecord);
  }

  /**
   * The orders with a tranche whose signed note was recorded between `from` and `to` (what the
   * invoices' sweep looks at, by the index on the notes' times: only a delivered tranche has one).
   */
  async deliveredBetween(from: Date, to: Date, limit = 500): Promise<string[]> {
    const docs = (await this.collection()
      .find({ 'tranches.recordedAt': { $gte: from, $lt: to } })
      .project({ _id: 1 })
      .limit(limit)
      .toArray()) as { _id: Types.ObjectId }[];
    return docs.map((d) => d._id.toHexString());
  }

  /**
   * Orders with a tranche planned for `day` (by the index on the tranches' state and day; a
   * server that plans by rules scans an `$elemMatch` or a `$ne`): the caller skips the tranches of
   * another day or state and those whose contact is texted already.
   */
  async plannedFor(day: string, limit = 500): Promise<OrderTranchesRecord[]> {
    const docs = (await this.collection()
      .find({ 'tranches.state': 'Planned', 'tranches.date': day })
      .limit(limit)
      .toArray()) as unknown as Doc[];
    return docs.map(toRecord);
  }

  /** One page of tranches matching `filter`, by day (then order number and tranche), and how many. */
  async list(
    filter: TrancheFilter,
    skip: number,
    limit: number,
  ): Promise<{ items: ListedTranche[]; total: number }> {
    const base = stagesOf(filter);
    const [rows, counted] = await Promise.all([
      this.collection()
        .aggregate([
          ...base,
          { $sort: { 'tranches.date': 1, purchaseNumber: 1, 'tranches.number': 1 } },
          { $skip: skip },
          { $limit: limit },
          {
            $project: {
              purchaseNumber: 1,
              organisationId: 1,
              lpoNumber: 1,
              lines: 1,
              tranches: 1,
            },
          },
        ])
        .toArray(),
      this.collection()
        .aggregate([...base, { $count: 'n' }])
        .toArray(),
    ]);
    const items = (rows as unknown as (Omit<Doc, 'tranches'> & { tranches: TrancheRecord })[]).map(
      (r) => ({
        orderId: r._id.toHexString(),
        purchaseNumber: r.purchaseNumber,
        organisationId: r.organisationId,
        lpoNumber: r.lpoNumber,
        lines: r.lines,
        tranche: r.tranches,
      }),
    );
    return { items, total: (counted[0] as { n?: number } | undefined)?.n ?? 0 };
  }

  /** How many tranches match each filter. */
  async count(filters: TrancheFilter[]): Promise<number[]> {
    return Promise.all(
      filters.map(async (f) => {
        const rows = await this.collection()
          .aggregate([...stagesOf(f), { $count: 'n' }])
          .toArray();
        return (rows[0] as { n?: number } | undefined)?.n ?? 0;
      }),
    );
  }

  /** The tranches documents of these orders (a person's data export and erasure). */
  async forOrders(orderIds: readonly string[]): Promise<OrderTranchesRecord[]> {
    const ids = orderIds.filter((id) => Types.ObjectId.isValid(id));
    if (!ids.length) return [];
    const docs = (await this.collection()
      .find({ _id: { $in: ids.map((id) => new Types.ObjectId(id)) } })
      .toArray()) as unknown as Doc[];
    return docs.map(toRecord);
  }

  /** The tranches documents naming these site contacts' phones (stored as +254…). */
  async withContactPhones(phones: readonly string[]): Promise<OrderTranchesRecord[]> {
    if (!phones.length) return [];
    const docs = (await this.collection()
      .find({ 'tranches.site.contact.phone': { $in: [...phones] } })
      .toArray()) as unknown as Doc[];
    return docs.map(toRecord);
  }

  /** An order's tranches go with it (a deleted order). */
  async deleteFor(orderId: string): Promise<void> {
    if (!Types.ObjectId.isValid(orderId)) return;
    await this.collection().deleteOne({ _id: new Types.ObjectId(orderId) });
  }
}

/**
 * The stages that answer a filter's tranches, one a row: the orders having one (by the index on
 * the tranches' state and day), their tranches unwound, those matching kept.
 */
function stagesOf(filter: TrancheFilter): Record<string, unknown>[] {
  const match = trancheMatch(filter);
  const some = Object.keys(match).length > 0;
  return [
    {
      $match: {
        ...(filter.organisationId ? { organisationId: filter.organisationId } : {}),
        ...(some ? { tranches: { $elemMatch: match } } : { 'tranches.0': { $exists: true } }),
      },
    },
    { $unwind: '$tranches' },
    ...(some
      ? [
          {
            $match: Object.fromEntries(Object.entries(match).map(([k, v]) => [`tranches.${k}`, v])),
          },
        ]
      : []),
  ];
}

/** The conditions on one tranche a filter sets. */
function trancheMatch(filter: TrancheFilter): Record<string, unknown> {
  const date =
    filter.from || filter.to
      ? {
          date: {
            ...(filter.from ? { $gte: filter.from } : {}),
            ...(filter.to ? { $lte: filter.to } : {}),
          },
        }
      : {};
  return {
    ...(filter.states ? { state: { $in: filter.states } } : {}),
    ...date,
  };
}

export type { WorkRecord };
