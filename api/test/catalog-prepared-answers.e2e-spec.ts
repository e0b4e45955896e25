import { CatalogReadModel } from '../src/catalog/read-model/catalog-read-model';
import {
  createCategory,
  createProduct,
  putProduct,
  tempUploadsDir,
  type ProductBody,
} from './support/factories';
import { signInAdmin, UNTHROTTLED, type Session } from './support/identity';
import { placeOrder } from './support/shop';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Product lists and product pages answered once are answered again from their bytes, before Nest's
 * pipeline: the same answer with the same headers, and never one older than the catalogue.
 */
describe('prepared catalogue answers', () => {
  let t: TestApp;
  let admin: Session;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;
  let product: ProductBody;
  const origin = 'http://localhost:5173';

  const prepared = () => t.app.get(CatalogReadModel).preparedCount;
  const get = (url: string) => t.http().get(url).set('Origin', origin);

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({
      name: 'catalog_prepared',
      env: { ...UNTHROTTLED, UPLOADS_DIR: uploads.dir, STOREFRONT_URL: origin },
    });
    admin = await signInAdmin(t);
    const category = await createCategory(t, admin.accessToken, { name: 'Fruit trees' });
    product = await createProduct(t, admin.accessToken, category._id, {
      productName: 'Mango (Apple) grafted',
      price: 350,
      productQuantity: 40,
    });
  });
  afterAll(async () => {
    await t.close();
    await uploads.remove();
  });

  it('answers a repeated product page and list page from prepared bytes, with the same headers', async () => {
    for (const url of [`/api/products/${product._id}`, '/api/products?page=1&search=mango']) {
      // A list page is kept by its URL once answered; product pages come from the snapshot.
      const isList = url.includes('?');
      const before = prepared();
      const first = await get(url).expect(200);
      expect(prepared()).toBe(isList ? before + 1 : before);
      const second = await get(url).expect(200);
      expect(prepared()).toBe(isList ? before + 1 : before);
      expect(second.text).toBe(first.text);
      const names = (headers: Record<string, unknown>) =>
        Object.keys(headers)
          .filter((h) => !['date', 'x-request-id'].includes(h))
          .sort();
      expect(names(second.headers)).toEqual(names(first.headers));
      for (const header of [
        'content-type',
        'access-control-allow-origin',
        'content-security-policy',
        'x-content-type-options',
      ])
        expect(second.headers[header]).toBe(first.headers[header]);
      expect(second.headers['x-request-id']).toBeTruthy();
      expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    }
  });

  it('shows a price change on the next request for a prepared page and list', async () => {
    const page = `/api/products/${product._id}`;
    const list = '/api/products?search=mango';
    await get(page).expect(200);
    await get(list).expect(200);
    await putProduct(t, admin.accessToken, product._id, { price: 420 }).expect(200);
    expect((await get(page).expect(200)).body.product.price).toBe(420);
    expect((await get(list).expect(200)).body.products[0].price).toBe(420);
  });

  it("shows an order's stock change on the next request for a prepared page", async () => {
    const page = `/api/products/${product._id}`;
    const stock = (await get(page).expect(200)).body.product.productQuantity as number;
    await get(page).expect(200);
    await placeOrder(t, [{ _id: product._id, quantity: 3 }]).expect(201);
    expect((await get(page).expect(200)).body.product.productQuantity).toBe(stock - 3);
  });

  it('never prepares a refused request: a bad query is refused every time', async () => {
    const before = prepared();
    for (let i = 0; i < 2; i++) {
      const res = await get('/api/products?page=0').expect(400);
      expect(res.body.success).toBe(false);
    }
    await get('/api/products/not-an-id').expect(400);
    await get('/api/products/0123456789abcdef01234567').expect(404);
    await get('/api/products/0123456789abcdef01234567').expect(404);
    expect(prepared()).toBe(before);
  });

  it('answers a differently spelled query the same, from its own entry', async () => {
    const a = await get('/api/products?search=mango&page=1').expect(200);
    const b = await get('/api/products?page=1&search=MANGO').expect(200);
    expect(b.body).toEqual(a.body);
  });
});
