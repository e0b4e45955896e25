import { BadRequestException, Injectable } from '@nestjs/common';
import { CatalogService } from '../catalog/catalog.service';
import type { StockLevel } from '../catalog/catalog.types';
import { isObjectId } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { ReservationsRepository } from './reservations.repository';
import { StockLedgerRepository, type StockMovementView } from './stock-ledger.repository';

/** The order a stock movement belongs to, as its ledger entry shows it. */
export interface OrderRef {
  purchaseNumber?: string;
  /** Who placed (or cancelled) it; none for a guest or the shop itself. */
  by?: Principal | null;
  note?: string;
}

/**
 * What other modules (orders) ask of the inventory: an order's stock taken and given back in single
 * conditional updates, so that no sequence of concurrent orders can leave stock negative or sell
 * more than there is. `reserveStock` -> `settleReservation` | `releaseReservation` and `restock` ->
 * `clearRestockMarker` record the order id on the product so a step retried after a crash counts
 * once. Each writes its stock movement (sale or return) in the same atomic update as the stock, and
 * each change reaches the catalogue's lists as the stock that update answered, with its sequence.
 */
@Injectable()
export class InventoryService {
  constructor(
    private readonly reservations: ReservationsRepository,
    private readonly catalog: CatalogService,
    private readonly ledger: StockLedgerRepository,
  ) {}

  /** Whether the order took a product's stock below zero (a gate sale, flagged short: issue 47). */
  wentShort(orderId: string): Promise<boolean> {
    return this.ledger.orderWentShort(orderId);
  }

  /**
   * Takes `quantity` for `orderId` if at least that much is in stock, recording the reservation on
   * the product; true also when the order already holds it (a retry).
   */
  async reserveStock(
    productId: string,
    orderId: string,
    quantity: number,
    order: OrderRef = {},
  ): Promise<boolean> {
    assertQuantity(quantity);
    return this.stockChange(productId, (id) =>
      this.reservations.reserve(id, orderId, quantity, {
        reason: 'sale',
        by: order.by,
        purchaseNumber: order.purchaseNumber,
      }),
    );
  }

  /**
   * `reserveStock` for a placement that copies the sale movements to the ledger itself, with other
   * placements' (`StockLedgerRepository.insertMovementRows`, before `settleReservations`): answers
   * the movements to copy, null when the stock is short (or there is no such product).
   */
  async reserveForPlacement(
    productId: string,
    orderId: string,
    quantity: number,
    order: OrderRef = {},
    allowShort = false,
  ): Promise<StockMovementView[] | null> {
    assertQuantity(quantity);
    let rows: StockMovementView[] | null = null;
    await this.stockChange(productId, async (id) => {
      const taken = await this.reservations.reserveUncopied(
        id,
        orderId,
        quantity,
        { reason: 'sale', by: order.by, purchaseNumber: order.purchaseNumber },
        allowShort,
      );
      if (!taken) return null;
      rows = taken.movements.map((m) => ({ ...m, productId: id, productName: taken.productName }));
      return taken.stock;
    });
    return rows;
  }

  /** Gives back what `orderId` reserved (placement undone); false when it holds nothing here. */
  releaseReservation(productId: string, orderId: string, order: OrderRef = {}): Promise<boolean> {
    return this.stockChange(productId, (id) =>
      this.reservations.release(id, orderId, {
        reason: 'return',
        purchaseNumber: order.purchaseNumber,
        note: 'Order not placed: its stock was given back',
      }),
    );
  }

  /**
   * The order is placed: keeps the stock taken and forgets the reservation. `reservedHere`: this
   * process's `reserveStock` for it returned true (its sale movement is in the ledger already).
   */
  async settleReservation(
    productId: string,
    orderId: string,
    reservedHere = false,
  ): Promise<boolean> {
    return isObjectId(productId)
      ? this.reservations.settle(productId, orderId, reservedHere)
      : false;
  }

  /**
   * Settles several placed orders together (product id -> the orders whose `reserveForPlacement`
   * there answered `movements`): the movements copied to the ledger in one write, then one write
   * per product.
   */
  async settleReservations(
    orderIdsByProduct: Map<string, string[]>,
    movements: StockMovementView[],
  ): Promise<void> {
    const valid = new Map([...orderIdsByProduct].filter(([id]) => isObjectId(id)));
    await this.reservations.settleMany(valid, movements);
  }

  /** Returns a cancelled order's `quantity` once, however often it is called for that order. */
  async restock(
    productId: string,
    orderId: string,
    quantity: number,
    order: OrderRef = {},
  ): Promise<boolean> {
    assertQuantity(quantity);
    return this.stockChange(productId, (id) =>
      this.reservations.returnStockOnce(id, orderId, quantity, {
        reason: 'return',
        by: order.by,
        purchaseNumber: order.purchaseNumber,
        note: order.note,
      }),
    );
  }

  /**
   * Seedlings of a batch moved into the product's ready stock (a `batch-ready` movement), once per
   * `key` even if called again after a crash: `batch:<id>` when the batch is made ready, a booking
   * order's id when its seedlings are released after that. Cleared with `clearRestockMarker`.
   */
  async receiveFromBatch(
    productId: string,
    key: string,
    quantity: number,
    order: OrderRef = {},
  ): Promise<boolean> {
    if (quantity <= 0) return false;
    assertQuantity(quantity);
    return this.stockChange(productId, (id) =>
      this.reservations.returnStockOnce(id, key, quantity, {
        reason: 'batch-ready',
        by: order.by,
        purchaseNumber: order.purchaseNumber,
        note: order.note,
      }),
    );
  }

  /** Forgets that `orderId`'s stock was returned here (once the order records the return). */
  async clearRestockMarker(productId: string, orderId: string): Promise<boolean> {
    return isObjectId(productId) ? this.reservations.clearRestockMarker(productId, orderId) : false;
  }

  /**
   * Runs a stock change (answering the product's stock after it, null when it changed nothing) and
   * tells the catalogue that stock.
   */
  private async stockChange(
    productId: string,
    change: (id: string) => Promise<StockLevel | null>,
  ): Promise<boolean> {
    if (!isObjectId(productId)) return false;
    const id = productId.toLowerCase();
    const stock = await change(id);
    if (stock) this.catalog.stockChanged(id, stock);
    return stock !== null;
  }
}

function assertQuantity(quantity: number): void {
  if (!Number.isInteger(quantity) || quantity < 1) {
    throw new BadRequestException('Quantity must be a whole number more than 0');
  }
}
