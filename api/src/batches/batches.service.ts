import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnModuleInit,
} from '@nestjs/common';
import {
  BOOKING_MESSAGES,
  LOSS_REASON_WORDS,
  type BatchStatus,
  type LossReason,
  type StoredBatchStatus,
} from '@spc/shared-contracts';
import { CatalogService } from '../catalog/catalog.service';
import { CatalogueBatches } from '../catalog/read-model/catalogue-batches';
import { CatalogueEvents } from '../catalog/read-model/catalogue-events';
import type { Actor, Principal } from '../common/principal';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { InventoryService } from '../inventory/inventory.service';
import { shopDay } from '../common/shop-clock';
import { BatchFollowUps } from './batch-follow-ups';
import { BatchListsRepository } from './batch-lists.repository';
import { releaseKey } from './batch-record';
import { BatchesRepository, type BatchRecord } from './batches.repository';
import { comingSeasons } from './seasons';

export type { BatchRecord } from './batches.repository';

/** A batch as the API answers it: its status as shoppers and staff read it. */
export type BatchView = Omit<
  BatchRecord,
  'status' | 'holds' | 'readyMoved' | 'readyStock' | 'pendingTell'
> & {
  status: BatchStatus;
};

/** The status a batch shows: `Sold out` is growing with nothing left to book. */
export function batchStatusOf(batch: Pick<BatchRecord, 'status' | 'available'>): BatchStatus {
  return batch.status === 'Growing' && batch.available <= 0 ? 'Sold out' : batch.status;
}

export function batchView(batch: BatchRecord): BatchView {
  const { holds: _h, readyMoved: _m, readyStock: _s, pendingTell: _t, ...rest } = batch;
  return { ...rest, status: batchStatusOf(batch) };
}

/** Who a booking's hold is for, as the ledger credits it. */
export interface HoldRef {
  purchaseNumber?: string;
  by?: Principal | null;
}

/**
 * Batches of seedlings still growing (issue 32): made, changed, losses, ready and failed on the
 * batch's side (each a movement of the stock ledger under `batch:<id>`), and the bookings' holds
 * against them with the same no-oversell guarantee as ready stock. What happens to the bookings
 * themselves is the bookings module's (see BookingLifeService).
 */
@Injectable()
export class BatchesService implements OnModuleInit {
  private readonly logger = new Logger(BatchesService.name);
  private reconciling = false;

  constructor(
    private readonly batches: BatchesRepository,
    private readonly followUps: BatchFollowUps,
    private readonly lists: BatchListsRepository,
    private readonly catalog: CatalogService,
    private readonly inventory: InventoryService,
    private readonly catalogue: CatalogueEvents,
    private readonly catalogueBatches: CatalogueBatches,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The catalogue in memory reads each product's bookable batches from here when it loads; the
   * batches' reconciliation is declared (run at start-up too).
   */
  onModuleInit(): void {
    this.scheduler.declare({
      name: 'batches.reconcile',
      everyMs: Math.max(1000, this.config.orders.reconcileAfterMs / 2),
      runsOn: 'one',
      atStart: true,
      run: () => this.reconcile(),
    });
    this.catalogueBatches.use({
      bookable: async () => {
        const byProduct = new Map<string, { _id: string; readyOn: string; available: number }[]>();
        for (const b of await this.bookable())
          byProduct.set(b.productId, [...(byProduct.get(b.productId) ?? []), bookableRef(b)]);
        return byProduct;
      },
      seasonWindow: (key) => {
        const season = comingSeasons(this.config.bookings, this.today()).find(
          (s) => s.key === key,
        )!;
        return { readyFrom: season.readyFrom, readyTo: season.to };
      },
    });
  }

  /** The shop's day today (`YYYY-MM-DD`, Africa/Nairobi). */
  today(): string {
    return shopDay(new Date());
  }

  async create(
    actor: Principal,
    dto: { productId: string; sownOn: string; readyOn: string; started: number; note?: string },
  ): Promise<BatchRecord> {
    if (dto.readyOn < dto.sownOn) throw new BadRequestException(BOOKING_MESSAGES.readyBeforeSown);
    const [product] = await this.catalog.findForOrder([dto.productId]);
    if (!product) throw new NotFoundException('Product not found');
    const batch = await this.batches.insert(
      {
        productId: product._id,
        productName: product.productName,
        sownOn: dto.sownOn,
        readyOn: dto.readyOn,
        started: dto.started,
        note: dto.note?.trim() ?? '',
      },
      actor,
    );
    await this.announce(batch.productId);
    return batch;
  }

  async get(id: string): Promise<BatchRecord> {
    const batch = await this.batches.findById(id);
    if (!batch) throw new NotFoundException('Batch not found');
    return batch;
  }

  findByIds(ids: string[]): Promise<BatchRecord[]> {
    return this.batches.findByIds(ids);
  }

  list(
    filter: {
      productId?: string;
      status?: BatchStatus;
      readyFrom?: string;
      readyTo?: string;
    },
    page: number,
    limit: number,
  ): Promise<{ items: BatchRecord[]; total: number }> {
    const stored: StoredBatchStatus | undefined =
      filter.status === 'Sold out' ? 'Growing' : filter.status;
    const bookable =
      filter.status === 'Sold out' ? false : filter.status === 'Growing' ? true : undefined;
    return this.lists.list({ ...filter, status: stored, bookable }, (page - 1) * limit, limit);
  }

  async update(
    id: string,
    dto: { readyOn?: string | null; note?: string | null },
  ): Promise<BatchRecord> {
    const batch = await this.get(id);
    if (batch.status !== 'Growing') throw new ConflictException(BOOKING_MESSAGES.notGrowing);
    if (dto.readyOn && dto.readyOn < batch.sownOn)
      throw new BadRequestException(BOOKING_MESSAGES.readyBeforeSown);
    const changes = {
      ...(dto.readyOn ? { readyOn: dto.readyOn } : {}),
      // A field sent as null is left as it is, like one left out.
      ...(dto.note != null ? { note: dto.note.trim() } : {}),
    };
    if (!Object.keys(changes).length) return batch;
    const updated = await this.batches.updateGrowing(id, changes);
    if (!updated) throw new ConflictException(BOOKING_MESSAGES.notGrowing);
    await this.announce(updated.productId);
    return updated;
  }

  /** A loss on a growing batch, never below 0 (409 otherwise); its movement on the ledger. */
  async recordLoss(
    actor: Principal,
    id: string,
    dto: { quantity: number; note?: string; reason?: LossReason },
  ): Promise<BatchRecord> {
    const batch = await this.get(id);
    if (batch.status !== 'Growing') throw new ConflictException(BOOKING_MESSAGES.notGrowing);
    const reason = dto.reason ?? 'died';
    const after = await this.batches.recordLoss(id, dto.quantity, {
      reason,
      by: actor,
      note: dto.note?.trim() || `${dto.quantity} seedlings ${LOSS_REASON_WORDS[reason]}`,
    });
    if (after) {
      await this.announce(after.productId);
      return after;
    }
    const now = await this.get(id);
    if (now.status !== 'Growing') throw new ConflictException(BOOKING_MESSAGES.notGrowing);
    throw new ConflictException(BOOKING_MESSAGES.lossTooLarge(now.quantity));
  }

  /**
   * Growing becomes Ready, exactly once (409 otherwise): what no booking holds goes into the
   * product's ready stock through the ledger (out of the batch, into the product, each once).
   */
  async markReady(actor: Actor, id: string): Promise<BatchRecord> {
    const batch = await this.get(id);
    if (batch.status === 'Ready') throw new ConflictException(BOOKING_MESSAGES.alreadyReady);
    if (batch.status === 'Failed') throw new ConflictException(BOOKING_MESSAGES.batchFailed);
    // A ready batch gives every booking it holds its seedlings: none may be short of them.
    if (batch.booked > batch.quantity)
      throw new ConflictException(BOOKING_MESSAGES.shortOfBookings(batch.booked, batch.quantity));
    const ready = await this.batches.markReady(id, {
      reason: 'batch-ready',
      by: person(actor),
      note: `Batch ready: seedlings no booking holds went into ready stock`,
    });
    if (!ready) throw new ConflictException(BOOKING_MESSAGES.alreadyReady);
    await this.followUps.moveReadyStock(ready, person(actor));
    await this.announce(ready.productId);
    return ready;
  }

  /** Growing becomes Failed, once (409 otherwise): everything it holds is lost on the ledger. */
  async markFailed(actor: Actor, id: string, note: string): Promise<BatchRecord> {
    const batch = await this.get(id);
    if (batch.status === 'Ready') throw new ConflictException(BOOKING_MESSAGES.alreadyReady);
    if (batch.status === 'Failed') throw new ConflictException(BOOKING_MESSAGES.alreadyFailed);
    const failed = await this.batches.markFailed(id, note.trim(), {
      reason: 'died',
      by: person(actor),
      note: `Batch failed${note.trim() ? `: ${note.trim()}` : ''}`,
    });
    if (!failed) throw new ConflictException(BOOKING_MESSAGES.notGrowing);
    await this.announce(failed.productId);
    return failed;
  }

  /**
   * Holds a booking's seedlings against its batch (one conditional update; a retry counts once).
   * Refuses with the message the shopper reads: the batch failed (409), is ready (400), is
   * another product's (400) or has fewer left to book (409).
   */
  async hold(
    batchId: string,
    productId: string,
    orderId: string,
    seedlings: number,
  ): Promise<void> {
    const result = await this.batches.hold(batchId, orderId, seedlings, this.today());
    if (result === true) {
      const batch = await this.batches.findById(batchId);
      if (batch?.productId === productId) return this.announce(productId);
      await this.batches.releaseHold(batchId, orderId);
      throw new BadRequestException(BOOKING_MESSAGES.batchOfAnotherProduct);
    }
    throw await this.refusal(batchId, result);
  }

  /**
   * The batch a booking line names, checked before the order is written: it exists, is the
   * line's product's and can be booked (the hold itself still decides the race).
   */
  async checkBookable(batchId: string, productId: string, seedlings: number): Promise<BatchRecord> {
    const batch = await this.batches.findById(batchId);
    if (!batch) throw new BadRequestException(BOOKING_MESSAGES.batchGone);
    if (batch.productId !== productId)
      throw new BadRequestException(BOOKING_MESSAGES.batchOfAnotherProduct);
    if (batch.status === 'Failed') throw await this.refusal(batchId, 'failed');
    if (batch.status === 'Ready' || batch.readyOn <= this.today())
      throw await this.refusal(batchId, 'ready');
    if (batch.available < seedlings) throw await this.refusal(batchId, 'short');
    return batch;
  }

  /**
   * Gives a booking's seedlings back, once whatever runs beside it or is retried: to what is left
   * to book while the batch grows (placement undone, cancelled, expired, moved, refunded); into
   * the product's ready stock once the batch is ready (batch −n, product +n); nothing to move
   * once it failed (already lost). Answers the seedlings released.
   */
  async release(batchId: string, orderId: string, ref: HoldRef = {}): Promise<number> {
    const batch = await this.batches.findById(batchId);
    if (!batch) return 0;
    if (batch.status !== 'Ready') {
      const released = await this.batches.releaseHold(batchId, orderId);
      if (released) await this.announce(batch.productId);
      return released;
    }
    // Ready: the product gets the seedlings first (marked with the order, so once), then they
    // leave the batch; a crash between is finished by calling this again. The marker stays a day
    // (cleared by `reconcile`), so a call running beside this one cannot count them again.
    const held = batch.holds.find((h) => h.orderId === orderId)?.seedlings ?? 0;
    if (!held) return 0;
    // Marked with this batch and the order: the order's ready stock of the product (its own
    // marker) and its holds on other batches of the product come back on their own.
    await this.inventory.receiveFromBatch(batch.productId, releaseKey(batchId, orderId), held, {
      purchaseNumber: ref.purchaseNumber,
      by: ref.by ?? null,
      note: `Booking ${ref.purchaseNumber ?? orderId} released: its seedlings went into ready stock`,
    });
    return this.batches.takeHeld(
      batchId,
      orderId,
      {
        reason: 'batch-ready',
        by: ref.by ?? null,
        purchaseNumber: ref.purchaseNumber ?? null,
        note: `Booking ${ref.purchaseNumber ?? orderId} released into ready stock`,
      },
      { markReleased: true },
    );
  }

  /**
   * A ready booking handed over (dispatched or collected): its seedlings leave the batch as a
   * sale, once. Answers the seedlings (0 when it held none here).
   */
  fulfil(batchId: string, orderId: string, ref: HoldRef = {}): Promise<number> {
    return this.batches.takeHeld(batchId, orderId, {
      reason: 'sale',
      by: ref.by ?? null,
      purchaseNumber: ref.purchaseNumber ?? null,
      note: `Booking ${ref.purchaseNumber ?? orderId} handed over`,
    });
  }

  /**
   * Part of an order's hold on a ready batch handed over (a tranche of it sent out): `seedlings`
   * leave the batch as a sale, once per `key`. Answers the seedlings (0: already handed over for
   * this key, or the order holds fewer here).
   */
  fulfilPart(
    batchId: string,
    orderId: string,
    seedlings: number,
    key: string,
    ref: HoldRef & { note: string },
  ): Promise<number> {
    return this.batches.takeHeldPart(batchId, orderId, seedlings, key, {
      reason: 'sale',
      by: ref.by ?? null,
      purchaseNumber: ref.purchaseNumber ?? null,
      note: ref.note,
    });
  }

  /**
   * Seedlings of an order's load that came back undelivered, into the ready batch and the order's
   * hold there again (to go in a later load), once per `key`, with a return movement. Answers the
   * seedlings (0 when already put back for this key).
   */
  returnPart(
    batchId: string,
    orderId: string,
    seedlings: number,
    key: string,
    ref: HoldRef & { note: string },
  ): Promise<number> {
    return this.batches.returnHeldPart(batchId, orderId, seedlings, key, {
      reason: 'return',
      by: ref.by ?? null,
      purchaseNumber: ref.purchaseNumber ?? null,
      note: ref.note,
    });
  }

  /** The bookings heard of the batch's last step (ready, short, failed). */
  told(batchId: string): Promise<void> {
    return this.followUps.told(batchId);
  }

  /** Batches whose bookings were still to be told of a step taken before `before` (a crash). */
  untoldBefore(before: Date): Promise<BatchRecord[]> {
    return this.followUps.untoldBefore(before);
  }

  /** The seedlings `orderId` holds on this batch (0 when none). */
  heldBy(batchId: string, orderId: string): Promise<number> {
    return this.batches.heldBy(batchId, orderId);
  }

  /** Growing batches ready after today with seedlings left to book, soonest first. */
  bookable(options: { productIds?: string[]; readyFrom?: string; readyTo?: string } = {}) {
    return this.lists.bookable(this.today(), options);
  }

  /** Tells the catalogue a product's bookable batches now (after any change of one of them). */
  private async announce(productId: string): Promise<void> {
    const batches = await this.bookable({ productIds: [productId] });
    this.catalogue.batchesChanged(productId, batches.map(bookableRef));
  }

  /**
   * Finishes what a crash left: movements not yet copied, ready seedlings not yet moved. Clears
   * the products' markers of moves from batches a day after them (a marker is what makes a move
   * count once, so it stays while a retry could still come).
   */
  async reconcile(): Promise<void> {
    if (this.reconciling) return;
    this.reconciling = true;
    try {
      await this.followUps.finish();
    } catch (error) {
      this.logger.error(`Batch reconciliation failed: ${(error as Error).message}`);
    } finally {
      this.reconciling = false;
    }
  }

  private async refusal(batchId: string, why: 'gone' | 'failed' | 'ready' | 'short') {
    if (why === 'gone') return new BadRequestException(BOOKING_MESSAGES.batchGone);
    if (why === 'failed')
      return new ConflictException({ message: BOOKING_MESSAGES.batchFailed, code: 'BATCH_FAILED' });
    if (why === 'ready')
      return new BadRequestException({ message: BOOKING_MESSAGES.batchReady, code: 'BATCH_READY' });
    const left = (await this.batches.findById(batchId))?.available ?? 0;
    return new ConflictException({
      message: BOOKING_MESSAGES.onlyLeft(left),
      code: 'OUT_OF_STOCK',
      errors: [{ field: 'products', messages: [`available: ${left}`] }],
    });
  }
}

function bookableRef(b: BatchRecord) {
  return { _id: b._id, readyOn: b.readyOn, available: b.available };
}

/** A person who acted (credited in the ledger), not the shop itself. */
function person(actor: Actor | null | undefined): Principal | null {
  return actor && actor.role !== 'system' ? (actor as Principal) : null;
}
