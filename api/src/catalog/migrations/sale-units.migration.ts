import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import { defaultUnitOf } from '@spc/shared-contracts';

/** What the units migration did: products given their default unit, and those already migrated. */
export interface SaleUnitsMigration {
  migrated: number;
  alreadyMigrated: number;
}

const BATCH = 500;

/**
 * Moves a database to sale units (issue 29): every product without units gets its default unit,
 * the single seedling (1 seedling, the product's price and offer, minimum 1, step 1, no tiers), whose
 * id is the product's own. Idempotent: a product that has units is left as it is, and each write is
 * conditional on the units still missing, so two runs at once (two replicas) write each product once.
 * Stock, the ledger and orders are untouched: stock is already counted in seedlings, and order lines
 * without a unit read as single seedlings.
 */
export async function migrateSaleUnits(db: Db): Promise<SaleUnitsMigration> {
  const products = db.collection('products');
  const missing = {
    $or: [{ units: { $exists: false } }, { units: { $size: 0 } }, { units: null }],
  };
  let migrated = 0;
  let batch: AnyBulkWriteOperation<Document>[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const res = await products.bulkWrite(batch, { ordered: false });
    migrated += res.modifiedCount;
    batch = [];
  };
  const cursor = products.find(missing, {
    projection: { _id: 1, price: 1, onOffer: 1, offerPrice: 1 },
  });
  for await (const doc of cursor) {
    const unit = defaultUnitOf(
      {
        price: Number(doc.price ?? 0),
        onOffer: doc.onOffer === true,
        offerPrice: Number(doc.offerPrice ?? 0),
      },
      doc._id.toString(),
    );
    batch.push({
      updateOne: { filter: { _id: doc._id, ...missing }, update: { $set: { units: [unit] } } },
    });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  const alreadyMigrated = (await products.countDocuments({})) - migrated;
  return { migrated, alreadyMigrated };
}
