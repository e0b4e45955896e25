/**
 * The gate's till (issue 46): a clerk's session (a float, the cash counted at close), walk-in sales
 * through the same placement, stock ledger and money ledger as the web shop, their receipts, and
 * the day's cash-up. The API answers these shapes under `/api/till`; the back office's `/till`
 * screen shows them. What the API enforces, the screen shows first, in the same words.
 */

/** A clerk's own short PIN for the till (not their password): 4 to 6 digits. */
export const TILL_PIN_PATTERN = /^[0-9]{4,6}$/;
/** Wrong PINs in a row before the PIN locks (an admin sets a new one). */
export const TILL_PIN_MAX_TRIES = 5;

/**
 * How a gate sale is paid: cash (the amount given and the change), an M-Pesa Express prompt to the
 * buyer's phone, or the code of the buyer's own paybill or till payment (matched in the money
 * ledger's inbox). A sale may split between cash and one M-Pesa payment.
 */
export const TILL_PAYMENT_METHODS = ['cash', 'mpesa-express', 'mpesa-code'] as const;
export type TillPaymentMethod = (typeof TILL_PAYMENT_METHODS)[number];

export const TILL_PAYMENT_LABELS: Record<TillPaymentMethod, string> = {
  cash: 'Cash',
  'mpesa-express': 'M-Pesa to the buyer’s phone',
  'mpesa-code': 'M-Pesa code the buyer shows',
};

export const TILL_SESSION_STATES = ['open', 'closed'] as const;
export type TillSessionState = (typeof TILL_SESSION_STATES)[number];

/** One line of a gate sale: a product's unit (its default unit when left out), a whole quantity. */
export interface TillSaleLineInput {
  productId: string;
  unitId?: string;
  quantity: number;
}

/** One payment of a gate sale. `given`: the cash handed over (change = given − amount). */
export interface TillPaymentInput {
  method: TillPaymentMethod;
  amount: number;
  given?: number;
  /** The M-Pesa code the buyer shows (`mpesa-code`). */
  code?: string;
  /** The phone to prompt (`mpesa-express`); else the sale's phone. */
  phone?: string;
}

/** `POST /api/till/sales` (with an `Idempotency-Key` header: a sale sent twice is made once). */
export interface TillSaleInput {
  sessionId: string;
  lines: TillSaleLineInput[];
  payments: TillPaymentInput[];
  /** The buyer's phone (optional): the SMS receipt goes to it. */
  phone?: string;
}

export interface TillPaymentView {
  method: TillPaymentMethod;
  amount: number;
  given: number | null;
  change: number | null;
  code: string | null;
  /** `waiting`: an M-Pesa prompt not answered yet; `failed`: declined or timed out. */
  state: 'received' | 'waiting' | 'failed';
}

export interface TillSaleLineView {
  productId: string;
  name: string;
  unitName: string;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
}

/** A gate sale: an order of its own kind (`channel: 'gate'`), placed, paid and handed over at once. */
export interface TillSaleView {
  orderId: string;
  purchaseNumber: string;
  sessionId: string;
  sellerName: string;
  at: string;
  lines: TillSaleLineView[];
  total: number;
  paid: number;
  change: number;
  payments: TillPaymentView[];
  phone: string | null;
  /** `paid`: handed over; `awaiting-payment`: an M-Pesa prompt is open; `voided`; `refunded` (in part or whole); `cancelled`: never made (refused midway, its M-Pesa code taken meanwhile, or expired unpaid). */
  state: 'paid' | 'awaiting-payment' | 'voided' | 'refunded' | 'cancelled';
  refunded: number;
  /** The eTIMS signature when signed (else "eTIMS pending" is printed). */
  etims: { invoiceNumber: string; signedAt: string; qrUrl: string } | null;
}

/** Expected against counted, per payment method. */
export interface TillMethodTotals {
  method: 'cash' | 'mpesa';
  /** Cash: the float + cash taken − change − cash refunds. M-Pesa: what the money ledger received. */
  expected: number;
  counted: number | null;
  difference: number | null;
}

export interface TillSessionView {
  _id: string;
  staffId: string;
  staffName: string;
  state: TillSessionState;
  openedAt: string;
  float: number;
  closedAt: string | null;
  countedCash: number | null;
  sales: number;
  total: number;
  reopened: { byName: string; at: string }[];
}

/** The cash-up of one session: the screen, the PDF and the CSV say the same. */
export interface TillCashUpView {
  session: TillSessionView;
  methods: TillMethodTotals[];
  sellers: { staffId: string; staffName: string; sales: number; total: number }[];
  voids: {
    purchaseNumber: string;
    amount: number;
    byName: string;
    approvedByName: string;
    at: string;
    reason: string;
  }[];
  refunds: {
    purchaseNumber: string;
    amount: number;
    byName: string;
    approvedByName: string;
    at: string;
    reason: string;
  }[];
}

/** The text message a gate sale's buyer gets on request: its receipt (`POST …/sales/:id/sms`). */
export const TILL_SMS_EVENTS = ['till-receipt'] as const;
export type TillSmsEvent = (typeof TILL_SMS_EVENTS)[number];

/** The words the API answers with and the screen shows before sending. */
export const TILL_MESSAGES = {
  pinForm: 'A till PIN is 4 to 6 digits',
  pinWrong: (left: number) =>
    `Wrong PIN: ${left} ${left === 1 ? 'try' : 'tries'} left before it locks`,
  pinLocked: 'This PIN is locked after 5 wrong tries; an admin must set a new one',
  pinNotSet: 'This person has no till PIN yet',
  secondPerson:
    'A void or a refund needs a second person’s PIN: neither the seller’s nor the one asking',
  sessionOpen: 'You have a till session open already; close it first',
  sessionClosed: 'This till session is closed',
  sessionNotYours: 'This till session is not yours',
  noSession: 'Open a till session first',
  cashShort: (due: string) => `The cash given is less than the cash due (${due})`,
  paymentsMismatch: (total: string) => `The payments must add up to the sale’s total (${total})`,
  refundAboveSale: (left: string) =>
    `A refund cannot be more than what is left of the sale (${left})`,
  alreadyVoided: 'This sale is voided already',
  gateSaleAtTill:
    'This is a gate sale: it is paid, voided and refunded at the till (a void or refund with a second person’s PIN), not from the order page, the desk or the payments inbox',
  noPhone: 'This sale has no phone: give the buyer’s phone for the SMS receipt',
  saleRefused:
    'This sale was cancelled before it was made (its M-Pesa code was taken by another payment, or it was never paid): it is not made; ring it up again',
  saleUnfinished:
    'This sale was placed but never paid (the till stopped midway): it is not made; ring it up again under a new key',
  saleInProgress: 'A sale is in progress in this till session: try again in a moment',
  sessionClosedForReversal:
    'The till session of this sale is closed and counted: ask an admin to reopen it first',
  bookingNotReversible:
    'A booking collected at the gate is not voided or refunded at the till: refund it from its order',
} as const;
