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
}

export type NewCartItem = Omit<CartItem, 'quantity'>;

interface CartState {
  userId: string;
  cartItems: CartItem[];
  totalAmount: number;
  addToCart: (item: NewCartItem) => void;
  removeFromCart: (id: string) => void;
  increaseQuantity: (id: string, quantity: number) => void;
  decreaseQuantity: (id: string) => void;
  clearCart: () => void;
  /**
   * Someone signed in: a guest's cart (nobody's) is adopted with its items; a cart of another user
   * is emptied first, so a shared phone never shows one customer's cart to another.
   */
  adoptUser: (userId: string) => void;
}

const total = (items: CartItem[]) => items.reduce((sum, i) => sum + i.price * i.quantity, 0);

export const useCartStore = create<CartState>()(
  persist(
    (set, get) => ({
      userId: '',
      cartItems: [],
      totalAmount: 0,
      addToCart: (item) => {
        let { cartItems } = get();
        let { userId } = get();
        if (item.userId !== userId) {
          // A guest's cart goes along with the shopper who signs in; another user's is emptied.
          cartItems = userId === '' ? cartItems.map((i) => ({ ...i, userId: item.userId })) : [];
          userId = item.userId;
        }
        const existing = cartItems.find((i) => i._id === item._id);
        const next = existing
          ? cartItems.map((i) => (i._id === item._id ? { ...i, quantity: i.quantity + 1 } : i))
          : [...cartItems, { ...item, quantity: 1 }];
        set({ userId, cartItems: next, totalAmount: total(next) });
      },
      removeFromCart: (id) => {
        const next = get().cartItems.filter((i) => i._id !== id);
        set({ cartItems: next, totalAmount: total(next) });
      },
      increaseQuantity: (id, quantity) => {
        if (!Number.isFinite(quantity) || quantity < 1) return;
        const next = get().cartItems.map((i) =>
          i._id === id ? { ...i, quantity: Math.floor(quantity) } : i,
        );
        set({ cartItems: next, totalAmount: total(next) });
      },
      decreaseQuantity: (id) => {
        const next = get().cartItems.map((i) =>
          i._id === id && i.quantity > 1 ? { ...i, quantity: i.quantity - 1 } : i,
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
