/**
 * Invoices on account (issue 44): an organisation's order from a quotation is billed by invoices,
 * one per tranche delivered or one for the whole order, as its terms say. An invoice carries both
 * KRA PINs, the LPO number, the due date and the lines delivered, priced as quoted, numbered in one
 * sequence (INV-000001…). It is settled by paybill payments (the invoice number as the account),
 * bank transfers a clerk records (the bank's reference, once per organisation), tax a public body
 * withheld (its certificate number, once per organisation) and credit notes (short deliveries,
 * returns, a price correction; never above the invoice). A statement lists an organisation's
 * invoices, payments, withholding and credit notes with their ageing. The API enforces these
 * rules; the back office and the storefront show the same words (docs/invoices.md).
 */

/** The invoice number's form: `INV-` and six digits or more, in one sequence for the shop. */
export const INVOICE_NUMBER = { prefix: 'INV-', digits: 6 } as const;
export const INVOICE_NUMBER_PATTERN = /^INV-\d{6,}$/;
/** A credit note's number: `CN-` and six digits or more, in a sequence of its own. */
export const CREDIT_NOTE_NUMBER = { prefix: 'CN-', digits: 6 } as const;

/** `INV-000042` from 42. */
export const invoiceNumber = (n: number) =>
  `${INVOICE_NUMBER.prefix}${String(n).padStart(INVOICE_NUMBER.digits, '0')}`;
export const creditNoteNumber = (n: number) =>
  `${CREDIT_NOTE_NUMBER.prefix}${String(n).padStart(CREDIT_NOTE_NUMBER.digits, '0')}`;

/**
 * How a typed account reads as an invoice number: "INV-000042", "inv 42", "INV000042", "Inv-42"
 * are one invoice (upper case, the separator and leading zeros free); anything else is null.
 */
export function invoiceNumberOf(typed: string): string | null {
  const m = /^\s*INV[\s\-_./#]*0*(\d{1,9})\s*$/i.exec(typed);
  if (!m) return null;
  const n = Number(m[1]);
  return n > 0 ? invoiceNumber(n) : null;
}

/** How an organisation is invoiced (its terms): per tranche delivered, or once for the whole order. */
export const INVOICING_MODES = ['perTranche', 'wholeOrder'] as const;
export type InvoicingMode = (typeof INVOICING_MODES)[number];
export const INVOICING_MODE_LABELS: Readonly<Record<InvoicingMode, string>> = {
  perTranche: 'One invoice per tranche delivered',
  wholeOrder: 'One invoice for the whole order',
};
export const DEFAULT_INVOICING_MODE: InvoicingMode = 'perTranche';

/**
 * Where an invoice stands (derived from its balance, never set by hand):
 * - `Open`: something is still owed (part payments leave it open with its balance);
 * - `Paid`: nothing is owed (payments, withheld tax and credit notes cover it);
 * - `Credited`: credit notes cover all of it (nothing was paid).
 */
export const INVOICE_STATES = ['Open', 'Paid', 'Credited'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

/** The lists' filters: `overdue` is open and past its due date (Africa/Nairobi). */
export const INVOICE_FILTERS = ['all', 'open', 'overdue', 'paid'] as const;
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];

/** What settles an invoice, besides a credit note. */
export const INVOICE_PAYMENT_KINDS = ['paybill', 'bank', 'withholding'] as const;
export type InvoicePaymentKind = (typeof INVOICE_PAYMENT_KINDS)[number];
export const INVOICE_PAYMENT_KIND_LABELS: Readonly<Record<InvoicePaymentKind, string>> = {
  paybill: 'M-Pesa paybill',
  bank: 'Bank transfer',
  withholding: 'Tax withheld',
};

export const CREDIT_NOTE_REASONS = ['short', 'return', 'price'] as const;
export type CreditNoteReason = (typeof CREDIT_NOTE_REASONS)[number];
export const CREDIT_NOTE_REASON_LABELS: Readonly<Record<CreditNoteReason, string>> = {
  short: 'Short delivery',
  return: 'Seedlings returned',
  price: 'Price correction',
};

/**
 * Ageing of what is owed, by days past the due date: `current` is not yet due; then 1–30, 31–60,
 * 61–90 and over 90 days overdue.
 */
export const AGEING_BUCKETS = ['current', 'days30', 'days60', 'days90', 'over90'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];
export const AGEING_LABELS: Readonly<Record<AgeingBucket, string>> = {
  current: 'Current',
  days30: '1–30 days',
  days60: '31–60 days',
  days90: '61–90 days',
  over90: '90+ days',
};
/** The bucket of an amount `daysOverdue` past its due date (0 or less: not yet due). */
export function ageingBucket(daysOverdue: number): AgeingBucket {
  if (daysOverdue <= 0) return 'current';
  if (daysOverdue <= 30) return 'days30';
  if (daysOverdue <= 60) return 'days60';
  if (daysOverdue <= 90) return 'days90';
  return 'over90';
}

/** The reminders a due invoice's billing contact gets (e-mail and SMS), each once. */
export const INVOICE_REMINDERS = ['due', 'week'] as const;
export type InvoiceReminder = (typeof INVOICE_REMINDERS)[number];
/** Days after the due date each reminder is sent on (the shop's day). */
export const INVOICE_REMINDER_DAYS: Readonly<Record<InvoiceReminder, number>> = { due: 0, week: 7 };

export const INVOICE_LIMITS = {
  reference: 40,
  certificate: 40,
  note: 500,
} as const;

export const INVOICE_MESSAGES = {
  notFound: 'Invoice not found',
  notOnQuotation: 'Only an order from an accepted quotation is invoiced',
  trancheNotDelivered: (t: string) =>
    `Tranche ${t} is not delivered: an invoice bills only what the signed delivery note says arrived`,
  orderNotDelivered: 'The order is not all delivered: a whole-order invoice bills what arrived',
  alreadyInvoiced: (what: string, number: string) => `${what} is already invoiced on ${number}`,
  perTrancheTerms: 'Its organisation is invoiced per tranche: invoice a delivered tranche',
  wholeOrderTerms: 'Its organisation is invoiced once for the whole order',
  amountWhole: 'The amount must be a whole number of shillings, at least KES 1',
  aboveBalance: (balance: string) =>
    `The payment is above what the invoice still owes (${balance}); record the rest as an excess if it was really paid`,
  referenceRequired: "The bank's reference is required",
  referenceUsed: (ref: string, number: string) =>
    `Bank reference ${ref} is already recorded for this organisation (on ${number})`,
  certificateRequired: 'The withholding certificate number is required',
  certificateUsed: (cert: string, number: string) =>
    `Withholding certificate ${cert} is already recorded for this organisation (on ${number})`,
  withholdingAboveBalance: (balance: string) =>
    `Tax withheld cannot be more than what the invoice still owes (${balance})`,
  paidOnInvalid: 'The day it was paid must be written YYYY-MM-DD, not after today',
  creditAboveInvoice: (left: string) =>
    `A credit note cannot be above its invoice: at most ${left} is left to credit`,
  reasonInvalid: `reason must be one of: ${CREDIT_NOTE_REASONS.join(', ')}`,
  noteRequired: 'Say why the credit note is given',
  settled: 'The invoice is settled: nothing is owed on it',
  organisationKraPinInvalid: (pin: string) =>
    `The organisation's KRA PIN (${pin}) is not of KRA's form (the letter A or P, 9 digits and a letter): correct it on the organisation, then issue the invoice`,
} as const;

export interface InvoiceLineView {
  /** The order line's position. */
  line: number;
  productName: string;
  unitName: string;
  /** Units delivered (billed). */
  quantity: number;
  /** Whole KES for one unit, as quoted. */
  unitPrice: number;
  amount: number;
}

export interface InvoicePaymentView {
  /** The money-ledger entry's id. */
  id: string;
  kind: InvoicePaymentKind;
  amount: number;
  /** The M-Pesa code, the bank's reference or the certificate number. */
  reference: string;
  /** When it was paid (the bank's or M-Pesa's day and time; a certificate's recording). */
  at: string;
  /** Part of it beyond what was owed, kept as a recorded excess. */
  excess: number;
  by: { fullName: string; role: string } | null;
}

export interface CreditNoteView {
  id: string;
  number: string;
  reason: CreditNoteReason;
  amount: number;
  note: string;
  at: string;
  by: { fullName: string; role: string } | null;
}

export interface InvoiceView {
  id: string;
  number: string;
  state: InvoiceState;
  organisation: { id: string; name: string; kraPin: string };
  /** The shop's name and KRA PIN (SHOP_KRA_PIN; '' when not set). */
  shop: { name: string; kraPin: string };
  orderId: string;
  purchaseNumber: string;
  lpoNumber: string;
  /** The tranche it bills (T1 is 1), or null: the whole order. */
  tranche: number | null;
  lines: InvoiceLineView[];
  /** The quoted delivery fee, on the whole-order invoice or the order's first invoice. */
  fee: number;
  total: number;
  /** When it was issued; the due date is the shop's day `paymentDays` later. */
  issuedAt: string;
  dueDate: string;
  paid: number;
  withheld: number;
  credited: number;
  /** total − paid − withheld − credited (never below 0; an excess is counted apart). */
  balance: number;
  excess: number;
  overdue: boolean;
  /** Days past the due date (0 when not yet due or settled). */
  daysOverdue: number;
  payments: InvoicePaymentView[];
  creditNotes: CreditNoteView[];
  reminders: { kind: InvoiceReminder; at: string }[];
}

export interface InvoiceListResponse {
  invoices: InvoiceView[];
  total: number;
  page: number;
  pages: number;
  /** What the listed filter owes in all (the overdue list's total). */
  owed: number;
}

export type StatementLineKind = 'invoice' | InvoicePaymentKind | 'creditNote';

export interface StatementLine {
  /** The shop's day (YYYY-MM-DD). */
  date: string;
  kind: StatementLineKind;
  /** The invoice's, credit note's number; the M-Pesa code, bank reference or certificate. */
  reference: string;
  /** The invoice it concerns. */
  invoiceNumber: string;
  description: string;
  /** What it adds to what is owed (an invoice). */
  debit: number;
  /** What it takes off (a payment, tax withheld, a credit note). */
  credit: number;
  /** What is owed after it. */
  balance: number;
}

export interface StatementView {
  organisation: { id: string; name: string; kraPin: string };
  shop: { name: string; kraPin: string };
  /** The period, days of the shop (YYYY-MM-DD), both included. */
  from: string;
  to: string;
  openingBalance: number;
  lines: StatementLine[];
  closingBalance: number;
  /** What is owed at `to`, by days past due. */
  ageing: Record<AgeingBucket, number>;
  /** The part of the closing balance past due. */
  overdue: number;
  /** Excess paid and not given back, in the organisation's favour. */
  excess: number;
}
