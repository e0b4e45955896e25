import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/**
 * The purchase number of the order just placed, kept until the shopper closes its banner: the
 * checkout sends the shopper on to the shop after 2 s, and the number must stay in view there.
 */
interface OrderBannerState {
  purchaseNumber: string | null;
  show: (purchaseNumber: string) => void;
  close: () => void;
}

export const useOrderBannerStore = create<OrderBannerState>()(
  persist(
    (set) => ({
      purchaseNumber: null,
      show: (purchaseNumber) => set({ purchaseNumber }),
      close: () => set({ purchaseNumber: null }),
    }),
    { name: 'lastOrder' },
  ),
);
