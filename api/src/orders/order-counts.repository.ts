import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { OrderStatus, PaymentStatus } from '@spc/shared-contracts';
import type { Model } from 'mongoose';
import { OrderDeletion } from './schemas/order-deletion.schema';
import { Order } from './schemas/order.schema';

/** A placed order as the counts read it. */
export interface CountedOrder {
  _id: string;
  orderDate: Date;
  orderStatus: OrderStatus;
  paymentStatus: PaymentStatus;
  totalAmount: number;
}

/** An order written lately, as the counts' rollup reads it to find the days to rebuild. */
export interface ChangedOrder extends Omit<CountedOrder, 'orderDate'> {
  /** Null when it is not placed (yet, or any more): no day counts it now. */
  orderDate: Date | null;
}

type Lean<T> = Omit<T, '_id'> & { _id: { toString(): string } };

const COUNTED = { orderDate: 1, orderStatus: 1, paymentStatus: 1, totalAmount: 1 } as const;

const counted = (d: Lean<CountedOrder>): CountedOrder => ({
  _id: d._id.toString(),
  orderDate: new Date(d.orderDate),
  orderStatus: d.orderStatus,
  paymentStatus: d.paymentStatus,
  totalAmount: d.totalAmount,
});

/** What the order counts' rollup reads of the orders: placed orders by day, and what changed. */
@Injectable()
export class OrderCountsRepository {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(OrderDeletion.name) private readonly deletions: Model<OrderDeletion>,
  ) {}

  /** The placed orders of [from, to) (the index `placement, orderDate, _id`). */
  async placedBetween(from: Date, to: Date): Promise<CountedOrder[]> {
    const docs = await this.orders
      .find({ placement: 'placed', orderDate: { $gte: from, $lt: to } })
      .select(COUNTED)
      .lean<Lean<CountedOrder>[]>();
    return docs.map(counted);
  }

  /** Every placed order, newest first, from one cursor (the rollup's first build). */
  async *everyPlaced(): AsyncGenerator<CountedOrder> {
    const cursor = this.orders
      .find({ placement: 'placed' })
      .sort({ orderDate: -1, _id: -1 })
      .select(COUNTED)
      .lean<Lean<CountedOrder>[]>()
      .cursor({ batchSize: 5000 });
    for await (const doc of cursor) yield counted(doc as Lean<CountedOrder>);
  }

  /** The orders written since `since` (by `updatedAt`, indexed). */
  async changedSince(since: Date): Promise<ChangedOrder[]> {
    const docs = await this.orders
      .find({ updatedAt: { $gte: since } })
      .select({ ...COUNTED, placement: 1 })
      .lean<Lean<CountedOrder & { placement: string }>[]>();
    return docs.map((d) => ({
      ...counted(d),
      orderDate: d.placement === 'placed' ? new Date(d.orderDate) : null,
    }));
  }

  /** The orders deleted since `since`. */
  async deletedSince(since: Date): Promise<{ _id: string; deletedAt: Date }[]> {
    return this.deletions
      .find({ deletedAt: { $gte: since } })
      .lean<{ _id: string; deletedAt: Date }[]>();
  }

  /** Forgets the deletions recorded before `before` (every count already reflects them). */
  async forgetDeletionsBefore(before: Date): Promise<void> {
    await this.deletions.deleteMany({ deletedAt: { $lt: before } });
  }
}
