import { ConflictException, Injectable } from '@nestjs/common';
import { CatalogService } from '../catalog/catalog.service';
import {
  personOf,
  seedlingsByProduct,
  type HeldOrder,
  type LineHold,
  type LineToHold,
  type OrderHold,
} from '../common/order-hold';
import type { Actor, Principal } from '../common/principal';
import { InventoryService } from './inventory.service';
import type { StockMovementView } from './stock-ledger.repository';

/** How often a line's reservation is asked for while a read shows its stock enough. */
const RESERVE_ATTEMPTS = 3;

/**
 * The hold of an order's lines on ready stock, the placement's usual way of holding what an order
 * sells (a booking's lines are held on their batch, `BookingHold`).
 */
@Injectable()
export class ReadyStockHold implements OrderHold {
  constructor(
    private readonly inventory: InventoryService,
    private readonly catalog: CatalogService,
  ) {}

  /**
   * Each line's stock reserved on its product (one conditional update that records the order's id
   * there). A line short of stock releases the lines before it and is refused (409, what is left).
   * Answers the sale movements, copied to the ledger when the order is settled.
   */
  async hold(
    order: Pick<HeldOrder, '_id' | 'purchaseNumber'>,
    lines: LineToHold[],
    actor?: Principal,
    /** A gate sale's hand-over: taken even below zero, the movement flagged short (issue 47). */
    allowShort = false,
  ): Promise<StockMovementView[]> {
    const reserved: string[] = [];
    const movements: StockMovementView[] = [];
    const ref = { by: actor, purchaseNumber: order.purchaseNumber };
    // One reservation per product: the seedlings of all its lines (a tray and singles add up).
    for (const [productId, seedlings] of seedlingsByProduct(lines)) {
      let taken: StockMovementView[] | null = null;
      let current: { productQuantity: number } | undefined;
      // The conditional update found no stock to take, yet a read after it may show enough: a
      // write racing it, or a server that answers a write conflict as no match. Asked again then,
      // a few times; refused only on a read that shows the stock short.
      for (let attempt = 1; attempt <= RESERVE_ATTEMPTS; attempt++) {
        taken = await this.inventory.reserveForPlacement(
          productId,
          order._id,
          seedlings,
          ref,
          allowShort,
        );
        if (taken) break;
        current = (await this.catalog.findForOrder([productId]))[0];
        if (!current || allowShort) break;
        if (!current || current.productQuantity < seedlings) break;
      }
      if (taken) {
        reserved.push(productId);
        movements.push(...taken);
        continue;
      }
      for (const id of reserved) await this.inventory.releaseReservation(id, order._id, ref);
      const line = lines.find((l) => l.productId === productId)!;
      // Removed since the catalogue in memory priced it.
      if (!current) throw productsUnavailable([productId]);
      const left = current.productQuantity;
      const units = lines.filter((l) => l.productId === productId && l.seedlings > 1);
      const inUnits = units.map((l) => `${Math.floor(left / l.seedlings)} × ${l.unitName}`);
      throw new ConflictException({
        message:
          left > 0
            ? `Only ${left} left of ${line.productName}${inUnits.length ? ` (${inUnits.join(', ')})` : ''}; please lower the quantity`
            : `${line.productName} is out of stock`,
        code: 'OUT_OF_STOCK',
        errors: [{ field: `products.${productId}`, messages: [`available: ${left}`] }],
      });
    }
    return movements;
  }

  /** Every line's reservation released (a line never reserved is left as it is). */
  async releaseAll(order: HeldOrder): Promise<void> {
    for (const productId of seedlingsOf(order).keys())
      await this.inventory.releaseReservation(productId, order._id, order);
  }

  /**
   * A cancelled order's stock back on its products, once per line even if called again after a
   * crash: each restock records a marker on its product, so a line restocked already counts once;
   * the markers are cleared by `clearReturnMarkers` once every line is back.
   */
  async giveBack(order: HeldOrder, _hold: LineHold, by: Actor | null): Promise<void> {
    for (const [productId, seedlings] of seedlingsOf(order))
      await this.inventory.restock(productId, order._id, seedlings, {
        purchaseNumber: order.purchaseNumber,
        by: personOf(by),
        note: `Order ${order.purchaseNumber} cancelled: its stock came back`,
      });
  }

  async clearReturnMarkers(order: HeldOrder): Promise<void> {
    for (const productId of seedlingsOf(order).keys())
      await this.inventory.clearRestockMarker(productId, order._id);
  }

  productsToSettle(order: HeldOrder): string[] {
    return [...seedlingsOf(order).keys()];
  }

  async settle(order: HeldOrder, _hold: LineHold, reservedHere: boolean): Promise<void> {
    for (const productId of seedlingsOf(order).keys())
      await this.inventory.settleReservation(productId, order._id, reservedHere);
  }

  /** Ready stock may go out whenever the order's state allows. */
  dispatchGuard(): Record<string, unknown> {
    return {};
  }

  checkDispatch(): void {}

  /** Ready stock left its products as a sale when the order was settled: nothing is left. */
  handOver(): Promise<number> {
    return Promise.resolve(0);
  }

  /**
   * A tranche of ready stock sent out: its seedlings left the products as the order's sale when it
   * was placed, so the products' ledger has nothing more to move.
   */
  handOverPart(): Promise<number> {
    return Promise.resolve(0);
  }

  /**
   * Ready seedlings that came back undelivered stay the order's (sold to it at placement), to go
   * in a later load: the products' stock, what the shop may sell, does not change.
   */
  bringBackPart(): Promise<number> {
    return Promise.resolve(0);
  }
}

/** The 409 for cart lines whose product is no longer sold. */
export function productsUnavailable(productIds: string[]): ConflictException {
  return new ConflictException({
    message: 'A product in your cart is no longer sold. Please remove it and try again.',
    code: 'PRODUCT_UNAVAILABLE',
    errors: productIds.map((id) => ({
      field: `products.${id}`,
      messages: ['This product no longer exists'],
    })),
  });
}

/** The seedlings the order took from each product (its lines of one product added up). */
function seedlingsOf(order: HeldOrder): Map<string, number> {
  return seedlingsByProduct(
    order.products.map((l) => ({
      productId: l.product._id,
      quantity: l.quantity,
      seedlings: l.unit?.seedlings ?? 1,
    })),
  );
}
