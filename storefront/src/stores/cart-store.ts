import { priceUnit, type PriceTier, type SaleUnit } from '@spc/shared-contracts';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** A cart line; `price` is the offer price when the product is on offer. */
export interface CartItem {
  _id: string;
  userId: string;
  productName: string;
  productDescription: string;
  productImage: string;
  productImages?: Record<string, string>;
  price: number;
  quantity: number;
  /**
   * The sale unit chosen (issue 29), as the product page showed it: its tiers price the line in
   * the cart (the server prices the order). Absent on carts from before units: the single seedling.
   */
  unit?: SaleUnit;
  /**
   * A booking line (issue 32): the seedlings come from this growing batch on its ready day, paid by
   * a deposit now. A booking is ordered on its own: one batch per order, apart from ready-now lines.
   */
  booking?: CartBooking;
}

/** The batch a booking line is held against, and its ready day (YYYY-MM-DD). */
export interface CartBooking {
  batchId: string;
  readyOn: string;
}

export type NewCartItem = Omit<CartItem, 'quantity'>;

/**
 * A cart line's key: the product, its unit unless the single seedling (whose id is the product's),
 * and the batch of a booking.
 */
export function cartKey(item: {
  _id: string;
  unit?: { _id: string };
  booking?: { batchId: string };
}): string {
  const key = item.unit && item.unit._id !== item._id ? `${item._id}:${item.unit._id}` : item._id;
  return item.booking ? `${key}@${item.booking.batchId}` : key;
}

/** The sum of the lines at their tiers. */
export const linesTotal = (items: CartItem[]) =>
  items.reduce((sum, i) => sum + linePricing(i).unitPrice * i.quantity, 0);

/** What one unit of the line costs at its quantity (its tier or offer), and the tier applied. */
export function linePricing(item: CartItem): { unitPrice: number; tier: PriceTier | null } {
  return item.unit ? priceUnit(item.unit, item.quantity) : { unitPrice: item.price, tier: null };
}

/** `quantity` moved onto the unit's steps (minimum, minimum + step, ...), never under the minimum. */
export function onStep(unit: SaleUnit | undefined, quantity: number): number {
  if (!unit) return Math.max(1, Math.floor(quantity));
  const { minQuantity: min, step } = unit;
  if (quantity <= min) return min;
  return min + Math.round((Math.floor(quantity) - min) / step) * step;
}

interface CartState {
  userId: string;
  cartItems: CartItem[];
  totalAmount: number;
  /** Adds one step of the item's unit (its minimum when new), or `quantity` when given. */
  addToCart: (item: NewCartItem, quantity?: number) => void;
  removeFromCart: (id: string) => void;
  /** Takes the lines of one placed order out; the cart's other orders stay. */
  removeLines: (ids: string[]) => void;
  increaseQuantity: (id: string, quantity: number) => void;
  decreaseQuantity: (id: string) => void;
  clearCart: () => void;
  /**
   * Someone signed in: a guest's cart (nobody's) is adopted with its items; a cart of another user
   * is emptied first, so a shared phone never shows one customer's cart to another.
   */
  adoptUser: (userId: string) => void;
}

const total = linesTotal;

export const useCartStore = create<CartState>()(
  persist(
    (set, get) => ({
      userId: '',
      cartItems: [],
      totalAmount: 0,
      addToCart: (item, quantity) => {
        let { cartItems } = get();
        let { userId } = get();
        if (item.userId !== userId) {
          // A guest's cart goes along with the shopper who signs in; another user's is emptied.
          cartItems = userId === '' ? cartItems.map((i) => ({ ...i, userId: item.userId })) : [];
          userId = item.userId;
        }
        const key = cartKey(item);
        const existing = cartItems.find((i) => cartKey(i) === key);
        const more = quantity ?? (existing ? (item.unit?.step ?? 1) : 0);
        const next = existing
          ? cartItems.map((i) =>
              cartKey(i) === key
                ? { ...i, ...item, quantity: onStep(item.unit, i.quantity + more) }
                : i,
            )
          : [...cartItems, { ...item, quantity: onStep(item.unit, more || 1) }];
        set({ userId, cartItems: next, totalAmount: total(next) });
      },
      removeFromCart: (id) => {
        const next = get().cartItems.filter((i) => cartKey(i) !== id);
        set({ cartItems: next, totalAmount: total(next) });
      },
      removeLines: (ids) => {
        const next = get().cartItems.filter((i) => !ids.includes(cartKey(i)));
        set({ cartItems: next, totalAmount: total(next) });
      },
      increaseQuantity: (id, quantity) => {
        if (!Number.isFinite(quantity) || quantity < 1) return;
        const next = get().cartItems.map((i) =>
          cartKey(i) === id ? { ...i, quantity: onStep(i.unit, quantity) } : i,
        );
        set({ cartItems: next, totalAmount: total(next) });
      },
      decreaseQuantity: (id) => {
        const next = get().cartItems.map((i) =>
          cartKey(i) === id && i.quantity > (i.unit?.minQuantity ?? 1)
            ? { ...i, quantity: onStep(i.unit, i.quantity - (i.unit?.step ?? 1)) }
            : i,
        );
        set({ cartItems: next, totalAmount: total(next) });
      },
      clearCart: () => set({ userId: '', cartItems: [], totalAmount: 0 }),
      adoptUser: (userId) => {
        const current = get();
        if (current.userId === userId) return;
        if (current.userId === '') {
          set({ userId, cartItems: current.cartItems.map((i) => ({ ...i, userId })) });
        } else {
          set({ userId, cartItems: [], totalAmount: 0 });
        }
      },
    }),
    { name: 'cart' },
  ),
);

export const useCartItems = () => useCartStore((s) => s.cartItems);
export const useCartTotal = () => useCartStore((s) => s.totalAmount);
export const useCartCount = () =>
  useCartStore((s) => s.cartItems.reduce((sum, i) => sum + i.quantity, 0));
