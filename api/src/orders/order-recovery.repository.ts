import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model } from 'mongoose';
import type { OrderRecord } from './order.types';
import { toRecord, type LeanOrder } from './order-record';
import { NOT_ON_ACCOUNT } from './order-terms';
import { Order } from './schemas/order.schema';

/**
 * What the reconciler and the expiry loop read and claim: work a crash left midway, and unpaid
 * orders past their time.
 */
@Injectable()
export class OrderRecoveryRepository {
  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  /**
   * Claims the undo of an interrupted placement for `leaseMs` (one undoer at a time): `reserving`
   * becomes `undoing` (false when the placement finished first), or an `undoing` one whose last
   * claim has lapsed (its reconciler died midway) is taken again. False while another holds it.
   */
  async claimUndo(id: string, leaseMs: number, now = new Date()): Promise<boolean> {
    const until = new Date(now.getTime() + leaseMs);
    const res = await this.orders.updateOne(
      {
        _id: id,
        $or: [
          { placement: 'reserving' },
          {
            placement: 'undoing',
            $or: [{ reconcileUntil: null }, { reconcileUntil: { $lte: now } }],
          },
        ],
      },
      { $set: { placement: 'undoing', reconcileUntil: until } },
    );
    return res.modifiedCount === 1;
  }

  /**
   * Claims an order's unfinished work (`state`: what it still is, e.g. a stock return pending)
   * for one reconciler for `leaseMs`; false when it is finished or another holds it.
   */
  async claimUnfinished(
    id: string,
    state: FilterQuery<Order>,
    leaseMs: number,
    now = new Date(),
  ): Promise<boolean> {
    const until = new Date(now.getTime() + leaseMs);
    const res = await this.orders.updateOne(
      {
        _id: id,
        ...state,
        $or: [{ reconcileUntil: null }, { reconcileUntil: { $lte: now } }],
      },
      { $set: { reconcileUntil: until } },
    );
    return res.modifiedCount === 1;
  }

  /** Work a crash may have left: placements never finished, markers not removed, returns not done. */
  async unfinished(
    reservingBefore: Date,
  ): Promise<{ reserving: OrderRecord[]; unsettled: OrderRecord[]; returning: OrderRecord[] }> {
    // One equality and one range per query, each a prefix of an index (placement/createdAt,
    // placement/ledgerSettled/createdAt, stockReturn/updatedAt): no scan of the years of orders.
    const find = (filter: FilterQuery<Order>) =>
      this.orders.find(filter).limit(500).lean<LeanOrder[]>();
    const before = { $lt: reservingBefore };
    const [reservingOnly, undoing, unsettled, pending, done] = await Promise.all([
      find({ placement: 'reserving', createdAt: before }),
      find({ placement: 'undoing', createdAt: before }),
      find({ placement: 'placed', ledgerSettled: false, createdAt: before }),
      find({ stockReturn: 'pending', updatedAt: before }),
      find({ stockReturn: 'done', updatedAt: before }),
    ]);
    const reserving = [...reservingOnly, ...undoing].slice(0, 500);
    const returning = [...pending, ...done].slice(0, 500);
    return {
      reserving: reserving.map(toRecord),
      unsettled: unsettled.map(toRecord),
      returning: returning.map(toRecord),
    };
  }

  /** Placed orders still Pending and unpaid, ordered before `before` (oldest first). */
  async unpaidPendingBefore(before: Date, limit = 100): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({
        placement: 'placed',
        orderStatus: 'Pending',
        paymentStatus: 'Pending',
        // A part-paid order holds the customer's money: a clerk settles it, not the clock.
        amountPaid: { $not: { $gt: 0 } },
        orderDate: { $lt: before },
        // An offline gate sale is dated when the till sold it (issue 47): it expires by when it
        // was placed here, never while it is being paid.
        $or: [{ 'till.offline': null }, { createdAt: { $lt: before } }],
        // An order on account does not expire unpaid (ORDER_RULES.cancel.notOnAccountFor.system).
        ...NOT_ON_ACCOUNT,
      })
      .sort({ orderDate: 1 })
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.map(toRecord);
  }
}
