/**
 * `node api/dist/scripts/migrate.js` (`npm run migrate`): brings the database to the shape this
 * version of the API expects, idempotently; run once on every deploy, before the API starts (the
 * compose file's `migrate` service). Today: sale units (every product gets its single seedling),
 * the orders' search keys (every order gets the keys its contact is found by), and the money ledger
 * (every shilling older orders, refunds and paybill payments record becomes an entry), the mail
 * log (no old record keeps the text of a message that carried a link, a password reset's above all),
 * and the personal keys (orders' open-order cap slots named by a keyed hash of the phone or e-mail,
 * not in clear; limit counters keyed in clear deleted, so their counts start again; guests'
 * Idempotency-Keys owned by the keyed hash), and the audit trail's directory (the action codes and
 * people its filters list, from the entries written before the API kept it), and each older entry
 * marked as a customer's sign-in or not (the trail's screen hides those by an index).
 */
import 'reflect-metadata';
import mongoose from 'mongoose';
import { loadConfig } from '../config/app-config';
import { migrateAuditDirectory } from '../audit/migrations/audit-directory.migration';
import { migrateAuditSignIns } from '../audit/migrations/audit-sign-ins.migration';
import { migrateSaleUnits } from '../catalog/migrations/sale-units.migration';
import { migratePersonalKeys } from '../privacy/migrations/personal-keys.migration';
import { migrateMailLogSecrets } from '../mail/migrations/mail-log-secrets.migration';
import { migrateMoneyLedger } from '../money/migrations/money-ledger.migration';
import { migrateContactKeys } from '../orders/migrations/contact-keys.migration';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const connection = await mongoose.createConnection(config.mongodbUri).asPromise();
  try {
    const units = await migrateSaleUnits(connection.db!);
    console.log(
      `[migrate] sale units: ${units.migrated} product(s) given their single seedling, ${units.alreadyMigrated} already had units`,
    );
    const started = Date.now();
    const keys = await migrateContactKeys(connection.db!);
    console.log(
      `[migrate] search keys: ${keys.migrated} order(s) given the keys their contact is found by, ${keys.alreadyMigrated} already had them (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    const ledgerStarted = Date.now();
    const money = await migrateMoneyLedger(connection.db!);
    console.log(
      `[migrate] money ledger: ${money.migrated} order(s) given their entries, ${money.alreadyMigrated} already had them; ${money.entriesIn} entries in, ${money.entriesOut} out written (${((Date.now() - ledgerStarted) / 1000).toFixed(1)} s)`,
    );
    // What the old records say that the ledger cannot hold as it is: for a person to check.
    for (const note of money.notes) console.log(`[migrate] money ledger: CHECK ${note}`);
    const mailLog = await migrateMailLogSecrets(connection.db!);
    console.log(
      `[migrate] mail log: the text of ${mailLog.stripped} old message(s) that carried a link removed`,
    );
    const directoryStarted = Date.now();
    const directory = await migrateAuditDirectory(connection.db!);
    console.log(
      `[migrate] audit directory: ${directory.actions} action code(s) and ${directory.people} people added from ${directory.entries} entries (${((Date.now() - directoryStarted) / 1000).toFixed(1)} s)`,
    );
    const signInsStarted = Date.now();
    const signIns = await migrateAuditSignIns(connection.db!);
    console.log(
      `[migrate] audit sign-ins: ${signIns.signIns} customer sign-in(s) and ${signIns.others} other entries marked for the trail's default view (${((Date.now() - signInsStarted) / 1000).toFixed(1)} s)`,
    );
    const personal = await migratePersonalKeys(connection.db!, config);
    console.log(
      `[migrate] personal keys: ${personal.orders} order(s) given hashed cap slots (${personal.renumbered} renumbered); ${personal.counters} limit counter(s) and ${personal.rateLimitSlots} rate-limit slot(s) keyed in clear deleted, their counts start again; ${personal.guestKeys} guest Idempotency-Key(s) moved to the keyed owner, ${personal.guestKeysDeleted} no longer theirs deleted`,
    );
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  console.error('[migrate] failed:', error);
  process.exit(1);
});
