import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import { contactKeysOf, type ContactFields } from '../order-contact-keys';

/** What the contact keys migration did: orders given their keys, and those that had them. */
export interface ContactKeysMigration {
  migrated: number;
  alreadyMigrated: number;
}

const BATCH = 1000;

/**
 * Gives every order written before issue 33's search its `contactKeys` (order-contact-keys.ts), from
 * its `guestInfo`, so the back office finds old orders by name, e-mail and phone as it finds new ones.
 * Idempotent: each write is conditional on the keys still missing, so an order edited meanwhile
 * (whose edit writes its keys) and a second run at once are left alone.
 */
export async function migrateContactKeys(db: Db): Promise<ContactKeysMigration> {
  const orders = db.collection('orders');
  const missing = { contactKeys: { $exists: false } };
  let migrated = 0;
  let batch: AnyBulkWriteOperation<Document>[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const res = await orders.bulkWrite(batch, { ordered: false });
    migrated += res.modifiedCount;
    batch = [];
  };
  const cursor = orders.find(missing, { projection: { _id: 1, guestInfo: 1 } });
  for await (const doc of cursor) {
    const keys = contactKeysOf((doc.guestInfo ?? {}) as ContactFields);
    batch.push({
      updateOne: { filter: { _id: doc._id, ...missing }, update: { $set: { contactKeys: keys } } },
    });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  const alreadyMigrated = (await orders.estimatedDocumentCount()) - migrated;
  return { migrated, alreadyMigrated };
}
