import { BadRequestException, Injectable } from '@nestjs/common';
import { isObjectId } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import type { OrderableProduct } from './catalog.types';
import { CatalogueEvents } from './read-model/catalogue-events';
import { ProductsRepository } from './products.repository';

/**
 * What other modules (orders) ask of the catalog: products as an order needs them, and stock taken
 * and given back in single conditional updates, so that no sequence of concurrent orders can leave
 * stock negative or sell more than there is. Every stock change is announced to the read model.
 *
 * Two ways to use stock: `takeStock`/`returnStock` (plain), or the order-aware
 * `reserveStock` -> `settleReservation` | `releaseReservation` and `restock` -> `clearRestockMarker`,
 * which record the order id on the product so a step retried after a crash counts once.
 * Each writes its stock movement (sale or return) in the same atomic update as the stock.
 */
@Injectable()
export class CatalogService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly events: CatalogueEvents,
  ) {}

  /** The products with these ids that exist (ids that are not ObjectIds are left out). */
  findForOrder(ids: string[]): Promise<OrderableProduct[]> {
    const valid = ids.filter(isObjectId).map((id) => id.toLowerCase());
    return valid.length ? this.products.findOrderable(valid) : Promise.resolve([]);
  }

  /** Takes `quantity` if at least that much is in stock; false (nothing taken) otherwise. */
  async takeStock(productId: string, quantity: number, by?: Principal | null): Promise<boolean> {
    assertQuantity(quantity);
    return this.stockChange(productId, async (id) =>
      (await this.products.takeStock(id, quantity, { reason: 'sale', by })) ? -quantity : 0,
    );
  }

  /** Puts `quantity` back; false when the product no longer exists. */
  async returnStock(productId: string, quantity: number, by?: Principal | null): Promise<boolean> {
    assertQuantity(quantity);
    return this.stockChange(productId, async (id) =>
      (await this.products.returnStock(id, quantity, { reason: 'return', by })) ? quantity : 0,
    );
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
    return this.stockChange(productId, async (id) =>
      (await this.products.reserveStock(id, orderId, quantity, {
        reason: 'sale',
        by: order.by,
        purchaseNumber: order.purchaseNumber,
      }))
        ? -quantity
        : 0,
    );
  }

  /** Gives back what `orderId` reserved (placement undone); false when it holds nothing here. */
  releaseReservation(productId: string, orderId: string, order: OrderRef = {}): Promise<boolean> {
    return this.stockChange(productId, (id) =>
      this.products.releaseReservation(id, orderId, {
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
      ? this.products.settleReservation(productId, orderId, reservedHere)
      : false;
  }

  /** Returns a cancelled order's `quantity` once, however often it is called for that order. */
  async restock(
    productId: string,
    orderId: string,
    quantity: number,
    order: OrderRef = {},
  ): Promise<boolean> {
    assertQuantity(quantity);
    return this.stockChange(productId, async (id) =>
      (await this.products.returnStockOnce(id, orderId, quantity, {
        reason: 'return',
        by: order.by,
        purchaseNumber: order.purchaseNumber,
        note: order.note,
      }))
        ? quantity
        : 0,
    );
  }

  /** Forgets that `orderId`'s stock was returned here (once the order records the return). */
  async clearRestockMarker(productId: string, orderId: string): Promise<boolean> {
    return isObjectId(productId) ? this.products.clearRestockMarker(productId, orderId) : false;
  }

  /** Runs a stock change (answering the signed quantity it moved) and announces it. */
  private async stockChange(
    productId: string,
    change: (id: string) => Promise<number>,
  ): Promise<boolean> {
    if (!isObjectId(productId)) return false;
    const id = productId.toLowerCase();
    const delta = await change(id);
    if (delta !== 0) this.events.stockMoved(id, delta);
    return delta !== 0;
  }
}

/** The order a stock movement belongs to, as its ledger entry shows it. */
export interface OrderRef {
  purchaseNumber?: string;
  /** Who placed (or cancelled) it; none for a guest or the shop itself. */
  by?: Principal | null;
  note?: string;
}

function assertQuantity(quantity: number): void {
  if (!Number.isInteger(quantity) || quantity < 1) {
    throw new BadRequestException('Quantity must be a whole number more than 0');
  }
}
