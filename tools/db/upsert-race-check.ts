/**
 * Shows a difference between database servers in upserts that race: several requests upserting
 * one missing document at once. MongoDB inserts it with one and updates it with the others, and
 * every answer says what it did: `findOneAndUpdate` returns the document (`returnDocument:
 * 'after'`), `updateOne` counts one match or one upsert. SecantusDB (both servers, 0.7.0b3 and
 * the Rust 0.5.3) applies every update but, for some of the losers of the race, answers
 * `{ n: 1, updatedExisting: false, upserted: null }` and no document: a counter's `$inc` is
 * counted and its value lost. Updates of a document that exists always answer it.
 *
 * So the shop never asks an upsert for a value: counters are created first and then incremented
 * (`nextInSequence`), and an idempotent upsert that answers nothing is read again
 * (`upsertReturning`), both in `api/src/common/counters.ts`.
 *
 * `npx tsx tools/db/upsert-race-check.ts` (the launcher's server; SPC_DB_SERVER picks another).
 */
import { MongoClient } from 'mongodb';
import { ensureDatabase } from './launcher';

const ROUNDS = 40;
const AT_ONCE = 10;

async function main(): Promise<void> {
  const server = await ensureDatabase({ dir: '.data/upsert-race', private: true });
  const client = new MongoClient(server.uri, { maxPoolSize: AT_ONCE * 2 });
  try {
    const db = client.db('upsert_race');
    await db.dropDatabase();
    const col = db.collection<{ _id: string; seq: number }>('counters');
    const tally = { returned: 0, none: 0, counted: 0, updateOneSaid: 0, updateOneSilent: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          const doc = await col.findOneAndUpdate(
            { _id: `fam:${round}` },
            { $inc: { seq: 1 } },
            { upsert: true, returnDocument: 'after' },
          );
          if (doc) tally.returned++;
          else tally.none++;
          const res = await col.updateOne(
            { _id: `uo:${round}` },
            { $inc: { seq: 1 } },
            { upsert: true },
          );
          if (res.matchedCount + res.upsertedCount === 1) tally.updateOneSaid++;
          else tally.updateOneSilent++;
        }),
      );
    }
    for (const d of await col.find({ _id: { $regex: '^fam:' } }).toArray()) tally.counted += d.seq;
    const all = ROUNDS * AT_ONCE;
    console.log(server.description);
    console.log(`${ROUNDS} rounds of ${AT_ONCE} upserts of one missing counter at once`);
    console.log('| | MongoDB | this server |');
    console.log('|---|---|---|');
    console.log(`| findOneAndUpdate answered the document | ${all} | ${tally.returned} |`);
    console.log(`| answered nothing | 0 | ${tally.none} |`);
    console.log(`| increments counted | ${all} | ${tally.counted} |`);
    console.log(`| updateOne said what it did | ${all} | ${tally.updateOneSaid} |`);
    console.log(`| updateOne said nothing | 0 | ${tally.updateOneSilent} |`);
    await db.dropDatabase();
  } finally {
    await client.close();
    await server.stop();
  }
}

void main();
