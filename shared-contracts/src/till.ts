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
  /**
   * A sale made while the till was offline (issue 47), sent when the network returns: when it was
   * sold (the till's clock) and the prices the till showed, which the buyer paid. Needs an
   * `Idempotency-Key` (kept with no expiry: a sale queued over a weekend is still made once).
   */
  offline?: TillOfflineInput;
}

/** The price a line was sold at offline: one per line, the unit the till showed. */
export interface TillOfflinePrice {
  productId: string;
  unitId?: string;
  unitPrice: number;
}

export interface TillOfflineInput {
  /** ISO time the clerk charged it on the till. */
  soldAt: string;
  prices: TillOfflinePrice[];
}

/**
 * What an offline sale may carry (issue 47): sold at most 30 days ago, not in the future beyond a
 * phone's clock drift, not before its session opened; each line's price within half and double the
 * unit's price now (a till's cache is days old, not another price list). Prices off the current
 * ones are kept, as the buyer paid them, and written to the audit trail.
 */
export const TILL_OFFLINE_LIMITS = {
  maxAgeDays: 30,
  clockDriftMs: 5 * 60_000,
  priceMin: 0.5,
  priceMax: 2,
} as const;

/** How a till sale can be paid offline: cash, or the M-Pesa code the buyer shows (checked later). */
export const TILL_OFFLINE_METHODS = [
  'cash',
  'mpesa-code',
] as const satisfies readonly TillPaymentMethod[];

/**
 * Why a sale needs the clerk (it was handed over, its money not counted): its M-Pesa code not
 * confirmed by M-Pesa, already in the money ledger, or confirmed for another amount.
 */
export const TILL_ATTENTION_REASONS = ['code-unconfirmed', 'code-taken', 'code-amount'] as const;
export type TillAttentionReason = (typeof TILL_ATTENTION_REASONS)[number];

export const TILL_ATTENTION_LABELS: Record<TillAttentionReason, string> = {
  'code-unconfirmed': 'M-Pesa has not confirmed this code',
  'code-taken': 'This code is in the money ledger already (another payment)',
  'code-amount': 'M-Pesa confirmed this code for another amount',
};

/**
 * A gate sale's states: `paid` (handed over), `awaiting-payment` (an M-Pesa prompt open),
 * `needs-attention` (handed over; its M-Pesa code not counted as money, see `needsAttention`),
 * `voided`, `refunded` (in part or whole), `cancelled` (never made).
 */
export const TILL_SALE_STATES = [
  'paid',
  'awaiting-payment',
  'needs-attention',
  'voided',
  'refunded',
  'cancelled',
] as const;
export type TillSaleState = (typeof TILL_SALE_STATES)[number];

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
  /** See `TILL_SALE_STATES`. */
  state: TillSaleState;
  refunded: number;
  /** Set when it was sold offline (issue 47): the till's time of sale. */
  offline: { soldAt: string } | null;
  /** Set while its M-Pesa code is not counted: why, and what is unpaid. */
  needsAttention: { reasons: TillAttentionReason[]; unpaid: number; code: string | null } | null;
  /** It took stock below zero (a hand-over is never refused): flagged on the stock ledger. */
  short: boolean;
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
  /** Sales of the session for the clerk: an M-Pesa code not counted, or stock taken below zero. */
  attention: {
    orderId: string;
    purchaseNumber: string;
    total: number;
    unpaid: number;
    reasons: TillAttentionReason[];
    short: boolean;
    offline: boolean;
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
  saleUnfinishedClosed:
    'This sale was cut off midway (its stock taken, not all its payments recorded) and its till session is closed and counted: ask an admin to reopen the session, then send the sale again to finish it',
  sessionClosedForReversal:
    'The till session of this sale is closed and counted: ask an admin to reopen it first',
  offlineNeedsKey: 'An offline sale needs an Idempotency-Key, so that sent again it is made once',
  offlineTooOld: 'An offline sale older than 30 days is not accepted: record it with a stock count',
  offlineInFuture: 'The offline sale’s time is in the future: check the till’s clock',
  offlineBeforeSession: 'The offline sale’s time is before its till session opened',
  offlinePrices: 'An offline sale gives one price per line, for the same product and unit',
  offlinePriceOut: (name: string) =>
    `The offline price of ${name} is off by more than half or double its price now`,
  offlineMethod: 'An offline sale is paid in cash or by the M-Pesa code the buyer shows',
  notAttention: 'This sale does not need attention',
  attentionFirst:
    'This sale needs attention (its M-Pesa code is not counted): settle it or void it; it cannot be refunded in part',
  settleInSaleSession:
    'A sale is settled in its own till session, where its cash is counted: name that session',
  bookingNotReversible:
    'A booking collected at the gate is not voided or refunded at the till: refund it from its order',
} as const;
