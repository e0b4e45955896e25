/**
 * How much stock unpaid orders may hold (issue 26): the caps on Pending, unpaid orders are claimed
 * by the order's own insert (slots under a unique index), so a burst cannot pass them; one phone
 * counts once however it is typed, an IPv6 client by its /64; and many honest shoppers behind one
 * carrier address (CGNAT) can each order, while that address holds at most 4,000 units.
 */
import { randomBytes } from 'node:crypto';
import { DELIVERY, stockOf } from './support/shop';
import {
  bearer,
  registerCustomer,
  UNTHROTTLED,
  uniqueEmail,
  type Session,
} from './support/identity';
import { OrdersService } from '../src/orders/orders.service';
import type { ProductBody } from './support/factories';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

const BURST = 30;

let phoneSeq = randomBytes(3).readUIntBE(0, 3);
/** A fresh Safaricom number, as a shopper types it (07…). */
const newPhone = () => `07${String(10_000_000 + (phoneSeq++ % 80_000_000)).slice(-8)}`;
const guest = (overrides: Partial<typeof DELIVERY> = {}) => ({
  ...DELIVERY,
  phoneNumber: newPhone(),
  email: uniqueEmail('guest'),
  ...overrides,
});

describe('stock held by unpaid orders', () => {
  let t: TestApp;
  let staff: Session;
  let productId: string;
  let otherProductId: string;
  /** Sold singly and by the tray of 50, from one stock of seedlings. */
  let tomato: { _id: string; trayId: string };

  beforeAll(async () => {
    t = await createTestApp({
      name: 'holds',
      env: {
        ...UNTHROTTLED,
        TRUST_PROXY: 'true',
        // The shipped defaults (the test app lifts them for other suites).
        ORDER_MAX_OPEN_UNPAID: '2',
        ORDER_MAX_UNITS_PER_ORDER: '2000',
        ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '4000',
      },
    });
    const shop = await createShopWorld(t, { product: { price: 350, quantity: 1_000_000 } });
    ({ staff, productId } = shop);
    otherProductId = (await shop.createProduct({ quantity: 1_000_000 }))._id;
    const units = [
      { name: 'Single seedling', seedlings: 1 },
      { name: 'Tray of 50', seedlings: 50, price: 1500, sku: 'HOLD-T50' },
    ];
    const tray = (await shop.createProduct({
      name: 'Hold Tomato',
      quantity: 1_000_000,
      fields: { units: JSON.stringify(units) },
    })) as ProductBody & { units: { _id: string; seedlings: number }[] };
    tomato = { _id: tray._id, trayId: tray.units.find((u) => u.seedlings === 50)!._id };
  });
  afterAll(() => t.close());

  function order(
    from: string,
    info: object,
    lines: { _id: string; quantity: number; unitId?: string }[] = [
      { _id: productId, quantity: 10 },
    ],
  ) {
    return t
      .http()
      .post('/api/orders')
      .set('X-Forwarded-For', from)
      .send({ guestInfo: info, products: lines });
  }

  /** Fires all at once; answers the statuses and the units the accepted orders hold. */
  async function burst(requests: ReturnType<typeof order>[]) {
    const answers = await Promise.all(requests);
    const placed = answers.filter((r) => r.status === 201);
    const units = placed.reduce(
      (sum, r) =>
        sum + (r.body.order.products as { quantity: number }[]).reduce((s, l) => s + l.quantity, 0),
      0,
    );
    return { answers, placed: placed.length, units, statuses: answers.map((r) => r.status) };
  }

  it(`holds at most 4,000 units for one address when ${BURST} orders of 2,000 arrive at once`, async () => {
    const before = await stockOf(t, productId);
    const big = [
      { _id: productId, quantity: 1000 },
      { _id: otherProductId, quantity: 1000 },
    ];
    const { units, statuses, answers } = await burst(
      Array.from({ length: BURST }, () => order('41.90.1.1', guest(), big)),
    );
    expect(units).toBe(4000);
    expect(statuses.filter((s) => s === 409)).toHaveLength(BURST - 2);
    expect(answers.find((r) => r.status === 409)!.body.message).toBe(
      'Unpaid orders from your network already hold the most seedlings the shop keeps for one network (4000) until they are paid or confirmed. Please pay for an order, or wait until the shop confirms one, before placing another. For a larger order, please contact the shop.',
    );
    expect(before - (await stockOf(t, productId))).toBe(2000);
  });

  it(`accepts ${BURST} honest shoppers behind one carrier address at once (CGNAT)`, async () => {
    const { placed, units } = await burst(
      Array.from({ length: BURST }, () => order('197.248.2.2', guest())),
    );
    expect(placed).toBe(BURST);
    expect(units).toBe(BURST * 10);
  });

  it('caps the seedlings of one product in an order at 1,000, its singles and trays together', async () => {
    const before = await stockOf(t, tomato._id);
    const singles = (quantity: number) => ({ _id: tomato._id, unitId: tomato._id, quantity });
    const trays = (quantity: number) => ({ _id: tomato._id, unitId: tomato.trayId, quantity });
    // 1,000 singles and 20 trays of 50: 2,000 seedlings of one product (and 2,000 in all).
    const over = await order('41.90.20.1', guest(), [singles(1000), trays(20)]);
    expect({ status: over.status, message: over.body.message }).toEqual({
      status: 400,
      message:
        'An order can hold at most 1000 seedlings of Hold Tomato (this one has 2000). For a larger order, please contact the shop.',
    });
    const justOver = await order('41.90.20.1', guest(), [singles(501), trays(10)]).expect(400);
    expect(justOver.body.message).toContain('of Hold Tomato (this one has 1001)');
    expect(await stockOf(t, tomato._id)).toBe(before);
    // 1,000 in all, half of them in trays, is taken.
    await order('41.90.20.1', guest(), [singles(500), trays(10)]).expect(201);
    expect(before - (await stockOf(t, tomato._id))).toBe(1000);
  });

  it(`lets one phone hold 2 unpaid orders however it is typed, ${BURST} at once from ${BURST} addresses`, async () => {
    const spellings = [
      '0712 345 601',
      '+254712345601',
      '254712345601',
      '0712-345-601',
      '+254 712 345 601',
      '712345601',
    ];
    const { placed, answers } = await burst(
      Array.from({ length: BURST }, (_, i) =>
        order(`41.90.3.${i + 1}`, guest({ phoneNumber: spellings[i % spellings.length]! })),
      ),
    );
    expect(placed).toBe(2);
    expect(answers.find((r) => r.status === 409)!.body.message).toBe(
      'There are already 2 unpaid orders waiting for confirmation for these contact details. Please pay for one of them, or wait until the shop confirms it, before placing another order.',
    );
  });

  it(`lets one e-mail hold 2 unpaid orders, ${BURST} at once in any case`, async () => {
    const email = uniqueEmail('one');
    const { placed } = await burst(
      Array.from({ length: BURST }, (_, i) =>
        order(`41.90.4.${i + 1}`, guest({ email: i % 2 ? email.toUpperCase() : ` ${email}` })),
      ),
    );
    expect(placed).toBe(2);
  });

  it(`counts the addresses of one IPv6 /64 as one network: ${BURST} orders of 2,000 hold 4,000`, async () => {
    const big = [
      { _id: productId, quantity: 1000 },
      { _id: otherProductId, quantity: 1000 },
    ];
    const { units } = await burst(
      Array.from({ length: BURST }, (_, i) =>
        order(`2c0f:fe38:2405:77:${(i + 1).toString(16)}::1`, guest(), big),
      ),
    );
    expect(units).toBe(4000);
    // Another /64 is another network.
    await order('2c0f:fe38:2405:78::1', guest(), big).expect(201);
  });

  it('lets a signed-in customer hold 2 unpaid orders whatever phone and e-mail they give', async () => {
    const customer = await registerCustomer(t);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        t
          .http()
          .post('/api/orders')
          .set('X-Forwarded-For', `41.90.6.${i + 1}`)
          .set(bearer(customer.accessToken))
          .send({ guestInfo: guest(), products: [{ _id: productId, quantity: 1 }] }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(2);
  });

  it('frees the slots in the write that pays, confirms or cancels an order', async () => {
    const info = guest();
    const placeOne = () => order('41.90.7.1', info).expect(201);
    const first = await placeOne();
    const second = await placeOne();
    await order('41.90.7.1', info).expect(409);
    await t
      .http()
      .patch(`/api/orders/inTransit/${first.body.order._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    const third = await placeOne();
    await t
      .http()
      .patch(`/api/orders/cancel/${second.body.order._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    await placeOne();
    await t
      .http()
      .patch(`/api/orders/complete-payment/${third.body.order._id}`)
      .set(bearer(staff.accessToken))
      .send({
        paymentMethod: 'Cash',
        paymentDetails: { amount: third.body.order.totalAmount },
      })
      .expect(200);
    await placeOne();
    await order('41.90.7.1', info).expect(409);
  });
});

describe('unpaid orders: units per line and order, open orders per address, phone and e-mail', () => {
  let t: TestApp;
  let staff: Session;
  let products: string[];

  beforeAll(async () => {
    t = await createTestApp({
      name: 'holds_limits',
      env: {
        ...UNTHROTTLED,
        TRUST_PROXY: 'true',
        ORDER_MAX_UNITS_PER_LINE: '60',
        ORDER_MAX_UNITS_PER_ORDER: '100',
        ORDER_MAX_OPEN_UNPAID: '2',
        // Issue 26: an address is capped by the units its unpaid orders hold (here 2 x 100).
        ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '200',
      },
    });
    const shop = await createShopWorld(t);
    staff = shop.staff;
    products = [shop.productId];
    for (let i = 0; i < 2; i++) products.push((await shop.createProduct({ quantity: 10_000 }))._id);
  });
  afterAll(() => t.close());

  const from = (address: string) => ({ 'X-Forwarded-For': address });
  function order(address: string, lines: { _id: string; quantity: number }[], info = guest()) {
    return t
      .http()
      .post('/api/orders')
      .set(from(address))
      .send({ guestInfo: info, products: lines });
  }

  it('limits the units of a line and of an order', async () => {
    const line = await order('10.3.0.1', [{ _id: products[0]!, quantity: 61 }]).expect(400);
    expect(line.body.message).toBe(
      'Quantity must be at most 60 per product. For a larger order, please contact the shop.',
    );
    const total = await order('10.3.0.1', [
      { _id: products[0]!, quantity: 60 },
      { _id: products[1]!, quantity: 41 },
    ]).expect(400);
    expect(total.body.message).toBe(
      'An order can have at most 100 seedlings in all (this one has 101). For a larger order, please contact the shop.',
    );
  });

  it('caps the open unpaid orders of one address, phone or e-mail: one address holds at most 2 x 100 units', async () => {
    const full = [
      { _id: products[0]!, quantity: 50 },
      { _id: products[1]!, quantity: 50 },
    ];
    const stockBefore = await stockOf(t, products[0]!);
    let held = 0;
    let refused: { status: number; body: { message: string } } | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      const res = await order('10.3.1.1', full);
      if (res.status === 201) held += 100;
      else refused = res;
    }
    expect(held).toBe(200);
    expect(refused!.status).toBe(409);
    expect(refused!.body.message).toBe(
      'Unpaid orders from your network already hold the most seedlings the shop keeps for one network (200) until they are paid or confirmed. Please pay for an order, or wait until the shop confirms one, before placing another. For a larger order, please contact the shop.',
    );
    expect(stockBefore - (await stockOf(t, products[0]!))).toBe(100);

    // The same phone from other addresses, and the same e-mail, count too.
    const info = guest();
    await order('10.3.2.1', [{ _id: products[2]!, quantity: 1 }], info).expect(201);
    await order('10.3.2.2', [{ _id: products[2]!, quantity: 1 }], info).expect(201);
    await order('10.3.2.3', [{ _id: products[2]!, quantity: 1 }], {
      ...guest(),
      phoneNumber: info.phoneNumber,
    }).expect(409);
    await order('10.3.2.4', [{ _id: products[2]!, quantity: 1 }], {
      ...guest(),
      email: info.email,
    }).expect(409);
    // Another customer elsewhere is not affected.
    await order('10.3.3.1', [{ _id: products[2]!, quantity: 1 }]).expect(201);
  });

  it('frees the slot once staff confirm an order by moving it on (pay on delivery)', async () => {
    const info = guest();
    const first = await order('10.3.4.1', [{ _id: products[2]!, quantity: 1 }], info).expect(201);
    await order('10.3.4.1', [{ _id: products[2]!, quantity: 1 }], info).expect(201);
    await order('10.3.4.1', [{ _id: products[2]!, quantity: 1 }], info).expect(409);
    await t
      .http()
      .patch(`/api/orders/inTransit/${first.body.order._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    await order('10.3.4.1', [{ _id: products[2]!, quantity: 1 }], info).expect(201);
  });

  it('holds unconfirmed unpaid orders 24 hours by default, then returns their stock', async () => {
    expect(t.config.orders.unpaidExpiryMs).toBe(24 * 3_600_000);
    const before = await stockOf(t, products[2]!);
    const placed = await order('10.3.5.1', [{ _id: products[2]!, quantity: 7 }]).expect(201);
    expect(await stockOf(t, products[2]!)).toBe(before - 7);
    const orders = t.app.get(OrdersService, { strict: false });
    await orders.expireUnpaid(new Date(Date.now() + 23 * 3_600_000));
    expect(await stockOf(t, products[2]!)).toBe(before - 7);
    await orders.expireUnpaid(new Date(Date.now() + 25 * 3_600_000));
    const after = await t
      .http()
      .get(`/api/orders/${placed.body.order._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(after.body.order.orderStatus).toBe('Cancelled');
    expect(await stockOf(t, products[2]!)).toBeGreaterThanOrEqual(before);
  });
});
