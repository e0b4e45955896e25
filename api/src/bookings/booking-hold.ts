import { ConflictException, Injectable } from '@nestjs/common';
import { BOOKING_RULES, BOOKING_STATES } from '@spc/shared-contracts';
import { BatchHold } from '../batches/batch-hold';
import type { LineHold, OrderHold } from '../common/order-hold';
import type { Actor } from '../common/principal';
import type { OrderRecord } from '../orders/order.types';
import { BookingsRepository } from './bookings.repository';

/** The booking states that may be handed over (sent out), from `BOOKING_RULES`. */
const HANDED_OVER_FROM = BOOKING_STATES.filter((s) => BOOKING_RULES[s].acts.handOver);

/** The batch of a hold on a batch (a booking's lines are only ever held so). */
const batchOf = (hold: LineHold): string => {
  if (hold.on !== 'batch') throw new Error('A booking hold is given a hold on ready stock');
  return hold.batchId;
};

/**
 * The hold of a booking's lines on their growing batch: the batch's side is `BatchHold`'s (its
 * seedlings held, given back, handed over); this side reads the booking, when it may go out
 * (`BOOKING_RULES`: paid, its batch ready) and the moment its seedlings left the batch.
 * Provided by the orders module, which places and sends out bookings.
 */
@Injectable()
export class BookingHold implements OrderHold<OrderRecord> {
  constructor(
    private readonly batchHold: BatchHold,
    private readonly bookings: BookingsRepository,
  ) {}

  /**
   * The batch a stored order's lines are held on, or null for ready stock: every line of a
   * booking is on its batch (orders store no hold per line, so this is read from the booking).
   */
  heldOn(order: Pick<OrderRecord, 'booking'>): LineHold | null {
    return order.booking ? { on: 'batch', batchId: order.booking.batchId } : null;
  }

  /** The booking's hold given back to its batch (an undone placement). */
  releaseAll(order: OrderRecord, hold: LineHold): Promise<void> {
    return this.batchHold.release(order, batchOf(hold));
  }

  /** A cancelled (or expired) booking's seedlings back to its batch, once however often called. */
  giveBack(order: OrderRecord, hold: LineHold, by: Actor | null): Promise<void> {
    return this.batchHold.release(order, batchOf(hold), by);
  }

  /** A booking reserved nothing on its products: its hold stays on its batch until hand-over. */
  productsToSettle(): string[] {
    return [];
  }

  settle(): Promise<void> {
    return Promise.resolve();
  }

  /** A booking goes out paid (the state must still be so when it is sent). */
  dispatchGuard(): Record<string, unknown> {
    return { 'booking.state': { $in: HANDED_OVER_FROM } };
  }

  /** A booking goes out paid, from a ready batch (409 otherwise, with what it waits for). */
  checkDispatch(order: OrderRecord): void {
    const b = order.booking!;
    if (!BOOKING_RULES[b.state].acts.handOver)
      throw new ConflictException({
        message: `Booking ${order.purchaseNumber} is ${b.state.toLowerCase()}: it goes out once its balance is paid`,
        code: 'NOT_PAID',
      });
    if (!b.readyAt)
      throw new ConflictException({
        message: `The batch of booking ${order.purchaseNumber} is not ready yet (expected ${b.readyOn})`,
        code: 'ILLEGAL_TRANSITION',
      });
  }

  /**
   * A paid booking handed over (dispatched): its seedlings leave the batch as a sale, once, and
   * the booking records when (a crash between the two is finished by the bookings' sweep).
   */
  async handOver(order: OrderRecord, hold: LineHold, by: Actor | null): Promise<number> {
    const seedlings = await this.batchHold.handOver(order, batchOf(hold), by);
    await this.bookings.markHandedOver(order._id);
    return seedlings;
  }
}
