import { Logger } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import mongoose, { type Connection } from 'mongoose';
import sharp from 'sharp';
import { priceUnit, shopToday, type SaleUnit } from '@spc/shared-contracts';
import { withDatabaseName } from '../../tools/db/launcher';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { DEMO_STAFF } from '../src/seed/orders.seeder';
import { SeedModule } from '../src/seed/seed.module';
import { SEEDERS, type Seeder } from '../src/seed/seed.types';
import { tempUploadsDir, type CategoryBody, type ProductBody } from './support/factories';
import { bearer, signIn, signInAdmin, UNTHROTTLED } from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { createTestApp, serverUri, type TestApp } from './support/test-app';

const SEEDING_TIMEOUT_MS = 240_000;

type DemoProduct = ProductBody & { units: SaleUnit[] };

/** The shop's day (Africa/Nairobi), as the batches count days. */
const today = () => shopToday(new Date());
const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The demo data as `npm run seed` makes it: every seeder, with M-Pesa against a Daraja simulator
 * of its own as the seed command runs it (its paybill confirmations matched without the status
 * query), under the shop's own limits on open unpaid orders.
 */
describe('the demo data', () => {
  let m: MpesaTestApp;
  let t: TestApp;
  let seeders: Seeder[];
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;
  let summaries: Map<string, string>;
  let products: DemoProduct[];
  let staffToken: string;

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    m = await createMpesaTestApp(
      'demo_seed',
      {
        UPLOADS_DIR: uploads.dir,
        MPESA_C2B_VERIFY: 'false',
        MPESA_C2B_REGISTER_ON_START: 'false',
        ORDER_MAX_OPEN_UNPAID: '2',
        ORDER_MAX_UNITS_PER_ORDER: '2000',
        ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '4000',
      },
      [SeedModule.register()],
    );
    t = m.t;
    seeders = t.app.get<Seeder[]>(SEEDERS, { strict: false });
    summaries = new Map();
    for (const seeder of seeders) summaries.set(seeder.name, await seeder.seed());
    products = [];
    for (let page = 1; ; page += 1) {
      const res = await t.http().get(`/api/products?limit=100&page=${page}`).expect(200);
      products.push(...res.body.products);
      if (page >= res.body.totalPages) break;
    }
    staffToken = (await signIn(t, DEMO_STAFF.email, DEMO_STAFF.password)).accessToken;
  }, SEEDING_TIMEOUT_MS);
  afterAll(async () => {
    await m.close();
    await uploads.remove();
  });

  const staffGet = (url: string) => t.http().get(url).set(bearer(staffToken)).expect(200);
  const named = (name: string) => products.find((p) => p.productName === name)!;

  it('seeds the five home-page categories and over 400 distinct products', async () => {
    expect(summaries.get('catalog')).toMatch(
      /^5 categories \(5 added\), (\d+) products \(\1 added, 0 already there\)/,
    );
    const categories = (await t.http().get('/api/categories').expect(200)).body
      .categories as CategoryBody[];
    expect(categories.map((c) => c.name)).toEqual([
      'Flowers',
      'Forestry',
      'Fruits',
      'Herbs and spices',
      'Vegetables',
    ]);
    for (const category of categories) expect(category.productCount).toBeGreaterThan(20);
    expect(products.length).toBeGreaterThan(400);
    expect(new Set(products.map((p) => p.productName)).size).toBe(products.length);
  });

  it('classifies each kind of product for KRA eTIMS, so a local eTIMS signs the demo sales', async () => {
    const classes: Record<string, string> = {
      Vegetables: '1015150000',
      'Herbs and spices': '1015150000',
      Flowers: '1015190000',
      Fruits: '1016150000',
      Forestry: '1015200000',
    };
    for (const [category, itemClassCode] of Object.entries(classes)) {
      const product = products.find((p) => p.category.name === category)!;
      const res = await staffGet(`/api/products/${product._id}/tax`);
      expect([category, res.body.tax.itemClassCode]).toEqual([category, itemClassCode]);
    }
  });

  it('has believable nursery stock: whole-shilling prices, some sold out, some on offer', () => {
    for (const p of products) {
      expect(Number.isInteger(p.price)).toBe(true);
      expect(p.price).toBeGreaterThanOrEqual(2);
      expect(p.price).toBeLessThanOrEqual(3500);
      expect(p.initialPrice).toBe(p.price);
      expect(p.productDescription.length).toBeGreaterThan(40);
      if (p.onOffer) {
        expect(p.offerPrice).toBeGreaterThan(0);
        expect(p.offerPrice).toBeLessThan(p.price);
        expect(p.effectivePrice).toBe(p.offerPrice);
      } else {
        expect(p.effectivePrice).toBe(p.price);
      }
    }
    const onOffer =
      products.filter((p) => p.onOffer || p.units.some((u) => u.offerPrice > 0)).length /
      products.length;
    expect(onOffer).toBeGreaterThan(0.1);
    expect(onOffer).toBeLessThan(0.25);
    expect(products.filter((p) => p.productQuantity === 0).length).toBeGreaterThan(5);
    const names = products.map((p) => p.productName);
    for (const example of [
      'Hass Avocado Grafted Seedling',
      'Tissue Culture Banana (Williams)',
      'Grevillea robusta',
      'Sukuma Wiki (Collard)',
      'Cape Gooseberry',
      'Macadamia Grafted',
      'Eucalyptus grandis',
      'Rosemary',
    ]) {
      expect(names.some((name) => name.startsWith(example))).toBe(true);
    }
  });

  it('sells a variety’s seedlings by the seedling and by the tray: no tray is a product of its own', () => {
    expect(products.filter((p) => /\bTray of\b/.test(p.productName))).toEqual([]);
    const sukuma = named('Sukuma Wiki (Collard)');
    expect(sukuma.units.map((u) => [u.name, u.seedlings])).toEqual([
      ['Single seedling', 1],
      ['Tray of 25', 25],
      ['Tray of 50', 50],
      ['Tray of 100', 100],
      ['Tray of 200', 200],
    ]);
    expect(named('Grevillea robusta Tube Seedling').units.map((u) => u.name)).toEqual([
      'Single seedling',
      'Tray of 50 Tubes',
    ]);
    const byTheTray = products.filter((p) => p.units.length > 1);
    const tiered = products.filter((p) => p.units.some((u) => u.tiers.length));
    expect(byTheTray.length).toBeGreaterThan(80);
    expect(tiered.length).toBeGreaterThan(100);
    for (const p of tiered)
      for (const unit of p.units.filter((u) => u.tiers.length)) {
        expect([2, 3]).toContain(unit.tiers.length);
        // The last tier is what a big buyer pays: less than one unit's price.
        const big = priceUnit(unit, unit.tiers.at(-1)!.minQuantity).unitPrice;
        expect(big).toBeLessThan(unit.price);
      }
    // A seedling costs less by the tray than loose.
    for (const p of byTheTray)
      for (const tray of p.units.slice(1))
        expect(tray.price / tray.seedlings).toBeLessThan(p.price);
  });

  it('gives every product its own stored picture', async () => {
    for (const p of products) {
      expect(p.productImage).toMatch(
        new RegExp(`^/api/uploads/products/${p._id}/[0-9a-f]{16}-640\\.webp$`),
      );
      expect(Object.keys(p.productImages).sort()).toEqual(['320', '640']);
    }
    for (const p of products.slice(0, 5)) {
      const res = await t.http().get(p.productImage).buffer(true).expect(200);
      expect(await sharp(res.body as Buffer).metadata()).toMatchObject({
        format: 'webp',
        width: 640,
      });
    }
  });

  it('grows a dozen products in batches ready over the coming weeks and both rains', async () => {
    expect(summaries.get('bookings')).toBe('13 batches and 13 bookings added');
    const list = await staffGet('/api/batches?limit=50');
    const batches = list.body.items as {
      productName: string;
      readyOn: string;
      status: string;
      available: number;
    }[];
    expect(batches).toHaveLength(13);
    expect(batches.filter((b) => b.status !== 'Ready')).toHaveLength(12);
    expect(batches.filter((b) => b.status === 'Ready').map((b) => b.productName)).toEqual([
      'Kale Thousand Headed',
    ]);
    const { seasons } = (await t.http().get('/api/bookings/settings').expect(200)).body as {
      seasons: { key: string; from: string; to: string }[];
    };
    const bookable = (await t.http().get('/api/bookable-batches').expect(200)).body.batches as {
      readyOn: string;
    }[];
    expect(bookable.length).toBeGreaterThanOrEqual(10);
    // Some ready within six weeks, some for each of the rains: a season's ready days run from six
    // weeks before it starts to its end (next year's when this year's is nearly over).
    const soon = dayAfter(today(), 42);
    expect(bookable.some((b) => b.readyOn <= soon)).toBe(true);
    for (const key of ['long-rains', 'short-rains']) {
      const { from, to } = seasons.find((s) => s.key === key)!;
      const inSeason = (day: string) =>
        [0, 1].some((years) => {
          const shift = (d: string) => `${Number(d.slice(0, 4)) + years}${d.slice(4)}`;
          return day >= dayAfter(shift(from), -42) && day <= shift(to);
        });
      expect({ key, bookable: bookable.some((b) => inSeason(b.readyOn)) }).toEqual({
        key,
        bookable: true,
      });
    }
  });

  it('places bookings in every state: deposit due, booked, balance due, paid and affected', async () => {
    const counts = (await staffGet('/api/bookings/counts')).body;
    expect(counts).toMatchObject({ deposits: 3, balances: 2, dispatch: 1, affected: 2 });
    const bookings = await seeders.find((s) => s.name === 'bookings')!.counts!();
    expect(bookings).toBe(
      '13 batches (11 Growing, 1 Ready, 1 Sold out), ' +
        '13 bookings (3 Deposit due, 5 Booked, 2 Balance due, 1 Paid, 2 Affected)',
    );
  });

  it('takes the demo’s money through the ledger: paybill matched, part-paid and waiting, a refund sent', async () => {
    expect(summaries.get('payments')).toMatch(/^6 paybill payments added, and an order paid by/);
    expect(await seeders.find((s) => s.name === 'payments')!.counts!()).toBe(
      '6 paybill payments (2 paying their order in full, 3 in part, 1 waiting in the payments inbox), 1 refund sent by M-Pesa',
    );
    expect((await staffGet('/api/payments/mpesa/inbox/count')).body.waiting).toBe(1);
    // The refund went back as a reversal of the prompt's receipt, and the simulator reversed it.
    expect(m.sim.c2b.refunds.map((r) => [r.kind, r.outcome])).toEqual([['reversal', 'success']]);
    const db = t.app.get<Connection>(getConnectionToken()).db!;
    const money = await checkMoneyLedger(db);
    expect(money.problems).toEqual([]);
    expect(money.figures.out.count).toBe(1);
    const stock = await checkStockLedger(db);
    expect(stock.differences).toEqual([]);
    expect(stock.overbooked).toEqual([]);
  });

  it('keeps a variety’s other sizes’ pictures when one size is deleted', async () => {
    const rosemary = products.filter((p) => p.productName.startsWith('Rosemary '));
    expect(rosemary.length).toBeGreaterThan(1);
    const admin = await signInAdmin(t);
    await t
      .http()
      .delete(`/api/products/delete/${rosemary[0]!._id}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    await t.http().get(rosemary[0]!.productImage).expect(404);
    await t.http().get(rosemary[1]!.productImage).expect(200);
  });

  it(
    'adds nothing when seeded again, but puts back a product that was deleted',
    async () => {
      const again = new Map<string, string>();
      for (const seeder of seeders) again.set(seeder.name, await seeder.seed());
      expect(again.get('catalog')).toMatch(
        new RegExp(
          `^5 categories \\(0 added\\), ${products.length} products \\(1 added, ${products.length - 1} already there\\)`,
        ),
      );
      expect(again.get('orders')).toBe('orders already exist; none added');
      expect(again.get('bookings')).toBe('13 batches already there; none added');
      expect(again.get('payments')).toBe('6 paybill payments already there; none added');
      const res = await t.http().get('/api/products?limit=1').expect(200);
      expect(res.body.totalProducts).toBe(products.length);
      expect((await seeders[0]!.seed()).includes('(0 added,')).toBe(true);
      const db = t.app.get<Connection>(getConnectionToken()).db!;
      expect((await checkMoneyLedger(db)).problems).toEqual([]);
    },
    SEEDING_TIMEOUT_MS,
  );
});

describe('closing after catalogue writes (as the seed script does)', () => {
  it('announces the last catalogue change before the database connection closes', async () => {
    const t = await createTestApp({ name: 'seed_close', env: UNTHROTTLED });
    const admin = await signInAdmin(t);
    const connection = t.app.get<Connection>(getConnectionToken());
    const uri = withDatabaseName(serverUri(), t.databaseName);
    // Two writes at once: the second announcement waits its turn (a quarter of the interval).
    for (const name of ['Closing A', 'Closing B'])
      await t
        .http()
        .post('/api/categories')
        .set(bearer(admin.accessToken))
        .send({ name, description: 'Seedlings in trays' })
        .expect(201);
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      await t.app.close();
      // An announcement still waiting its turn would try (and fail) within a quarter interval.
      await new Promise((r) => setTimeout(r, 600));
      const warnings = warn.mock.calls.map((c) => String(c[0]));
      expect(warnings.filter((w) => w.includes('Could not announce'))).toEqual([]);
    } finally {
      warn.mockRestore();
      expect(connection.readyState).toBe(0);
      const cleanup = await mongoose.createConnection(uri).asPromise();
      await cleanup.dropDatabase();
      await cleanup.close();
    }
  });
});
