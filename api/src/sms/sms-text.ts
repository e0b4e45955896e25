import { formatMoney, type OrderSmsEvent } from '@spc/shared-contracts';
import type { OrderRecord } from '../orders/order.types';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A calendar day `YYYY-MM-DD` as people say it: "12 March". */
export function dayAndMonth(day: string): string {
  const [, m, d] = day.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1] ?? ''}`.trim();
}

/** What a booking's messages say of it. */
type BookingText = {
  deposit: number;
  balance: number;
  readyOn: string;
  balanceDueBy: string | null;
};

/**
 * The text of each order message: short (one or two SMS parts), no marketing, and nothing the
 * customer typed (names and addresses stay out of text messages).
 */
export function orderSmsText(
  event: OrderSmsEvent,
  order: Pick<OrderRecord, 'purchaseNumber' | 'totalAmount'> &
    Partial<Pick<OrderRecord, 'amountOutstanding' | 'amountPaid' | 'amountDueNow'>> & {
      booking?: BookingText | null;
    },
  links: { storefrontUrl: string; shopPhone: string; paybill?: string },
): string {
  const pn = order.purchaseNumber;
  const shop = 'Seedling Propagation Centre';
  const b = order.booking;
  const balance = b ? Math.max(0, order.totalAmount - (order.amountPaid ?? b.deposit)) : 0;
  switch (event) {
    case 'placed':
      return `${shop}: we received your order ${pn}, total ${formatMoney(order.totalAmount)}. Track it: ${links.storefrontUrl}/track-orders?purchaseNumber=${encodeURIComponent(pn)}`;
    case 'paid':
      return b
        ? `${shop}: booking ${pn} is paid in full, ${formatMoney(order.totalAmount)} with the deposit. Thank you!`
        : `${shop}: payment of ${formatMoney(order.totalAmount)} for order ${pn} received. Thank you!`;
    case 'sent':
      return `${shop}: your order ${pn} is on its way to you.`;
    case 'delivered':
      return `${shop}: your order ${pn} has been delivered. Thank you for buying from us!`;
    case 'paybill':
      return `${shop}: the M-Pesa prompt for order ${pn} did not go through. Pay by M-Pesa Paybill ${links.paybill ?? ''}, account ${pn}, amount ${formatMoney(order.amountDueNow || order.amountOutstanding || order.totalAmount)}.`;
    case 'cancelled':
      return `${shop}: your order ${pn} has been cancelled. Questions? Call ${links.shopPhone}.`;
    case 'deposit':
      return `${shop}: deposit of ${formatMoney(b?.deposit ?? 0)} for booking ${pn} received. Your seedlings are held for ${b ? dayAndMonth(b.readyOn) : 'their ready date'}; the balance of ${formatMoney(balance)} is due when they are ready.`;
    case 'balance-due':
      return `${shop}: your seedlings for booking ${pn} are ready. Pay the balance of ${formatMoney(balance)}${b?.balanceDueBy ? ` by ${dayAndMonth(b.balanceDueBy)}` : ''}: M-Pesa from ${links.storefrontUrl}/track-orders?purchaseNumber=${encodeURIComponent(pn)}${links.paybill ? ` or Paybill ${links.paybill}, account ${pn}` : ''}.`;
    case 'released':
      return `${shop}: booking ${pn} was released: its balance was not paid in time. Questions? Call ${links.shopPhone}.`;
    case 'affected':
      return `${shop}: sorry, the batch of your booking ${pn} did not grow as planned. Move the booking to a later batch or have your deposit refunded: ${links.storefrontUrl}/track-orders?purchaseNumber=${encodeURIComponent(pn)} or call ${links.shopPhone}.`;
    case 'moved':
      return `${shop}: booking ${pn} is moved to the batch ready from ${b ? dayAndMonth(b.readyOn) : 'a later date'}; your deposit goes with it.`;
    case 'refunded':
      return `${shop}: booking ${pn} is cancelled and your payment of ${formatMoney(order.amountPaid ?? 0)} is being refunded.`;
  }
}
