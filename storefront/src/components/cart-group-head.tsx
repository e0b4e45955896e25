import { Link } from 'react-router';
import { paths } from '../config/paths';
import { readyDay } from '../lib/ready-day';
import type { CartGroup } from '../stores/cart-groups';
import './bookings.css';

/** Said over a cart that makes more than one order. */
export const SEPARATE_ORDERS_TEXT =
  'A booking is ordered on its own: ready-now seedlings and each booking are checked out separately.';

/** A cart group's title: "Ready now", or "Booking: ready from 12 March". */
export const groupTitle = (g: Pick<CartGroup, 'key' | 'readyOn'>) =>
  g.key ? `Booking: ready from ${readyDay(g.readyOn)}` : 'Ready now';

/**
 * The head of one order's lines in the cart: its title, and for a booking how it is paid. Shown when
 * the cart holds a booking (alone or beside other orders); nothing for a cart of ready-now lines.
 */
export function CartGroupHead({
  group,
  alone,
  checkout = false,
}: {
  group: CartGroup;
  /** The cart's only order. */
  alone: boolean;
  /** Offer this order's own checkout (the cart page, when the cart makes several orders). */
  checkout?: boolean;
}) {
  if (alone && !group.key) return null;
  return (
    <div className="cart-group-head">
      <h2 className="cart-group-title">{groupTitle(group)}</h2>
      {group.key && (
        <p className="small muted">A deposit now, the balance when the seedlings are ready.</p>
      )}
      {checkout && !alone && (
        <Link to={paths.checkoutOf(group.key)} className="btn btn-sm">
          {group.key
            ? `Check out the booking for ${readyDay(group.readyOn)}`
            : 'Check out ready-now seedlings'}
        </Link>
      )}
    </div>
  );
}
