import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { BatchStatus } from '@spc/shared-contracts';
import { DomainEvents, type AuditNote } from '../common/events/domain-events';
import type { Actor, Principal } from '../common/principal';
import { totalPages } from '../common/pagination';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrderBookings } from '../bookings/booking-orders';
import { SHOP_ACTOR } from '../orders/shop-actor';
import { BatchesService, batchView, type BatchRecord } from './batches.service';
import { comingSeasons } from './seasons';

const label = (b: BatchRecord) => `${b.productName}, sown ${b.sownOn}, ready ${b.readyOn}`;

/**
 * The staff's batch routes and the public reads of batches: each staff step does the batch's side
 * (BatchesService), then announces it (`batch.ready`, `batch.failed`, `batch.short`…): the audit
 * trail records it and the bookings module tells the batch's bookings (it listens; batches call
 * no booking code).
 */
@Injectable()
export class BatchDeskService implements OnModuleInit {
  private readonly logger = new Logger(BatchDeskService.name);
  private telling = false;

  constructor(
    private readonly batches: BatchesService,
    private readonly orders: OrderBookings,
    private readonly events: DomainEvents,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'batches.tell-bookings',
      everyMs: Math.max(1000, this.config.orders.reconcileAfterMs / 2),
      runsOn: 'one',
      run: () => this.tellUntold(),
    });
  }

  async list(query: {
    productId?: string;
    status?: BatchStatus;
    readyFrom?: string;
    readyTo?: string;
    page?: number;
    limit?: number;
  }) {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const { items, total } = await this.batches.list(query, page, limit);
    return {
      items: items.map((b) => ({ ...batchView(b), bookings: b.holds.length })),
      total,
      page,
      limit,
      totalPages: totalPages(total, limit),
    };
  }

  async get(id: string) {
    return { batch: await this.detail(await this.batches.get(id)) };
  }

  async create(
    actor: Principal,
    dto: { productId: string; sownOn: string; readyOn: string; started: number; note?: string },
  ) {
    const batch = await this.batches.create(actor, dto);
    await this.events.emit('batch.created', {
      actor,
      batch,
      audit: this.note(
        batch,
        'batch.create',
        `${actor.fullName} sowed a batch of ${batch.started} ${label(batch)}`,
      ),
    });
    return { batch: await this.detail(batch) };
  }

  async update(
    actor: Principal,
    id: string,
    dto: { readyOn?: string | null; note?: string | null },
  ) {
    const before = await this.batches.get(id);
    const batch = await this.batches.update(id, dto);
    const what = [
      dto.readyOn && dto.readyOn !== before.readyOn
        ? `ready date ${before.readyOn} → ${batch.readyOn}`
        : '',
      dto.note != null && batch.note !== before.note ? 'note' : '',
    ].filter(Boolean);
    if (what.length)
      await this.events.emit('batch.updated', {
        actor,
        batch,
        audit: this.note(
          batch,
          'batch.update',
          `${actor.fullName} changed the ${what.join(' and ')} of batch ${label(batch)}`,
        ),
      });
    return { batch: await this.detail(batch) };
  }

  /**
   * A loss; when what is left no longer covers the bookings, the latest that no longer fit are
   * told (the bookings' life decides which, earliest first keep theirs).
   */
  async recordLoss(
    actor: Principal,
    id: string,
    dto: { quantity: number; note: string; reason?: 'died' | 'damaged' | 'given_away' },
  ) {
    const batch = await this.batches.recordLoss(actor, id, dto);
    await this.events.emit('batch.lost', {
      actor,
      batch,
      audit: this.note(
        batch,
        'batch.loss',
        `${actor.fullName} recorded ${dto.quantity} seedlings lost from batch ${label(batch)}${dto.note ? `: ${dto.note}` : ''}`,
      ),
    });
    // Short of what is booked (the loss's update then marked the bookings to be told).
    if (batch.pendingTell) await this.tell(batch);
    return { batch: await this.detail(await this.batches.get(id)) };
  }

  async markReady(actor: Principal, id: string) {
    const batch = await this.batches.markReady(actor, id);
    await this.tell(
      batch,
      actor,
      this.note(
        batch,
        'batch.ready',
        `${actor.fullName} marked batch ${label(batch)} ready: ${batch.readyMoved} seedlings into ready stock, ${batch.booked} held for bookings`,
      ),
    );
    return { batch: await this.detail(batch) };
  }

  async markFailed(actor: Principal, id: string, note: string) {
    const batch = await this.batches.markFailed(actor, id, note);
    await this.tell(
      batch,
      actor,
      this.note(
        batch,
        'batch.fail',
        `${actor.fullName} marked batch ${label(batch)} failed${note ? `: ${note}` : ''}`,
      ),
    );
    return { batch: await this.detail(batch) };
  }

  /** Growing batches ready after today with seedlings left to book, soonest first (public). */
  async bookable(productId?: string) {
    const batches = await this.batches.bookable(
      productId ? { productIds: [productId.toLowerCase()] } : {},
    );
    return {
      batches: batches.map((b) => ({
        _id: b._id,
        productId: b.productId,
        readyOn: b.readyOn,
        available: b.available,
      })),
    };
  }

  /** The booking terms and the coming seasons (public). */
  settings() {
    const { depositPercent, balanceDays } = this.config.bookings;
    return {
      depositPercent,
      balanceDays,
      seasons: comingSeasons(this.config.bookings, this.batches.today()).map(
        ({ key, name, from, to }) => ({ key, name, from, to }),
      ),
    };
  }

  /**
   * Tells the bookings of steps a crash cut off between the batch's change and the telling (the
   * step wrote `pendingTell` in its own update): once the step is older than the reconcile delay.
   */
  async tellUntold(olderThanMs = this.config.orders.reconcileAfterMs): Promise<void> {
    if (this.telling) return;
    this.telling = true;
    try {
      for (const batch of await this.batches.untoldBefore(new Date(Date.now() - olderThanMs))) {
        await this.tell(batch);
        this.logger.warn(`Told the bookings of batch ${batch._id} (${batch.pendingTell?.what})`);
      }
    } catch (error) {
      this.logger.error(`Telling bookings of batches failed: ${(error as Error).message}`);
    } finally {
      this.telling = false;
    }
  }

  /**
   * Announces the batch's step its bookings are to hear of (`pendingTell`), with its audit entry
   * when staff take it now (the sweep telling a step a crash cut off audits nothing again); once
   * every listener has run (the bookings told), the step is marked told.
   */
  private async tell(batch: BatchRecord, actor: Actor = SHOP_ACTOR, audit?: AuditNote) {
    const what = batch.pendingTell?.what;
    if (what === 'short')
      await this.events.emit('batch.short', {
        actor,
        batch,
        audit,
        seedlingsLeft: batch.started - batch.lost,
      });
    else if (what) await this.events.emit(`batch.${what}`, { actor, batch, audit });
    await this.batches.told(batch._id);
  }

  private async detail(batch: BatchRecord) {
    const held = new Map(batch.holds.map((h) => [h.orderId, h.seedlings]));
    const orders = await this.orders.ofBatch(batch._id);
    // Holds of orders that are not bookings (orders from quotations: a hold per line).
    const booked = new Set(orders.map((o) => o._id));
    const others = [];
    for (const h of batch.holds.filter((h) => !booked.has(h.orderId))) {
      const order = await this.orders.find(h.orderId);
      if (order?.placement === 'placed') others.push({ order, seedlings: h.seedlings });
    }
    return {
      orders: others.map(({ order, seedlings }) => ({
        orderId: order._id,
        purchaseNumber: order.purchaseNumber,
        customer: order.guestInfo.fullName,
        seedlings,
        placedAt: order.orderDate,
      })),
      ...batchView(batch),
      bookings: orders.map((o) => ({
        orderId: o._id,
        purchaseNumber: o.purchaseNumber,
        customer: o.guestInfo.fullName,
        seedlings:
          held.get(o._id) ?? o.products.reduce((sum, l) => sum + l.quantity * l.unit.seedlings, 0),
        state: o.booking!.state,
        placedAt: o.orderDate,
      })),
    };
  }

  private note(batch: BatchRecord, action: string, text: string): AuditNote {
    return { action, text, target: { type: 'batch', id: batch._id, label: label(batch) } };
  }
}
