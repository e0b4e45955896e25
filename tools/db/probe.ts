/**
 * The conformance probe: what the API relies on the database server for, checked against whichever
 * server it is given. `checkConformance` throws with every broken assumption listed; it runs in the
 * e2e suite (api/test/database-conformance.e2e-spec.ts) against the launcher's server, so a server
 * that breaks one fails `npm test` loudly. Run alone (`npx tsx tools/db/probe.ts`) it also prints
 * how long point and filtered reads and writes take at 10,000 documents.
 */
import path from 'node:path';
import { MongoClient, ObjectId, type Db } from 'mongodb';
import { DATA_DIR } from '../paths';
import { ensureDatabase, withDatabaseName } from './launcher';

export interface ConformanceOptions {
  /** Also wait for a TTL index to remove an expired document (the server's TTL pass runs every ~60 s). */
  ttlRemoval?: boolean;
  log?: (message: string) => void;
}

/** "SecantusDB 0.7.0b3 (answers as MongoDB 8.2.11)" or "MongoDB 7.0.14". */
export async function serverName(db: Db): Promise<string> {
  const info = await db.admin().command({ buildInfo: 1 });
  return info.secantusVersion
    ? `SecantusDB ${String(info.secantusVersion)} (answers as MongoDB ${String(info.version)})`
    : `MongoDB ${String(info.version)}`;
}

/** Runs every check in the database `db`; throws listing each failed one. */
export async function checkConformance(db: Db, options: ConformanceOptions = {}): Promise<void> {
  const log = options.log ?? (() => {});
  const failures: string[] = [];
  const check = (ok: boolean, what: string, saw: string) => {
    log(`${ok ? 'ok  ' : 'FAIL'} ${what}: ${saw}`);
    if (!ok) failures.push(`${what}: ${saw}`);
  };
  const isDuplicate = (e: unknown) => (e as { code?: unknown })?.code === 11000;

  // Stock is taken with one conditional update: it must be atomic under concurrency.
  const atomic = db.collection<{ _id: number; q: number }>('probe_atomic');
  for (const mode of ['updateOne', 'findOneAndUpdate'] as const) {
    await atomic.deleteMany({});
    await atomic.insertOne({ _id: 1, q: 50 });
    const results = await Promise.all(
      Array.from({ length: 200 }, async () =>
        mode === 'updateOne'
          ? (await atomic.updateOne({ _id: 1, q: { $gte: 1 } }, { $inc: { q: -1 } })).modifiedCount
          : (await atomic.findOneAndUpdate({ _id: 1, q: { $gte: 1 } }, { $inc: { q: -1 } }))
            ? 1
            : 0,
      ),
    );
    const ok = results.reduce((a, b) => a + b, 0);
    const left = (await atomic.findOne({ _id: 1 }))?.q;
    check(
      ok === 50 && left === 0,
      `200 concurrent "take 1 if any left" on 50 with ${mode}`,
      `${ok} succeeded, ${left} left (atomic: 50 and 0)`,
    );
  }

  // A unique index answers E11000 (code 11000) on insert and on update (purchase numbers, emails,
  // claims, rate-limit slots).
  const unique = db.collection<{ k: number }>('probe_unique');
  await unique.drop().catch(() => {});
  await unique.createIndex({ k: 1 }, { unique: true });
  await unique.insertMany([{ k: 1 }, { k: 2 }]);
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => 'accepted',
      (e: unknown) => (isDuplicate(e) ? '11000' : `error ${(e as Error).message}`),
    );
  const onInsert = await codeOf(unique.insertOne({ k: 1 }));
  const onUpdate = await codeOf(unique.updateOne({ k: 2 }, { $set: { k: 1 } }));
  const onFindAndModify = await codeOf(unique.findOneAndUpdate({ k: 2 }, { $set: { k: 1 } }));
  const concurrent = await Promise.all(
    Array.from({ length: 20 }, () => codeOf(unique.insertOne({ k: 3 }))),
  );
  check(onInsert === '11000', 'duplicate key on insert', onInsert);
  check(onUpdate === '11000', 'duplicate key on updateOne', onUpdate);
  check(onFindAndModify === '11000', 'duplicate key on findOneAndUpdate', onFindAndModify);
  check(
    concurrent.filter((c) => c === 'accepted').length === 1 &&
      concurrent.filter((c) => c === '11000').length === 19,
    '20 concurrent inserts of one unique key',
    `${concurrent.filter((c) => c === 'accepted').length} accepted, ${concurrent.filter((c) => c === '11000').length} refused with 11000`,
  );

  // Window limits (api/src/common/quota.ts): a conditional $inc with upsert on a counter's _id
  // either counts or answers 11000 (the counter is full, or another request created it first).
  const counters = db.collection<{ _id: string; n: number }>('probe_quota');
  await counters.deleteMany({});
  const counted = await Promise.all(
    Array.from({ length: 40 }, async () => {
      try {
        const r = await counters.updateOne(
          { _id: 'k', n: { $lt: 5 } },
          { $inc: { n: 1 } },
          { upsert: true },
        );
        if (r.modifiedCount + r.upsertedCount === 1) return 'counted';
      } catch (e) {
        if (!isDuplicate(e)) return `error ${(e as Error).message}`;
      }
      const again = await counters.updateOne({ _id: 'k', n: { $lt: 5 } }, { $inc: { n: 1 } });
      return again.modifiedCount === 1 ? 'counted' : 'refused';
    }),
  );
  const n = (await counters.findOne({ _id: 'k' }))?.n;
  check(
    counted.filter((c) => c === 'counted').length === 5 && n === 5,
    '40 concurrent conditional upserts of a counter limited to 5',
    `${counted.filter((c) => c === 'counted').length} counted, counter at ${n}, others: ${[...new Set(counted.filter((c) => c !== 'counted'))].join(', ')}`,
  );

  // Held slots (open unpaid orders): a unique index on an array, partial on the holder's state; a
  // slot is held once while the holder matches, and freed by the update that makes it not match.
  const holders = db.collection<{ _id: number; open: boolean; slots?: string[] }>('probe_slots');
  await holders.drop().catch(() => {});
  await holders.createIndex(
    { slots: 1 },
    { unique: true, partialFilterExpression: { open: true, slots: { $exists: true } } },
  );
  await holders.insertMany([
    { _id: 0, open: true },
    { _id: -1, open: true },
  ]);
  const held = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      codeOf(holders.insertOne({ _id: i + 1, open: true, slots: [`p#${1 + (i % 2)}`, `a#${i}`] })),
    ),
  );
  await holders.updateMany({ slots: 'p#1' }, { $set: { open: false } });
  const freed = await codeOf(holders.insertOne({ _id: 100, open: true, slots: ['p#1'] }));
  check(
    held.filter((c) => c === 'accepted').length === 2 &&
      held.filter((c) => c === '11000').length === 18 &&
      freed === 'accepted',
    '20 concurrent holders of 2 slots under a partial unique index on an array',
    `${held.filter((c) => c === 'accepted').length} held, ${held.filter((c) => c === '11000').length} refused with 11000; a freed slot taken again: ${freed}`,
  );

  // Reservations are sub-documents matched with $elemMatch; a reservation is taken once per order
  // under concurrency, and released by its own entry.
  type Reserved = { _id: number; q: number; reservations: { orderId: string; quantity: number }[] };
  const products = db.collection<Reserved>('probe_reservations');
  await products.deleteMany({});
  await products.insertOne({ _id: 1, q: 10, reservations: [] });
  const reserve = (orderId: string, quantity: number) =>
    products.updateOne(
      { _id: 1, q: { $gte: quantity }, 'reservations.orderId': { $ne: orderId } },
      { $inc: { q: -quantity }, $push: { reservations: { orderId, quantity } } },
    );
  const tries = await Promise.all([
    ...Array.from({ length: 10 }, () => reserve('a', 3)),
    ...Array.from({ length: 10 }, () => reserve('b', 4)),
    ...Array.from({ length: 10 }, () => reserve('c', 5)),
  ]);
  const taken = tries.reduce((n, r) => n + r.modifiedCount, 0);
  const after = (await products.findOne({ _id: 1 }))!;
  check(
    taken === 2 && after.q === 10 - after.reservations.reduce((n, r) => n + r.quantity, 0),
    '30 concurrent reservations of 3 orders on 10 units',
    `${taken} taken, ${after.q} left, entries ${after.reservations.map((r) => `${r.orderId}:${r.quantity}`).join(' ')}`,
  );
  const first = after.reservations[0]!;
  const matched = await products.countDocuments({
    _id: 1,
    reservations: { $elemMatch: { orderId: first.orderId, quantity: first.quantity } },
  });
  const wrong = await products.countDocuments({
    _id: 1,
    reservations: { $elemMatch: { orderId: first.orderId, quantity: first.quantity + 1 } },
  });
  const projected = await products.findOne(
    { _id: 1 },
    { projection: { reservations: { $elemMatch: { orderId: first.orderId } } } },
  );
  check(
    matched === 1 && wrong === 0 && projected?.reservations?.length === 1,
    '$elemMatch on sub-documents (filter and projection)',
    `entry found ${matched}, wrong quantity found ${wrong}, projected ${projected?.reservations?.length ?? 0} entry`,
  );
  const releases = await Promise.all(
    Array.from({ length: 10 }, () =>
      products.updateOne(
        { _id: 1, reservations: { $elemMatch: first } },
        { $inc: { q: first.quantity }, $pull: { reservations: { orderId: first.orderId } } },
      ),
    ),
  );
  const released = releases.reduce((n, r) => n + r.modifiedCount, 0);
  const final = (await products.findOne({ _id: 1 }))!;
  check(
    released === 1 && final.reservations.length === after.reservations.length - 1,
    '10 concurrent releases of one reservation',
    `${released} released, ${final.reservations.length} entries left`,
  );

  // An organisation's people (issue 42): sub-documents under a unique index partial on their
  // field (empty lists are not indexed), one account in one organisation however many join at
  // once; a role changed with arrayFilters, and a removal under the "another approver remains"
  // condition, of which only one of two concurrent ones can pass.
  type Person = { accountId: string; role: string };
  const orgs = db.collection<{ _id: number; members: Person[] }>('probe_members');
  await orgs.drop().catch(() => {});
  await orgs.createIndex(
    { 'members.accountId': 1 },
    { unique: true, partialFilterExpression: { 'members.accountId': { $exists: true } } },
  );
  await orgs.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: i, members: [] })));
  const joins = await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      codeOf(orgs.updateOne({ _id: i }, { $push: { members: { accountId: 'x', role: 'buyer' } } })),
    ),
  );
  await orgs.updateOne(
    { _id: 100 },
    {
      $set: {
        members: [
          { accountId: 'a', role: 'approver' },
          { accountId: 'b', role: 'approver' },
        ],
      },
    },
    { upsert: true },
  );
  const keep = (id: string) => ({
    _id: 100,
    members: { $elemMatch: { accountId: { $ne: id }, role: 'approver' } },
  });
  const [pulled, demoted] = await Promise.all([
    orgs.updateOne(
      { ...keep('b'), 'members.accountId': 'b' },
      { $pull: { members: { accountId: 'b' } } },
    ),
    orgs.updateOne(
      { ...keep('a'), 'members.accountId': 'a' },
      { $set: { 'members.$[m].role': 'buyer' } },
      { arrayFilters: [{ 'm.accountId': 'a' }] },
    ),
  ]);
  const approvers = (await orgs.findOne({ _id: 100 }))!.members.filter(
    (m) => m.role === 'approver',
  );
  // Taken out of its organisation (its last person), the account may join another.
  await orgs.updateOne({ 'members.accountId': 'x' }, { $pull: { members: { accountId: 'x' } } });
  const rejoined = await codeOf(
    orgs.updateOne({ _id: 100 }, { $push: { members: { accountId: 'x', role: 'buyer' } } }),
  );
  check(
    joins.filter((c) => c === 'accepted').length === 1 &&
      joins.filter((c) => c === '11000').length === 4 &&
      pulled.modifiedCount + demoted.modifiedCount === 1 &&
      approvers.length === 1 &&
      rejoined === 'accepted',
    "an organisation's people: a partial unique index on sub-documents, arrayFilters, one of two approvers kept",
    `${joins.filter((c) => c === 'accepted').length} of 5 joins of one account accepted; ${pulled.modifiedCount + demoted.modifiedCount} of 2 approver changes; ${approvers.length} approver left; out and in again: ${rejoined}`,
  );

  // findOneAndUpdate with a projection (mongoose sends one for the schemas' hidden fields).
  const hidden = db.collection<{ _id: number; shown: number; secret: string }>('probe_projection');
  await hidden.deleteMany({});
  await hidden.insertOne({ _id: 1, shown: 1, secret: 's' });
  const answer = await hidden.findOneAndUpdate(
    { _id: 1 },
    { $inc: { shown: 1 } },
    { projection: { secret: 0 }, returnDocument: 'after' },
  );
  check(
    answer?.shown === 2 && !('secret' in (answer ?? {})),
    'findOneAndUpdate with a projection',
    JSON.stringify(answer),
  );

  // TTL indexes (rate-limit slots, refresh tokens, idempotency keys expire through them).
  const ttl = db.collection<{ at: Date }>('probe_ttl');
  await ttl.drop().catch(() => {});
  await ttl.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
  const indexes = await ttl.indexes();
  check(
    indexes.some((i) => i.expireAfterSeconds === 0),
    'TTL index created',
    indexes
      .map(
        (i) =>
          `${i.name}${i.expireAfterSeconds === undefined ? '' : ` (ttl ${i.expireAfterSeconds} s)`}`,
      )
      .join(', '),
  );
  if (options.ttlRemoval) {
    await ttl.insertOne({ at: new Date(Date.now() - 1000) });
    const started = Date.now();
    while ((await ttl.countDocuments()) > 0 && Date.now() - started < 150_000)
      await new Promise((r) => setTimeout(r, 1000));
    const left = await ttl.countDocuments();
    check(
      left === 0,
      'TTL index removes an expired document',
      left === 0
        ? `after ${((Date.now() - started) / 1000).toFixed(0)} s`
        : 'still there after 150 s',
    );
  }

  for (const name of [
    'probe_atomic',
    'probe_unique',
    'probe_quota',
    'probe_slots',
    'probe_reservations',
    'probe_members',
    'probe_projection',
    'probe_ttl',
  ])
    await db
      .collection(name)
      .drop()
      .catch(() => {});
  if (failures.length)
    throw new Error(
      `The database server breaks ${failures.length} assumption(s) the API relies on:\n  - ${failures.join('\n  - ')}`,
    );
}

async function timings(db: Db): Promise<void> {
  const docs = db.collection('docs');
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
  await time('10,000 documents, findOne by _id', () => docs.findOne({ _id: id }));
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
  await docs.drop();
}

async function main(): Promise<void> {
  const server = await ensureDatabase({
    dir: path.join(DATA_DIR, 'probe'),
    private: !process.env.MONGODB_URI,
  });
  const client = await MongoClient.connect(withDatabaseName(server.uri, 'probe'), {
    maxPoolSize: 50,
  });
  try {
    const db = client.db('probe');
    console.log(`server: ${await serverName(db)}`);
    await checkConformance(db, { ttlRemoval: process.env.PROBE_TTL === '1', log: console.log });
    await timings(db);
    await db.dropDatabase();
  } finally {
    await client.close();
    await server.stop();
  }
}

if (require.main === module) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
