import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ORDER_LIMITS, PURCHASE_NUMBER_PATTERN } from '@spc/shared-contracts';
import { OrdersService } from '../src/orders/orders.service';
import { bearer, createStaff, signInAdmin, UNTHROTTLED, type Session } from './support/identity';
import {
  createCategory,
  createProduct,
  pngBomb,
  pngImage,
  postProduct,
  productFields,
  tempUploadsDir,
} from './support/factories';
import { placeOrder, stockOf } from './support/shop';
import { earlyInAWindow } from './support/rate-window';
import { createTestApp, type TestApp } from './support/test-app';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('hostile uploads and bodies', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let categoryId: string;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({ name: 'hostile', env: { ...UNTHROTTLED, UPLOADS_DIR: uploads.dir } });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken);
    categoryId = (await createCategory(t, staff.accessToken))._id;
  });
  afterAll(async () => {
    await t.close();
    await uploads.remove();
  });

  const productCount = async () =>
    (await t.http().get('/api/products?limit=1').expect(200)).body.totalProducts as number;

  it('refuses an image bomb (a tiny file claiming 900 megapixels) with 422, storing nothing', async () => {
    const bomb = pngBomb(30_000, 30_000);
    expect(bomb.length).toBeLessThan(2_000);
    const before = await productCount();
    const res = await postProduct(t, staff.accessToken, productFields(categoryId), {
      buffer: bomb,
      filename: 'bomb.png',
      contentType: 'image/png',
    }).expect(422);
    expect(res.body.message).toBe('The image is too large in dimensions (at most 40 megapixels)');
    expect(await productCount()).toBe(before);
    expect(await filesUnder(uploads.dir)).toEqual([]);
  });

  it('stores a polyglot (a real PNG with a script after it) only as re-encoded WebP, under a name of its own', async () => {
    const polyglot = Buffer.concat([
      await pngImage(64, 64),
      Buffer.from('<script>alert(document.cookie)</script><?php system($_GET["c"]); ?>'),
    ]);
    const product = await createProduct(
      t,
      staff.accessToken,
      categoryId,
      {},
      { buffer: polyglot, filename: '../../../../tmp/evil.php.png', contentType: 'text/html' },
    );
    const served = await t
      .http()
      .get(product.productImage)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const body = served.body as Buffer;
    expect(body.toString('latin1', 0, 4)).toBe('RIFF');
    expect(body.toString('latin1', 8, 12)).toBe('WEBP');

    const files = await filesUnder(uploads.dir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      // Inside the uploads folder, named by content hash and width, never by the uploaded name.
      expect(path.relative(uploads.dir, file)).toMatch(
        /^products\/[0-9a-f]{24}\/[0-9a-f]{16}-\d+\.webp$/,
      );
      const bytes = await readFile(file);
      expect(bytes.includes('<script')).toBe(false);
      expect(bytes.includes('<?php')).toBe(false);
    }
  });

  it('answers a multipart request without a boundary with 400, not a server error', async () => {
    const res = await t
      .http()
      .post('/api/products')
      .set(bearer(staff.accessToken))
      .set('Content-Type', 'multipart/form-data')
      .send('')
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: 'The form could not be read',
    });
  });

  it('refuses a deeply nested order body with 400 and takes no stock', async () => {
    const product = await createProduct(t, staff.accessToken, categoryId, { productQuantity: 5 });
    // Deep enough to overflow a recursive walk, small enough for the order body limit.
    const depth = 10_000;
    const nested = `${'['.repeat(depth)}{"_id":"${product._id}","quantity":1}${']'.repeat(depth)}`;
    const res = await t
      .http()
      .post('/api/orders')
      .set('Content-Type', 'application/json')
      .send(`{"guestInfo":null,"products":${nested}}`)
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: 'The body is nested more than 32 levels deep',
    });
    expect(await stockOf(t, product._id)).toBe(5);
  });

  it(`refuses an order of more than ${ORDER_LIMITS.maxLines} lines with 400, and a body over the order body limit (64 KB) with 413`, async () => {
    const product = await createProduct(t, staff.accessToken, categoryId, { productQuantity: 5 });
    // 300 lines: within the 1,000 values a body may hold, so the line limit is what answers.
    const many = Array.from({ length: 300 }, () => ({ _id: product._id, quantity: 1 }));
    const tooMany = await placeOrder(t, many).expect(400);
    expect(tooMany.body.message).toBe(
      `An order can have at most ${ORDER_LIMITS.maxLines} different products`,
    );

    const huge = Array.from({ length: 40_000 }, () => ({ _id: product._id, quantity: 1 }));
    const tooBig = await placeOrder(t, huge).expect(413);
    expect(tooBig.body.success).toBe(false);
    expect(await stockOf(t, product._id)).toBe(5);
  });

  it('answers a method a path does not have with 405 and the methods it has', async () => {
    const res = await t.http().delete('/api/products').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.body).toEqual({
      success: false,
      statusCode: 405,
      code: 'METHOD_NOT_ALLOWED',
      message: 'DELETE is not allowed on /api/products; use GET, HEAD, POST',
    });
    await t.http().get('/api/no-such-thing').expect(404);
    // A named path beside /api/orders/:id is not taken for an id.
    const named = await t
      .http()
      .get('/api/orders/confirm-delivery')
      .set(bearer(staff.accessToken))
      .expect(405);
    expect(named.headers.allow).toBe('PATCH');
  });

  it('refuses a body-less update with 400 and ignores fields sent as null', async () => {
    const none = await t
      .http()
      .patch('/api/admin/profile')
      .set(bearer(admin.accessToken))
      .expect(400);
    expect(none.body.message).toBe('This request needs a JSON body');
    const res = await t
      .http()
      .patch('/api/admin/profile')
      .set(bearer(admin.accessToken))
      .send({ fullName: null, email: null, county: 'Kiambu' })
      .expect(200);
    expect(res.body.user.fullName).not.toBeNull();
    expect(res.body.user.email).toBe(t.config.admin.email);
  });

  it('searches for text holding a NUL like any other text (the fuzzer found a 500 in the categories and my orders)', async () => {
    const search = encodeURIComponent('m{\u0000o');
    const categories = await t.http().get(`/api/categories?search=${search}`).expect(200);
    expect(categories.body.categories).toEqual([]);
    await t.http().get(`/api/orders?search=${search}`).set(bearer(staff.accessToken)).expect(200);
  });

  it("leaves a batch's fields sent as null as they are (the fuzzer found a 500)", async () => {
    const product = await createProduct(t, staff.accessToken, categoryId, { productQuantity: 5 });
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const created = await t
      .http()
      .post('/api/batches')
      .set(bearer(staff.accessToken))
      .send({ productId: product._id, sownOn: day(-5), readyOn: day(30), started: 50, note: 'a' })
      .expect(201);
    const id = created.body.batch._id as string;
    const res = await t
      .http()
      .patch(`/api/batches/${id}`)
      .set(bearer(staff.accessToken))
      .send({ note: null, readyOn: null })
      .expect(200);
    expect(res.body.batch).toMatchObject({ note: 'a', readyOn: day(30) });
  });

  it('refuses a malformed Idempotency-Key and an absurd page number with 400 in the usual shape', async () => {
    const product = await createProduct(t, staff.accessToken, categoryId, { productQuantity: 5 });
    const key = await placeOrder(t, [{ _id: product._id, quantity: 1 }], {
      key: 'no spaces allowed',
    }).expect(400);
    expect(key.body).toEqual({
      success: false,
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: 'The Idempotency-Key header must be 8-100 letters, digits or _ . : -',
    });
    const page = await t.http().get('/api/products?page=1e308').expect(400);
    expect(page.body.message).toBe('page must be at most 100000');
  });
});

describe('abuse of business flows', () => {
  describe('with low limits', () => {
    let t: TestApp;
    let staff: Session;
    let categoryId: string;

    beforeAll(async () => {
      t = await createTestApp({
        name: 'abuse_limits',
        env: {
          ...UNTHROTTLED,
          RATE_LIMIT_ORDERS_PER_MINUTE: '3',
          RATE_LIMIT_TRACKING_PER_MINUTE: '5',
        },
      });
      const admin = await signInAdmin(t);
      staff = await createStaff(t, admin.accessToken);
      categoryId = (await createCategory(t, staff.accessToken))._id;
    });
    afterAll(() => t.close());

    it('limits how many orders one client places per minute; the refused ones take no stock', async () => {
      const product = await createProduct(t, staff.accessToken, categoryId, {
        productQuantity: 100,
      });
      const statuses: number[] = [];
      await earlyInAWindow();
      for (let i = 0; i < 5; i++)
        statuses.push((await placeOrder(t, [{ _id: product._id, quantity: 10 }])).status);
      expect(statuses).toEqual([201, 201, 201, 429, 429]);
      expect(await stockOf(t, product._id)).toBe(70);
    });

    it('limits tracking look-ups, so purchase numbers cannot be guessed one after another', async () => {
      const statuses: number[] = [];
      await earlyInAWindow();
      for (let i = 0; i < 7; i++) {
        const res = await t
          .http()
          .get(`/api/orders/track/new-order?purchaseNumber=SPD2222222${'23456789'[i]}`);
        statuses.push(res.status);
      }
      expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429]);
    });
  });

  describe('unpaid orders that hoard stock', () => {
    let t: TestApp;
    let admin: Session;
    let staff: Session;
    let categoryId: string;

    beforeAll(async () => {
      t = await createTestApp({
        name: 'abuse_expiry',
        env: { ...UNTHROTTLED, UNPAID_ORDER_EXPIRY_HOURS: '72' },
      });
      admin = await signInAdmin(t);
      staff = await createStaff(t, admin.accessToken);
      categoryId = (await createCategory(t, staff.accessToken))._id;
    });
    afterAll(() => t.close());

    it('draws purchase numbers at random, never one after another', async () => {
      const product = await createProduct(t, staff.accessToken, categoryId, {
        productQuantity: 50,
      });
      const numbers: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await placeOrder(t, [{ _id: product._id, quantity: 1 }]).expect(201);
        numbers.push(res.body.order.purchaseNumber);
      }
      for (const n of numbers) expect(n).toMatch(PURCHASE_NUMBER_PATTERN);
      expect(new Set(numbers).size).toBe(5);
      const tails = numbers.map((n) => n.slice(-4)).sort();
      expect(tails.some((tail, i) => i > 0 && tail === tails[i - 1])).toBe(false);
    });

    it('cancels Pending orders unpaid after UNPAID_ORDER_EXPIRY_HOURS and returns their stock; paid or confirmed ones stay', async () => {
      const product = await createProduct(t, staff.accessToken, categoryId, {
        productQuantity: 20,
      });
      const line = [{ _id: product._id, quantity: 4 }];
      const hoarded = (await placeOrder(t, line).expect(201)).body.order;
      const paid = (await placeOrder(t, line).expect(201)).body.order;
      const confirmed = (await placeOrder(t, line).expect(201)).body.order;
      await t
        .http()
        .patch(`/api/orders/complete-payment/${paid._id}`)
        .set(bearer(staff.accessToken))
        .send({ paymentMethod: 'Cash', paymentDetails: { amount: paid.totalAmount } })
        .expect(200);
      await t
        .http()
        .patch(`/api/orders/inTransit/${confirmed._id}`)
        .set(bearer(staff.accessToken))
        .expect(200);
      expect(await stockOf(t, product._id)).toBe(8);

      const orders = t.app.get(OrdersService);
      const inAnHour = new Date(Date.now() + 60 * 60 * 1000);
      expect(await orders.expireUnpaid(inAnHour)).toBe(0);
      const inThreeDays = new Date(Date.now() + 73 * 60 * 60 * 1000);
      // The hoarding order, and the unpaid ones of the test before.
      expect(await orders.expireUnpaid(inThreeDays)).toBeGreaterThanOrEqual(1);
      expect(await orders.expireUnpaid(inThreeDays)).toBe(0);

      const status = async (id: string) =>
        (await t.http().get(`/api/orders/${id}`).set(bearer(staff.accessToken)).expect(200)).body
          .order.orderStatus;
      expect(await status(hoarded._id)).toBe('Cancelled');
      expect(await status(paid._id)).toBe('Processing');
      expect(await status(confirmed._id)).toBe('InTransit');
      expect(await stockOf(t, product._id)).toBe(12);

      const audit = await t
        .http()
        .get('/api/audit-logs?limit=5')
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(audit.body).toContainEqual(
        expect.objectContaining({
          action: 'order.expire',
          message: `${hoarded.purchaseNumber} was cancelled automatically, unpaid after 72 hours; its stock was returned`,
        }),
      );
    });
  });
});
