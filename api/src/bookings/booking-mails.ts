/** The texts of a booking's e-mails (deposit received, balance due); the orders' mail queue sends them. */
import { formatMoney, SHOP_IDENTITY } from '@spc/shared-contracts';
import { customerText } from '../mail/mail-text';
import type { MailMessage } from '../mail/mail.service';
import { dayAndMonth } from '../sms/sms-text';
import { ORDER_GREETING, orderMailFor } from '../orders/order-mail';
import type { OrderRecord } from '../orders/order.types';

const trackUrl = (storefrontUrl: string, order: OrderRecord) =>
  `${storefrontUrl}/track-orders?purchaseNumber=${encodeURIComponent(order.purchaseNumber)}`;

const signOff = `${SHOP_IDENTITY.name}, ${SHOP_IDENTITY.place}`;

/** The e-mail sent when a booking's deposit is paid: what was paid, when it is ready, the balance. */
export function depositMail(order: OrderRecord, storefrontUrl: string): MailMessage | undefined {
  const b = order.booking;
  if (!b) return undefined;
  const balance = Math.max(0, order.totalAmount - order.amountPaid);
  const text = [
    ORDER_GREETING,
    '',
    `We have received the deposit of ${formatMoney(order.amountPaid)} for your booking ${order.purchaseNumber}.`,
    `Your ${customerText(b.productName, 80)} seedlings are held for you; they are expected to be ready from ${dayAndMonth(b.readyOn)}.`,
    `The balance of ${formatMoney(balance)} is due when they are ready: we will tell you by SMS and e-mail.`,
    '',
    `Your booking: ${trackUrl(storefrontUrl, order)}`,
    '',
    signOff,
  ].join('\n');
  return {
    to: order.guestInfo.email,
    subject: `Deposit received for your booking ${order.purchaseNumber}`,
    text,
    template: 'booking-deposit',
    for: orderMailFor(order),
  };
}

/**
 * The e-mail sent when a booking's batch is ready: the balance, by when, and the two ways to pay
 * (the M-Pesa prompt from the order page; the paybill with the purchase number as account).
 */
export function balanceDueMail(
  order: OrderRecord,
  storefrontUrl: string,
  paybill: string | undefined,
): MailMessage | undefined {
  const b = order.booking;
  if (!b) return undefined;
  const balance = Math.max(0, order.totalAmount - order.amountPaid);
  const link = trackUrl(storefrontUrl, order);
  const text = [
    ORDER_GREETING,
    '',
    `Your ${customerText(b.productName, 80)} seedlings for booking ${order.purchaseNumber} are ready.`,
    `The balance of ${formatMoney(balance)} is due${b.balanceDueBy ? ` by ${dayAndMonth(b.balanceDueBy)}` : ''}. How to pay:`,
    `- M-Pesa prompt: open your booking and choose "Pay the balance with M-Pesa": ${link}`,
    ...(paybill
      ? [
          `- M-Pesa Paybill: business number ${paybill}, account ${order.purchaseNumber}, amount ${formatMoney(balance)}`,
        ]
      : []),
    '',
    'A balance not paid in time releases the booking.',
    '',
    signOff,
  ].join('\n');
  return {
    to: order.guestInfo.email,
    subject: `Your seedlings are ready: balance due for booking ${order.purchaseNumber}`,
    text,
    link,
    template: 'booking-balance-due',
    for: orderMailFor(order),
  };
}
