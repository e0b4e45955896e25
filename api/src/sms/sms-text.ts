import { formatMoney, type OrderSmsEvent } from '@spc/shared-contracts';
import type { OrderRecord } from '../orders/order.types';

/**
 * The text of each order message: short (one or two SMS parts), no marketing, and nothing the
 * customer typed (names and addresses stay out of text messages).
 */
export function orderSmsText(
  event: OrderSmsEvent,
  order: Pick<OrderRecord, 'purchaseNumber' | 'totalAmount'> &
    Partial<Pick<OrderRecord, 'amountOutstanding'>>,
  links: { storefrontUrl: string; shopPhone: string; paybill?: string },
): string {
  const pn = order.purchaseNumber;
  const shop = 'Seedling Propagation Centre';
  switch (event) {
    case 'placed':
      return `${shop}: we received your order ${pn}, total ${formatMoney(order.totalAmount)}. Track it: ${links.storefrontUrl}/track-orders?purchaseNumber=${encodeURIComponent(pn)}`;
    case 'paid':
      return `${shop}: payment of ${formatMoney(order.totalAmount)} for order ${pn} received. Thank you!`;
    case 'sent':
      return `${shop}: your order ${pn} is on its way to you.`;
    case 'delivered':
      return `${shop}: your order ${pn} has been delivered. Thank you for buying from us!`;
    case 'paybill':
      return `${shop}: the M-Pesa prompt for order ${pn} did not go through. Pay by M-Pesa Paybill ${links.paybill ?? ''}, account ${pn}, amount ${formatMoney(order.amountOutstanding || order.totalAmount)}.`;
    case 'cancelled':
      return `${shop}: your order ${pn} has been cancelled. Questions? Call ${links.shopPhone}.`;
  }
}
