/**
 * Shows an expression difference between database servers: a field read through an array
 * (`'$credits.cents'`: every element's `cents`) inside `$expr` or an aggregation. MongoDB reads
 * `[50, 30]`, so `$sum` gives 80 and a conditional update whose filter says "what is held plus 40
 * stays within 100" refuses the third reservation. SecantusDB 0.7.0b3 (Python) reads the path as
 * missing: `$sum` gives 0 and the update goes through. The eTIMS credit-note bound keeps the sum in
 * a field of its own beside the reservations instead (`EtimsDocumentsRepository.reserveCredit`).
 *
 * `npx tsx tools/db/array-sum-check.ts` (the launcher's server; SPC_DB_SERVER picks another).
 */
import { MongoClient } from 'mongodb';
import { ensureDatabase } from './launcher';

async function main(): Promise<void> {
  const server = await ensureDatabase({ dir: '.data/array-sum', private: true });
  const client = new MongoClient(server.uri);
  try {
    const col = client
      .db('array_sum')
      .collection<{ _id: string; credits: { cents: number }[] }>('sales');
    await col.drop().catch(() => undefined);
    await col.insertOne({ _id: 'sale', credits: [{ cents: 50 }, { cents: 30 }] });
    const [read] = await col
      .aggregate([{ $project: { path: '$credits.cents', sum: { $sum: '$credits.cents' } } }])
      .toArray();
    const reserved = await col.updateOne(
      { _id: 'sale', $expr: { $lte: [{ $add: [{ $sum: '$credits.cents' }, 40] }, 100] } },
      { $push: { credits: { cents: 40 } } },
    );
    console.log(server.description);
    console.log('| read | MongoDB | this server |');
    console.log('|---|---|---|');
    console.log(`| '$credits.cents' | [50,30] | ${JSON.stringify(read?.path ?? null)} |`);
    console.log(`| $sum of it | 80 | ${String(read?.sum)} |`);
    console.log(`| 80 + 40 <= 100 reserves | 0 | ${reserved.modifiedCount} |`);
    await client.db('array_sum').dropDatabase();
  } finally {
    await client.close();
    await server.stop();
  }
}

void main();
