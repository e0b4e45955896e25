import {
  ConflictException,
  HttpException,
  Inject,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { LIVE_BOOKING_STATES } from '@spc/shared-contracts';
import type { BatchEvent, BatchShortEvent } from '../batches/batch-events';
import { BatchesService } from '../batches/batches.service';
import { OnDomainEvent } from '../common/events/domain-events';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrderBookings } from './booking-orders';
import { OrderCredits } from '../orders/order-credits';
import { OrderMails } from '../orders/order-mails';
import type { OrderEvent } from '../orders/order-events';
import type { OrderRecord } from '../orders/order.types';
import { OrdersService } from '../orders/orders.service';
import { SHOP_ACTOR } from '../orders/shop-actor';
import { addDays, shopDay } from '../common/shop-clock';
import { SmsService } from '../sms/sms.service';
import { BookingMove } from './booking-move';
import { AFFECT_BOOKING, READY_BOOKING, RELEASE_BOOKING } from './booking-steps';

/**
 * What happens to a batch's bookings when the batch's side has changed (listening to the batch's
 * events: ready, short, failed), each change a step of the order runner, and the sweeps that keep
 * the bookings' life going on its own:
 * ready → balance due (told by SMS and e-mail), short or failed → affected (told by SMS), a
 * balance unpaid after its day → released. Each change is one conditional update per order, and a
 * notice is owed (`noticeDue`) from the change until it is sent, so a crash between the two is
 * caught up by the sweep and the customer is told exactly once.
 */
@Injectable()
export class BookingLifeService implements OnModuleInit {
  private readonly logger = new Logger(BookingLifeService.name);
  private sweeping = false;

  constructor(
    private readonly bookings: OrderBookings,
    private readonly orders: OrdersService,
    private readonly credits: OrderCredits,
    private readonly batches: BatchesService,
    private readonly sms: SmsService,
    private readonly mails: OrderMails,
    private readonly scheduler: Scheduler,
    private readonly moves: BookingMove,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'bookings.sweep',
      everyMs: Math.min(10 * 60_000, Math.max(1000, this.config.orders.reconcileAfterMs)),
      runsOn: 'one',
      run: (now) => this.sweep(now),
    });
  }

  /**
   * The batch is ready: each `Booked` booking owes its balance by the ready day +
   * BOOKING_BALANCE_DAYS and is told so; `Deposit due` ones stay so (they still expire like
   * unpaid orders) but know their batch is ready, as do bookings paid early.
   */
  @OnDomainEvent('batch.ready')
  async onBatchReady({ batch }: Pick<BatchEvent, 'batch'>): Promise<void> {
    const readyAt = batch.readyAt ? new Date(batch.readyAt) : new Date();
    const balanceDueBy = addDays(shopDay(readyAt), this.config.bookings.balanceDays);
    for (const order of await this.bookings.ofBatch(batch._id))
      if (order.booking?.batchId === batch._id)
        await this.readyOne(order, { readyAt, balanceDueBy });
  }

  /** One booking of a ready batch: its balance falls due (told), or it knows its batch is ready. */
  private async readyOne(
    order: OrderRecord,
    input: { readyAt: Date; balanceDueBy: string },
  ): Promise<void> {
    if (await this.quietly(this.orders.apply(READY_BOOKING, SHOP_ACTOR, order, input))) {
      await this.tell(order._id);
    } else if (order.booking!.state === 'Deposit due' || order.booking!.state === 'Paid') {
      await this.bookings.setState(order._id, [order.booking!.state], order.booking!.state, {
        readyAt: input.readyAt,
      });
    }
  }

  /**
   * A booking just moved onto a batch. The batch's own steps (failed, short, ready) tell the
   * bookings they find on it, and a move lands on its batch only after its hold there: a step taken
   * between the two never saw this booking. Its batch as it is now decides: failed, it is affected;
   * ready, its balance falls due; short of what its live bookings hold with it, it is affected (the
   * newcomer, the others were kept).
   */
  @OnDomainEvent('booking.moved')
  async onMoved({ order }: Pick<OrderEvent, 'order'>): Promise<void> {
    // The move is made: a failure here is logged, never answered as the move's.
    await this.checkNewBatch(order).catch((error: Error) =>
      this.logger.error(`Booking ${order.purchaseNumber}'s new batch: ${error.message}`),
    );
  }

  private async checkNewBatch(order: OrderRecord): Promise<void> {
    const batchId = order.booking?.batchId;
    if (!batchId) return;
    const [batch] = await this.batches.findByIds([batchId]);
    const now = await this.bookings.find(order._id);
    if (!batch || now?.booking?.batchId !== batchId) return;
    if (!LIVE_BOOKING_STATES.includes(now.booking.state)) return;
    if (batch.status === 'Failed') return this.affect(now, 'failed');
    if (batch.status === 'Ready') {
      const readyAt = batch.readyAt ? new Date(batch.readyAt) : new Date();
      const balanceDueBy = addDays(shopDay(readyAt), this.config.bookings.balanceDays);
      return this.readyOne(now, { readyAt, balanceDueBy });
    }
    const held = new Map(batch.holds.map((h) => [h.orderId, h.seedlings]));
    const mine = held.get(now._id) ?? 0;
    if (!mine || batch.booked <= batch.quantity) return;
    let others = 0;
    for (const o of await this.bookings.ofBatch(batchId))
      if (o._id !== now._id && LIVE_BOOKING_STATES.includes(o.booking!.state))
        others += held.get(o._id) ?? 0;
    if (others + mine > batch.quantity) await this.affect(now, 'short');
  }

  /**
   * The batch fell short: it can give its bookings `seedlingsLeft` in all. The earliest bookings
   * keep their seedlings; the latest that no longer fit become `Affected` (problem `short`), told
   * by SMS.
   */
  @OnDomainEvent('batch.short')
  async onBatchShort({ batch, seedlingsLeft }: BatchShortEvent): Promise<void> {
    let kept = 0;
    const held = new Map(batch.holds.map((h) => [h.orderId, h.seedlings]));
    // In booking order: once one no longer fits, every later one is affected too.
    let fits = true;
    for (const order of await this.bookings.ofBatch(batch._id)) {
      const seedlings = held.get(order._id) ?? 0;
      if (!seedlings || !LIVE_BOOKING_STATES.includes(order.booking!.state)) continue;
      fits = fits && kept + seedlings <= seedlingsLeft;
      if (fits) kept += seedlings;
      else await this.affect(order, 'short');
    }
  }

  /** The batch failed: every booking still waiting on it becomes `Affected` (problem `failed`). */
  @OnDomainEvent('batch.failed')
  async onBatchFailed({ batch }: BatchEvent): Promise<void> {
    for (const order of await this.bookings.ofBatch(batch._id))
      if (order.booking?.batchId === batch._id && LIVE_BOOKING_STATES.includes(order.booking.state))
        await this.affect(order, 'failed');
  }

  /**
   * Everything the clock and crashes leave to do, safe to run on several instances at once:
   * money claims and paybacks a crash left midway, bookings of a ready batch still `Booked`, notices owed,
   * dispatched bookings still on their batch, and balances unpaid past their day released.
   */
  async sweep(now = new Date()): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.credits.reconcile(now);
      await this.catchUpReady();
      for (const order of await this.bookings.noticesDue()) await this.tell(order._id);
      await this.bookings.finishFulfilments(SHOP_ACTOR);
      await this.finishMoves(now);
      await this.releaseOverdue(now);
    } catch (error) {
      this.logger.error(`The bookings sweep failed: ${(error as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }

  /**
   * Releases bookings whose balance is still unpaid after their last day (shop time), with the
   * shop's policy on the deposit (BOOKING_RELEASE_DEPOSIT). Answers how many.
   */
  async releaseOverdue(now = new Date()): Promise<number> {
    const decision = this.config.bookings.releaseDeposit === 'refund' ? 'refunded' : 'kept';
    const { items } = await this.bookings.inState('Balance due', 'Pending', {
      dueBefore: shopDay(now),
      limit: 100,
    });
    let released = 0;
    for (const order of items) {
      try {
        await this.orders.runOn(RELEASE_BOOKING, SHOP_ACTOR, order, { decision });
        released++;
      } catch (error) {
        // Paid or changed meanwhile: no longer the sweep's.
        if (!(error instanceof HttpException)) throw error;
      }
    }
    return released;
  }

  /**
   * Moves a crash cut off (a minute or more ago): not yet on the new batch, the new hold is given
   * back; already on it, the old hold is. Either way once: each move is claimed by one sweeper
   * first (of several instances sweeping at once, one finishes it), and a release takes a hold once.
   */
  async finishMoves(now = new Date()): Promise<number> {
    let done = 0;
    const before = new Date(now.getTime() - 60_000);
    for (const order of await this.bookings.movesPending(before)) {
      if (!(await this.bookings.claimStaleMove(order._id, before))) continue;
      await this.moves.recover(order);
      // Finished on its new batch: that batch may have changed before the booking landed on it.
      if (!order.movingTo) await this.onMoved({ order });
      done++;
    }
    return done;
  }

  /** Bookings still `Booked` on a batch that is ready (its ready step crashed midway). */
  private async catchUpReady(): Promise<void> {
    const { items } = await this.bookings.inState('Booked', 'Pending', { limit: 200 });
    const ids = [...new Set(items.map((o) => o.booking!.batchId))];
    if (!ids.length) return;
    for (const batch of await this.batches.findByIds(ids))
      if (batch.status === 'Ready') await this.onBatchReady({ batch });
  }

  private async affect(order: OrderRecord, problem: 'failed' | 'short'): Promise<void> {
    if (!(await this.quietly(this.orders.apply(AFFECT_BOOKING, SHOP_ACTOR, order, { problem }))))
      return;
    // Its notice is owed (noticeDue) and sent by `tell`, which must know the e-mail was queued.
    await this.tell(order._id);
  }

  /** A step of the shop's that another hand overtook (the booking moved on): nothing to do. */
  private async quietly<T>(step: Promise<T>): Promise<T | null> {
    try {
      return await step;
    } catch (error) {
      if (error instanceof ConflictException) return null;
      throw error;
    }
  }

  /**
   * Sends the notice a booking is owed, then clears it. Its SMS and e-mail are each claimed by
   * their outbox's key for the order and event before they are sent (the e-mail's is per batch),
   * so a second sweeper, another instance's or this one's after a crash, sends nothing again.
   */
  private async tell(orderId: string): Promise<void> {
    const order = await this.bookings.find(orderId);
    if (!order?.booking) return;
    if (order.booking.state === 'Balance due') {
      await this.sms.notifyOrder(order, 'balance-due');
      // Not even queued (the database failed it): still owed, the next sweep tries again.
      if ((await this.mails.send('balance-due', order)) === 'lost') return;
    } else if (order.booking.state === 'Affected') {
      await this.sms.notifyOrder(order, 'affected');
    }
    await this.bookings.noticeSent(orderId);
  }
}
