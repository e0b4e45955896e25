import { Injectable, Logger } from '@nestjs/common';
import { BatchesService } from '../batches/batches.service';
import type { Actor, Principal } from '../common/principal';
import { InventoryService } from '../inventory/inventory.service';
import type { StockMovementView } from '../inventory/stock-ledger.repository';
import { seedlingsByProduct } from './order-lines';
import type { OrderRecord } from './order.types';
import { OrderPlacementMarks } from './order-placement-marks.repository';

/**
 * An order's stock on its products: given back, released or settled, each once per line. A
 * booking's seedlings are held against its batch instead: given back to the batch (into ready
 * stock once the batch is ready), once.
 */
@Injectable()
export class OrderStock {
  private readonly logger = new Logger(OrderStock.name);
  /** Placements waiting for the next finishing write, and the one under way. */
  private queued: {
    order: OrderRecord;
    movements: StockMovementView[];
    resolve: (placed: boolean) => void;
    reject: (error: Error) => void;
  }[] = [];
  private settling?: Promise<void>;

  constructor(
    private readonly marks: OrderPlacementMarks,
    private readonly inventory: InventoryService,
    private readonly batches: BatchesService,
  ) {}

  /**
   * Returns a cancelled order's stock, once per line even if called again after a crash. `by`: who
   * cancelled it, credited with the return in the stock ledger (none for the shop itself).
   */
  async returnStock(order: OrderRecord, by?: Actor | null): Promise<void> {
    if (order.booking) return this.returnBooking(order, by);
    // At 'done' every line is back and some markers may already be cleared: restocking again would
    // return those lines a second time (the restock marker is what makes a restock count once).
    if (order.stockReturn !== 'done') {
      for (const [productId, seedlings] of seedlingsOf(order))
        await this.inventory.restock(productId, order._id, seedlings, {
          purchaseNumber: order.purchaseNumber,
          by: isPerson(by) ? by : null,
          note: `Order ${order.purchaseNumber} cancelled: its stock came back`,
        });
      await this.marks.setFlags(order._id, { stockReturn: 'done' });
    }
    for (const productId of seedlingsOf(order).keys())
      await this.inventory.clearRestockMarker(productId, order._id);
    await this.marks.setFlags(order._id, { stockReturn: 'cleared' });
  }

  /**
   * A cancelled (or expired) booking's seedlings back to its batch, once however often it is
   * called: bookable again while the batch grows, into ready stock once it is ready.
   */
  private async returnBooking(order: OrderRecord, by?: Actor | null): Promise<void> {
    await this.batches.release(order.booking!.batchId, order._id, {
      purchaseNumber: order.purchaseNumber,
      by: isPerson(by) ? by : null,
    });
    await this.marks.setFlags(order._id, { stockReturn: 'cleared' });
  }

  /**
   * A paid booking handed over (dispatched): its seedlings leave the batch as a sale, once (the
   * batch's hold is taken once; a call after that takes nothing).
   */
  async fulfilBooking(order: OrderRecord, by?: Actor | null): Promise<number> {
    if (!order.booking) return 0;
    return this.batches.fulfil(order.booking.batchId, order._id, {
      purchaseNumber: order.purchaseNumber,
      by: isPerson(by) ? by : null,
    });
  }

  /** Releases every line's reservation (a line never reserved is left as it is). */
  async releaseAll(order: OrderRecord): Promise<void> {
    if (order.booking) {
      await this.batches.release(order.booking.batchId, order._id, {
        purchaseNumber: order.purchaseNumber,
      });
      return;
    }
    for (const productId of seedlingsOf(order).keys())
      await this.inventory.releaseReservation(productId, order._id, order);
  }

  /** Turns the reservations of a placed order into sales on the ledger. */
  async settle(order: OrderRecord, reservedHere = false): Promise<void> {
    // A booking's hold stays on its batch until it is handed over, released or refunded.
    if (order.booking) return this.marks.setFlags(order._id, { ledgerSettled: true });
    for (const productId of seedlingsOf(order).keys())
      await this.inventory.settleReservation(productId, order._id, reservedHere);
    await this.marks.setFlags(order._id, { ledgerSettled: true });
  }

  /**
   * Steps 4 and 5 of a placement (every line reserved here by `reserveForPlacement`, which
   * answered `movements`), together with the other placements finishing meanwhile: while one
   * finishing write is under way the next orders queue, and the next takes them all. Each order
   * becomes `placed` unless the reconciler judged it abandoned first (one `updateMany`, atomic per
   * order: `reserving` becomes `placed` or `undoing`, never both); then the placed ones are
   * settled: one copy of their sale movements to the ledger, one update per product, one of the
   * orders. Answers false when the reconciler undid the order first. A failure to settle is logged
   * and left to the reconcilers (the order is placed; its movements wait in the products, where the
   * reconciler's settle copies them, as after a crash).
   */
  placeAndSettle(order: OrderRecord, movements: StockMovementView[]): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queued.push({ order, movements, resolve, reject });
      this.settling ??= this.settleQueued();
    });
  }

  private async settleQueued(): Promise<void> {
    while (this.queued.length) {
      const batch = this.queued.splice(0, SETTLE_BATCH);
      let placed: Set<string>;
      try {
        placed = new Set(await this.marks.markAllPlaced(batch.map(({ order }) => order._id)));
      } catch (error) {
        for (const { reject } of batch) reject(error as Error);
        continue;
      }
      const settled = batch.filter(({ order }) => placed.has(order._id));
      const byProduct = new Map<string, string[]>();
      // A booking reserved nothing on its products: its hold stays on its batch (see settle).
      for (const { order } of settled.filter((b) => !b.order.booking))
        for (const productId of seedlingsOf(order).keys())
          byProduct.set(productId, [...(byProduct.get(productId) ?? []), order._id]);
      try {
        await this.inventory.settleReservations(
          byProduct,
          settled.flatMap((b) => b.movements),
        );
        await this.marks.markSettled(settled.map(({ order }) => order._id));
      } catch (error) {
        this.logger.warn(
          `Could not settle ${settled.length} placed orders (the reconciler will): ${(error as Error).message}`,
        );
      }
      for (const { order, resolve } of batch) resolve(placed.has(order._id));
    }
    this.settling = undefined;
  }
}

/** The most placements one finishing write takes (the rest wait for the next). */
const SETTLE_BATCH = 200;

/** The seedlings the order took from each product (its lines of one product added up). */
function seedlingsOf(order: OrderRecord): Map<string, number> {
  return seedlingsByProduct(
    order.products.map((l) => ({
      productId: l.product._id,
      quantity: l.quantity,
      seedlings: l.unit?.seedlings ?? 1,
    })),
  );
}

/** A person who acted (credited in the stock ledger), not the shop itself. */
function isPerson(actor: Actor | null | undefined): actor is Principal {
  return !!actor && actor.role !== 'system';
}
