/**
 * What ships before the shop edits anything (issue 31). Periods are in days unless named otherwise.
 * The tax period follows Kenya's Tax Procedures Act, 2015, s. 23: records kept five years.
 */
export const PRIVACY_DEFAULTS = {
  controllerName: 'Seedling Propagation Centre',
  /** Orders, payments, refunds and the stock ledger (tax records). */
  taxRetentionYears: 5,
  /** Order text messages (the SMS outbox). */
  smsOutboxDays: 180,
  /** E-mails sent (the mail log). */
  mailLogDays: 180,
  /** Messages sent through the contact form. */
  contactMessageDays: 365,
  /**
   * Days the shop gives itself to answer a guest's request. The Data Protection (General)
   * Regulations, 2021 ask for an access request to be met within 7 days (reg. 9); erasure is read
   * the same way here, the shorter reading being safe.
   */
  requestDueDays: 7,
  noticeText: `## What we collect and why

- **Your name, phone number, e-mail and delivery address**: to deliver your seedlings, send you the order's texts and e-mails, and answer your questions.
- **Your orders, payments and refunds**: to run the sale and keep the tax records the law asks for.
- **Text messages and e-mails we sent you**: to show what we told you about an order.
- **Your consent to offers by text message** (only if you opt in): to send you offers. It is off unless you turn it on.

## How long we keep it

- Orders, payments, refunds and the stock ledger: {taxRetentionYears} years (Tax Procedures Act, 2015). After you delete your account they stay, without your name, phone, e-mail or address.
- If we still owe you money back (a refund not yet sent by M-Pesa), we keep the number it goes to until it is sent, then erase it.
- A message sent from our contact page without signing in cannot be tied to you: it is kept for its period below, then deleted.
- Text messages sent: {smsOutboxDays} days. E-mails sent: {mailLogDays} days. Contact-form messages: {contactMessageDays} days.
- Our backups follow the same periods.

## Who receives it

- The SMS gateway (Africa's Talking) gets your phone number and the text of our messages.
- Safaricom M-Pesa gets your phone number and the amount when you pay.
- The courier gets your name, phone and delivery address for your delivery.

We never sell your data.

## Your rights

Under Kenya's Data Protection Act, 2019, you may be told what we hold, see it, correct it, object to its use, and have it deleted where no law asks us to keep it.

- With an account: open your profile to download your data, correct your details, turn offers by text on or off, or delete your account.
- Without an account: use the data request form with your purchase number and phone; we confirm it with a code by SMS and answer within {requestDueDays} days.
- Reply STOP to any offer by text to stop offers.

You may also complain to the Office of the Data Protection Commissioner (www.odpc.go.ke).`,
};

export type RetentionPeriods = Pick<
  typeof PRIVACY_DEFAULTS,
  'taxRetentionYears' | 'smsOutboxDays' | 'mailLogDays' | 'contactMessageDays' | 'requestDueDays'
>;

export interface PrivacySettings extends RetentionPeriods {
  controllerName: string;
  noticeText: string;
  updatedAt: Date | null;
}

/** The notice as shoppers read it: the placeholders `{name}` replaced by the shop's periods. */
export function fillNotice(text: string, periods: RetentionPeriods): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in periods ? String(periods[key as keyof RetentionPeriods]) : whole,
  );
}
