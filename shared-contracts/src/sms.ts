import { toMpesaPhone } from './mpesa';

/**
 * A Kenyan mobile number as text-message gateways want it, `+2547…` or `+2541…`, from the ways
 * people type it (07xx…, 01xx…, 2547xx…, +254 7xx…, spaces and hyphens allowed); null otherwise.
 */
export function toKenyanMsisdn(typed: string): string | null {
  const msisdn = toMpesaPhone(typed);
  return msisdn ? `+${msisdn}` : null;
}

/**
 * The order events a customer gets a text message for (one each, at most once per order).
 * `paybill`: an M-Pesa prompt failed; the message names the paybill, the account and the amount.
 * A booking's own (issue 32): `deposit` received, `balance-due` (its batch is ready: the balance
 * and how to pay), `released` (balance unpaid in time), `affected` (its batch failed or fell
 * short: move or refund), `moved` (to another batch), `refunded` (its deposit given back).
 */
export const ORDER_SMS_EVENTS = [
  'placed',
  'paid',
  'sent',
  'delivered',
  'cancelled',
  'paybill',
  'deposit',
  'balance-due',
  'released',
  'affected',
  'moved',
  'refunded',
] as const;
export type OrderSmsEvent = (typeof ORDER_SMS_EVENTS)[number];

/**
 * The texts an invoice's billing contact gets (issue 44): on its due date and a week after, each
 * once (`INVOICE_REMINDERS` of invoices.ts).
 */
export const INVOICE_SMS_EVENTS = ['invoice-due', 'invoice-week'] as const;
export type InvoiceSmsEvent = (typeof INVOICE_SMS_EVENTS)[number];
