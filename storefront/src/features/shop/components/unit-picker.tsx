import { formatMoney, priceUnit, tierLabel, type SaleUnit } from '@spc/shared-contracts';
import { useId, useState } from 'react';
import { bookOfferText } from '../../../lib/booking-settings';
import { type BookableBatch } from '../../../lib/bookings';
import { readyDay } from '../../../lib/ready-day';
import { onStep } from '../../../stores/cart-store';

/** "trays" from "Tray of 50", "pots" from "Pot, 10 L", "seedlings" from "Single seedling". */
export function unitWord(unit: Pick<SaleUnit, 'name' | 'seedlings'>): string {
  if (unit.seedlings === 1 && /seedling/i.test(unit.name)) return 'seedlings';
  const first = unit.name.split(/[\s,]/)[0]!.toLowerCase();
  return first.endsWith('s') ? first : `${first}s`;
}

/**
 * The product page's choice of unit: each unit with its price, the chosen `unit`'s tiers ("10+
 * trays: KES 1,350 each"), its minimum and step, and how many of it are left; a quantity that steps
 * by the unit's step; the price of that quantity. The page holds the chosen unit (its price heading
 * follows it): `onChoose` gets the shopper's pick. `onAdd` gets the unit and quantity. With bookable
 * batches, how many are ready now and, per batch, its ready day and a Book button for the same
 * quantity (at most what the batch has left to book, in whole units).
 */
export function UnitPicker({
  units,
  unit,
  onChoose,
  stock,
  onAdd,
  batches = [],
  depositPercent,
  onBook,
}: {
  units: SaleUnit[];
  /** The chosen unit, one of `units`. */
  unit: SaleUnit;
  onChoose: (unit: SaleUnit) => void;
  stock: number;
  onAdd: (unit: SaleUnit, quantity: number) => void;
  batches?: BookableBatch[];
  /** The shop's deposit share; undefined while its settings load. */
  depositPercent?: number;
  onBook?: (unit: SaleUnit, quantity: number, batch: BookableBatch) => void;
}) {
  const [quantity, setQuantity] = useState<number>(unit.minQuantity);
  const [draft, setDraft] = useState<string | null>(null);
  const id = useId();
  const left = Math.floor(stock / unit.seedlings);
  const word = unitWord(unit);
  const { unitPrice, tier } = priceUnit(unit, quantity);
  const choose = (u: SaleUnit) => {
    onChoose(u);
    setQuantity(u.minQuantity);
    setDraft(null);
  };
  const set = (n: number) => setQuantity(Math.max(unit.minQuantity, onStep(unit, n)));
  const tooMany = quantity > left;

  return (
    <div className="unit-picker">
      {units.length > 1 && (
        <fieldset className="unit-choice">
          <legend>Sold as</legend>
          {units.map((u) => (
            <label key={u._id} className="unit-option">
              <input
                type="radio"
                name={`${id}-unit`}
                checked={u._id === unit._id}
                onChange={() => choose(u)}
              />
              <span>
                {u.name} · {formatMoney(u.offerPrice || u.price)}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {unit.tiers.length > 0 && (
        <ul className="tiers" aria-label={`Quantity prices of ${unit.name}`}>
          {unit.tiers.map((t) => (
            <li key={t.minQuantity}>{tierLabel({ name: word }, t)}</li>
          ))}
        </ul>
      )}
      {(unit.minQuantity > 1 || unit.step > 1) && (
        <p className="small muted">
          {unit.minQuantity > 1 ? `At least ${unit.minQuantity} ${word}` : ''}
          {unit.minQuantity > 1 && unit.step > 1 ? ', ' : ''}
          {unit.step > 1 ? `in steps of ${unit.step}` : ''}
        </p>
      )}
      <p>
        <strong>
          {batches.length > 0
            ? `Ready now: ${count(left)} ${word}`
            : left > 0
              ? `${count(left)} ${word} left`
              : 'Out of Stock'}
        </strong>
      </p>
      <div className="qty unit-qty">
        <button
          type="button"
          aria-label={`Fewer ${word}`}
          aria-disabled={quantity <= unit.minQuantity}
          className={quantity <= unit.minQuantity ? 'dim' : undefined}
          onClick={() => set(quantity - unit.step)}
        >
          −
        </button>
        <input
          aria-label={`How many ${word}`}
          inputMode="numeric"
          value={draft ?? String(quantity)}
          onChange={(e) => {
            const v = e.target.value;
            if (v === '' || /^\d+$/.test(v)) setDraft(v);
          }}
          onBlur={() => {
            if (draft) set(Number(draft));
            setDraft(null);
          }}
        />
        <button type="button" aria-label={`More ${word}`} onClick={() => set(quantity + unit.step)}>
          +
        </button>
      </div>
      <p className="unit-total">
        {formatMoney(unitPrice)} each
        {tier ? ` (${tier.minQuantity}+ price)` : ''} ·{' '}
        <strong>{formatMoney(unitPrice * quantity)}</strong>
      </p>
      {tooMany && left > 0 && (
        <p className="small error" role="alert">
          Only {count(left)} {word} left
        </p>
      )}
      {left > 0 ? (
        <button
          type="button"
          className="btn"
          disabled={tooMany}
          onClick={() => onAdd(unit, quantity)}
        >
          Add to Cart
        </button>
      ) : (
        <button type="button" className="btn btn-grey" disabled>
          Out Of Stock
        </button>
      )}
      {onBook && batches.length > 0 && (
        <ul className="book-offers" aria-label="Book for later">
          {batches.map((b) => {
            const max = Math.floor(b.available / unit.seedlings);
            const day = readyDay(b.readyOn);
            return (
              <li key={b._id} className="book-offer">
                <p>
                  <strong>
                    {depositPercent
                      ? bookOfferText(b.readyOn, depositPercent)
                      : `Ready from ${day}: book with a deposit`}
                  </strong>
                </p>
                <p className="small muted">
                  {max > 0 ? `${count(max)} ${word} left to book` : `No ${word} left to book`}
                </p>
                {quantity > max && max > 0 && (
                  <p className="small error" role="alert">
                    Only {count(max)} {word} left to book for {day}
                  </p>
                )}
                <button
                  type="button"
                  className="btn btn-outline"
                  disabled={quantity > max}
                  onClick={() => onBook(unit, quantity, b)}
                >
                  Book for {day}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** A count as shoppers read it: 19,753, not 19753. */
function count(n: number): string {
  return n.toLocaleString('en-US');
}
