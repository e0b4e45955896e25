import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { OrderStatus, PaymentStatus } from '@spc/shared-contracts';
import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import type { Connection } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { AmountBands } from './order-amount-bands';

/**
 * The rows' shape: a state of another version is rebuilt from scratch on the next refresh (the
 * version before counted no amounts).
 */
const ROLLUP_VERSION = 2;

/** A shop day's placed orders by order status, then payment status. */
export type DayCounts = Partial<Record<OrderStatus, Partial<Record<PaymentStatus, number>>>>;

/** One shop day (Africa/Nairobi): the orders it counts, so a day an order leaves is rebuilt too. */
export interface CountDay {
  /** YYYY-MM-DD. */
  _id: string;
  /** When the orders it was built from were read: an older rebuild never replaces it. */
  at: Date;
  orderIds: string[];
  /** Each order's `orderStatus/paymentStatus`, as `orderIds` lists them. */
  states: string[];
}

/** One month's days, what a list's total adds up (36 rows for three years). */
export interface CountMonth {
  /** YYYY-MM. */
  _id: string;
  /** The same month, indexed (SecantusDB plans no range on `_id`). */
  month: string;
  /** By day of the month (`DD`). */
  days: Record<string, { at: Date; counts: DayCounts }>;
  /** Each day's orders by band of their totals (`order-amount-bands.ts`), by day (`DD`). */
  amounts?: Record<string, AmountBands>;
}

interface RollupState {
  _id: 'counts';
  /** Every order written before this instant (less the rollup's margin) is in the days. */
  upTo: Date;
  version: number;
}

/** A day as rebuilt: when its orders were read, and what they were. */
export interface RebuiltDay {
  day: string;
  at: Date;
  orderIds: string[];
  states: string[];
  counts: DayCounts;
  amounts: AmountBands;
}

/** The order counts' rollup rows (`order_count_days`, `order_count_months`) and its state. */
@Injectable()
export class OrderCountRowsRepository implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async onModuleInit(): Promise<void> {
    await this.days().createIndex({ orderIds: 1 });
    await this.months().createIndex({ month: 1 });
  }

  private days(): Collection<CountDay> {
    return this.connection.collection<CountDay>('order_count_days');
  }
  private months(): Collection<CountMonth> {
    return this.connection.collection<CountMonth>('order_count_months');
  }
  private state(): Collection<RollupState> {
    return this.connection.collection<RollupState>('order_count_state');
  }

  /** Until when every order is in the days, or null before the first build (of this version). */
  async upTo(): Promise<Date | null> {
    const state = await this.state().findOne({ _id: 'counts' });
    return state?.version === ROLLUP_VERSION ? state.upTo : null;
  }

  /** Records a refresh that started at `started`; never moves back (an older one ending later). */
  async refreshedAt(started: Date, rebuilt: boolean): Promise<void> {
    await this.state().updateOne(
      { _id: 'counts' },
      // A whole rebuild sets the time (an older version's may be later); a refresh moves it on.
      rebuilt ? { $set: { upTo: started, version: ROLLUP_VERSION } } : { $max: { upTo: started } },
      { upsert: true },
    );
  }

  /** The days counting any of these orders. */
  daysHolding(orderIds: string[]): Promise<CountDay[]> {
    return this.days()
      .find({ orderIds: { $in: orderIds } })
      .toArray();
  }

  /** The months from `from` to `to` (YYYY-MM, both included; `to` open when absent), counts only. */
  monthsBetween(from: string, to?: string): Promise<CountMonth[]> {
    return this.months()
      .find({ month: { $gte: from, ...(to ? { $lte: to } : {}) } }, { projection: { amounts: 0 } })
      .toArray();
  }

  /** Every day's orders by band of their totals. */
  async amounts(): Promise<AmountBands[]> {
    const months = await this.months()
      .find({ month: { $gte: '' } }, { projection: { amounts: 1 } })
      .toArray();
    return months.flatMap((m) => Object.values(m.amounts ?? {}));
  }

  /**
   * Replaces each day's row and its counts in its month, each only where no rebuild that read the
   * orders later wrote it first (that write is the newer; the upsert's duplicate key says so).
   */
  async write(days: RebuiltDay[]): Promise<void> {
    if (!days.length) return;
    const dayRows: AnyBulkWriteOperation<CountDay>[] = [];
    const monthRows: AnyBulkWriteOperation<CountMonth>[] = [];
    for (const { day, at, orderIds, states, counts, amounts } of days) {
      const notNewer = { $not: { $gt: at } };
      dayRows.push({
        replaceOne: {
          filter: { _id: day, at: notNewer },
          replacement: { at, orderIds, states },
          upsert: true,
        },
      });
      const [month, dd] = [day.slice(0, 7), day.slice(8)];
      monthRows.push({
        updateOne: {
          filter: { _id: month, [`days.${dd}.at`]: notNewer },
          update: { $set: { month, [`days.${dd}`]: { at, counts }, [`amounts.${dd}`]: amounts } },
          upsert: true,
        },
      });
    }
    await Promise.all([newestKept(this.days(), dayRows), newestKept(this.months(), monthRows)]);
  }
}

/**
 * Runs the conditional upserts. One that meets a duplicate key met either a newer row (its
 * condition failed, so it tried to insert one: nothing to do) or another instance inserting the
 * same row at that moment (a month's first day, say): it is tried once more, now against a row.
 */
async function newestKept<T extends Document>(
  collection: Collection<T>,
  ops: AnyBulkWriteOperation<T>[],
): Promise<void> {
  let pending = ops;
  for (let attempt = 0; attempt < 2 && pending.length; attempt++) {
    try {
      await collection.bulkWrite(pending, { ordered: false });
      return;
    } catch (error) {
      const failures = (error as { writeErrors?: { index: number; code?: number }[] }).writeErrors;
      if (!failures?.length || !failures.every((e) => isDuplicateKeyError(e))) throw error;
      pending = failures.map((e) => pending[e.index]!);
    }
  }
}
