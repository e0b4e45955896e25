/**
 * Sale units (issue 29): a product is sold by one or more units ("Single seedling", "Tray of 50"),
 * each holding a number of seedlings, with its own price, optional offer, minimum, step and quantity
 * price tiers. Stock stays one number of seedlings per product. The first unit is the default: the
 * single seedling, whose price and offer are the product's `price`, `onOffer` and `offerPrice`.
 *
 * The API checks a product form's units with `saleUnitsSchema` and prices every order line with
 * `priceUnit`; the back office and the storefront use the same functions to show the rules.
 */

import type { TaxType } from './tax';

export const SALE_UNIT_LIMITS = {
  unitsPerProduct: 10,
  tiersPerUnit: 10,
  name: 60,
  sku: 40,
  seedlingsMax: 10_000,
  quantityMax: 100_000,
} as const;

/** The name the default unit gets when none is given (and every product gets on migration). */
export const DEFAULT_UNIT_NAME = 'Single seedling';

export const SALE_UNIT_MESSAGES = {
  unitsInvalid: 'units must be a list of sale units (JSON text in a form)',
  unitsRequired: 'A product needs at least one unit: its single seedling',
  tooManyUnits: `A product can have at most ${SALE_UNIT_LIMITS.unitsPerProduct} units`,
  nameRequired: 'Unit name is required',
  nameTaken: 'Two units have the same name',
  defaultIsSingle: 'The first unit is the single seedling: it holds 1 seedling',
  offerBelowPrice: "A unit's offer price must be less than its price",
  tiersOrder: 'Tiers must go up: each starts at a larger quantity than the one before',
  tiersOverlap: 'Two tiers start at the same quantity: they overlap',
  tierFromTwo: "A tier starts at 2 or more (the unit's own price is for 1)",
  tierCheaper: "A tier's price must be lower than the price before it",
  tooManyTiers: `A unit can have at most ${SALE_UNIT_LIMITS.tiersPerUnit} tiers`,
  unitId: 'A unit _id must be the id of one of this product’s units',
} as const;

/** One quantity price: from `minQuantity` units of this unit up, each at `price`. */
export interface PriceTier {
  minQuantity: number;
  price: number;
}

/** A sale unit as the API shows it and stores it. `offerPrice` 0: no offer. */
export interface SaleUnit {
  _id: string;
  name: string;
  seedlings: number;
  price: number;
  offerPrice: number;
  sku: string;
  minQuantity: number;
  step: number;
  tiers: PriceTier[];
  /**
   * The unit's own KRA tax type, stored only when it has one (else its product's applies). Staff
   * read it through the product's tax (`GET /api/products/:id/tax`); the catalogue's views leave it
   * out.
   */
  taxType?: TaxType;
}

/**
 * A whole number checked by `r`; left out, `fallback` (none: the rule's "required"). Optional in
 * zod's sense, so a missing key reaches the check and is said in the rule's words.
 */
/** The default unit of a product that has none stored (before the migration). */
export function defaultUnitOf(
  product: { price: number; onOffer: boolean; offerPrice: number },
  _id = 'single',
): SaleUnit {
  return {
    _id,
    name: DEFAULT_UNIT_NAME,
    seedlings: 1,
    price: product.price,
    offerPrice: product.onOffer ? product.offerPrice : 0,
    sku: '',
    minQuantity: 1,
    step: 1,
    tiers: [],
  };
}

/** What one unit costs when `quantity` of it are bought. */
export interface UnitPricing {
  /** KES for one unit: the lower of the tier's price (or the unit's) and the offer price. */
  unitPrice: number;
  /** The tier applied, or null when the unit's own price (or its offer) is the lower. */
  tier: PriceTier | null;
  /** True when the offer price is what is charged. */
  onOffer: boolean;
}

/**
 * The price of `quantity` of `unit`: the tier reached (the highest `minQuantity` at most the
 * quantity), unless the unit's offer price is lower, which then applies.
 */
export function priceUnit(unit: SaleUnit, quantity: number): UnitPricing {
  let tier: PriceTier | null = null;
  for (const t of unit.tiers) if (t.minQuantity <= quantity) tier = t;
  const listed = tier ? tier.price : unit.price;
  if (unit.offerPrice > 0 && unit.offerPrice < listed)
    return { unitPrice: unit.offerPrice, tier: null, onOffer: true };
  return { unitPrice: listed, tier, onOffer: false };
}

/** The next tier above `quantity`, and how many more units reach it (null: none left). */
export function nextTier(
  unit: SaleUnit,
  quantity: number,
): { tier: PriceTier; more: number } | null {
  const tier = unit.tiers.find((t) => t.minQuantity > quantity);
  if (!tier) return null;
  const current = priceUnit(unit, quantity).unitPrice;
  return tier.price < current ? { tier, more: tier.minQuantity - quantity } : null;
}

/** Why `quantity` of `unit` cannot be bought (under its minimum, off its step), or undefined. */
export function unitQuantityProblem(unit: SaleUnit, quantity: number): string | undefined {
  if (quantity < unit.minQuantity)
    return `${unit.name}: at least ${unit.minQuantity} (you asked for ${quantity})`;
  if ((quantity - unit.minQuantity) % unit.step !== 0) {
    const below = quantity - ((quantity - unit.minQuantity) % unit.step);
    return `${unit.name}: in steps of ${unit.step} from ${unit.minQuantity} (${below} or ${below + unit.step}, not ${quantity})`;
  }
  return undefined;
}

/**
 * The lowest price of one seedling any unit, tier or offer reaches, in whole KES rounded up (a card's
 * "from KES …": never lower than what a shopper can pay).
 */
export function fromPricePerSeedling(units: SaleUnit[]): number {
  let best = Infinity;
  for (const unit of units) {
    const prices = [unit.price, ...unit.tiers.map((t) => t.price)];
    if (unit.offerPrice > 0) prices.push(unit.offerPrice);
    best = Math.min(best, Math.min(...prices) / unit.seedlings);
  }
  return Number.isFinite(best) ? Math.ceil(best - 1e-9) : 0;
}

/** "10+ trays: KES 1,350 each"-style label of a tier (the storefront and receipts). */
export function tierLabel(unit: Pick<SaleUnit, 'name'>, tier: PriceTier): string {
  return `${tier.minQuantity}+ ${unit.name}: KES ${tier.price.toLocaleString('en-US')} each`;
}

/** An order line's unit and tier as the API answers them (absent on answers from before units). */
export interface LineUnitParts {
  productName: string;
  unit?: { name: string; seedlings: number } | null;
  tier?: PriceTier | null;
}

/**
 * How documents name a line: the product, then its unit unless it is the single seedling
 * ("Tomato Anna F1 (Tray of 50)"), then the tier applied ("10+ price").
 */
export function lineItemName(line: LineUnitParts): string {
  const unit = line.unit && line.unit.name !== DEFAULT_UNIT_NAME ? ` (${line.unit.name})` : '';
  const tier = line.tier ? ` · ${line.tier.minQuantity}+ price` : '';
  return `${line.productName}${unit}${tier}`;
}

/** The seedlings a line holds: quantity × the unit's seedlings. */
export function lineSeedlings(line: {
  quantity: number;
  unit?: { seedlings: number } | null;
}): number {
  return line.quantity * (line.unit?.seedlings ?? 1);
}

/** A stock of seedlings as whole units of each larger unit ("2 × Tray of 50, 1 × Tray of 104"). */
export function stockInUnits(
  seedlings: number,
  units: Pick<SaleUnit, 'name' | 'seedlings'>[],
): string {
  return units
    .filter((u) => u.seedlings > 1)
    .map((u) => `${Math.floor(seedlings / u.seedlings)} × ${u.name}`)
    .join(', ');
}
