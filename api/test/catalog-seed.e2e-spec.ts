import { Logger } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import mongoose, { type Connection } from 'mongoose';
import sharp from 'sharp';
import { withDatabaseName } from '../../tools/db/launcher';
import { CatalogSeeder } from '../src/seed/catalog.seeder';
import { SeedModule } from '../src/seed/seed.module';
import { SEEDERS, type Seeder } from '../src/seed/seed.types';
import { tempUploadsDir, type CategoryBody, type ProductBody } from './support/factories';
import { bearer, signInAdmin, UNTHROTTLED } from './support/identity';
import { createTestApp, serverUri, type TestApp } from './support/test-app';

const SEEDING_TIMEOUT_MS = 180_000;

describe('the demo catalogue', () => {
  let t: TestApp;
  let seeder: Seeder;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;
  let summary: string;
  let products: ProductBody[];

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({
      name: 'catalog_seed',
      env: { ...UNTHROTTLED, UPLOADS_DIR: uploads.dir },
      imports: [SeedModule.register([CatalogSeeder])],
    });
    seeder = t.app.get<Seeder[]>(SEEDERS, { strict: false }).find((s) => s.name === 'catalog')!;
    summary = await seeder.seed();
    products = [];
    for (let page = 1; ; page += 1) {
      const res = await t.http().get(`/api/products?limit=100&page=${page}`).expect(200);
      products.push(...res.body.products);
      if (page >= res.body.totalPages) break;
    }
  }, SEEDING_TIMEOUT_MS);
  afterAll(async () => {
    await t.close();
    await uploads.remove();
  });

  it('seeds the five home-page categories and over 400 distinct products', async () => {
    expect(summary).toMatch(
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
    for (const category of categories) expect(category.productCount).toBeGreaterThan(60);
    expect(products.length).toBeGreaterThan(400);
    expect(new Set(products.map((p) => p.productName)).size).toBe(products.length);
  });

  it('has believable nursery stock: whole-shilling prices, some sold out, some on offer', () => {
    for (const p of products) {
      expect(Number.isInteger(p.price)).toBe(true);
      expect(p.price).toBeGreaterThanOrEqual(20);
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
    const onOffer = products.filter((p) => p.onOffer).length / products.length;
    expect(onOffer).toBeGreaterThan(0.1);
    expect(onOffer).toBeLessThan(0.2);
    expect(products.filter((p) => p.productQuantity === 0).length).toBeGreaterThan(5);
    const names = products.map((p) => p.productName);
    for (const example of [
      'Hass Avocado Grafted Seedling',
      'Tissue Culture Banana (Williams)',
      'Grevillea robusta',
      'Sukuma Wiki (Collard) Tray of 50',
      'Cape Gooseberry',
      'Macadamia Grafted',
      'Eucalyptus grandis',
      'Rosemary',
    ]) {
      expect(names.some((name) => name.startsWith(example))).toBe(true);
    }
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
      const again = await seeder.seed();
      expect(again).toMatch(
        new RegExp(
          `^5 categories \\(0 added\\), ${products.length} products \\(1 added, ${products.length - 1} already there\\)`,
        ),
      );
      const res = await t.http().get('/api/products?limit=1').expect(200);
      expect(res.body.totalProducts).toBe(products.length);
      expect((await seeder.seed()).includes('(0 added,')).toBe(true);
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
