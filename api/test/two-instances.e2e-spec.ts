/**
 * Scale-out: two real API processes (`node api/dist/main.js`, production settings) on one database,
 * as two replicas behind the reverse proxy run. Stock, idempotency, rate limits and the catalogue
 * shown must hold across them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { withDatabaseName } from '../../tools/db/launcher';
import { ApiProcess, assertBuilt, freePort, PRODUCTION_ENV } from './support/api-process';
import { signInAdmin, bearer } from './support/identity';
import { createCategory, createProduct, placeOrder, stockOf } from './support/shop';
import { waitFor } from './support/wait';
import { serverUri, type TestApp } from './support/test-app';
import { earlyInAWindow } from './support/rate-window';

const SYNC_INTERVAL_MS = 500;
const AUTH_LIMIT = 6;

/** The shared helpers only use `http()` and `config.admin`, which a process provides. */
const asApp = (p: ApiProcess) => p as unknown as TestApp;

/**
 * Another instance's change must show long before the caches' 30 s lifetime would bring it: asks
 * until `check` holds, for at most 10 s (the sync interval is 0.5 s; the slack is for a loaded
 * machine), and fails with the last answer otherwise.
 */
function within10s<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  return waitFor(read, check, 10_000, SYNC_INTERVAL_MS / 2);
}

describe('two API instances on one database', () => {
  const databaseName = `e2e_two_instances_${randomBytes(3).toString('hex')}`;
  const uri = withDatabaseName(serverUri(), databaseName);
  let a: ApiProcess;
  let b: ApiProcess;
  let dataDir: string;
  let admin: string;
  let categoryId: string;

  beforeAll(async () => {
    assertBuilt();
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-two-instances-'));
    const env = {
      ...PRODUCTION_ENV,
      MONGODB_URI: uri,
      UPLOADS_DIR: path.join(dataDir, 'uploads'),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      TRUST_PROXY: '1',
      CATALOG_SYNC_INTERVAL_MS: String(SYNC_INTERVAL_MS),
      RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_LIMIT),
      // This suite counts the per-address limit; the per-account one and the cap on open unpaid
      // orders (its orders share one guest's details) are tested elsewhere.
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '10000',
      ORDER_MAX_OPEN_UNPAID: '10000',
      ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '1000000',
      RATE_LIMIT_ORDERS_PER_MINUTE: '10000',
      RATE_LIMIT_TRACKING_PER_MINUTE: '10000',
    };
    // Started together, as `docker compose up` starts replicas: both bootstrap the same database.
    a = new ApiProcess('A', await freePort(), env);
    b = new ApiProcess('B', await freePort(), env);
    await Promise.all([a.ready(), b.ready()]);
    admin = (await signInAdmin(asApp(a))).accessToken;
    categoryId = (await createCategory(asApp(a), admin))._id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    const client = await MongoClient.connect(uri);
    await client
      .db(databaseName)
      .dropDatabase()
      .finally(() => client.close());
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('logs JSON lines in production', () => {
    const lines = a.stdout.split('\n').filter((l) => l.trim());
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const entry = JSON.parse(line) as { level: number; msg: string };
      expect(typeof entry.level).toBe('number');
      expect(typeof entry.msg).toBe('string');
    }
    expect(a.stdout).toContain('API ready at');
  });

  it('never sells more than the stock when orders arrive at both instances at once', async () => {
    const product = await createProduct(asApp(a), admin, categoryId, { productQuantity: 5 });
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        placeOrder(asApp(i % 2 ? b : a), [{ _id: product._id, quantity: 1 }]),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
    // Each instance's answer reflects the other's sales once its catalogue has caught up.
    for (const p of [a, b])
      expect(
        await within10s(
          () => stockOf(asApp(p), product._id),
          (q) => q === 0,
        ),
      ).toBe(0);
  });

  it('returns the first order when a retry with the same Idempotency-Key reaches the other instance', async () => {
    const product = await createProduct(asApp(a), admin, categoryId, { productQuantity: 10 });
    const key = `retry-${randomBytes(6).toString('hex')}`;
    const first = await placeOrder(asApp(a), [{ _id: product._id, quantity: 2 }], { key });
    expect(first.status).toBe(201);
    const retry = await placeOrder(asApp(b), [{ _id: product._id, quantity: 2 }], { key });
    expect(retry.status).toBe(200);
    expect(retry.body.order._id).toBe(first.body.order._id);
    expect(retry.body.order.purchaseNumber).toBe(first.body.order.purchaseNumber);

    // The same submission sent to both at once places one order.
    const raceKey = `race-${randomBytes(6).toString('hex')}`;
    const race = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        placeOrder(asApp(i % 2 ? b : a), [{ _id: product._id, quantity: 1 }], { key: raceKey }),
      ),
    );
    const placed = race.filter((r) => r.status === 201 || r.status === 200);
    expect(race.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(placed.map((r) => r.body.order._id)).size).toBe(1);
    // Anything else was told to wait while the first was being placed.
    for (const r of race.filter((x) => x.status !== 201 && x.status !== 200))
      expect(r.status).toBe(409);
    expect(
      await within10s(
        () => stockOf(asApp(b), product._id),
        (q) => q === 7,
      ),
    ).toBe(7);
  });

  it('counts one rate limit for a client across both instances, by its forwarded address', async () => {
    // Windows are whole minutes: do not start a burst in the last seconds of one.
    await earlyInAWindow(60_000, 10_000);
    const attempt = (p: ApiProcess, client: string) =>
      p
        .http()
        .post('/api/auth/login')
        .set('X-Forwarded-For', client)
        .send({ email: 'nobody@seedlings.example', password: 'Wrong#pass1' });
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(i % 2 ? b : a, '198.51.100.7')),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(AUTH_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - AUTH_LIMIT);
    // Another client behind the same proxy has its own allowance, on either instance.
    expect((await attempt(b, '198.51.100.8')).status).toBe(401);
    expect((await attempt(a, '198.51.100.7')).status).toBe(429);
  });

  it('ends the session when one refresh token reaches both instances at once, the new token it minted too', async () => {
    // Each sign-in from its own forwarded address, so the per-address limit on sign-ins never counts.
    const from = (round: number) => ({ 'X-Forwarded-For': `203.0.113.${round + 10}` });
    const email = `race.${randomBytes(4).toString('hex')}@example.co.ke`;
    const password = 'Seedling#2026';
    await a
      .http()
      .post('/api/auth/register')
      .set(from(0))
      .send({ fullName: 'Akinyi Otieno', email, phoneNumber: '+254712345678', password })
      .expect(201);
    for (let round = 1; round <= 10; round++) {
      const signIn = await a
        .http()
        .post('/api/auth/login')
        .set(from(round))
        .send({ email, password })
        .expect(200);
      const refreshToken = signIn.body.data.refreshToken as string;
      const race = await Promise.all(
        [a, b].map((p) => p.http().post('/api/auth/refreshToken').send({ refreshToken })),
      );
      expect(race.map((r) => r.status).sort()).toEqual([200, 401]);
      const winner = race.find((r) => r.status === 200)!;
      for (const p of [a, b])
        await p
          .http()
          .post('/api/auth/refreshToken')
          .send({ refreshToken: winner.body.data.refreshToken })
          .expect(401);
    }
  });

  it('a gate sale taken below zero on one instance: the other shows 0 and refuses web orders until a count; the offline sale sent again there answers the first (issue 47)', async () => {
    const product = await createProduct(asApp(a), admin, categoryId, { productQuantity: 5 });
    // The admin's own till session (a clerk's would do the same); the till was offline.
    const session = await a
      .http()
      .post('/api/till/sessions')
      .set(bearer(admin))
      .send({ float: 500 })
      .expect(201);
    const key = `offline-${randomBytes(6).toString('hex')}`;
    const sale = {
      sessionId: session.body.session._id,
      lines: [{ productId: product._id, quantity: 7 }],
      payments: [{ method: 'cash', amount: 7 * 350, given: 2500 }],
      offline: {
        soldAt: new Date(Date.now() - 60_000).toISOString(),
        prices: [{ productId: product._id, unitPrice: 350 }],
      },
    };
    const sell = (p: ApiProcess) =>
      p.http().post('/api/till/sales').set(bearer(admin)).set('Idempotency-Key', key).send(sale);
    const first = await sell(a);
    expect(first.status).toBe(201);
    expect(first.body.sale).toMatchObject({ state: 'paid', short: true });

    // B, which had the product's 5 in its catalogue, shows 0 once it catches up, and refuses.
    expect(
      await within10s(
        () => stockOf(asApp(b), product._id),
        (q) => q === 0,
      ),
    ).toBe(0);
    const web = await placeOrder(asApp(b), [{ _id: product._id, quantity: 1 }]);
    expect(web.status).toBe(409);
    expect(web.body.code).toBe('OUT_OF_STOCK');

    // The till's queue sends it again through the other instance: the first sale, not a second.
    const again = await sell(b);
    expect(again.status).toBe(200);
    expect(again.body.sale.orderId).toBe(first.body.sale.orderId);

    // A count on B (4 found) clears the flag; A sells again.
    await b
      .http()
      .post(`/api/stock/products/${product._id}/counts`)
      .set(bearer(admin))
      .send({ countedQuantity: 4 })
      .expect(201);
    expect(
      await within10s(
        () => stockOf(asApp(a), product._id),
        (q) => q === 4,
      ),
    ).toBe(4);
    expect((await placeOrder(asApp(a), [{ _id: product._id, quantity: 1 }])).status).toBe(201);
    const ledger = await a
      .http()
      .get(`/api/stock/products/${product._id}/movements`)
      .set(bearer(admin))
      .expect(200);
    const movements = ledger.body.movements as { short: boolean; quantityAfter: number }[];
    expect(movements.filter((mv) => mv.short)).toEqual([
      expect.objectContaining({ short: true, quantityAfter: -2 }),
    ]);
  });

  it('shows a product written on one instance in the other instance lists within the sync interval', async () => {
    const name = `Grafted avocado ${randomBytes(3).toString('hex')}`;
    const list = (p: ApiProcess) =>
      p.http().get('/api/products').query({ search: name }).expect(200);
    // B has this list cached (an empty answer) before A writes.
    expect((await list(b)).body.products).toHaveLength(0);
    const product = await createProduct(asApp(a), admin, categoryId, {
      productName: name,
      productQuantity: 7,
    });
    const seen = await within10s(
      async () => ((await list(b)).body.products as { _id: string }[]).map((p) => p._id),
      (ids) => ids.length > 0,
    );
    expect(seen).toEqual([product._id]);

    // A price change on B reaches A's product page the same way.
    await b
      .http()
      .patch(`/api/products/apply-offer/${product._id}`)
      .set(bearer(admin))
      .send({ offerPrice: 300 })
      .expect(200);
    const page = await within10s(
      async () => (await a.http().get(`/api/products/${product._id}`).expect(200)).body.product,
      (p: { onOffer: boolean }) => p.onOffer,
    );
    expect(page).toMatchObject({ onOffer: true, offerPrice: 300 });
  });
});
