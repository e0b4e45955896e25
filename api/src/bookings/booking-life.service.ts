import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BookingState } from '@spc/shared-contracts';
import type { BatchRecord } from '../batches/batches.service';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrderBookings } from '../orders/order-bookings';
import { addDays, shopDay } from '../reports/shop-time';

/** States of a booking whose seedlings its batch still holds for it, before it is paid. */
const WAITING: readonly BookingState[] = ['Deposit due', 'Booked'];

/**
 * What happens to a batch's bookings when the batch's side has changed (the staff batch routes
 * call these after their own work): ready → balance due, short or failed → affected. The seam
 * between batches and the life of a booking; its full life (notices, release, move, refund) is
 * the bookings module's. Each change is one conditional update per order, so a call repeated
 * after a crash changes nothing twice.
 */
@Injectable()
export class BookingLifeService {
  private readonly logger = new Logger(BookingLifeService.name);

  constructor(
    private readonly bookings: OrderBookings,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The batch is ready: each `Booked` booking owes its balance by the ready day + BOOKING_BALANCE_DAYS.
   * `Deposit due` ones stay so (they still expire like unpaid orders).
   */
  async onBatchReady(batch: BatchRecord): Promise<void> {
    const readyAt = batch.readyAt ? new Date(batch.readyAt) : new Date();
    const balanceDueBy = addDays(shopDay(readyAt), this.config.bookings.balanceDays);
    for (const order of await this.held(batch))
      await this.bookings.setState(order, ['Booked'], 'Balance due', { readyAt, balanceDueBy });
  }

  /**
   * The batch fell short: it can give its bookings `seedlingsLeft` in all. The earliest bookings
   * keep their seedlings; the latest that no longer fit become `Affected` (problem `short`).
   */
  async onBatchShort(batch: BatchRecord, seedlingsLeft: number): Promise<void> {
    let kept = 0;
    let fits = true;
    for (const hold of batch.holds) {
      fits = fits && kept + hold.seedlings <= seedlingsLeft;
      if (fits) kept += hold.seedlings;
      else await this.bookings.setState(hold.orderId, WAITING, 'Affected', { problem: 'short' });
    }
  }

  /** The batch failed: every booking still waiting on it becomes `Affected` (problem `failed`). */
  async onBatchFailed(batch: BatchRecord): Promise<void> {
    for (const order of await this.held(batch))
      await this.bookings.setState(order, WAITING, 'Affected', { problem: 'failed' });
    this.logger.log(`Batch ${batch._id} failed: ${batch.holds.length} bookings affected`);
  }

  /** The orders holding seedlings on the batch, in booking order. */
  private held(batch: BatchRecord): Promise<string[]> {
    return Promise.resolve(batch.holds.map((h) => h.orderId));
  }
}
