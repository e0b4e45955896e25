import {
  DEFAULT_UNIT_NAME,
  formatMoney,
  nextTier,
  organisationUnitPrice,
  ownPriceOf,
  type PriceList,
} from '@spc/shared-contracts';
import { linePricing, type CartItem } from '../stores/cart-store';

/**
 * A cart line's unit and price each ("Tray of 50 · KES 1,350 each, 10+ price"), and how many more
 * would reach the next tier. Nothing for a single seedling sold without tiers (old carts too).
 */
export function LineUnit({ item, list }: { item: CartItem; list?: PriceList | null }) {
  const unit = item.unit;
  if (!unit || (unit.name === DEFAULT_UNIT_NAME && unit.tiers.length === 0)) return null;
  const { unitPrice, tier } = priceOf(item, list);
  const next = nextTier(unit, item.quantity);
  return (
    <span className="line-unit small">
      <span>
        {unit.name} · {formatMoney(unitPrice)} each
        {tier ? <strong className="tier-applied"> ({tier.minQuantity}+ price)</strong> : null}
      </span>
      {next && (
        <span className="tier-hint">
          Add {next.more} more for {formatMoney(next.tier.price)} each
        </span>
      )}
    </span>
  );
}

/**
 * What one unit of the line costs: its tier or offer, or with `list` (the buyer's approved
 * organisation's) the list's price for the product and unit, else the shop's less its discount.
 */
export function priceOf(item: CartItem, list?: PriceList | null) {
  const shop = linePricing(item);
  if (!list) return shop;
  const unitPrice = organisationUnitPrice(
    list,
    item._id,
    item.unit?._id ?? item._id,
    shop.unitPrice,
  );
  if (unitPrice === shop.unitPrice) return shop;
  // A line at the list's own price no longer has a tier; at its discount it keeps the shop's.
  const own = ownPriceOf(list, item._id, item.unit?._id ?? item._id) !== null;
  return { unitPrice, tier: own ? null : shop.tier };
}

/** The line's total at its tier (or the buyer's organisation's price). */
export function lineTotal(item: CartItem, list?: PriceList | null): number {
  return priceOf(item, list).unitPrice * item.quantity;
}

/** The lines' sum, as `lineTotal` prices each. */
export const linesTotalAt = (items: CartItem[], list: PriceList | null) =>
  items.reduce((sum, i) => sum + lineTotal(i, list), 0);
