import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { BOOKING_MESSAGES, bookingDeposit } from '@spc/shared-contracts';
import { personOf, type HeldOrder } from '../common/order-hold';
import type { Actor } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { PricedLine } from '../orders/order-lines';
import type { OrderBooking } from '../orders/schemas/order.schema';
import { BatchesService } from './batches.service';

/**
 * The batch's side of holding an order's lines on a growing batch (the booking's side, its state
 * and dates, is `BookingHold`'s): a booking's terms, its seedlings held, given back, handed over.
 */
@Injectable()
export class BatchHold {
  constructor(
    private readonly batches: BatchesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A booking's terms: its batch can be booked for these lines (each of the batch's product;
   * 400/409 with the shopper's message otherwise, nothing written), and its deposit: the share
   * BOOKING_DEPOSIT_PERCENT of the total (delivery included), in whole KES and at least KES 1 (a
   * deposit of 0 could never be taken); the balance is the rest.
   */
  async terms(batchId: string, lines: PricedLine[], total: number): Promise<OrderBooking> {
    const seedlings = lines.reduce((sum, l) => sum + l.quantity * l.seedlings, 0);
    const productIds = new Set(lines.map((l) => l.productId));
    if (productIds.size !== 1) throw new BadRequestException(BOOKING_MESSAGES.oneBatch);
    const batch = await this.batches.checkBookable(batchId, lines[0]!.productId, seedlings);
    const depositPercent = this.config.bookings.depositPercent;
    const deposit = bookingDeposit(total, depositPercent);
    return {
      batchId: batch._id,
      productName: batch.productName,
      readyOn: batch.readyOn,
      depositPercent,
      deposit,
      balance: total - deposit,
      state: 'Deposit due',
      depositPaidAt: null,
      depositReceipt: null,
      readyAt: null,
      balanceDueBy: null,
      balancePaidAt: null,
      releasedAt: null,
      releaseDecision: null,
      problem: null,
      movedFromBatchId: null,
    } satisfies OrderBooking;
  }

  /**
   * The seedlings of an order's lines held against their batch (one conditional update on what is
   * left to book, recorded with the order's id). Refused with the shopper's reason (the batch
   * failed, is ready, or has fewer left), nothing held.
   */
  async hold(
    order: Pick<HeldOrder, '_id'>,
    batchId: string,
    lines: { productId: string; quantity: number; seedlings: number }[],
  ): Promise<void> {
    const seedlings = lines.reduce((sum, l) => sum + l.quantity * l.seedlings, 0);
    await this.batches.hold(batchId, lines[0]!.productId, order._id, seedlings);
  }

  /**
   * The order's hold given back to its batch, once however often it is called: bookable again
   * while the batch grows, into ready stock once it is ready. `by`: who cancelled, if a person.
   */
  async release(order: HeldOrder, batchId: string, by?: Actor | null): Promise<void> {
    await this.batches.release(batchId, order._id, {
      purchaseNumber: order.purchaseNumber,
      ...(by === undefined ? {} : { by: personOf(by) }),
    });
  }

  /**
   * Handed over (dispatched): the order's seedlings leave the batch as a sale, once (the batch's
   * hold is taken once; a call after that takes nothing). Answers how many seedlings.
   */
  handOver(order: HeldOrder, batchId: string, by: Actor | null): Promise<number> {
    return this.batches.fulfil(batchId, order._id, {
      purchaseNumber: order.purchaseNumber,
      by: personOf(by),
    });
  }

  /**
   * Part of the order's seedlings handed over (a tranche sent out): `seedlings` leave the batch as
   * a sale, once per `key` (a retry takes nothing). Answers how many seedlings left.
   */
  handOverPart(
    order: Pick<HeldOrder, '_id' | 'purchaseNumber'>,
    batchId: string,
    seedlings: number,
    key: string,
    by: Actor | null,
    note: string,
  ): Promise<number> {
    return this.batches.fulfilPart(batchId, order._id, seedlings, key, {
      purchaseNumber: order.purchaseNumber,
      by: personOf(by),
      note,
    });
  }

  /**
   * Seedlings handed over that came back undelivered: into the batch and the order's hold again,
   * once per `key`. Answers how many seedlings came back.
   */
  bringBackPart(
    order: Pick<HeldOrder, '_id' | 'purchaseNumber'>,
    batchId: string,
    seedlings: number,
    key: string,
    by: Actor | null,
    note: string,
  ): Promise<number> {
    return this.batches.returnPart(batchId, order._id, seedlings, key, {
      purchaseNumber: order.purchaseNumber,
      by: personOf(by),
      note,
    });
  }
}
