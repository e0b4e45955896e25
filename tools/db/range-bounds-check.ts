/**
 * Shows a range-bound difference between database servers: `{ a: 'x', b: { $lte: day } }` over
 * four documents (three of `a: 'x'`, two of them on or before `day`), counted under indexes of
 * several shapes. MongoDB counts 2 under every index. SecantusDB 0.7.0b3 (Python) counts 1 under
 * `{ a, b, _id }`: a key equal to a `$lte` bound on a field the index has more fields after is
 * left out (`$lt`, `$gt` and `$gte` are right). The API asks such a bound as `$lt` the next day.
 *
 * `npx tsx tools/db/range-bounds-check.ts` (the launcher's server; SPC_DB_SERVER picks another).
 */
import { MongoClient } from 'mongodb';
import { ensureDatabase } from './launcher';

const DAY = '2026-11-29';
const SHAPES: [string, Record<string, 1> | null][] = [
  ['{a, b, _id}', { a: 1, b: 1, _id: 1 }],
  ['{a, b}', { a: 1, b: 1 }],
  ['{b}', { b: 1 }],
  ['no index', null],
];

async function main(): Promise<void> {
  const server = await ensureDatabase({ dir: '.data/range-bounds', private: true });
  const client = new MongoClient(server.uri);
  try {
    const db = client.db('range_bounds');
    console.log(server.description);
    console.log('| index | $lte day (2) | $lt next day (2) | $gt day (1) | $gte day (2) |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [i, [name, key]] of SHAPES.entries()) {
      const col = db.collection(`shape_${i}`);
      await col.drop().catch(() => undefined);
      if (key) await col.createIndex(key);
      await col.insertMany([
        { a: 'x', b: '2026-11-21' },
        { a: 'x', b: DAY },
        { a: 'x', b: '2026-12-02' },
        { a: 'y', b: DAY },
      ]);
      const count = (b: Record<string, string>) => col.countDocuments({ a: 'x', b });
      const row = [
        await count({ $lte: DAY }),
        await count({ $lt: '2026-11-30' }),
        await count({ $gt: DAY }),
        await count({ $gte: DAY }),
      ];
      console.log(`| ${name} | ${row.join(' | ')} |`);
    }
    await db.dropDatabase();
  } finally {
    await client.close();
    await server.stop();
  }
}

void main();
