/**
 * Every database read a back-office screen makes is served by an index: a small seed:years shop
 * (a few hundred orders with their movements, audit entries and SMS), each daily call of the clerk
 * and the owner made over HTTP while the driver's command monitor records the reads the API sends,
 * and each read explained on the server. A COLLSCAN anywhere in a winning plan fails the test,
 * naming the call and the command.
 *
 * The plans are read from `queryPlanner.winningPlan` (find, count) and from
 * `stages[0].$cursor.queryPlanner.winningPlan` (aggregate) by walking every `stage` and
 * `inputStage(s)`; MongoDB 7 writes the same fields (its slot-based plans nest a `queryPlan`,
 * walked the same way). SecantusDB plans with rules, not costs: it takes an index only when one
 * index holds every field a filter names (a field outside every index, `$and`, `$or`, `$nor`,
 * `$ne` and a sort alone are scans), so the API's queries name only indexed fields.
 *
 * A search by a name, e-mail or phone is looked up in the orders' contact keys (written by the
 * migration here, as a deploy does). Known scans, named here rather than hidden: on SecantusDB only,
 * the audit trail's default "hide customers' sign-ins" (a `$nor`; MongoDB serves it from the time index)
 * and a queue tab narrowed by dates (two ranges: the queue's statuses and the days; MongoDB serves it),
 * and the batches still growing with seedlings left to book narrowed by dates (two ranges: what is
 * left and the days; MongoDB serves it from {status, available, readyOn}).
 */
import { randomBytes } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { ObjectId, type CommandStartedEvent, type Document } from 'mongodb';
import { AUDIT_COUNT_LIMIT, LIVE_BOOKING_STATES } from '@spc/shared-contracts';
import { seedYears } from '../../tools/seed-years/seed-years';
import { migrateAuditDirectory } from '../src/audit/migrations/audit-directory.migration';
import { migrateContactKeys } from '../src/orders/migrations/contact-keys.migration';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { bearer, type Session } from './support/identity';
import { createShopWorld } from './support/shop-world';
import { withDatabaseName } from '../../tools/db/launcher';
import { createTestApp, serverUri, type TestApp } from './support/test-app';
import { MailQueue } from '../src/mail/mail-queue.service';
import { InvoiceIssuing } from '../src/invoices/invoice-issuing';
import { InvoiceSettlements } from '../src/invoices/invoice-settlements';
import { InvoiceReminders } from '../src/invoices/invoice-reminders';
import { TrancheReminders } from '../src/tranches/tranche-reminders';
import { TrancheSteps } from '../src/tranches/tranche-steps.service';

function monitored(database: string): string {
  const url = new URL(withDatabaseName(serverUri(), database));
  url.searchParams.set('monitorCommands', 'true');
  return url.toString();
}

const READS = new Set(['find', 'aggregate', 'count', 'distinct']);
/** Collections that do not grow with the years of trading (the catalogue, settings, sessions). */
const SMALL = new Set([
  'products',
  'categories',
  'delivery_zones',
  'site_pictures',
  'site_settings',
  'refresh_tokens',
  'catalog_versions',
  'rate_limits',
  'quota_slots',
  'sales_rollup_state',
  // The audit trail's action codes (a few dozen, however many entries).
  'audit_actions',
]);

/** The stage names of a plan, every level down (rejected plans left out). */
function stages(plan: unknown, found: string[] = []): string[] {
  if (!plan || typeof plan !== 'object') return found;
  if (Array.isArray(plan)) {
    for (const p of plan) stages(p, found);
    return found;
  }
  for (const [key, value] of Object.entries(plan)) {
    if (key === 'rejectedPlans' || key === 'command') continue;
    if (key === 'stage' && typeof value === 'string') found.push(value);
    else stages(value, found);
  }
  return found;
}

/** The read as a command to explain: its own fields, without the session's. */
function explainable(command: Document): Document {
  const keep = [
    'find',
    'filter',
    'sort',
    'projection',
    'skip',
    'limit',
    'aggregate',
    'pipeline',
    'cursor',
    'count',
    'query',
    'distinct',
    'key',
  ];
  // The driver sends a sort as a Map.
  const plain = (v: unknown) => (v instanceof Map ? Object.fromEntries(v) : v);
  return Object.fromEntries(
    Object.entries(command)
      .filter(([k]) => keep.includes(k))
      .map(([k, v]) => [k, plain(v)]),
  );
}

describe('back-office reads use indexes (explain on a small seed:years shop)', () => {
  let t: TestApp;
  let admin: Session;
  let connection: Connection;
  const reads: { collection: string; command: Document }[] = [];
  let recording = false;
  let clerkId = '';
  let sample: { _id: string; purchaseNumber: string; phone: string; name: string };
  /** A batch with bookings (the newest booking's) and its product; that booking's id. */
  let batch: { _id: string; productId: string };
  let bookingId = '';

  beforeAll(async () => {
    t = await createTestApp({
      name: 'explain',
      // The driver's command monitor is on from the first connection.
      env: { MONGODB_URI: monitored(`e2e_explain_${randomBytes(3).toString('hex')}`) },
    });
    ({ admin } = await createShopWorld(t, { product: { price: 120, quantity: 1000 } }));
    connection = t.app.get<Connection>(getConnectionToken());
    // The indexes the API makes at start-up, all built before anything is explained.
    await Promise.all(connection.modelNames().map((name) => connection.model(name).init()));
    const db = connection.db!;
    // Batches of 100: one insert of 500 orders (thirty indexes each) outlasted the driver's 45 s
    // socket timeout once on a loaded CI machine (the Python SecantusDB's pauses).
    await seedYears(db, { orders: 400, customers: 60, days: 120, seed: 7, batch: 100 });
    // The orders written by the seed, as those of an older version, get their search keys; its
    // audit entries fill the trail's directory (its filters), as a deploy's migration does.
    await migrateContactKeys(db);
    await migrateAuditDirectory(db);
    const order = await db.collection('orders').find({}).sort({ orderDate: -1 }).limit(1).next();
    const clerk = await db.collection('users').findOne({ role: 'staff' });
    const booking = await db
      .collection('orders')
      .find({ booking: { $ne: null } })
      .sort({ orderDate: -1 })
      .limit(1)
      .next();
    const booked = await db
      .collection('batches')
      .findOne({ _id: new ObjectId(booking!.booking.batchId as string) });
    batch = { _id: String(booked!._id), productId: booked!.productId as string };
    bookingId = String(booking!._id);
    clerkId = String(clerk!._id);
    sample = {
      _id: String(order!._id),
      purchaseNumber: order!.purchaseNumber as string,
      phone: `0${(order!.guestInfo.phoneNumber as string).slice(4)}`,
      name: order!.guestInfo.fullName as string,
    };
    connection.getClient().on('commandStarted', (event: CommandStartedEvent) => {
      if (!recording || !READS.has(event.commandName)) return;
      const collection = String(event.command[event.commandName]);
      if (!SMALL.has(collection)) reads.push({ collection, command: event.command });
    });
  });
  afterAll(async () => {
    await connection?.db?.dropDatabase();
    await t?.close();
  });

  /** The reads one call makes, each with the stages of its plan. */
  function plansOf(path: string): Promise<{ read: string; stages: string[] }[]> {
    return plansDuring(async () => {
      await t.http().get(path).set(bearer(admin.accessToken)).expect(200);
    });
  }

  /** The reads made while `work` runs, each with the stages of its plan. */
  async function plansDuring(
    work: () => Promise<unknown>,
  ): Promise<{ read: string; stages: string[] }[]> {
    reads.length = 0;
    recording = true;
    try {
      await work();
    } finally {
      recording = false;
    }
    const plans = [];
    for (const { collection, command } of reads) {
      const explained = await connection.db!.command({
        explain: explainable(command),
        verbosity: 'queryPlanner',
      });
      plans.push({
        read: `${collection}: ${JSON.stringify(explainable(command))}`,
        stages: stages(explained),
      });
    }
    return plans;
  }

  const day = (daysAgo: number) =>
    new Date(Date.now() + 3 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
  /** This shop week's Monday, or `plus` days after it (the dashboard's "ready this week"). */
  const monday = (plus = 0) => {
    const today = new Date(Date.now() + 3 * 3600_000);
    const back = (today.getUTCDay() + 6) % 7;
    return new Date(today.getTime() + (plus - back) * 86_400_000).toISOString().slice(0, 10);
  };
  const calls = (): [string, string][] => [
    ['queue counts', '/api/orders/queue'],
    ['tab: all', '/api/orders?page=1&limit=20'],
    ['tab: to confirm payment', '/api/orders?queue=toConfirmPayment'],
    ['tab: to dispatch', '/api/orders?queue=toDispatch'],
    ['tab: in transit', '/api/orders?queue=inTransit'],
    ['tab: to complete', '/api/orders?queue=toComplete'],
    ['filter: status', '/api/orders?status=Completed'],
    ['filter: unpaid', '/api/orders?paymentStatus=Pending'],
    ['filter: status and payment', '/api/orders?status=Pending&paymentStatus=Paid'],
    ['filter: dates', `/api/orders?from=${day(30)}&to=${day(0)}`],
    ['sort: biggest first', '/api/orders?sortBy=totalAmount&sortOrder=desc'],
    ['search: purchase number', `/api/orders?search=${sample.purchaseNumber}`],
    ['search: start of a number', `/api/orders?search=${sample.purchaseNumber.slice(0, 7)}`],
    ['search: first name', `/api/orders?search=${encodeURIComponent(sample.name.split(' ')[0]!)}`],
    ['search: phone', `/api/orders?search=${sample.phone}`],
    ["search: phone's last digits", `/api/orders?search=${sample.phone.slice(-4)}`],
    ['order detail', `/api/orders/${sample._id}`],
    ['export: a month', `/api/orders/export.csv?from=${day(30)}&to=${day(0)}`],
    ['dashboard: sales', '/api/sales-summary'],
    ['bookings: counts', '/api/bookings/counts'],
    ['bookings: deposits to confirm', '/api/bookings/queue?tab=deposits'],
    ['bookings: balances due this week', '/api/bookings/queue?tab=balances'],
    ['bookings: ready to dispatch', '/api/bookings/queue?tab=dispatch'],
    ['bookings: affected', '/api/bookings/queue?tab=affected'],
    ['batches: all', '/api/batches?page=1&limit=20'],
    ['batches: growing', '/api/batches?status=Growing&page=1&limit=20'],
    ['batches: sold out', '/api/batches?status=Sold%20out&page=1&limit=20'],
    ['batches: ready this week', `/api/batches?readyFrom=${monday()}&readyTo=${monday(6)}`],
    [
      "batches: a booking's product with room (move)",
      `/api/batches?productId=${batch.productId}&status=Growing&page=1&limit=100`,
    ],
    ['batch page', `/api/batches/${batch._id}`],
    ['booking detail', `/api/orders/${bookingId}`],
    ['dashboard: staff', '/api/staff?page=1'],
    ['dashboard: users', '/api/users?page=1'],
    ['dashboard: low stock', '/api/stock/low'],
    ['audit: the filters', '/api/audit-logs/filters'],
    ["sales report: the year's", `/api/sales-summary/report?from=${day(364)}&to=${day(0)}`],
    ['audit: by person and dates', `/api/audit-logs?user=${clerkId}&from=${day(30)}&to=${day(0)}`],
    ['audit: by person', `/api/audit-logs?user=${clerkId}&hideCustomerSignIns=false`],
    ['audit: by action', '/api/audit-logs?action=order.payment&hideCustomerSignIns=false'],
    ['audit: all', '/api/audit-logs?hideCustomerSignIns=false'],
    ['audit: all, a later page', '/api/audit-logs?hideCustomerSignIns=false&page=3&limit=50'],
    ["audit: the screen (customers' sign-ins hidden)", '/api/audit-logs?hideCustomerSignIns=true'],
    ['audit: the screen, a later page', '/api/audit-logs?hideCustomerSignIns=true&page=3&limit=50'],
  ];

  it('answers every daily back-office call without a collection scan', async () => {
    const scans: string[] = [];
    for (const [name, path] of calls()) {
      const plans = await plansOf(path);
      expect(plans.length).toBeGreaterThan(0);
      for (const plan of plans)
        if (plan.stages.includes('COLLSCAN') || plan.stages.length === 0)
          scans.push(`${name} -> ${plan.read} (${plan.stages.join(' < ') || 'no plan'})`);
    }
    expect(scans).toEqual([]);
  });

  it("sweeps the mail queue's lapsed sends by an index", async () => {
    // The queue's pass runs every few seconds beside any call (its reads land in the calls' above).
    // Its lease (a findAndModify with two ranges, due and not leased) is not a read recorded here.
    const plans = await plansDuring(() => t.app.get(MailQueue).drain());
    const sweep = plans.filter((p) =>
      /^mail_outbox: .*"filter":\{"status":"sending","leaseUntil":\{"\$lte":/.test(p.read),
    );
    expect(sweep).toHaveLength(1);
    expect(sweep[0]!.stages).toContain('IXSCAN');
    expect(sweep[0]!.stages).not.toContain('COLLSCAN');
  });

  it("runs the invoices' and tranches' sweeps by indexes (they run beside any call)", async () => {
    // Each sweep as the scheduler runs it, at 10:00 in Nairobi (after the reminders' and the eve
    // texts' hour, so their reads are made). A sweep's reads land in whatever call is in hand, so a
    // scan here would fail the daily calls above at random.
    const at = new Date(`${day(0)}T07:00:00.000Z`);
    const plans = await plansDuring(async () => {
      await t.app.get(InvoiceIssuing).sweep(at);
      await t.app.get(InvoiceSettlements).sweep(at);
      await t.app.get(InvoiceReminders).sweep(at);
      await t.app.get(TrancheReminders).textTomorrows(at);
      await t.app.get(TrancheSteps).finishLeft(at);
    });
    const collections = new Set(plans.map((p) => p.read.split(':')[0]));
    expect([...collections]).toEqual(expect.arrayContaining(['invoices', 'order_tranches']));
    const scans = plans
      .filter((p) => p.stages.includes('COLLSCAN') || p.stages.length === 0)
      .map((p) => `${p.read} (${p.stages.join(' < ') || 'no plan'})`);
    expect(scans).toEqual([]);
  });

  it("reads the audit filters from the trail's directory, not from its entries", async () => {
    // (The action codes, a few dozen rows, are read too: a small collection, not recorded here;
    // and the signed-in account, as on every call.)
    const plans = await plansOf('/api/audit-logs/filters');
    const read = plans.map((p) => p.read.split(':')[0]!).filter((c) => c.startsWith('audit_'));
    expect(read).toEqual(['audit_people', 'audit_people', 'audit_people']);
    const res = await t
      .http()
      .get('/api/audit-logs/filters')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(res.body.people.map((p: { id: string }) => p.id)).toContain(clerkId);
    expect(res.body.actions).toEqual(expect.arrayContaining(['auth.login', 'order.payment']));
  });

  it('counts the whole trail no further than its bound, and reads its page by windows of time', async () => {
    const plans = await plansOf('/api/audit-logs?hideCustomerSignIns=false&page=2&limit=20');
    const reads = plans.map((p) => JSON.parse(p.read.slice(p.read.indexOf(':') + 1)));
    const counts = reads.filter((r) => r.aggregate === 'audit_logs');
    // countDocuments: the match, then at most the bound and one more, then the sum.
    expect(counts[0].pipeline).toEqual(expect.arrayContaining([{ $limit: AUDIT_COUNT_LIMIT + 1 }]));
    const pages = reads.filter((r) => r.find === 'audit_logs');
    expect(pages.length).toBeGreaterThan(0);
    for (const read of [...pages, ...counts.map((c) => c.pipeline[0].$match)])
      expect(JSON.stringify(read)).toContain('"timestamp":{"$gte":');
    for (const read of pages) expect(read.sort).toEqual({ timestamp: -1, _id: -1 });
  });

  it("counts the trail without customers' sign-ins no further than its bound, by their mark", async () => {
    const plans = await plansOf('/api/audit-logs?hideCustomerSignIns=true&page=2&limit=20');
    const reads = plans.map((p) => JSON.parse(p.read.slice(p.read.indexOf(':') + 1)));
    const counts = reads.filter((r) => r.aggregate === 'audit_logs');
    expect(counts.length).toBeGreaterThan(0);
    // Each window's count stops at what the bound still needs (the first: the bound and one more).
    expect(counts[0].pipeline).toEqual(expect.arrayContaining([{ $limit: AUDIT_COUNT_LIMIT + 1 }]));
    for (const count of counts) {
      const limit = count.pipeline.find((s: { $limit?: number }) => s.$limit)?.$limit;
      expect(limit).toBeLessThanOrEqual(AUDIT_COUNT_LIMIT + 1);
      expect(count.pipeline[0].$match).toMatchObject({ customerSignIn: false });
    }
    const pages = reads.filter((r) => r.find === 'audit_logs');
    expect(pages.length).toBeGreaterThan(0);
    for (const read of pages) expect(read.filter).toMatchObject({ customerSignIn: false });
  });

  it('seeds lines by the tray and paybill payments as the API stores them', async () => {
    const db = connection.db!;
    const tray = await db
      .collection('orders')
      .findOne({ products: { $elemMatch: { seedlings: { $gt: 1 } } } });
    expect(tray).not.toBeNull();
    const line = (tray!.products as Record<string, unknown>[]).find(
      (l) => (l.seedlings as number) > 1,
    )!;
    expect(line).toEqual(
      expect.objectContaining({ unitId: expect.any(String), unitName: expect.any(String) }),
    );
    expect(line.lineTotal).toBe((line.unitPrice as number) * (line.quantity as number));
    const product = await db.collection('products').findOne({ 'units._id': line.unitId });
    expect(product).not.toBeNull();
    // A paybill payment matched to an order is its money-ledger entry, credited on it once.
    const payment = await db.collection('mpesa_c2b_payments').findOne({ status: 'matched' });
    expect(payment).not.toBeNull();
    const paid = await db.collection('orders').findOne({ purchaseNumber: payment!.purchaseNumber });
    expect(paid!.moneyCredits).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ entry: `c2b:${payment!._id}`, amount: payment!.amount }),
      ]),
    );
    expect(paid!.amountPaid).toBeGreaterThanOrEqual(payment!.amount as number);
    // Every order's money is its entries; every M-Pesa record is on exactly one (money:check).
    const money = await checkMoneyLedger(db);
    expect(money.problems).toEqual([]);
    expect(money.figures.out.count).toBeGreaterThan(0);
  });

  it('seeds batches and bookings as the API stores them, each batch holding its bookings', async () => {
    const db = connection.db!;
    const bookings = await db
      .collection('orders')
      .find({ booking: { $ne: null } })
      .toArray();
    const states = bookings.map((o) => o.booking.state as string);
    // Bookings in a few of their states (the small shop's 120 days hold some of each stage).
    expect(new Set(states).size).toBeGreaterThanOrEqual(3);
    for (const o of bookings) {
      expect(o.booking).toEqual(
        expect.objectContaining({
          depositPercent: 30,
          deposit: Math.round((o.totalAmount as number) * 0.3),
          balance: (o.totalAmount as number) - Math.round((o.totalAmount as number) * 0.3),
        }),
      );
      expect(o.products).toHaveLength(1);
    }
    // Each batch holds exactly the seedlings of the bookings still on it (live or affected, not
    // yet handed over), and no more than it has.
    const seedlings = (o: Document) =>
      (o.products as { quantity: number; seedlings?: number }[]).reduce(
        (n, l) => n + l.quantity * (l.seedlings ?? 1),
        0,
      );
    const holding = [...LIVE_BOOKING_STATES, 'Affected'] as string[];
    const batches = await db.collection('batches').find({}).toArray();
    expect(batches.some((b) => b.booked > 0)).toBe(true);
    for (const b of batches) {
      const held = bookings
        .filter(
          (o) =>
            o.booking.batchId === String(b._id) &&
            holding.includes(o.booking.state) &&
            !o.booking.fulfilledAt,
        )
        .reduce((n, o) => n + seedlings(o), 0);
      expect({ batch: String(b._id), booked: b.booked }).toEqual({
        batch: String(b._id),
        booked: held,
      });
    }
    // Every ledger (products and batch:<id>) sums to what it holds; no batch overbooked.
    const check = await checkStockLedger(db);
    expect(check.differences).toEqual([]);
    expect(check.overbooked).toEqual([]);
  });

  it('asks a search of several words by all their keys, from the index where the server can', async () => {
    const plans = (await plansOf(`/api/orders?search=${encodeURIComponent(sample.name)}`)).filter(
      (p) => p.read.startsWith('orders:'),
    );
    expect(plans.length).toBeGreaterThan(0);
    // The pair of its words ("kam wan"), which few orders share, by equality; the words beside it.
    for (const plan of plans) {
      expect(plan.read).toMatch(/"contactKeys":"\S{3} \S{3}"/);
      expect(plan.read).toContain('"$and":[{"contactKeys":');
    }
    // MongoDB and the Rust SecantusDB read the index by the equality and check the `$and` on what
    // it finds; the Python SecantusDB (the tests' default) plans any `$and` as a scan: known, here.
    const probe = await connection.db!.command({
      explain: {
        find: 'orders',
        filter: { placement: 'placed', contactKeys: 'x', $and: [{ contactKeys: 'y' }] },
      },
      verbosity: 'queryPlanner',
    });
    if (!stages(probe).includes('COLLSCAN'))
      expect(plans.filter((p) => p.stages.includes('COLLSCAN'))).toEqual([]);
  });

  it('finds an order by the start of a name, the start or end of its phone, the start of its number', async () => {
    const [first, ...rest] = sample.name.split(' ');
    for (const search of [
      sample.name.toUpperCase(),
      first!.slice(0, 3).toLowerCase(),
      `${first} ${rest.at(-1)!.slice(0, 2)}`,
      sample.phone,
      `+254 ${sample.phone.slice(1, 4)} ${sample.phone.slice(4)}`,
      sample.phone.slice(0, 5),
      sample.phone.slice(-4),
      sample.purchaseNumber.slice(0, 6).toLowerCase(),
    ]) {
      const res = await t
        .http()
        .get('/api/orders')
        .query({ search, limit: 100 })
        .set(bearer(admin.accessToken))
        .expect(200);
      expect({
        search,
        found: res.body.orders.some((o: { _id: string }) => o._id === sample._id),
      }).toEqual({
        search,
        found: true,
      });
      expect(res.body.totalOrders).toBeGreaterThanOrEqual(res.body.orders.length);
    }
    // A part in the middle of a word or number finds nothing; nor does a word no contact has. The
    // middle part is one that neither starts nor ends the number (0710000000's "0000" ends it).
    const national = sample.phone.slice(1);
    const middle = [4, 3]
      .flatMap((length) =>
        Array.from({ length: national.length - length - 1 }, (_, i) =>
          national.slice(i + 1, i + 1 + length),
        ),
      )
      .find((part) => !national.startsWith(part) && !national.endsWith(part));
    expect(middle).toBeDefined();
    for (const search of [middle!, `${first}zzq`]) {
      const res = await t
        .http()
        .get('/api/orders')
        .query({ search })
        .set(bearer(admin.accessToken))
        .expect(200);
      expect({
        search,
        orders: res.body.orders.filter((o: { _id: string }) => o._id === sample._id),
      }).toEqual({ search, orders: [] });
    }
  });
});
