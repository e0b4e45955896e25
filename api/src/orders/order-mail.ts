import type { MailFor } from '../mail/mail-log';
import type { OrderRecord } from './order.types';

/** An order's e-mails are recorded for the order and its account (none for a guest's order). */
export function orderMailFor(order: Pick<OrderRecord, '_id' | 'placedBy'>): MailFor {
  return { accountId: order.placedBy ?? null, orderId: order._id };
}

/**
 * The first line of an order's e-mail. It goes to the address typed at checkout, which nobody
 * verified (a signed-in customer may type anyone's too), under the shop's name: it greets without
 * the name typed with the order, so a stranger cannot put their words ("M-Pesa reversal pending,
 * call …") into the shop's mail to anyone (issue 39).
 */
export const ORDER_GREETING = 'Hello,';
