import type { MailFor } from '../mail/mail-log';
import type { OrderRecord } from './order.types';

/** An order's e-mails are recorded for the order and its account (none for a guest's order). */
export function orderMailFor(order: Pick<OrderRecord, '_id' | 'placedBy'>): MailFor {
  return { accountId: order.placedBy ?? null, orderId: order._id };
}
