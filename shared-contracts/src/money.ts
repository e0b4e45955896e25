/**
 * An order's money as its ledger entries say (the order detail's `money`): the words both apps use
 * for how a shilling came in or went back, so a receipt code reads the same in the shop and at the
 * desk. A customer's view carries no staff names and no phone numbers.
 */
import type { components } from './generated/api-types';
import { formatMoney } from './format';

/** What was received and given back on one order, entry by entry. */
export type OrderMoney = components['schemas']['OrderMoneyDto'];
/** One ledger entry: money in, or money given back. */
export type MoneyEntry = components['schemas']['MoneyEntryViewDto'];
export type MoneyEntryKind = MoneyEntry['kind'];

export const MONEY_TEXTS = {
  /** An order with no entry yet. */
  none: 'No payment received yet',
} as const;

/** How the money moved, in the back office's words. */
const STAFF_WORDS: Record<MoneyEntryKind, string> = {
  'mpesa-express': 'M-Pesa Express',
  paybill: 'Paybill',
  'desk-mpesa': 'M-Pesa at the desk',
  cash: 'Cash',
  bank: 'Bank transfer',
  withholding: 'Tax withheld',
  reversal: 'Reversal',
  b2c: 'B2C',
  'mpesa-by-hand': 'M-Pesa by hand',
};

/** The same in a customer's words: what they did, or what the shop did for them. */
const CUSTOMER_WORDS: Record<MoneyEntryKind, string> = {
  'mpesa-express': 'M-Pesa prompt on your phone',
  paybill: 'M-Pesa paybill',
  'desk-mpesa': 'M-Pesa, recorded by the shop',
  cash: 'Cash',
  bank: 'Bank transfer',
  withholding: 'Tax withheld (certificate)',
  reversal: 'M-Pesa reversal',
  b2c: 'Sent to your M-Pesa',
  'mpesa-by-hand': 'M-Pesa, sent by the shop',
};

/** How an entry's money moved, for staff: "Paybill", "B2C to 254712345678". */
export function staffMoneyHowText(entry: Pick<MoneyEntry, 'kind' | 'payer'>): string {
  const words = STAFF_WORDS[entry.kind] ?? entry.kind;
  return entry.kind === 'b2c' && entry.payer ? `${words} to ${entry.payer}` : words;
}

/** How an entry's money moved, for the customer: "M-Pesa paybill", "Sent to your M-Pesa". */
export function customerMoneyHowText(entry: Pick<MoneyEntry, 'kind'>): string {
  return CUSTOMER_WORDS[entry.kind] ?? entry.kind;
}

/**
 * The code that identifies the entry: an incoming M-Pesa payment's receipt code, a payback's
 * M-Pesa code or the clerk's note; empty when there is none.
 */
export function moneyCodeText(entry: Pick<MoneyEntry, 'direction' | 'code' | 'reference'>): string {
  return (entry.direction === 'in' ? entry.code || entry.reference : entry.reference) ?? '';
}

/**
 * What a payment counted toward when it was split (a booking's deposit, its balance, an excess
 * to give back), and what of it was given back already: ["deposit KES 300", "balance KES 700"]
 * (each kept on one line by the screens).
 */
export function moneyNotes(
  entry: Pick<MoneyEntry, 'direction' | 'split' | 'returned'>,
  label: 'KES' | 'KSH' = 'KES',
): string[] {
  if (entry.direction !== 'in') return [];
  const parts: string[] = [];
  const s = entry.split;
  if (s && (s.deposit > 0 || s.excess > 0)) {
    if (s.deposit > 0) parts.push(`deposit ${formatMoney(s.deposit, label)}`);
    if (s.balance > 0) parts.push(`balance ${formatMoney(s.balance, label)}`);
    if (s.excess > 0) parts.push(`over-paid ${formatMoney(s.excess, label)}`);
  }
  if (entry.returned > 0) parts.push(`${formatMoney(entry.returned, label)} given back`);
  return parts;
}
