import { customerText } from '../mail/mail-text';
import type { MailFor } from '../mail/mail-log';
import type { OrderRecord } from './order.types';

/** An order's e-mails are recorded for the order and its account (none for a guest's order). */
export function orderMailFor(order: Pick<OrderRecord, '_id' | 'placedBy'>): MailFor {
  return { accountId: order.placedBy ?? null, orderId: order._id };
}

/**
 * The first line of an order's e-mail. A guest's order goes to an address nobody verified, under
 * the shop's name: it greets without the name typed with it, so a stranger cannot put their words
 * ("M-Pesa reversal pending, call …") into the shop's mail to anyone. A signed-in customer's order
 * carries the name of their account (placing it saves the name given).
 */
export function orderGreeting(order: Pick<OrderRecord, 'placedBy' | 'guestInfo'>): string {
  return order.placedBy ? `Hello ${customerText(order.guestInfo.fullName, 80)},` : 'Hello,';
}
