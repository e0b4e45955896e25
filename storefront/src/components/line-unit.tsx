import { DEFAULT_UNIT_NAME, formatMoney, nextTier } from '@spc/shared-contracts';
import { linePricing, type CartItem } from '../stores/cart-store';

/**
 * A cart line's unit and price each ("Tray of 50 · KES 1,350 each, 10+ price"), and how many more
 * would reach the next tier. Nothing for a single seedling sold without tiers (old carts too).
 */
export function LineUnit({ item }: { item: CartItem }) {
  const unit = item.unit;
  if (!unit || (unit.name === DEFAULT_UNIT_NAME && unit.tiers.length === 0)) return null;
  const { unitPrice, tier } = linePricing(item);
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

/** The line's total at its tier. */
export function lineTotal(item: CartItem): number {
  return linePricing(item).unitPrice * item.quantity;
}
