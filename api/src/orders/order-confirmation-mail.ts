import { deliveryLine, formatMoney, lineItemName, NURSERY_COLLECTION } from '@spc/shared-contracts';
import { customerText } from '../mail/mail-text';
import type { MailMessage } from '../mail/mail.service';
import { ORDER_GREETING, orderMailFor } from './order-mail';
import type { OrderRecord } from './order.types';

/** The confirmation e-mail. What the customer typed is quoted as plain text, never as a link. */
export function confirmationMail(order: OrderRecord, storefrontUrl: string): MailMessage {
  const link = `${storefrontUrl}/track-orders?purchaseNumber=${order.purchaseNumber}`;
  const g = order.guestInfo;
  const address = [g.streetAddress, g.ward, g.subCounty, g.county].filter(Boolean).join(', ');
  const text = [
    ORDER_GREETING,
    '',
    `Thank you for your order ${order.purchaseNumber} with the Seedling Propagation Centre.`,
    '',
    ...order.products.map(
      (l) =>
        `  ${lineItemName(l)} x ${l.quantity} @ ${formatMoney(l.unitPrice)} = ${formatMoney(l.lineTotal)}`,
    ),
    '',
    `Subtotal: ${formatMoney(order.subtotal)}`,
    deliveryLine(order.delivery, order.shippingFee),
    `Total: ${formatMoney(order.totalAmount)}`,
    '',
    ...(order.delivery.method === 'collection'
      ? [
          `Collect at: ${NURSERY_COLLECTION.address} (${NURSERY_COLLECTION.openingHours})`,
          `Phone: ${customerText(g.phoneNumber, 20)}`,
          `Ready to collect from: ${order.estimatedDeliveryDate.slice(0, 10)}`,
        ]
      : [
          `Delivery to: "${customerText(address, 300)}"`,
          `Phone: ${customerText(g.phoneNumber, 20)}`,
          `Estimated delivery: ${order.estimatedDeliveryDate.slice(0, 10)}`,
        ]),
    '',
    `Track your order: ${link}`,
    '',
    'Seedling Propagation Centre, Kiambu',
  ].join('\n');
  return {
    to: g.email,
    subject: `Your order ${order.purchaseNumber}`,
    text,
    link,
    template: 'order-confirmation',
    for: orderMailFor(order),
  };
}
