import { formatMoney, SHOP_IDENTITY, type InvoiceReminder } from '@spc/shared-contracts';
import { customerText } from '../mail/mail-text';
import { dayAndMonth } from '../sms/sms-text';

/** What a reminder says of its invoice. */
export interface ReminderInvoice {
  number: string;
  lpoNumber: string;
  /** What it still owes (whole KES). */
  balance: number;
  total: number;
  dueDate: string;
  organisationName: string;
}

/** How the shop is paid and reached, as a reminder names it. */
export interface ReminderLinks {
  /** The M-Pesa paybill (the shortcode); null when M-Pesa is off. */
  paybill: string | null;
  shopPhone: string;
}

/**
 * An LPO number as a text message may quote it: short, letters, digits and `/-.` only (it was
 * typed by the organisation's people; anything else stays out, as typed words stay out of texts).
 */
function lpoForText(lpo: string): string | null {
  const t = lpo.trim();
  return /^[A-Za-z0-9/.-]{1,20}$/.test(t) ? t : null;
}

/** One text message's length: a longer one is sent as two, and costs two. */
const SMS_LENGTH = 160;

/**
 * The billing contact's text message: on the due date ("is due today") and a week after ("was due
 * on …"), with how to pay (the paybill, the invoice number as the account); the LPO number too
 * while it fits in one message of SMS_LENGTH characters.
 */
export function invoiceReminderSms(
  kind: InvoiceReminder,
  inv: ReminderInvoice,
  links: ReminderLinks,
): string {
  const when = kind === 'due' ? 'is due today' : `was due on ${dayAndMonth(inv.dueDate)}`;
  const pay = links.paybill
    ? `Pay by M-Pesa paybill ${links.paybill}, account ${inv.number}.`
    : `Questions? Call ${links.shopPhone}.`;
  const text = (lpo: string | null) =>
    `${SHOP_IDENTITY.name}: invoice ${inv.number} of ${formatMoney(inv.balance)}${lpo ? ` for LPO ${lpo}` : ''} ${when}. ${pay}`;
  const withLpo = text(lpoForText(inv.lpoNumber));
  return withLpo.length <= SMS_LENGTH ? withLpo : text(null);
}

/** The billing contact's e-mail, the same words at more length. */
export function invoiceReminderMail(
  kind: InvoiceReminder,
  inv: ReminderInvoice,
  links: ReminderLinks & { shopEmail: string },
): { subject: string; text: string } {
  const org = customerText(inv.organisationName, 120);
  const lpo = customerText(inv.lpoNumber, 60);
  const subject =
    kind === 'due'
      ? `Invoice ${inv.number} is due today`
      : `Invoice ${inv.number} is overdue (due ${dayAndMonth(inv.dueDate)})`;
  const owed =
    inv.balance === inv.total
      ? `${formatMoney(inv.balance)}`
      : `${formatMoney(inv.balance)} (of ${formatMoney(inv.total)}; the rest is settled)`;
  return {
    subject,
    text: [
      'Hello,',
      '',
      kind === 'due'
        ? `Invoice ${inv.number} to "${org}" for LPO "${lpo}" is due today (${inv.dueDate}).`
        : `Invoice ${inv.number} to "${org}" for LPO "${lpo}" was due on ${inv.dueDate} and is not yet paid.`,
      `Still owed: ${owed}.`,
      '',
      'How to pay:',
      ...(links.paybill ? [`- M-Pesa: paybill ${links.paybill}, account ${inv.number}`] : []),
      `- Bank transfer: quote ${inv.number} as the reference`,
      '',
      `If you have paid already, thank you: please send us the payment's reference.`,
      `Questions: ${links.shopPhone}, ${links.shopEmail}.`,
      '',
      `${SHOP_IDENTITY.name}, ${SHOP_IDENTITY.place}`,
    ].join('\n'),
  };
}
