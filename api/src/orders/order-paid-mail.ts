import { formatMoney, SHOP_IDENTITY } from '@spc/shared-contracts';
import { customerText } from '../mail/mail-text';
import type { MailMessage } from '../mail/mail.service';
import { ORDER_GREETING, orderMailFor } from './order-mail';
import type { OrderRecord } from './order.types';

/**
 * The e-mail sent when an order's payment is recorded: what was paid, and a signed link to the
 * receipt that works from a phone's mail app without signing in (it expires; see OrderDocumentLinks).
 */
export function paidMail(order: OrderRecord, receiptUrl: string | undefined): MailMessage {
  const p = order.paymentDetails;
  const method = order.paymentMethod === 'Mpesa' ? 'M-Pesa' : (order.paymentMethod ?? '');
  const text = [
    ORDER_GREETING,
    '',
    `We have received your payment of ${formatMoney(p?.amount ?? order.totalAmount)} for order ${order.purchaseNumber}${method ? ` (${method}${p?.transactionCode ? ` ${customerText(p.transactionCode, 40)}` : ''})` : ''}.`,
    '',
    ...(receiptUrl ? ['Download your receipt (PDF):', receiptUrl, ''] : []),
    `${SHOP_IDENTITY.name}, ${SHOP_IDENTITY.place}`,
  ].join('\n');
  return {
    to: order.guestInfo.email,
    subject: `Payment received for your order ${order.purchaseNumber}`,
    text,
    link: receiptUrl,
    template: 'order-paid',
    for: orderMailFor(order),
  };
}
