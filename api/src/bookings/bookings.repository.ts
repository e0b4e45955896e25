import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model } from 'mongoose';
import type { BookingState } from '@spc/shared-contracts';
import type { OrderRecord } from '../orders/order.types';
import { toRecord, type LeanOrder } from '../orders/order-record';
import { Order, type OrderBooking } from '../orders/schemas/order.schema';

/**
 * The bookings' queries: a booking is an order with `booking` set, so these read and change the
 * orders collection (the orders module provides this repository, its collection's owner).
 */
/** A booking's deposit or balance as received: its order, KES and when. */
export interface BookingPayment {
  orderId: string;
  kind: 'deposit' | 'balance';
  amount: number;
  at: Date;
}

@Injectable()
export class BookingsRepository {
  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  /** A batch's booking orders (placed), in booking order. */
  async bookingsOfBatch(batchId: string): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({ 'booking.batchId': batchId, placement: 'placed' })
      .sort({ orderDate: 1 })
      .limit(5000)
      .lean<LeanOrder[]>();
    return docs.map(toRecord);
  }

  /**
   * A booking's state changes from one of `from` (with `set`: other `booking.*` fields), in one
   * conditional update; false when it was no longer in one of them.
   */
  async setBookingState(
    id: string,
    from: readonly BookingState[],
    state: BookingState,
    set: Partial<Record<keyof OrderBooking, unknown>> = {},
  ): Promise<boolean> {
    const fields = Object.fromEntries(
      Object.entries({ ...set, state }).map(([key, value]) => [`booking.${key}`, value]),
    );
    const res = await this.orders.updateOne(
      { _id: id, 'booking.state': { $in: from } },
      { $set: fields },
    );
    return res.modifiedCount === 1;
  }

  /** Placed bookings in one state and order status (a balance due by `dueBy` at the latest). */
  async bookingsIn(
    state: string,
    orderStatus: string | string[],
    options: { dueBefore?: string; dueBy?: string; skip?: number; limit?: number } = {},
  ): Promise<{ items: OrderRecord[]; total: number }> {
    const due = {
      ...(options.dueBefore ? { $lt: options.dueBefore } : {}),
      ...(options.dueBy ? { $lte: options.dueBy } : {}),
    };
    const query: FilterQuery<Order> = {
      'booking.state': state,
      orderStatus: Array.isArray(orderStatus) ? { $in: orderStatus } : orderStatus,
      ...(Object.keys(due).length ? { 'booking.balanceDueBy': due } : {}),
    };
    const [docs, total] = await Promise.all([
      this.orders
        .find(query)
        .sort({ 'booking.state': 1, orderStatus: 1, 'booking.balanceDueBy': 1 })
        .skip(options.skip ?? 0)
        .limit(options.limit ?? 100)
        .lean<LeanOrder[]>(),
      this.orders.countDocuments(query),
    ]);
    return { items: docs.filter((d) => d.placement === 'placed').map(toRecord), total };
  }

  /** Bookings with a move to another batch left unfinished since before `before`. */
  async movesPending(
    before: Date,
    limit = 50,
  ): Promise<(OrderRecord & { movingTo: string | null })[]> {
    const docs = await this.orders
      .find({ 'booking.movePending': true, updatedAt: { $lt: before } })
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.map((d) => ({ ...toRecord(d), movingTo: d.booking?.movingTo ?? null }));
  }

  /** Paid bookings sent out whose seedlings have not left their batch yet (a crash between). */
  async bookingsToFulfil(limit = 100): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({
        'booking.state': 'Paid',
        'booking.fulfilledAt': null,
        orderStatus: { $in: ['InTransit', 'Delivered', 'Completed'] },
      })
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.filter((d) => d.placement === 'placed').map(toRecord);
  }

  /** A booking's seedlings left its batch as a sale (dispatched): the moment recorded, once. */
  async markHandedOver(id: string): Promise<void> {
    await this.orders.updateOne(
      { _id: id, placement: 'placed', 'booking.fulfilledAt': null },
      { $set: { 'booking.fulfilledAt': new Date() } },
    );
  }

  /** Bookings whose ready or affected notice is still to be sent (a crash after the change). */
  async bookingNoticesDue(limit = 100): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({ 'booking.noticeDue': true, 'booking.state': { $in: ['Balance due', 'Affected'] } })
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.filter((d) => d.placement === 'placed').map(toRecord);
  }

  async clearBookingNotice(id: string): Promise<void> {
    await this.orders.updateOne({ _id: id }, { $unset: { 'booking.noticeDue': '' } });
  }

  /** When the first deposit was received, or null. */
  async firstDepositAt(): Promise<Date | null> {
    const doc = await this.orders
      .findOne({ 'booking.depositPaidAt': { $gte: new Date(0) } })
      .sort({ 'booking.depositPaidAt': 1 })
      .select({ 'booking.depositPaidAt': 1 })
      .lean<{ booking?: { depositPaidAt?: Date | null } }>();
    return doc?.booking?.depositPaidAt ? new Date(doc.booking.depositPaidAt) : null;
  }

  /**
   * Deposits and balances of bookings received in [from, to), one per order and kind, with the
   * instant each came: the sales rollup's days of money received (reports/sales-rollup.ts).
   */
  async bookingPaymentsBetween(from: Date, to: Date): Promise<BookingPayment[]> {
    const [deposits, balances] = await Promise.all([
      this.orders
        .find({ 'booking.depositPaidAt': { $gte: from, $lt: to } })
        .select({ booking: 1, totalAmount: 1, placement: 1 })
        .lean<LeanOrder[]>(),
      this.orders
        .find({ 'booking.balancePaidAt': { $gte: from, $lt: to } })
        .select({ booking: 1, totalAmount: 1, placement: 1 })
        .lean<LeanOrder[]>(),
    ]);
    const placed = (d: LeanOrder) => d.placement === 'placed' && !!d.booking;
    // A booking paid in full at once counts its deposit part as a deposit, the rest as balance.
    return [
      ...deposits.filter(placed).map((d) => ({
        orderId: String(d._id),
        kind: 'deposit' as const,
        amount: d.booking!.deposit,
        at: new Date(d.booking!.depositPaidAt!),
      })),
      ...balances.filter(placed).map((d) => ({
        orderId: String(d._id),
        kind: 'balance' as const,
        amount: d.totalAmount - d.booking!.deposit,
        at: new Date(d.booking!.balancePaidAt!),
      })),
    ];
  }
}
