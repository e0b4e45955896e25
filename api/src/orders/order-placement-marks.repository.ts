import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model, Types } from 'mongoose';
import { Order } from './schemas/order.schema';

/** The marks a placement's finishing write and a stock return leave on orders, many at once. */
@Injectable()
export class OrderPlacementMarks {
  private readonly logger = new Logger('OrderPlacement');

  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  /**
   * `reserving` becomes `placed`, for many orders in one write (each order's change atomic on its
   * own); answers the ids that became `placed` (not those the reconciler gave up first).
   */
  async markAllPlaced(ids: string[]): Promise<string[]> {
    const res = await this.orders.updateMany(
      { _id: { $in: ids }, placement: 'reserving' },
      { $set: { placement: 'placed' } },
    );
    if (res.modifiedCount === ids.length) return ids;
    // Some were undone meanwhile (rare): which became placed is read back. One still `reserving`
    // (the write passed it by) is marked on its own: only an undo may keep an order from placing.
    const placed = await this.orders
      .find({ _id: { $in: ids }, placement: 'placed' })
      .select({ _id: 1 })
      .lean<{ _id: Types.ObjectId }[]>();
    const marked = new Set(placed.map((d) => d._id.toString()));
    for (const id of ids.filter((i) => !marked.has(i))) {
      const one = await this.orders.updateOne(
        { _id: id, placement: 'reserving' },
        { $set: { placement: 'placed' } },
      );
      if (one.modifiedCount === 1) {
        marked.add(id);
        this.logger.warn(
          `Order ${id} was marked placed on its own: the write for its group missed it`,
        );
      }
    }
    return ids.filter((i) => marked.has(i));
  }

  /** Records that these orders' reservation markers left their products (one write for all). */
  async markSettled(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.orders.updateMany(
      { _id: { $in: ids }, ledgerSettled: false },
      { $set: { ledgerSettled: true } },
    );
  }

  async setFlags(
    id: string,
    flags: Partial<Pick<Order, 'ledgerSettled' | 'stockReturn'>>,
  ): Promise<void> {
    await this.orders.updateOne({ _id: id }, { $set: flags });
  }
}
