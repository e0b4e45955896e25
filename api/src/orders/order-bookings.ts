import { Injectable } from '@nestjs/common';
import type { BookingState } from '@spc/shared-contracts';
import type { Actor } from '../common/principal';
import { OrderStock } from './order-stock';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import type { OrderBooking } from './schemas/order.schema';

/** What other modules (bookings, batches) ask of booking orders: read a batch's, change a state. */
@Injectable()
export class OrderBookings {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly stock: OrderStock,
  ) {}

  /** A batch's booking orders, in booking order (the order they were placed). */
  ofBatch(batchId: string): Promise<OrderRecord[]> {
    return this.orders.bookingsOfBatch(batchId);
  }

  /** One placed order (any status), or null. */
  find(id: string): Promise<OrderRecord | null> {
    return this.orders.findAnyById(id);
  }

  /** A booking's state from one of `from` to `state`, once; false when it had moved on. */
  setState(
    orderId: string,
    from: readonly BookingState[],
    state: BookingState,
    set: Partial<Record<keyof OrderBooking, unknown>> = {},
  ): Promise<boolean> {
    return this.orders.setBookingState(orderId, from, state, set);
  }

  /** Placed bookings in a state and order status (a balance due by a day, or before one). */
  inState(
    state: BookingState,
    orderStatus: string | string[],
    options: { dueBefore?: string; dueBy?: string; skip?: number; limit?: number } = {},
  ): Promise<{ items: OrderRecord[]; total: number }> {
    return this.orders.bookingsIn(state, orderStatus, options);
  }

  /** Bookings whose notice (ready, affected) is still to be sent. */
  noticesDue(): Promise<OrderRecord[]> {
    return this.orders.bookingNoticesDue();
  }

  /** The notice of this booking is sent: not to be sent again. */
  noticeSent(orderId: string): Promise<void> {
    return this.orders.clearBookingNotice(orderId);
  }

  /**
   * Moves a booking to another batch (its hold there already taken): back to `Booked`, its
   * deposit kept. False when it was no longer `Affected`.
   */
  moveTo(
    order: OrderRecord,
    batch: { _id: string; readyOn: string; productName: string },
  ): Promise<OrderRecord | null> {
    return this.orders.transition(
      order._id,
      { 'booking.state': 'Affected', 'booking.batchId': order.booking!.batchId },
      {
        $set: {
          'booking.state': order.booking!.depositPaidAt ? 'Booked' : 'Deposit due',
          'booking.batchId': batch._id,
          'booking.readyOn': batch.readyOn,
          'booking.movedFromBatchId': order.booking!.batchId,
          'booking.problem': null,
          'booking.readyAt': null,
          'booking.balanceDueBy': null,
        },
      },
    );
  }

  /**
   * Dispatched bookings whose seedlings have not left their batch yet (a crash between the two):
   * taken out now, once. Answers how many.
   */
  async finishFulfilments(actor: Actor): Promise<number> {
    const { items } = await this.orders.bookingsIn(
      'Paid',
      ['InTransit', 'Delivered', 'Completed'],
      {
        limit: 200,
      },
    );
    let done = 0;
    for (const order of items.filter((o) => !o.booking?.fulfilledAt)) {
      await this.stock.fulfilBooking(order, actor);
      await this.orders.transition(
        order._id,
        { 'booking.fulfilledAt': null },
        { $set: { 'booking.fulfilledAt': new Date() } },
      );
      done++;
    }
    return done;
  }
}
