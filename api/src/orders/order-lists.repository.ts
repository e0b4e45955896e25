import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { orderSearchOf } from './order-contact-keys';
import { listQuery, listSort, matchesFilter } from './order-list-query';
import type { OrderListFilter, OrderRecord } from './order.types';
import { toRecord, type LeanOrder } from './order-record';
import { Order } from './schemas/order.schema';

/** A purchase number's start (SPD and 3 or more characters) names at most this many orders. */
const NUMBER_PREFIX_MATCHES = 500;

/** The order lists: the shop's and a customer's pages, their counts (the export reads its own). */
@Injectable()
export class OrderListsRepository {
  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  /** A page of the orders matching the filter, in the list's order (read in index order). */
  async page(filter: OrderListFilter, skip: number, limit: number): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find(listQuery(filter))
      .sort(listSort(filter))
      .skip(skip)
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.map(toRecord);
  }

  /**
   * Every order a purchase number search finds, whole or by its start, in the list's order; null
   * for any other search or none.
   */
  async byNumber(filter: OrderListFilter): Promise<OrderRecord[] | null> {
    const found = filter.search ? await this.searched(filter) : null;
    return found && found.map(toRecord);
  }

  /**
   * How many placed orders match, counted one by one, up to `limit` when given: a search's and a
   * customer's (the order counts' rollup counts the others).
   */
  async count(filter: OrderListFilter, limit?: number): Promise<number> {
    // The `count` command, not countDocuments' aggregation: a server may answer it from the index
    // keys alone (the Rust SecantusDB does, about three times as fast, where the aggregation reads
    // every document it counts); on a standalone server or a replica set it is exact.
    const answer = await this.orders.db.db!.command({
      count: this.orders.collection.collectionName,
      query: listQuery(filter),
      ...(limit ? { limit } : {}),
    });
    return (answer as { n: number }).n;
  }

  /** How many placed orders match the filter, every one counted (the export's bound). */
  async countMatching(filter: OrderListFilter): Promise<number> {
    const searched = filter.search ? await this.searched(filter) : null;
    if (searched) return searched.length;
    return this.orders.countDocuments(listQuery(filter));
  }

  /**
   * A search for a purchase number, whole or its start: the orders are looked up by the unique
   * number index and checked against the other filters here (newest first). Null for any other
   * search, which `listQuery` asks by the contact keys.
   */
  private async searched(filter: OrderListFilter): Promise<LeanOrder[] | null> {
    const search = orderSearchOf(filter.search!);
    if (search.kind === 'number') {
      const doc = await this.orders.findOne({ purchaseNumber: search.number }).lean<LeanOrder>();
      return doc && matchesFilter(doc, filter) ? [doc] : [];
    }
    if (search.kind !== 'number-prefix') return null;
    const docs = await this.orders
      .find({ purchaseNumber: { $gte: search.from, $lte: search.to } })
      .limit(NUMBER_PREFIX_MATCHES)
      .lean<LeanOrder[]>();
    const sort = listSort(filter);
    const [field, dir] = Object.entries(sort)[0]!;
    const key = (d: LeanOrder) => {
      const v = (d as unknown as Record<string, unknown>)[field];
      return v instanceof Date ? v.getTime() : Number(v);
    };
    return docs
      .filter((d) => matchesFilter(d, filter))
      .sort((a, b) => (key(a) - key(b)) * dir || String(a._id).localeCompare(String(b._id)) * dir);
  }

  /** The purchase numbers of these placed orders, by id (ids with no placed order are left out). */
  async purchaseNumbersOf(ids: string[]): Promise<Map<string, string>> {
    const docs = await this.orders
      .find({ _id: { $in: ids }, placement: 'placed' })
      .select({ purchaseNumber: 1 })
      .lean<{ _id: { toString(): string }; purchaseNumber: string }[]>();
    return new Map(docs.map((d) => [d._id.toString(), d.purchaseNumber]));
  }
}
