/**
 * The shared state behind several API instances, measured on the real database server under
 * concurrency: rate-limit counters and
 * the catalog change feed, each used by two independent instances as two processes would.
 */
import { randomBytes } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { CatalogSync } from '../src/catalog/read-model/catalogue-sync';
import { personalKeys } from '../src/common/personal-key';
import { MongoThrottlerStorage, RATE_LIMIT_COLLECTION } from '../src/common/rate-limit.store';
import { withDatabaseName } from '../../tools/db/launcher';
import { serverUri } from './support/test-app';

describe('shared state of several API instances', () => {
  let connection: Connection;
  /** Both instances derive it from the JWT_SECRET they share. */
  const personalKey = personalKeys({ jwt: { accessSecret: randomBytes(32).toString('hex') } });

  beforeAll(async () => {
    const name = `e2e_shared_state_${randomBytes(3).toString('hex')}`;
    connection = await mongoose.createConnection(withDatabaseName(serverUri(), name)).asPromise();
  });
  afterAll(async () => {
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
  });

  describe('rate-limit counters (MongoThrottlerStorage)', () => {
    it('lets exactly `limit` of 200 concurrent requests through two instances', async () => {
      const a = new MongoThrottlerStorage(connection, personalKey);
      const b = new MongoThrottlerStorage(connection, personalKey);
      const key = `client-${randomBytes(4).toString('hex')}`;
      const limit = 50;
      const started = Date.now();
      // A window of one hour: the burst cannot straddle two windows.
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          (i % 2 ? b : a).increment(key, 3_600_000, limit, 3_600_000, 'orders'),
        ),
      );
      const elapsed = Date.now() - started;
      expect(results.filter((r) => !r.isBlocked)).toHaveLength(limit);
      expect(results.filter((r) => r.isBlocked)).toHaveLength(200 - limit);
      for (const r of results.filter((x) => x.isBlocked)) {
        expect(r.totalHits).toBe(limit + 1);
        expect(r.timeToBlockExpire).toBeGreaterThan(0);
      }
      const slots = await connection
        .collection(RATE_LIMIT_COLLECTION)
        .countDocuments({ _id: { $regex: `^orders:${personalKey(key)}:` } } as object);
      expect(slots).toBe(limit + 1);
      console.log(`rate limit: 200 concurrent requests over two instances in ${elapsed} ms`);
    });

    it('counts each client and each named limit on its own', async () => {
      const store = new MongoThrottlerStorage(connection, personalKey);
      const one = `client-${randomBytes(4).toString('hex')}`;
      const two = `client-${randomBytes(4).toString('hex')}`;
      for (let i = 0; i < 3; i++) await store.increment(one, 60_000, 3, 60_000, 'auth');
      expect((await store.increment(one, 60_000, 3, 60_000, 'auth')).isBlocked).toBe(true);
      expect((await store.increment(two, 60_000, 3, 60_000, 'auth')).isBlocked).toBe(false);
      expect((await store.increment(one, 60_000, 3, 60_000, 'tracking')).isBlocked).toBe(false);
    });
  });

  describe('catalog change feed (CatalogSync)', () => {
    it("tells an instance of another's changes once, at most every interval, and never of its own", async () => {
      const heardByA: number[] = [];
      const heardByB: number[] = [];
      const a = new CatalogSync(connection, 200, () => heardByA.push(Date.now()));
      const b = new CatalogSync(connection, 200, () => heardByB.push(Date.now()));
      await a.lookForChanges();
      await b.lookForChanges();
      heardByA.length = 0;
      heardByB.length = 0;

      // Many changes on A in a burst: written one at a time, the last one always lands.
      for (let i = 0; i < 25; i++) a.changed();
      await a.flush();
      expect(b.lookForChanges()).toBeUndefined(); // looked less than 200 ms ago
      await new Promise((r) => setTimeout(r, 220));
      await b.lookForChanges();
      expect(heardByB).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 220));
      await b.lookForChanges();
      expect(heardByB).toHaveLength(1); // nothing new
      await new Promise((r) => setTimeout(r, 220));
      await a.lookForChanges();
      expect(heardByA).toHaveLength(0); // its own changes

      // Changes on both at once: each hears of the other's.
      a.changed();
      b.changed();
      await Promise.all([a.flush(), b.flush()]);
      await new Promise((r) => setTimeout(r, 220));
      await Promise.all([a.lookForChanges(), b.lookForChanges()]);
      expect(heardByA).toHaveLength(1);
      expect(heardByB).toHaveLength(2);
    });
  });
});
