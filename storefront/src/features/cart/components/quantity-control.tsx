import { useState } from 'react';
import { useCartStore } from '../../../stores/cart-store';

/**
 * Minus / box / plus: while typing only '' or a number above 0 is accepted; on blur a
 * positive number is committed; minus is dimmed at 1; plus adds 1 and saves at once.
 */
export function QuantityControl({
  id,
  quantity,
  name,
}: {
  id: string;
  quantity: number;
  name: string;
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
        className={quantity <= 1 ? 'dim' : undefined}
        aria-disabled={quantity <= 1}
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
        onClick={() => increase(id, quantity + 1)}
      >
        +
      </button>
    </div>
  );
}
