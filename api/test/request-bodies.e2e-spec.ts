/**
 * Every JSON body is bounded before any work is done on it: its size per route while it arrives,
 * then in one pass over the text its top-level type (an object), its nesting and its number of values
 * (array items and object fields, per route), before it is parsed, transformed or validated. A 1 MB
 * `[{},{},…]` of 349,000 items used to hold the event loop for a second per request.
 */
import { CONTACT_MESSAGES } from '@spc/shared-contracts';
import { bearer, createStaff, signInAdmin, UNTHROTTLED, type Session } from './support/identity';
import {
  createCategory,
  createProduct,
  DELIVERY,
  guest,
  placeOrder,
  stockOf,
} from './support/shop';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

/** `[{},{},…]` of `items` empty objects. */
const arrayOfEmptyObjects = (items: number) =>
  `[${Array.from({ length: items }, () => '{}').join(',')}]`;

const NOT_AN_OBJECT = {
  success: false,
  statusCode: 400,
  code: 'BAD_REQUEST',
  message: 'The body must be a JSON object',
};

describe('request bodies: shape and size bounded before work', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;

  beforeAll(async () => {
    t = await createTestApp({
      name: 'bodies',
      env: { ...UNTHROTTLED, RATE_LIMIT_CONTACT_PER_HOUR: '1000', TRUST_PROXY: 'true' },
    });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken);
  });
  afterAll(() => t.close());

  const post = (route: string, raw: string, from = '10.9.0.1') =>
    t
      .http()
      .post(route)
      .set('Content-Type', 'application/json')
      .set('X-Forwarded-For', from)
      .send(raw);
  const messages = async () =>
    (await t.http().get('/api/contact-messages').set(bearer(admin.accessToken)).expect(200)).body
      .totalMessages as number;

  it('refuses a 1 MB array of 349,000 empty objects to the contact form with 413 while it arrives, ten at once leaving the API responsive', async () => {
    const big = arrayOfEmptyObjects(349_000);
    expect(big.length).toBeGreaterThan(1_000_000);
    const before = await messages();
    const one = await post('/api/contact', big).expect(413);
    expect(one.body).toMatchObject({ success: false, message: 'Request body is too large' });

    const flood = Array.from({ length: 10 }, (_, i) => post('/api/contact', big, `10.9.1.${i}`));
    const started = performance.now();
    await t.http().get('/api/health').expect(200);
    const healthMs = performance.now() - started;
    expect((await Promise.all(flood)).map((r) => r.status)).toEqual(Array(10).fill(413));
    // Each such body held the event loop for about a second; refused unread, it holds it for none.
    expect(healthMs).toBeLessThan(1000);
    expect(await messages()).toBe(before);
  });

  it('refuses a top-level array within the size limit with 400 before reading its items, on the contact form and on orders', async () => {
    const product = await createProduct(
      t,
      staff.accessToken,
      (await createCategory(t, staff.accessToken))._id,
      {
        productQuantity: 5,
      },
    );
    const before = await messages();
    const contact = await post('/api/contact', arrayOfEmptyObjects(10_000)).expect(400);
    expect(contact.body).toEqual(NOT_AN_OBJECT);
    const order = await post('/api/orders', arrayOfEmptyObjects(21_000)).expect(400);
    expect(order.body).toEqual(NOT_AN_OBJECT);
    // An order written as a list of its lines is not an order either.
    const lines = await post(
      '/api/orders',
      JSON.stringify([{ _id: product._id, quantity: 1 }]),
    ).expect(400);
    expect(lines.body).toEqual(NOT_AN_OBJECT);
    expect(await messages()).toBe(before);
    expect(await stockOf(t, product._id)).toBe(5);
  });

  it('refuses a bare value or a text body where an object belongs with 400', async () => {
    for (const raw of ['"hello"', '42', 'true', 'null', ' [] '])
      expect((await post('/api/contact', raw)).body).toEqual(NOT_AN_OBJECT);
    const text = await t
      .http()
      .post('/api/contact')
      .set('Content-Type', 'text/plain')
      .set('X-Forwarded-For', '10.9.0.2')
      .send('name=a&message=b')
      .expect(400);
    expect(text.body.message).toBe('The body must be a JSON object');
  });

  it('refuses an object holding more values than its route takes with 413, before validating them', async () => {
    const before = await messages();
    // Within the contact form's 32 KB, but far more than its four fields.
    const stuffed = JSON.stringify({
      name: 'Wanjiku',
      email: 'wanjiku@example.co.ke',
      subject: 'Seedlings',
      message: Array.from({ length: 5_000 }, () => 1),
    });
    expect(stuffed.length).toBeLessThan(32 * 1024);
    const contact = await post('/api/contact', stuffed).expect(413);
    expect(contact.body).toEqual({
      success: false,
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The body holds too many values: at most 20 fields and list items in all',
    });
    expect(await messages()).toBe(before);

    const product = await createProduct(
      t,
      staff.accessToken,
      (await createCategory(t, staff.accessToken))._id,
      {
        productQuantity: 5,
      },
    );
    const order = await post(
      '/api/orders',
      JSON.stringify({
        guestInfo: DELIVERY,
        products: [{ _id: product._id, quantity: 1, productImage: Array(10_000).fill(0) }],
      }),
    ).expect(413);
    expect(order.body.message).toBe(
      'The body holds too many values: at most 1,000 fields and list items in all',
    );
    expect(await stockOf(t, product._id)).toBe(5);
  });

  it('still takes an ordinary message and an order of 50 lines with every cart field', async () => {
    const sent = await post(
      '/api/contact',
      JSON.stringify({
        name: 'Wanjiku',
        email: 'wanjiku@example.co.ke',
        subject: 'Seedlings',
        message: 'Ninahitaji miche 400 ya parachichi. '.repeat(100),
      }),
    ).expect(201);
    expect(sent.body.message).toBe(CONTACT_MESSAGES.sent);
    const category = (await createCategory(t, staff.accessToken))._id;
    const products = [];
    for (let i = 0; i < 50; i++)
      products.push(await createProduct(t, staff.accessToken, category, { productQuantity: 5 }));
    const res = await post(
      '/api/orders',
      JSON.stringify({
        guestInfo: DELIVERY,
        placedBy: null,
        totalAmount: 1,
        shippingFee: 0,
        products: products.map((p) => ({
          _id: p._id,
          quantity: 1,
          productName: p.productName,
          productDescription: 'A grafted seedling of the season, ready to plant out.',
          productImage: p.productImage,
          price: p.price,
          offerPrice: 0,
          userId: null,
        })),
      }),
      '10.9.2.1',
    ).expect(201);
    expect(res.body.order.products).toHaveLength(50);
  });
});

describe('request bodies: thousands of unknown keys or order lines answered cheaply', () => {
  let t: TestApp;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp({ name: 'bodies_many', env: UNTHROTTLED });
    ({ productId } = await createShopWorld(t));
  });
  afterAll(() => t.close());

  it('refuses 80,000 unknown keys on POST /api/auth/refreshToken with a short 413', async () => {
    const raw = `{${Array.from({ length: 80_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    const res = await t
      .http()
      .post('/api/auth/refreshToken')
      .set('content-type', 'application/json')
      .send(raw);
    expect(res.status).toBe(413);
    expect(res.text.length).toBeLessThan(1000);
  });

  it('refuses unknown keys at the first one, answering one error, whatever their number', async () => {
    const extra = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, 1]));
    const res = await t
      .http()
      .post('/api/auth/refreshToken')
      .send({ refreshToken: 'x', ...extra });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('property k0 should not exist');
    expect(res.body.errors).toEqual([{ field: 'k0', messages: ['property k0 should not exist'] }]);
  });

  it('refuses 25,000 order lines without validating each (413 over the order body limit, else one error)', async () => {
    const lines = (n: number) => Array.from({ length: n }, () => ({ _id: 'x', quantity: 0 }));
    const huge = await placeOrder(t, lines(25_000));
    expect(huge.status).toBe(413);
    expect(huge.text.length).toBeLessThan(1000);
    // Within the 1,000 values a body may hold (more is a 413 before parsing: request-bodies suite).
    const many = await placeOrder(t, lines(300));
    expect(many.status).toBe(400);
    expect(many.body.message).toBe('An order can have at most 50 different products');
    expect(many.body.errors).toHaveLength(1);
  });

  it('lists at most 20 field errors and counts the rest', async () => {
    const lines = Array.from({ length: 50 }, () => ({ _id: 'x', quantity: 0 }));
    const res = await placeOrder(t, lines).expect(400);
    expect(res.body.errors).toHaveLength(20);
    expect(res.body.moreErrors).toBe(80);
    // A valid order still goes through.
    await placeOrder(t, [{ _id: productId, quantity: 1 }], { guestInfo: guest() }).expect(201);
  });
});
