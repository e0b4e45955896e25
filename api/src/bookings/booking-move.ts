import { BadRequestException, Injectable } from '@nestjs/common';
import type { UpdateQuery } from 'mongoose';
import type { BatchRecord } from '../batches/batches.service';
import { BatchesService } from '../batches/batches.service';
import type { Principal } from '../common/principal';
import type { OrderStep } from '../orders/order-actions';
import { bookingChanged, type StepWrite } from '../orders/order-step-rules';
import type { OrderRecord } from '../orders/order.types';
import type { Order } from '../orders/schemas/order.schema';
import { OrderBookings } from './booking-orders';
import { ownBooking } from './booking-steps';

/** Where a booking moves; `prepare` adds the batches it found and the seedlings it holds. */
export interface MoveInput {
  batchId: string;
  from?: BatchRecord;
  to?: BatchRecord;
  seedlings?: number;
}

/**
 * The booking on its new batch (its hold there already taken), its money kept: `Paid` when paid
 * in full (nothing is asked of it when the batch is ready, and it can be dispatched), else
 * `Booked` with its deposit or `Deposit due`.
 */
function moveChange(order: OrderRecord, to: BatchRecord): UpdateQuery<Order> {
  const paidInFull = order.paymentStatus === 'Paid' || order.amountPaid >= order.totalAmount;
  return {
    $set: {
      'booking.state': paidInFull
        ? 'Paid'
        : order.booking!.depositPaidAt
          ? 'Booked'
          : 'Deposit due',
      'booking.batchId': to._id,
      'booking.readyOn': to.readyOn,
      'booking.movedFromBatchId': order.booking!.batchId,
      'booking.problem': null,
      'booking.readyAt': null,
      'booking.balanceDueBy': null,
      'booking.movingTo': null,
    },
  };
}

/**
 * An affected booking moved to another growing batch of its product with room, its money and its
 * state kept (staff, or the customer who owns it): a step of the order runner over several
 * writes. The move is claimed on the order, its seedlings held on the new batch (each write named
 * with its undo), the order moved in one conditional update, then its old hold given back. A crash
 * midway is the bookings sweep's (`recover`): undone while the order is not on its new batch,
 * finished once it is.
 */
@Injectable()
export class BookingMove {
  constructor(
    private readonly batches: BatchesService,
    private readonly bookings: OrderBookings,
  ) {}

  /** Claimed first, so that one move runs at a time and a crash leaves a trace to recover. */
  private readonly claim: StepWrite<MoveInput> = {
    name: 'claim the move',
    invoke: async ({ order, input }) => {
      if (!(await this.bookings.claimMove(order, input.batchId))) throw bookingChanged();
    },
    compensate: ({ order }) => this.bookings.endMove(order._id),
  };

  /** The seedlings held on the new batch (its conditional update decides the race for room). */
  private readonly hold: StepWrite<MoveInput> = {
    name: 'hold on the new batch',
    invoke: async ({ order, input }) => {
      await this.batches.hold(input.to!._id, input.to!.productId, order._id, input.seedlings!);
    },
    compensate: async ({ order, input }) => {
      await this.batches.release(input.batchId, order._id, {
        purchaseNumber: order.purchaseNumber,
      });
    },
  };

  readonly step: OrderStep<MoveInput> = {
    rule: { booking: 'move' },
    event: 'booking.moved',
    access: ownBooking,
    refusal: ({ order }) =>
      `Only a booking whose batch failed or fell short can be moved; booking ${order.purchaseNumber} is ${order.booking!.state.toLowerCase()}`,
    guard: ({ order, input }) => ({
      'booking.state': 'Affected',
      'booking.batchId': order.booking!.batchId,
      'booking.movingTo': input.batchId,
    }),
    prepare: async ({ order, input }) => {
      if (input.batchId === order.booking!.batchId)
        throw new BadRequestException(
          'Choose another batch than the one that failed or fell short',
        );
      input.from = await this.batches.get(order.booking!.batchId);
      input.seedlings = order.products.reduce((n, l) => n + l.quantity * l.unit.seedlings, 0);
      input.to = await this.batches.checkBookable(
        input.batchId,
        input.from.productId,
        input.seedlings,
      );
      return moveChange(order, input.to);
    },
    writes: [this.claim, this.hold],
    // Its seedlings on the old batch go back (bookable again, or lost with a failed batch).
    after: ({ order, actor }) => this.finish(order, order.booking!.batchId, actor as Principal),
    sms: 'moved',
    // The news of its batch, whoever asked for the move.
    shopText: true,
    audit: {
      action: 'booking.move',
      text: ({ actor, order, input }) =>
        `${actor.fullName} moved booking ${order.purchaseNumber} (${input.seedlings} seedlings) from the batch ready on ${input.from!.readyOn} to the batch ready on ${input.to!.readyOn}; its deposit goes with it`,
    },
  };

  /**
   * A move a crash cut off (claimed by this sweeper): still going to `movingTo`, its writes are
   * undone, last first; already on its new batch, it is finished (the old hold given back).
   */
  async recover(order: OrderRecord & { movingTo: string | null }): Promise<void> {
    if (order.movingTo) {
      const ctx = { order, input: { batchId: order.movingTo } };
      for (const write of [...this.step.writes!].reverse()) await write.compensate(ctx);
    } else await this.finish(order, order.booking?.movedFromBatchId ?? null, null);
  }

  /** The old batch's hold given back, then the move is over. */
  private async finish(
    order: OrderRecord,
    fromBatchId: string | null,
    by: Principal | null,
  ): Promise<void> {
    if (fromBatchId)
      await this.batches.release(fromBatchId, order._id, {
        purchaseNumber: order.purchaseNumber,
        ...(by ? { by } : {}),
      });
    await this.bookings.endMove(order._id);
  }
}
