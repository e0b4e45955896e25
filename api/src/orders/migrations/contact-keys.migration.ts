import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import { contactKeysOf, type ContactFields } from '../order-contact-keys';

/** What the contact keys migration did: orders given their keys, and those that had them. */
export interface ContactKeysMigration {
  migrated: number;
  alreadyMigrated: number;
}

const BATCH = 1000;

const sameKeys = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * Gives every order the `contactKeys` its `guestInfo` gives today (order-contact-keys.ts): the keys
 * of issue 33's search to the orders written before it, and the keys of word pairs (issue 48) to
 * the orders written before them, so the back office finds old orders as it finds new ones.
 * Idempotent: an order whose keys are already right is left alone, and each write is conditional on
 * the keys still being those read, so an order edited meanwhile (whose edit writes its keys) and a
 * second run at once are left alone. Every order is read on each run; only those behind are written.
 */
export async function migrateContactKeys(db: Db): Promise<ContactKeysMigration> {
  const orders = db.collection('orders');
  let migrated = 0;
  let alreadyMigrated = 0;
  let batch: AnyBulkWriteOperation<Document>[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const res = await orders.bulkWrite(batch, { ordered: false });
    migrated += res.modifiedCount;
    batch = [];
  };
  const cursor = orders.find({}, { projection: { _id: 1, guestInfo: 1, contactKeys: 1 } });
  for await (const doc of cursor) {
    const keys = contactKeysOf((doc.guestInfo ?? {}) as ContactFields);
    const had = doc.contactKeys as string[] | undefined;
    if (had && sameKeys(had, keys)) {
      alreadyMigrated++;
      continue;
    }
    const unchanged = had ? { contactKeys: had } : { contactKeys: { $exists: false } };
    batch.push({
      updateOne: {
        filter: { _id: doc._id, ...unchanged },
        update: { $set: { contactKeys: keys } },
      },
    });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return { migrated, alreadyMigrated };
}
