/**
 * Quotations (issue 42): how an organisation buys tens of thousands of seedlings. A buyer turns a
 * cart into a request (or staff write one from a phone call); staff price it, line by line, and send
 * it as a version with a validity date; each revision is a new version, and the buyer sees every
 * version sent and a message thread with the shop. A quotation holds no stock: accepting a valid
 * version (its organisation's approver, or staff on the buyer's written word) with an LPO number
 * checks stock and batches then, and makes an order holding each line by its own strategy (ready
 * stock, or a growing batch). The API enforces these rules; both apps show the same words.
 */
import type { ActorKind } from './constants';
import type { ScanAbout } from './scans';

/**
 * Where a quotation stands:
 * - `requested`: waiting for the shop to price it (a new request, or a buyer who asked for changes);
 * - `sent`: a priced version waits for the organisation (until its validity date: then `expired`);
 * - `expired`: the latest version's validity passed unaccepted (the shop may send a new version);
 * - `accepted`: an approver (or staff on their word) accepted a version: it has its order;
 * - `declined`: the organisation said no;
 * - `withdrawn`: the shop withdrew it.
 * `expired` is not stored: a `sent` quotation reads as `expired` once its validity date is past
 * (the shop's day, Africa/Nairobi), everywhere (lists, filters, counts, the accept route).
 */
export const QUOTATION_STATUSES = [
  'requested',
  'sent',
  'expired',
  'accepted',
  'declined',
  'withdrawn',
] as const;
export type QuotationStatus = (typeof QUOTATION_STATUSES)[number];
export const QUOTATION_STATUS_LABELS: Readonly<Record<QuotationStatus, string>> = {
  requested: 'Awaiting the shop',
  sent: 'Awaiting your answer',
  expired: 'Expired',
  accepted: 'Accepted',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
};

/**
 * The same statuses as the shop's staff read them: a sent quotation waits for the organisation,
 * not for them (the organisation's words, above, speak to the organisation).
 */
export const QUOTATION_STATUS_LABELS_FOR_SHOP: Readonly<Record<QuotationStatus, string>> = {
  ...QUOTATION_STATUS_LABELS,
  sent: 'Sent: awaiting the organisation',
};

/** What is done to a quotation, by whom, from which statuses. */
export type QuotationAction = 'send' | 'accept' | 'decline' | 'withdraw' | 'askChanges';

/** Who acts: an organisation's approver or buyer, or the shop's staff and admins. */
export type QuotationActor = ActorKind | 'approver' | 'buyer';

export interface QuotationActionRule {
  from: readonly QuotationStatus[];
  to: QuotationStatus;
  by: readonly QuotationActor[];
  /** Why it may not be taken from another status (409 ILLEGAL_TRANSITION). */
  refused: string;
}

/** The one table of a quotation's steps: the API's guards and both apps' buttons read it. */
export const QUOTATION_RULES: Readonly<Record<QuotationAction, QuotationActionRule>> = {
  /** Staff send the draft as the next version (a revision when one was sent before). */
  send: {
    from: ['requested', 'sent', 'expired'],
    to: 'sent',
    by: ['staff', 'admin'],
    refused: 'An accepted, declined or withdrawn quotation cannot be sent again',
  },
  accept: {
    from: ['sent'],
    to: 'accepted',
    by: ['approver', 'staff', 'admin'],
    refused: 'Only a quotation sent and still valid can be accepted',
  },
  decline: {
    from: ['sent', 'expired'],
    to: 'declined',
    by: ['approver'],
    refused: 'Only a quotation sent to you can be declined',
  },
  withdraw: {
    from: ['requested', 'sent', 'expired'],
    to: 'withdrawn',
    by: ['staff', 'admin'],
    refused: 'An accepted, declined or withdrawn quotation cannot be withdrawn',
  },
  /** The organisation asks for a revision: the quotation waits for the shop again. */
  askChanges: {
    from: ['sent', 'expired'],
    to: 'requested',
    by: ['approver', 'buyer'],
    refused: 'Changes can be asked for only on a quotation sent to you',
  },
};

export function canActOnQuotation(
  action: QuotationAction,
  status: QuotationStatus,
  by: QuotationActor,
): boolean {
  const rule = QUOTATION_RULES[action];
  return rule.from.includes(status) && rule.by.includes(by);
}

export const QUOTATION_LIMITS = {
  /** Lines of one request or version. */
  lines: 50,
  /** Seedlings of one line (a county's season fits; the shop's caps on unpaid orders do not apply). */
  lineSeedlings: 500_000,
  note: 2000,
  message: 2000,
  /** Messages on one quotation. */
  messages: 200,
  /** Versions one quotation may be sent in. */
  versions: 20,
  /** Days from today a version may be valid for. */
  validityDaysMax: 90,
  lpoNumber: 40,
  siteName: 120,
  /** Requests one organisation may make in a day (the shop's day). */
  requestsPerDay: 20,
  /** Messages one organisation may write in a day. */
  messagesPerDay: 100,
} as const;

export const QUOTATION_MESSAGES = {
  noQuotation: 'No quotation with this id',
  notBuyer: 'Only the people of an approved organisation can ask for a quotation',
  linesRequired: 'A quotation needs at least one line',
  tooManyLines: `A quotation can have at most ${QUOTATION_LIMITS.lines} lines`,
  lineQuantity: `A line's quantity must be a whole number of units, at most ${QUOTATION_LIMITS.lineSeedlings.toLocaleString('en-US')} seedlings`,
  duplicateLine: 'The quotation names the same product, unit and source twice',
  noDraft: 'Price the quotation (save a draft) before sending it',
  validUntil: `The validity date must be from today to ${QUOTATION_LIMITS.validityDaysMax} days ahead`,
  expired: 'This quotation is no longer valid: ask the shop for a new version',
  notLatest: 'A newer version of this quotation was sent: accept the latest version',
  notApprover: 'Only an approver of the organisation can accept or decline a quotation',
  lpoRequired: 'The LPO number is required to accept a quotation',
  lpoTaken: 'This LPO number was already used for another order of your organisation',
  short:
    'Some lines are no longer available as quoted: see what the shop can offer, or ask for a revision',
  creditLimit: (limit: number, available: number) =>
    `This order would pass your organisation's credit limit of KES ${limit.toLocaleString('en-US')}: KES ${available.toLocaleString('en-US')} is available`,
  tooManyRequests: `An organisation can ask for at most ${QUOTATION_LIMITS.requestsPerDay} quotations a day: try again tomorrow`,
  tooManyMessages: 'Too many messages today: try again tomorrow, or call the shop',
  messageRequired: 'The message is empty',
} as const;

/** Where a line's seedlings come from: ready stock, or a batch still growing (its id). */
export type QuotationLineSource = { kind: 'stock' } | { kind: 'batch'; batchId: string };

/**
 * A line of the accepted version that stock or its batch no longer covers, in the 409 `SHORT`'s
 * `lines`: what it asks, what its source has left, and the growing batches of its product that
 * have seedlings left to offer instead (soonest first; its own batch left out).
 */
export interface QuotationShortLine {
  productId: string;
  unitId: string;
  productName: string;
  source: QuotationLineSource;
  /** Units of `unitId` asked, and the seedlings they hold. */
  quantity: number;
  seedlings: number;
  /** Seedlings its source has left now (ready stock, or left to book on its batch). */
  available: number;
  batches: { _id: string; readyOn: string; available: number }[];
}

/** A line as a buyer asks for it (from the cart) or staff write it. */
export interface QuotationRequestLine {
  productId: string;
  unitId: string;
  /** Units of `unitId` (trays, singles…). */
  quantity: number;
  /** Omitted: ready stock. */
  batchId?: string | null;
}

/** Where and when the organisation wants its seedlings. */
export interface QuotationDelivery {
  siteName: string;
  county: string;
  subCounty?: string | null;
  streetAddress: string;
  /** YYYY-MM-DD, the shop's day. */
  date: string;
}

/** A priced line of a version: names, seedlings and the price as agreed. */
export interface QuotationLineView {
  productId: string;
  unitId: string;
  productName: string;
  unitName: string;
  /** Seedlings in one unit. */
  seedlings: number;
  quantity: number;
  source: QuotationLineSource;
  /** The batch's expected ready date when it comes from one (YYYY-MM-DD). */
  readyDate: string | null;
  /** What the shop would charge anyone for this quantity (its tier or offer), per unit. */
  shopUnitPrice: number;
  /** What the organisation pays per unit: the price list's, or the price staff negotiated. */
  unitPrice: number;
  lineTotal: number;
}

/** One version as the organisation sees it once sent (a draft only to staff). */
export interface QuotationVersionView {
  /** 1, 2, …; 0 for the staff's unsent draft. */
  version: number;
  lines: QuotationLineView[];
  delivery: QuotationDelivery | null;
  deliveryFee: number;
  subtotal: number;
  total: number;
  /** Last day it may be accepted (YYYY-MM-DD). */
  validUntil: string;
  /** The shop's words to the organisation on this version. */
  note: string;
  sentAt: string | null;
  sentBy: string | null;
}

export interface QuotationMessageView {
  _id: string;
  /** Who wrote: the organisation's side or the shop's. */
  from: 'organisation' | 'shop';
  authorName: string;
  text: string;
  at: string;
}

export interface QuotationAcceptanceView {
  version: number;
  lpoNumber: string;
  acceptedAt: string;
  /** The approver, or the clerk who accepted on the buyer's written word. */
  acceptedBy: string;
  byShop: boolean;
  orderId: string;
  purchaseNumber: string;
  /** The LPO's scan attached to the order, if any (`GET /api/orders/{orderId}/lpo-scan`). */
  lpoScan: ScanAbout | null;
}

/** A quotation as its organisation's people and the shop see it. */
export interface QuotationView {
  _id: string;
  /** `QUO-000123`: one sequence, shown on the PDF and quoted in messages. */
  number: string;
  organisationId: string;
  organisationName: string;
  status: QuotationStatus;
  /** The request as the buyer (or staff) made it. */
  request: { lines: QuotationRequestLine[]; note: string; delivery: QuotationDelivery | null };
  requestedBy: string;
  /** Versions sent, oldest first. */
  versions: QuotationVersionView[];
  /** Staff's unsent draft: null for the organisation. */
  draft: QuotationVersionView | null;
  messages: QuotationMessageView[];
  acceptance: QuotationAcceptanceView | null;
  createdAt: string;
  updatedAt: string;
}

/** One row of a list of quotations. */
export interface QuotationSummary {
  _id: string;
  number: string;
  organisationId: string;
  organisationName: string;
  status: QuotationStatus;
  /** The latest version's total; null before one is sent. */
  total: number | null;
  validUntil: string | null;
  versions: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * The routes (all under `/api`), for both apps:
 * - `POST /quotations` a buyer's request (body: lines, note, delivery) or staff's (plus organisationId)
 * - `GET /quotations` (status, organisationId, search, page, limit): staff all, a customer their own
 * - `GET /quotations/awaiting-shop/count` staff: `{ count }` for the dashboard
 * - `GET /quotations/{id}`
 * - `PUT /quotations/{id}/draft` staff: lines (with unitPrice and batchId), delivery, deliveryFee,
 *   validUntil, note
 * - `POST /quotations/{id}/send` staff: the draft becomes the next version; the buyer is e-mailed
 * - `GET /quotations/{id}/versions/{version}/pdf`
 * - `POST /quotations/{id}/messages` `{ text }`
 * - `POST /quotations/{id}/ask-changes` `{ text }`, `…/decline` `{ reason? }`, `…/withdraw` `{ reason? }`
 * - `POST /quotations/{id}/accept` `{ version, lpoNumber }`: 201 `{ quotation, order }`; 409 `SHORT`
 *   with `lines` (what is short and the batches that could grow it) when stock or batches do not
 *   cover it; 409 `CREDIT_LIMIT` when it would pass the organisation's credit limit.
 * - then, optionally, `PUT /orders/{orderId}/lpo-scan` (multipart, one `file`: a PDF or a photo)
 *   attaches the scanned LPO to the order (`GET` the same path reads it; see `scans.ts`).
 */
export const QUOTATION_ROUTES = {
  list: '/api/quotations',
  awaitingCount: '/api/quotations/awaiting-shop/count',
} as const;
