/**
 * The stable, machine-readable `code` every error answer carries beside its English `message`.
 * Clients branch on these, never on the message text (which may be reworded or translated). The
 * names alone, in the order the API documents them: what a client checks an answer against, without
 * the descriptions below (a kilobyte of every phone's first download).
 */
const NAMES = [
  'VALIDATION_FAILED',
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'TOKEN_EXPIRED',
  'INVALID_CREDENTIALS',
  'SESSION_EXPIRED',
  'ACCOUNT_DEACTIVATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'OUT_OF_STOCK',
  'BATCH_FAILED',
  'BATCH_READY',
  'PRODUCT_UNAVAILABLE',
  'ILLEGAL_TRANSITION',
  'ALREADY_PAID',
  'CODE_TAKEN',
  'ASK_THE_SHOP',
  'NOT_PAID',
  'SALES_RECORD',
  'ORDERS_OPEN',
  'LINK_EXPIRED',
  'EMAIL_TAKEN',
  'KRA_PIN_TAKEN',
  'ALREADY_IN_ORGANISATION',
  'LAST_APPROVER',
  'SHORT',
  'CREDIT_LIMIT',
  'LPO_TAKEN',
  'ABOVE_BALANCE',
  'ABOVE_INVOICE',
  'REFERENCE_USED',
  'CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNPROCESSABLE',
  'RATE_LIMITED',
  'UPSTREAM_FAILED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof NAMES)[number];
export const ERROR_CODE_LIST: ErrorCode[] = [...NAMES];

/** What each code means, for the API's documentation; every code once (the compiler checks). */
export const ERROR_CODES = {
  /** A body, query or path parameter failed its rules; `errors` names each field. */
  VALIDATION_FAILED: 'The request is not valid; `errors` names each field and why',
  /** Any other request the API cannot take as sent. */
  BAD_REQUEST: 'The request cannot be taken as sent',
  /** No token, or one that is not valid (sign in again). */
  UNAUTHENTICATED: 'No token, or one that is not valid',
  /** The access token expired: refresh it and try again. */
  TOKEN_EXPIRED: 'The access token expired; refresh it and try again',
  /** The email and password do not match an account. */
  INVALID_CREDENTIALS: 'The email or password is not correct',
  /** The refresh token is unknown, used, revoked or expired: the session is over. */
  SESSION_EXPIRED: 'The session is over; sign in again',
  /** The account is deactivated. */
  ACCOUNT_DEACTIVATED: 'The account is deactivated',
  /** The role or ownership does not allow this. */
  FORBIDDEN: 'This is not allowed for this account',
  /** Nothing has this id (or the route does not exist). */
  NOT_FOUND: 'Nothing has this id',
  /** The path exists under other methods (see `Allow`). */
  METHOD_NOT_ALLOWED: 'The path is served under other methods',
  /** Not enough stock for an order line; nothing was taken. */
  OUT_OF_STOCK: 'Not enough stock; nothing was taken',
  /** The batch a booking names failed: nothing can be booked from it. */
  BATCH_FAILED: 'The batch failed; nothing can be booked from it',
  /** The batch a booking names is ready: its seedlings are ordered as ready stock. */
  BATCH_READY: 'The batch is ready; order its seedlings as ready stock',
  /** A product of the order is no longer sold. */
  PRODUCT_UNAVAILABLE: 'A product is no longer sold',
  /** The status of the order (or organisation) does not allow this action. */
  ILLEGAL_TRANSITION: 'The status of the order or organisation does not allow this action',
  /** The order is already paid. */
  ALREADY_PAID: 'The order is already paid',
  /** The M-Pesa code is already on a money-ledger entry (`message` names its order). */
  CODE_TAKEN: 'The M-Pesa code is already recorded',
  /** Money was received on the order: cancelling and refunding it is the shop's to decide. */
  ASK_THE_SHOP: 'Money was received on this order: ask the shop',
  /** The order must be paid first. */
  NOT_PAID: 'The order must be paid first',
  /** The order is part of the sales record and cannot be deleted. */
  SALES_RECORD: 'The order is part of the sales record',
  /** A person's orders are still open: their account (or data) is erased once they are settled. */
  ORDERS_OPEN: 'Orders are still open: cancel them or wait until they are completed',
  /** A signed link (e.g. a receipt's in an e-mail) is past its expiry: ask for a new one. */
  LINK_EXPIRED: 'The link has expired',
  /** The email address belongs to another account. */
  EMAIL_TAKEN: 'The email address is already used',
  /** An organisation with this KRA PIN is already registered (nothing else is said of it). */
  KRA_PIN_TAKEN: 'An organisation with this KRA PIN is already registered',
  /** A customer account buys for one organisation only. */
  ALREADY_IN_ORGANISATION: 'The account already buys for an organisation',
  /** The change would leave an organisation without an approver. */
  LAST_APPROVER: 'An organisation keeps at least one approver',
  /** Accepting a quotation: stock or its batches no longer cover some lines (`lines` names them). */
  SHORT:
    'Some lines are no longer available as quoted; `lines` names them and what could grow them',
  /** Accepting a quotation would pass the organisation's credit limit. */
  CREDIT_LIMIT: "The order would pass the organisation's credit limit",
  /** The LPO number was already used for another order of the organisation. */
  LPO_TAKEN: 'The LPO number was already used for another order of the organisation',
  /** A payment or tax withheld above what the invoice still owes (issue 44). */
  ABOVE_BALANCE: 'The amount is above what the invoice still owes',
  /** A credit note above the invoice less its credit notes (issue 44). */
  ABOVE_INVOICE: 'A credit note cannot be above its invoice',
  /** A bank reference or withholding certificate already recorded for the organisation (issue 44). */
  REFERENCE_USED: 'The reference or certificate is already recorded for this organisation',
  /** Any other conflict with the current state (a name taken, changed meanwhile, ...). */
  CONFLICT: 'The request conflicts with the current state',
  /** The Idempotency-Key was used for a different order. */
  IDEMPOTENCY_KEY_REUSED: 'The Idempotency-Key was used for a different request',
  /** The body or file is too large. */
  PAYLOAD_TOO_LARGE: 'The body or file is too large',
  /** The body or file is of a type the route does not take. */
  UNSUPPORTED_MEDIA_TYPE: 'The body or file is of a type the route does not take',
  /** The request is well formed but cannot be processed (an unreadable image, ...). */
  UNPROCESSABLE: 'The request is well formed but cannot be processed',
  /** Too many requests from this client: wait and try again. */
  RATE_LIMITED: 'Too many requests; wait and try again',
  /** A payment provider refused or failed. */
  UPSTREAM_FAILED: 'A payment provider refused or failed',
  /** The database or a provider is unreachable for now: try again shortly. */
  SERVICE_UNAVAILABLE: 'Temporarily unavailable; try again shortly',
  /** An unexpected failure; quote `requestId`. */
  INTERNAL_ERROR: 'An unexpected failure; quote requestId',
} as const satisfies Record<ErrorCode, string>;

/** The code an error answer carries when the API gives none more precise, by HTTP status. */
export function errorCodeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 422:
      return 'UNPROCESSABLE';
    case 429:
      return 'RATE_LIMITED';
    case 502:
      return 'UPSTREAM_FAILED';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST';
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (NAMES as readonly string[]).includes(value);
}
