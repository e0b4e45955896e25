import type { CartItem } from './cart-store';

/*
 * Kept apart from the cart store: the store loads with every page (the cart badge), the orders of a
 * cart only with the cart, the drawer and the checkout.
 */

/** The lines one order takes: the ready-now lines (key ''), or the booking lines of one batch. */
export interface CartGroup {
  /** '' for ready now, else the batch id. */
  key: string;
  /** The ready day of a booking group, '' for ready now. */
  readyOn: string;
  items: CartItem[];
}

/** The cart split into the orders it makes: ready now first, then bookings by ready day. */
export function cartGroups(items: CartItem[]): CartGroup[] {
  const groups = new Map<string, CartGroup>();
  for (const item of items) {
    const key = item.booking?.batchId ?? '';
    const group = groups.get(key) ?? { key, readyOn: item.booking?.readyOn ?? '', items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) =>
    a.key === '' ? -1 : b.key === '' ? 1 : a.readyOn.localeCompare(b.readyOn),
  );
}
