import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { BOOKING_MESSAGES, bookingDeposit } from '@spc/shared-contracts';
import { personOf, type HeldOrder, type OrderHold } from '../common/order-hold';
import type { Actor } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { PricedLine } from '../orders/order-lines';
import type { OrderRecord } from '../orders/order.types';
import type { OrderBooking } from '../orders/schemas/order.schema';
import { BatchesService } from './batches.service';

/** An order as its batch hold reads it: a booking carries its batch. */
type BookedOrder = HeldOrder & Pick<OrderRecord, 'booking'>;

/**
 * The hold of a booking's lines on a growing batch, the placement's other way of holding what an
 * order sells (ready stock is `ReadyStockHold`'s): its terms, then its seedlings held.
 */
@Injectable()
export class BatchHold implements OrderHold {
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
   * A booking's seedlings held against its batch (one conditional update on what is left to book,
   * recorded with the order's id). Refused with the shopper's reason (the batch failed, is ready,
   * or has fewer left), nothing held.
   */
  async hold(order: Pick<OrderRecord, '_id' | 'products'>, batchId: string): Promise<void> {
    const seedlings = order.products.reduce((sum, l) => sum + l.quantity * l.unit.seedlings, 0);
    await this.batches.hold(batchId, order.products[0]!.product._id, order._id, seedlings);
  }

  /** Whether this order's lines are held on a batch (a booking), not on ready stock. */
  holds(order: Pick<OrderRecord, 'booking'>): boolean {
    return !!order.booking;
  }

  /** The booking's hold given back to its batch (an undone placement). */
  async releaseAll(order: BookedOrder): Promise<void> {
    await this.batches.release(order.booking!.batchId, order._id, {
      purchaseNumber: order.purchaseNumber,
    });
  }

  /**
   * A cancelled (or expired) booking's seedlings back to its batch, once however often it is
   * called: bookable again while the batch grows, into ready stock once it is ready.
   */
  async giveBack(order: BookedOrder, by: Actor | null): Promise<void> {
    await this.batches.release(order.booking!.batchId, order._id, {
      purchaseNumber: order.purchaseNumber,
      by: personOf(by),
    });
  }

  /** A booking reserved nothing on its products: its hold stays on its batch until hand-over. */
  productsToSettle(): string[] {
    return [];
  }

  settle(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * A paid booking handed over (dispatched): its seedlings leave the batch as a sale, once (the
   * batch's hold is taken once; a call after that takes nothing).
   */
  handOver(order: BookedOrder, by: Actor | null): Promise<number> {
    return this.batches.fulfil(order.booking!.batchId, order._id, {
      purchaseNumber: order.purchaseNumber,
      by: personOf(by),
    });
  }
}
