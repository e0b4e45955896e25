import type { TrackBookingDto } from '../orders/dto/order-view.dto';
import type { OrderRecord } from '../orders/order.types';

/** What public tracking shows of a booking: money and days only, nothing about the customer. */
export function trackedBooking(order: OrderRecord): TrackBookingDto | null {
  const b = order.booking;
  if (!b) return null;
  return {
    state: b.state,
    readyOn: b.readyOn,
    depositPercent: b.depositPercent,
    deposit: b.deposit,
    amountPaid: order.amountPaid,
    balanceDue:
      order.paymentStatus === 'Paid' || order.orderStatus === 'Cancelled'
        ? 0
        : Math.max(0, order.totalAmount - order.amountPaid),
    amountDueNow: order.amountDueNow,
    balanceDueBy: b.balanceDueBy,
  };
}
