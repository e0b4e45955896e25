import type { Db } from 'mongodb';
import { MAIL_LOG_COLLECTION } from '../mail-log';

/** What the mail-log migration did: old records whose text it removed. */
export interface MailLogSecretsMigration {
  stripped: number;
}

/**
 * The subjects of the messages that carried a link, as the API sent them before the log recorded
 * which message each was: the password reset (its link opens the account), the payment's signed
 * receipt link, the order and booking links.
 */
const WITH_A_LINK = [
  /^Reset your Seedling Propagation Centre password$/,
  /^Payment received for your order /,
  /^Your order /,
  /^Your seedlings are ready: balance due for booking /,
];

/**
 * Removes the text of the mail-log records written before each recorded whom it was for and which
 * message it was, where that message carried a link (a reset's opens the account): the log now
 * keeps no text of such a message. Those old records keep no account either, so no export shows
 * them; the retention period removes them. Idempotent: only records that still have a text change.
 */
export async function migrateMailLogSecrets(db: Db): Promise<MailLogSecretsMigration> {
  const res = await db
    .collection(MAIL_LOG_COLLECTION)
    .updateMany(
      { template: { $exists: false }, text: { $exists: true }, subject: { $in: WITH_A_LINK } },
      { $unset: { text: '' } },
    );
  return { stripped: res.modifiedCount };
}
