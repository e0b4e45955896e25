/**
 * M-Pesa Express (Safaricom Daraja's STK push): what the API and the storefront agree on. The
 * shopper-facing texts live here so that the checkout shows exactly what the API answers.
 */

/** What the status poll reveals about one prompt. */
export const MPESA_PUSH_STATUSES = ['pending', 'paid', 'failed'] as const;
export type MpesaPushStatus = (typeof MPESA_PUSH_STATUSES)[number];

/** The name a payment confirmed by M-Pesa Express is recorded under (no staff member took it). */
export const MPESA_EXPRESS_NAME = 'M-Pesa Express';

/** M-Pesa takes at most this many shillings in one transaction. */
export const MPESA_MAX_AMOUNT_KES = 250_000;

/** How often the checkout asks for the outcome of a prompt while the shopper is on their phone. */
export const MPESA_STATUS_POLL_MS = 3000;

/** Daraja's result codes the shop explains in its own words (any other: Daraja's ResultDesc). */
export const MPESA_RESULT_CODES = {
  success: 0,
  insufficientBalance: 1,
  cancelled: 1032,
  timedOut: 1037,
  wrongPin: 2001,
} as const;

export const MPESA_MESSAGES = {
  promptSent: 'Check your phone and enter your M-Pesa PIN to pay.',
  waiting: 'Waiting for your M-Pesa payment. Check your phone and enter your PIN.',
  paid: 'Payment received. Thank you!',
  stillWaiting:
    'Still waiting for M-Pesa. If you have entered your PIN, you may leave this page: your order shows as paid once M-Pesa confirms it.',
  cancelled: 'You cancelled the M-Pesa prompt. Try again when you are ready.',
  timedOut: 'The M-Pesa prompt timed out before the PIN was entered. Please try again.',
  wrongPin: 'The M-Pesa PIN was wrong. Please try again.',
  insufficientBalance: 'Your M-Pesa balance is not enough for this payment.',
  amountMismatch:
    'We could not match this payment to your order. Please contact us with your confirmation number.',
  unconfirmed:
    'We could not confirm this payment with M-Pesa. If money left your account, contact us with your confirmation number.',
  paidButOrderClosed:
    'We received your payment, but this order can no longer take it. We will contact you about a refund.',
  notAvailable:
    'M-Pesa Express is not available right now. Please pay on delivery or through the paybill.',
  invalidPhone: 'Enter a Safaricom number such as 0712 345 678',
  unknownOrder: 'No order with this confirmation number',
  alreadyPaid: 'This order is already paid',
  orderCancelled: 'This order is cancelled; it can no longer be paid',
  orderNotPending:
    'This order is already being processed; please pay on delivery or through the paybill',
  tooLarge: `M-Pesa takes at most KES ${MPESA_MAX_AMOUNT_KES.toLocaleString('en-US')} at once; please pay through the paybill or on delivery`,
  tooManyForOrder:
    'Too many M-Pesa prompts for this order. Please wait a few minutes before trying again.',
  tooManyForPhone:
    'Too many M-Pesa prompts to this phone number. Please wait a few minutes before trying again.',
  tooManyForPhoneToday:
    'Too many M-Pesa prompts to this phone number today. Please pay through the paybill or on delivery.',
  pausedForToday:
    'M-Pesa prompts are paused for the rest of today. Please pay through the paybill or on delivery.',
  rejected: 'M-Pesa did not accept the request. Check the phone number and try again.',
  unreachable: 'M-Pesa is not answering right now. Please try again in a moment.',
  unknownPrompt: 'No M-Pesa prompt with this reference',
} as const;

/** The message a shopper sees for a Daraja result code (ResultDesc for codes the shop has no words for). */
export function mpesaResultMessage(code: number, resultDesc?: string): string {
  switch (code) {
    case MPESA_RESULT_CODES.success:
      return MPESA_MESSAGES.paid;
    case MPESA_RESULT_CODES.cancelled:
      return MPESA_MESSAGES.cancelled;
    case MPESA_RESULT_CODES.timedOut:
      return MPESA_MESSAGES.timedOut;
    case MPESA_RESULT_CODES.wrongPin:
      return MPESA_MESSAGES.wrongPin;
    case MPESA_RESULT_CODES.insufficientBalance:
      return MPESA_MESSAGES.insufficientBalance;
    default:
      return resultDesc?.trim() || MPESA_MESSAGES.unconfirmed;
  }
}

/**
 * A Kenyan mobile number as Daraja wants it (`2547XXXXXXXX` or `2541XXXXXXXX`), from the ways people
 * type it: 0712 345 678, +254 712 345 678, 254712345678, 712345678. Null when it is not one.
 */
/**
 * The numbers toMpesaPhone accepts, as a pattern (the OpenAPI document's, so that a client or a
 * fuzzer knows them): spaces and dashes anywhere, then 254, 0 or nothing, then 7 or 1 and 8 digits.
 */
export const MPESA_PHONE_PATTERN =
  /^[\s-]*\+?[\s-]*(2[\s-]*5[\s-]*4|0)?[\s-]*[17]([\s-]*[0-9]){8}[\s-]*$/;

export function toMpesaPhone(typed: string): string | null {
  const digits = typed.trim().replace(/[\s-]/g, '').replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return null;
  const local = digits.startsWith('254')
    ? digits.slice(3)
    : digits.startsWith('0')
      ? digits.slice(1)
      : digits;
  return /^[17]\d{8}$/.test(local) ? `254${local}` : null;
}
