import { Injectable, Logger } from '@nestjs/common';
import type { Actor } from '../common/principal';
import { InventoryService } from '../inventory/inventory.service';
import type { StockMovementView } from '../inventory/stock-ledger.repository';
import { OrderCreditLimit } from './order-credit-limit';
import { OrderHolds } from './order-holds';
import type { OrderRecord } from './order.types';
import { OrderPlacementMarks } from './order-placement-marks.repository';

/**
 * An order's held stock given back, released, settled or handed over, each once, through the
 * holds of its lines (`OrderHolds`: ready stock, or seedlings on a batch); whether it may be sent
 * out now; and the placements' finishing write.
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
    private readonly holds: OrderHolds,
    private readonly creditLimit: OrderCreditLimit,
  ) {}

  /**
   * Returns a cancelled order's stock, once per line even if called again after a crash. `by`: who
   * cancelled it, credited with the return in the stock ledger (none for the shop itself).
   */
  async returnStock(order: OrderRecord, by?: Actor | null): Promise<void> {
    await this.holds.giveBack(order, by ?? null, () =>
      this.marks.setFlags(order._id, { stockReturn: 'done' }),
    );
    // An order from a quotation also holds its share of its organisation's credit.
    await this.creditLimit.release(order);
    await this.marks.setFlags(order._id, { stockReturn: 'cleared' });
  }

  /** The conditions the order must still meet when it is sent out (its lines' holds'). */
  dispatchGuard(order: OrderRecord): Record<string, unknown> {
    return this.holds.dispatchGuard(order);
  }

  /** Refuses (409) sending the order out while one of its holds may not go yet. */
  checkDispatch(order: OrderRecord): Promise<void> {
    return this.holds.checkDispatch(order);
  }

  /** An order handed over (dispatched): what is still held leaves as a sale, once. */
  handOver(order: OrderRecord, by?: Actor | null): Promise<number> {
    return this.holds.handOver(order, by ?? null);
  }

  /** Releases every line's hold (a line never held is left as it is), and its credit claim. */
  async releaseAll(order: OrderRecord): Promise<void> {
    await this.holds.releaseAll(order);
    await this.creditLimit.release(order);
  }

  /** Turns the reservations of a placed order into sales on the ledger. */
  async settle(order: OrderRecord, reservedHere = false): Promise<void> {
    await this.holds.settle(order, reservedHere);
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
      for (const { order } of settled)
        for (const productId of this.holds.productsToSettle(order))
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
