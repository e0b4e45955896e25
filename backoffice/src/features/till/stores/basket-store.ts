import { priceUnit, type SaleUnit } from '@spc/shared-contracts';
import { create } from 'zustand';

/** One line of the basket: a product's unit and how many of it. */
export interface BasketLine {
  /** `productId:unitId`: a unit is one line, however often it is picked. */
  key: string;
  productId: string;
  productName: string;
  unit: SaleUnit;
  quantity: number;
}

const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `k${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

interface BasketState {
  lines: BasketLine[];
  /** The sale last sent and its Idempotency-Key, until the basket is cleared. */
  attempt: { body: string; key: string } | null;
  /**
   * The Idempotency-Key of sending `body`: the same while the same sale is sent again (a retry
   * after a network error, even after leaving the page, makes the sale once), a new one once the
   * sale changes.
   */
  keyFor: (body: unknown) => string;
  /** Adds the unit at its minimum, or one more step of it when it is in the basket already. */
  add: (product: { _id: string; productName: string }, unit: SaleUnit) => void;
  setQuantity: (key: string, quantity: number) => void;
  remove: (key: string) => void;
  /** Empties the basket (a sale made, or given up) and forgets its attempt. */
  clear: () => void;
}

/** The sale being put together at the till (this tablet's own state, never server data). */
export const useBasketStore = create<BasketState>((set, get) => ({
  lines: [],
  attempt: null,
  keyFor: (body) => {
    const text = JSON.stringify(body);
    const current = get().attempt;
    if (current?.body === text) return current.key;
    const attempt = { body: text, key: newKey() };
    set({ attempt });
    return attempt.key;
  },
  add: (product, unit) =>
    set(({ lines }) => {
      const key = `${product._id}:${unit._id}`;
      const found = lines.find((l) => l.key === key);
      if (found)
        return {
          lines: lines.map((l) => (l.key === key ? { ...l, quantity: l.quantity + unit.step } : l)),
        };
      const line = {
        key,
        productId: product._id,
        productName: product.productName,
        unit,
        quantity: unit.minQuantity,
      };
      return { lines: [...lines, line] };
    }),
  setQuantity: (key, quantity) =>
    set(({ lines }) => ({ lines: lines.map((l) => (l.key === key ? { ...l, quantity } : l)) })),
  remove: (key) => set(({ lines }) => ({ lines: lines.filter((l) => l.key !== key) })),
  clear: () => set({ lines: [], attempt: null }),
}));

/** A line's price: the tier its quantity reaches (or the offer), times the quantity. */
export function lineTotal(line: Pick<BasketLine, 'unit' | 'quantity'>): number {
  return priceUnit(line.unit, line.quantity).unitPrice * line.quantity;
}

export function basketTotal(lines: BasketLine[]): number {
  return lines.reduce((sum, l) => sum + lineTotal(l), 0);
}
