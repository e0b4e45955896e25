import { formatMoney } from '@spc/shared-contracts';
import { useEffect, useState } from 'react';

/** 'Shop by Price': the slider moves the upper bound only; RESET goes back to the maximum. */
export function PriceFilter({
  id,
  min,
  max,
  value,
  onCommit,
}: {
  id: string;
  min: number;
  max: number;
  value: number;
  onCommit: (value: number | undefined) => void;
}) {
  // null follows the committed value; a number is the thumb being moved, committed after a pause.
  const [moving, setMoving] = useState<number | null>(null);
  const draft = moving ?? value;
  useEffect(() => {
    if (moving === null) return;
    const t = setTimeout(() => {
      onCommit(moving >= max ? undefined : moving);
      setMoving(null);
    }, 300);
    return () => clearTimeout(t);
  }, [moving, max, onCommit]);
  return (
    <div className="price-filter">
      <label htmlFor={id}>Maximum price</label>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={Math.max(1, Math.round((max - min) / 100))}
        value={Math.min(Math.max(draft, min), max)}
        aria-valuetext={formatMoney(draft)}
        onChange={(e) => setMoving(Number(e.target.value))}
      />
      <p className="range-values">
        <span>{formatMoney(min)}</span> – <span>{formatMoney(Math.min(draft, max))}</span>
      </p>
      <button
        type="button"
        className="btn btn-outline btn-sm"
        onClick={() => {
          setMoving(null);
          onCommit(undefined);
        }}
      >
        RESET
      </button>
    </div>
  );
}
