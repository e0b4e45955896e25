import { BadRequestException } from '@nestjs/common';
import {
  priceUnit,
  unitQuantityProblem,
  type PriceTier,
  type SaleUnit,
} from '@spc/shared-contracts';
import type { OrderableProduct } from '../catalog/catalog.types';

/** A cart line as the placement reads it: the unit left out means the single seedling. */
export interface CartLine {
  _id: string;
  quantity: number;
  unitId?: string;
}

/** A line as it is sold: the unit, its seedlings and the price applied are kept on the order. */
export interface PricedLine {
  productId: string;
  productName: string;
  productImage: string;
  unitId: string;
  unitName: string;
  /** Seedlings one unit holds: the line takes quantity × seedlings from the product's stock. */
  seedlings: number;
  tier: PriceTier | null;
  unitPrice: number;
  quantity: number;
  lineTotal: number;
  /**
   * Set on a line that names its own hold (an accepted quotation's): its batch, or null for ready
   * stock; stored on the order's line. A cart's lines leave it out (their hold is the order's).
   */
  batchId?: string | null;
}

/**
 * One line per product and unit: the same product and unit twice in a cart becomes one line with
 * both quantities. A line without a unit keeps the old shape (`{ _id, quantity }`).
 */
export function mergeCartLines(items: CartLine[]): CartLine[] {
  const merged = new Map<string, CartLine>();
  for (const item of items) {
    const _id = item._id.toLowerCase();
    const unitId = item.unitId?.toLowerCase();
    const key = `${_id}:${unitId ?? ''}`;
    const line = merged.get(key);
    if (line) line.quantity += item.quantity;
    else
      merged.set(
        key,
        unitId ? { _id, quantity: item.quantity, unitId } : { _id, quantity: item.quantity },
      );
  }
  return [...merged.values()];
}

/**
 * Prices every line with the server's catalogue (the client's figures are ignored): the unit named
 * (the single seedling when none), the tier its quantity reaches or the unit's offer, whichever is
 * lower. Refuses (400, nothing changed) a unit that is not the product's (another product's, or
 * one deleted) and a quantity under the unit's minimum or off its step, naming every such line.
 */
export function priceCartLines(
  lines: CartLine[],
  byId: Map<string, OrderableProduct>,
): PricedLine[] {
  const errors: { field: string; messages: string[] }[] = [];
  // The single seedling named by its id and left out are one line.
  const chosen = new Map<string, { product: OrderableProduct; unit: SaleUnit; quantity: number }>();
  for (const line of lines) {
    const product = byId.get(line._id)!;
    const unit = line.unitId
      ? product.units.find((u) => u._id.toLowerCase() === line.unitId)
      : product.units[0];
    if (!unit) {
      errors.push({
        field: `products.${line._id}`,
        messages: [
          `This unit is not one of ${product.productName}'s units (it may have been removed); please choose the unit again`,
        ],
      });
      continue;
    }
    const key = `${product._id}:${unit._id}`;
    const before = chosen.get(key);
    chosen.set(key, { product, unit, quantity: line.quantity + (before?.quantity ?? 0) });
  }
  const priced: PricedLine[] = [];
  for (const { product, unit, quantity } of chosen.values()) {
    const problem = unitQuantityProblem(unit, quantity);
    if (problem) {
      errors.push({
        field: `products.${product._id}`,
        messages: [`${product.productName}, ${problem}`],
      });
      continue;
    }
    const { unitPrice, tier } = priceUnit(unit, quantity);
    priced.push({
      productId: product._id,
      productName: product.productName,
      productImage: product.productImage,
      unitId: unit._id,
      unitName: unit.name,
      seedlings: unit.seedlings,
      tier,
      unitPrice,
      quantity,
      lineTotal: unitPrice * quantity,
    });
  }
  if (errors.length) {
    throw new BadRequestException({
      message: errors[0]!.messages[0],
      code: 'VALIDATION_FAILED',
      errors,
    });
  }
  return priced;
}

export { seedlingsByProduct } from '../common/order-hold';
