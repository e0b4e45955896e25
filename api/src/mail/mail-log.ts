import { canonicalEmail } from '../common/identifiers';

/** Which message a mail was: a short stable id, recorded with it (the export names it). */
export type MailTemplate =
  | 'password-reset'
  | 'account-exists'
  | 'order-confirmation'
  | 'order-paid'
  | 'booking-deposit'
  | 'booking-balance-due'
  | 'contact-copy'
  | 'contact-received'
  | 'low-stock-digest'
  | 'budget-alert'
  | 'organisation-invitation'
  | 'quotation-sent'
  | 'invoice-reminder';

/**
 * Whom an e-mail was sent for, recorded when it is sent: the account it belongs to (a reset: the
 * account being reset; an order's message: the order's account, null for a guest) and its order;
 * or the shop's own operational mail, with `about` the e-mail address of the person it concerns
 * (the shop's copy of a contact message), so erasing that person erases it. A message is exported
 * only to the account it was recorded for, never because its address was typed somewhere.
 */
export type MailFor =
  { accountId: string | null; orderId?: string | null } | { shop: true; about?: string };

/** Messages whose text opens an account: the log keeps none of their text. */
const SECRET_TEMPLATES: ReadonlySet<MailTemplate> = new Set(['password-reset']);

/** One e-mail the shop sent, as the mail log keeps it (`mail_log`, pruned by TTL on `sentAt`). */
export interface MailLogRecord {
  /** The address, folded to lower case. */
  to: string;
  subject: string;
  template: MailTemplate;
  accountId: string | null;
  orderId: string | null;
  /** The folded e-mail of the person a shop message concerns; null otherwise. */
  about: string | null;
  /** Only for a message without a secret (no link, no code). */
  text?: string;
  sentAt: Date;
}

export const MAIL_LOG_COLLECTION = 'mail_log';

/**
 * What the log keeps of a message: whom it was for, which message, when; its text only when it
 * carries no secret (a reset's link, any link of the message, a code), so no copy opens an account.
 */
export function mailLogRecord(
  message: {
    to: string;
    subject: string;
    text: string;
    link?: string;
    template: MailTemplate;
    for: MailFor;
  },
  sentAt: Date,
): MailLogRecord {
  const owner = message.for;
  const secret = SECRET_TEMPLATES.has(message.template) || !!message.link;
  return {
    to: canonicalEmail(message.to),
    subject: message.subject,
    template: message.template,
    accountId: 'shop' in owner ? null : owner.accountId,
    orderId: 'shop' in owner ? null : (owner.orderId ?? null),
    about: 'shop' in owner && owner.about ? canonicalEmail(owner.about) : null,
    ...(secret ? {} : { text: message.text }),
    sentAt,
  };
}

/** An address as the logs may show it: `***@example.co.ke` (the logs keep no e-mail addresses). */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return at > 0 ? `***${address.slice(at)}` : '***';
}
