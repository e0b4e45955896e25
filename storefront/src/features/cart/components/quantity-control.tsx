import { useState } from 'react';
import { useCartStore } from '../../../stores/cart-store';

/**
 * Minus / box / plus: while typing only '' or a number above 0 is accepted; on blur a
 * positive number is committed (moved onto the unit's steps); minus is dimmed at the minimum; plus
 * adds a step and saves at once.
 */
export function QuantityControl({
  id,
  quantity,
  name,
  min = 1,
  step = 1,
}: {
  id: string;
  quantity: number;
  name: string;
  /** The unit's minimum and step (the plus and minus move by the step). */
  min?: number;
  step?: number;
}) {
  const increase = useCartStore((s) => s.increaseQuantity);
  const decrease = useCartStore((s) => s.decreaseQuantity);
  const [draft, setDraft] = useState<string | null>(null);
  const value = draft ?? String(quantity);
  return (
    <div className="qty">
      <button
        type="button"
        aria-label={`Decrease quantity of ${name}`}
        className={quantity <= min ? 'dim' : undefined}
        aria-disabled={quantity <= min}
        onClick={() => decrease(id)}
      >
        −
      </button>
      <input
        aria-label={`Quantity of ${name}`}
        inputMode="numeric"
        value={value}
        onChange={(e) => {
          const v = e.target.value;
          if (v === '' || (/^\d+$/.test(v) && Number(v) > 0)) setDraft(v);
        }}
        onBlur={() => {
          const n = Number(draft);
          if (draft !== null && n > 0) increase(id, n);
          setDraft(null);
        }}
      />
      <button
        type="button"
        aria-label={`Increase quantity of ${name}`}
        onClick={() => increase(id, quantity + step)}
      >
        +
      </button>
    </div>
  );
}
