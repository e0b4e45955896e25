import { Injectable } from '@nestjs/common';
import type { BookingState } from '@spc/shared-contracts';
import type { Actor } from '../common/principal';
import { OrderStock } from '../orders/order-stock';
import type { OrderRecord } from '../orders/order.types';
import { OrdersRepository } from '../orders/orders.repository';
import { BookingsRepository } from './bookings.repository';
import { OrderRecoveryRepository } from '../orders/order-recovery.repository';
import type { OrderBooking } from '../orders/schemas/order.schema';

/** How long one sweeper holds a move a crash cut off while it finishes it. */
const STALE_MOVE_CLAIM_MS = 60_000;

/**
 * What the bookings and batches modules ask of booking orders: read a batch's, change a state,
 * claim and make a move. Provided by the orders module (a booking is an order).
 */
@Injectable()
export class OrderBookings {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly bookings: BookingsRepository,
    private readonly recovery: OrderRecoveryRepository,
    private readonly stock: OrderStock,
  ) {}

  /** A batch's booking orders, in booking order (the order they were placed). */
  ofBatch(batchId: string): Promise<OrderRecord[]> {
    return this.bookings.bookingsOfBatch(batchId);
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
    return this.bookings.setBookingState(orderId, from, state, set);
  }

  /** Placed bookings in a state and order status (a balance due by a day, or before one). */
  inState(
    state: BookingState,
    orderStatus: string | string[],
    options: { dueBefore?: string; dueBy?: string; skip?: number; limit?: number } = {},
  ): Promise<{ items: OrderRecord[]; total: number }> {
    return this.bookings.bookingsIn(state, orderStatus, options);
  }

  /** Bookings whose notice (ready, affected) is still to be sent. */
  noticesDue(): Promise<OrderRecord[]> {
    return this.bookings.bookingNoticesDue();
  }

  /** The notice of this booking is sent: not to be sent again. */
  noticeSent(orderId: string): Promise<void> {
    return this.bookings.clearBookingNotice(orderId);
  }

  /**
   * Claims an affected booking for a move to `batchId` (one move at a time): false when it is no
   * longer affected on `fromBatchId` or a move is under way.
   */
  async claimMove(order: OrderRecord, batchId: string): Promise<boolean> {
    return !!(await this.orders.transition(
      order._id,
      {
        'booking.state': 'Affected',
        'booking.batchId': order.booking!.batchId,
        'booking.movePending': { $ne: true },
      },
      { $set: { 'booking.movePending': true, 'booking.movingTo': batchId } },
    ));
  }

  /** The move is over (done, or given up): nothing left for the sweep. */
  async endMove(orderId: string): Promise<void> {
    await this.orders.transition(
      orderId,
      {},
      { $unset: { 'booking.movePending': '', 'booking.movingTo': '' } },
    );
  }

  /**
   * Claims a move its process left midway (untouched since before `before`) for one sweeper, for
   * a minute: false when it ended meanwhile or another sweeper has it.
   */
  claimStaleMove(orderId: string, before: Date): Promise<boolean> {
    return this.recovery.claimUnfinished(
      orderId,
      { 'booking.movePending': true, updatedAt: { $lt: before } },
      STALE_MOVE_CLAIM_MS,
    );
  }

  /** Moves whose process stopped midway (left since before `before`), with where they were going. */
  movesPending(before: Date): Promise<(OrderRecord & { movingTo: string | null })[]> {
    return this.bookings.movesPending(before);
  }

  /**
   * Dispatched bookings whose seedlings have not left their batch yet (a crash between the two):
   * taken out now, once. Answers how many.
   */
  async finishFulfilments(actor: Actor): Promise<number> {
    let done = 0;
    for (const order of await this.bookings.bookingsToFulfil()) {
      // Out of its batch, then its moment recorded (the hold's hand-over does both, once).
      await this.stock.handOver(order, actor);
      done++;
    }
    return done;
  }
}
