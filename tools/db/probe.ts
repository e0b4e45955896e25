/**
 * What the development database does that matters to the API, measured: whether a conditional update
 * is atomic under concurrency, and how long point and filtered reads and writes take at 10,000
 * documents (by `_id` alone, by `_id` with a condition, and with an index).
 * Runs against a private server from the launcher (or MONGODB_URI). Usage: npx tsx tools/db/probe.ts
 */
import { MongoClient, ObjectId } from 'mongodb';
import { ensureDatabase, withDatabaseName } from './launcher';
import path from 'node:path';
import { DATA_DIR } from '../paths';

async function main(): Promise<void> {
  const db = await ensureDatabase({
    dir: path.join(DATA_DIR, 'probe'),
    private: !process.env.MONGODB_URI,
  });
  const client = await MongoClient.connect(withDatabaseName(db.uri, 'probe'), { maxPoolSize: 50 });
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    console.log(
      `server: ${info.ferretdbVersion ? `FerretDB ${info.ferretdbVersion}` : `MongoDB ${info.version}`}`,
    );
    const col = client.db('probe').collection<{ _id: number; q: number }>('atomic');
    for (const mode of ['updateOne', 'findOneAndUpdate'] as const) {
      await col.deleteMany({});
      await col.insertOne({ _id: 1, q: 50 });
      const results = await Promise.all(
        Array.from({ length: 200 }, async () =>
          mode === 'updateOne'
            ? (await col.updateOne({ _id: 1, q: { $gte: 1 } }, { $inc: { q: -1 } })).modifiedCount
            : (await col.findOneAndUpdate({ _id: 1, q: { $gte: 1 } }, { $inc: { q: -1 } }))
              ? 1
              : 0,
        ),
      );
      const ok = results.reduce((a, b) => a + b, 0);
      const final = (await col.findOne({ _id: 1 }))!.q;
      console.log(
        `200 concurrent "take 1 if any left" on 50 with ${mode}: ${ok} succeeded, ${final} left (atomic: 50 and 0)`,
      );
    }
    const docs = client.db('probe').collection('docs');
    await docs.deleteMany({});
    const filler = 'x'.repeat(800);
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      _id: new ObjectId(),
      n: i,
      group: i % 5,
      price: i % 3000,
      filler,
    }));
    for (let i = 0; i < rows.length; i += 1000) await docs.insertMany(rows.slice(i, i + 1000));
    await docs.createIndex({ group: 1, price: 1 });
    const time = async (label: string, fn: () => Promise<unknown>, times = 5) => {
      const started = Date.now();
      for (let i = 0; i < times; i++) await fn();
      console.log(`${label}: ${((Date.now() - started) / times).toFixed(0)} ms`);
    };
    const id = rows[5000]!._id;
    // FerretDB v1 on SQLite looks a document up directly only when the filter is `{ _id }` alone.
    await time('10,000 documents, findOne by _id', () => docs.findOne({ _id: id }));
    await time('10,000 documents, findOne by _id and another field', () =>
      docs.findOne({ _id: id, price: { $gte: 0 } }),
    );
    await time('10,000 documents, find by _id $in [one id]', () =>
      docs.find({ _id: { $in: [id] } }).toArray(),
    );
    await time('10,000 documents, updateOne by _id', () =>
      docs.updateOne({ _id: id }, { $inc: { price: 1 } }),
    );
    await time('10,000 documents, conditional updateOne (_id and another field)', () =>
      docs.updateOne({ _id: id, price: { $gte: 0 } }, { $inc: { price: 1 } }),
    );
    await time('10,000 documents, indexed filter + sort, 12 results', () =>
      docs
        .find({ group: 2, price: { $gte: 100, $lte: 1500 } })
        .sort({ price: 1 })
        .limit(12)
        .toArray(),
    );
    await time('10,000 documents, count with a filter', () => docs.countDocuments({ group: 2 }));
    await client.db('probe').dropDatabase();
  } finally {
    await client.close();
    await db.stop();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
