import { ConflictException, Injectable } from '@nestjs/common';
import { CatalogService } from '../catalog/catalog.service';
import type { Principal } from '../common/principal';
import { seedlingsByProduct, type PricedLine } from '../orders/order-lines';
import type { OrderRecord } from '../orders/order.types';
import { InventoryService } from './inventory.service';
import type { StockMovementView } from './stock-ledger.repository';

/**
 * The hold of an order's lines on ready stock, the placement's usual way of holding what an order
 * sells (a booking's is `BatchHold`'s, on its batch).
 */
@Injectable()
export class ReadyStockHold {
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
    order: Pick<OrderRecord, '_id' | 'purchaseNumber'>,
    lines: PricedLine[],
    actor?: Principal,
  ): Promise<StockMovementView[]> {
    const reserved: string[] = [];
    const movements: StockMovementView[] = [];
    const ref = { by: actor, purchaseNumber: order.purchaseNumber };
    // One reservation per product: the seedlings of all its lines (a tray and singles add up).
    for (const [productId, seedlings] of seedlingsByProduct(lines)) {
      const taken = await this.inventory.reserveForPlacement(productId, order._id, seedlings, ref);
      if (taken) {
        reserved.push(productId);
        movements.push(...taken);
        continue;
      }
      for (const id of reserved) await this.inventory.releaseReservation(id, order._id, ref);
      const line = lines.find((l) => l.productId === productId)!;
      const current = (await this.catalog.findForOrder([productId]))[0];
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
