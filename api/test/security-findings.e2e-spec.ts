/**
 * What the outside security test found (issue 14), one describe per finding, named after it. Each
 * test failed before its fix. The figures (times, sizes, units held) are printed by
 * `npm run bench:security`, never asserted on time here.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JwtService } from '@nestjs/jwt';
import { MPESA_MESSAGES } from '@spc/shared-contracts';
import { freePort, withDatabaseName } from '../../tools/db/launcher';
import { loadConfig } from '../src/config/app-config';
import { OrdersService } from '../src/orders/orders.service';
import { OTHER_PHONE_MESSAGE } from '../src/payments/mpesa.service';
import { ApiProcess, assertBuilt, PRODUCTION_ENV } from './support/api-process';
import {
  bearer,
  createStaff,
  registerCustomer,
  signIn,
  signInAdmin,
  STRONG_PASSWORD,
  UNTHROTTLED,
  uniqueEmail,
  type Session,
} from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { createCategory, createProduct, DELIVERY, placeOrder, stockOf } from './support/shop';
import { createTestApp, serverUri, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WORKSPACE = path.resolve(__dirname, '../..');

/** A guest's delivery details with a phone and e-mail of their own. */
function guest(overrides: Partial<typeof DELIVERY> = {}) {
  const n = randomBytes(4).readUInt32BE() % 10_000_000;
  return {
    ...DELIVERY,
    phoneNumber: `07${String(n).padStart(8, '0')}`,
    email: uniqueEmail('guest'),
    ...overrides,
  };
}

/** The outbox's messages (DATA_DIR/outbox/*.eml), oldest first. */
function outbox(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(path.join(dir, f), 'utf8'));
}

/** A quoted-printable e-mail body as text (soft line breaks joined, =XX decoded). */
function decoded(eml: string): string {
  return eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

async function shopWithProduct(t: TestApp, stock = 10_000) {
  const admin = await signInAdmin(t);
  const staff = await createStaff(t, admin.accessToken);
  const category = await createCategory(t, staff.accessToken);
  const product = await createProduct(t, staff.accessToken, category._id, {
    price: 100,
    productQuantity: stock,
  });
  return { admin, staff, productId: product._id };
}

describe('finding 1: one anonymous request shape freezes the whole API', () => {
  let t: TestApp;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp({ name: 'sec1', env: UNTHROTTLED });
    ({ productId } = await shopWithProduct(t));
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

describe('finding 2: a default deployment ships a staff account whose password is in the README', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ name: 'sec2', env: UNTHROTTLED });
  });
  afterAll(() => t.close());

  it('refuses to seed demo data into a production database unless forced', () => {
    assertBuilt();
    const seed = spawnSync(process.execPath, [path.join(WORKSPACE, 'api/dist/scripts/seed.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        ...PRODUCTION_ENV,
        MONGODB_URI: withDatabaseName(serverUri(), t.databaseName),
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(seed.status).not.toBe(0);
    expect(seed.stderr).toContain('Refusing to seed demo data: NODE_ENV is production');
    expect(seed.stderr).toContain('SEED_DEMO_DATA_IN_PRODUCTION=yes-i-know');
  });

  it('leaves no demo staff account to sign in with', async () => {
    const res = await t
      .http()
      .post('/api/auth/login')
      .send({ email: 'staff@spc.local', password: 'Staff@1234' });
    expect(res.status).toBe(401);
  });

  it('turns demo data off in docker compose and .env.example by default', () => {
    const compose = readFileSync(path.join(WORKSPACE, 'docker-compose.yml'), 'utf8');
    expect(compose).toContain('SEED_DEMO_DATA: ${SEED_DEMO_DATA:-false}');
    const example = readFileSync(path.join(WORKSPACE, '.env.example'), 'utf8');
    expect(example).toMatch(/^SEED_DEMO_DATA=false$/m);
  });
});

describe('finding 3: anyone can hold all the stock for 72 hours without paying', () => {
  let t: TestApp;
  let staff: Session;
  let products: string[];

  beforeAll(async () => {
    t = await createTestApp({
      name: 'sec3',
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
    const shop = await shopWithProduct(t);
    staff = shop.staff;
    const category = await createCategory(t, staff.accessToken);
    products = [shop.productId];
    for (let i = 0; i < 2; i++)
      products.push(
        (await createProduct(t, staff.accessToken, category._id, { productQuantity: 10_000 }))._id,
      );
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

describe('finding 4: any customer can slow sign-in for everyone', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      name: 'sec4',
      env: {
        TRUST_PROXY: 'true',
        RATE_LIMIT_AUTH_PER_MINUTE: '6',
        RATE_LIMIT_ACCOUNT_PER_MINUTE: '4',
      },
    });
  });
  afterAll(() => t.close());

  function changePassword(token: string, address: string) {
    return t
      .http()
      .post('/api/auth/change/password')
      .set(bearer(token))
      .set('X-Forwarded-For', address)
      .send({ currentPassword: 'Wrong#2026x', newPassword: 'Other#2026x' });
  }

  async function customer(address: string): Promise<Session> {
    const email = uniqueEmail('flood');
    await t
      .http()
      .post('/api/auth/register')
      .set('X-Forwarded-For', address)
      .send({ fullName: 'Flood', email, phoneNumber: '0722123456', password: STRONG_PASSWORD })
      .expect(201);
    const res = await t
      .http()
      .post('/api/auth/login')
      .set('X-Forwarded-For', address)
      .send({ email, password: STRONG_PASSWORD })
      .expect(200);
    return res.body.data as Session;
  }

  it('limits wrong current-password guesses per account, whatever the address, with Retry-After', async () => {
    const c = await customer('10.4.0.1');
    const statuses: number[] = [];
    let limited: { headers: Record<string, string>; body: { message: string } } | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await changePassword(c.accessToken, `10.4.1.${i}`);
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429, 429, 429]);
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited!.body.message).toBe('Too many attempts. Please wait a minute and try again.');
  });

  it('limits change-password calls per address too', async () => {
    const a = await customer('10.4.2.1');
    const b = await customer('10.4.2.2');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await changePassword(i % 2 ? a.accessToken : b.accessToken, '10.4.3.1')).status,
      );
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429]);
  });
});

describe('finding 5: money leaves the books', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp({ name: 'sec5', env: UNTHROTTLED });
    ({ admin, staff, productId } = await shopWithProduct(t));
  });
  afterAll(() => t.close());

  async function paidOrder(code = `S${randomBytes(4).toString('hex').toUpperCase()}`) {
    const placed = await placeOrder(t, [{ _id: productId, quantity: 2 }], { guestInfo: guest() });
    const order = placed.body.order as { _id: string; totalAmount: number; orderDate: string };
    await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: order.totalAmount,
          transactionCode: code,
          timePaid: new Date().toISOString(),
        },
      })
      .expect(200);
    return { ...order, code };
  }

  it('refuses to cancel a paid order without a refund, then records it and shows it in the report', async () => {
    const order = await paidOrder();
    const refused = await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .expect(409);
    expect(refused.body.message).toBe(
      `This order is paid (KES ${order.totalAmount.toLocaleString('en-US')}). To cancel it, record the refund: its method, amount and reference.`,
    );
    const wrongAmount = await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Mpesa', amount: 1, reference: 'SRV0001' } })
      .expect(400);
    expect(wrongAmount.body.message).toBe(
      `The refund must be the amount paid, KES ${order.totalAmount.toLocaleString('en-US')}`,
    );
    const cancelled = await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Mpesa', amount: order.totalAmount, reference: 'SRV0001' } })
      .expect(200);
    expect(cancelled.body.order).toMatchObject({ orderStatus: 'Cancelled', paymentStatus: 'Paid' });

    // The report's days are the shop's (Nairobi).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Nairobi' }).format(
      new Date(),
    );
    const report = await t
      .http()
      .get(`/api/sales-summary/report?from=${today}&to=${today}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(report.body.totals.refunds).toEqual({ orders: 1, amount: order.totalAmount });

    const audit = await t
      .http()
      .get('/api/audit-logs?action=order.cancel&limit=100')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(
      (audit.body as { message: string }[]).some((e) =>
        e.message.includes(
          `refunded KES ${order.totalAmount.toLocaleString('en-US')} by Mpesa (SRV0001)`,
        ),
      ),
    ).toBe(true);
  });

  it('never deletes a paid order, cancelled or not', async () => {
    const order = await paidOrder();
    await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Cash', amount: order.totalAmount, reference: 'cash back' } })
      .expect(200);
    const res = await t
      .http()
      .delete(`/api/orders/delete/${order._id}`)
      .set(bearer(admin.accessToken))
      .expect(409);
    expect(res.body.message).toContain('cannot be deleted');
    await t.http().get(`/api/orders/${order._id}`).set(bearer(admin.accessToken)).expect(200);
  });

  it('records one M-Pesa receipt code on one order only', async () => {
    const first = await paidOrder();
    const second = (await placeOrder(t, [{ _id: productId, quantity: 1 }], { guestInfo: guest() }))
      .body.order as { _id: string; totalAmount: number };
    const res = await t
      .http()
      .patch(`/api/orders/complete-payment/${second._id}`)
      .set(bearer(staff.accessToken))
      .send({
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: second.totalAmount,
          transactionCode: first.code,
          timePaid: new Date().toISOString(),
        },
      })
      .expect(409);
    expect(res.body.message).toContain(`The transaction code ${first.code} is already recorded`);
  });

  it('refuses a time paid before the order was placed (e.g. 1970)', async () => {
    const order = (await placeOrder(t, [{ _id: productId, quantity: 1 }], { guestInfo: guest() }))
      .body.order as { _id: string; totalAmount: number };
    const res = await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: order.totalAmount,
          transactionCode: 'SOLD000001',
          timePaid: '1970-01-01T00:00:00.000Z',
        },
      })
      .expect(400);
    expect(res.body.message).toMatch(/^Time paid cannot be before the order was placed/);
  });
});

describe('finding 6: secrets in the logs', () => {
  let api: ApiProcess;
  let dataDir: string;

  beforeAll(async () => {
    assertBuilt();
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-sec6-'));
    api = new ApiProcess('sec6', await freePort(), {
      ...PRODUCTION_ENV,
      MONGODB_URI: withDatabaseName(serverUri(), `e2e_sec6_${randomBytes(3).toString('hex')}`),
      DATA_DIR: dataDir,
      UPLOADS_DIR: path.join(dataDir, 'uploads'),
      LOG_LEVEL: 'info',
    });
    await api.ready();
  }, 90_000);
  afterAll(async () => {
    await api.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('warns loudly at start-up that production without SMTP sends no e-mail', () => {
    expect(api.stdout).toContain('SMTP_URL is not set: NO E-MAIL LEAVES THIS SERVER');
  });

  it('writes the reset link to the outbox only, never to the log', async () => {
    await api
      .http()
      .post('/api/auth/forgot/password')
      .send({ email: PRODUCTION_ENV.ADMIN_EMAIL })
      .expect(200);
    const mail = await waitFor(
      async () => outbox(dataDir),
      (m) => m.length > 0,
      10_000,
    );
    const code = /resetPassword\/([\w-]+)/.exec(decoded(mail[0]!))![1]!;
    await sleep(300);
    expect(api.stdout).not.toContain(code);
  });

  it('redacts the M-Pesa callback token in request logs', async () => {
    const token = `secret-${randomBytes(12).toString('hex')}`;
    await api.http().post(`/api/payments/mpesa/callback/${token}`).send({});
    await sleep(300);
    expect(api.stdout).toContain('/api/payments/mpesa/callback/[redacted]');
    expect(api.stdout).not.toContain(token);
  });
});

describe("finding 7: the shop e-mails anyone with an attacker's text", () => {
  let t: TestApp;
  let dataDir: string;
  let productId: string;
  let staff: Session;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-sec7-'));
    t = await createTestApp({ name: 'sec7', env: { ...UNTHROTTLED, DATA_DIR: dataDir } });
    ({ productId, staff } = await shopWithProduct(t));
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('strips control characters from names and addresses and renders no link from them', async () => {
    const victim = uniqueEmail('victim');
    const placed = await placeOrder(t, [{ _id: productId, quantity: 1 }], {
      guestInfo: guest({
        email: victim,
        fullName: 'X\r\nBcc: a@evil.example\r\n\r\nRefund: http://evil.example/r',
        streetAddress: 'Plot 9\nVisit www.evil.example now',
      }),
    }).expect(201);
    const order = await t
      .http()
      .get(`/api/orders/${placed.body.order._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(order.body.order.guestInfo.fullName).toBe(
      'X Bcc: a@evil.example Refund: http://evil.example/r',
    );
    expect(order.body.order.guestInfo.streetAddress).toBe('Plot 9 Visit www.evil.example now');

    const mail = await waitFor(
      async () => outbox(dataDir).find((m) => m.includes(victim)),
      (m) => m !== undefined,
      10_000,
    );
    const body = decoded(mail!);
    expect(body).not.toMatch(/^Bcc:/im);
    expect(body).not.toContain('http://evil');
    expect(body).not.toContain('www.evil');
    expect(body).not.toContain('evil.example');
    expect(body).toContain('Hello X Bcc: a[at]evil[.]example Refund: http[:]//evil[.]example/r,');
    expect(body).toContain('Delivery to: "Plot 9 Visit www[.]evil[.]example now');
  });
});

describe('finding 8: a forged failure callback beats the real payment', () => {
  let m: MpesaTestApp;
  let staff: Session;
  let admin: Session;
  let productId: string;

  beforeAll(async () => {
    m = await createMpesaTestApp('sec8');
    ({ staff, admin, productId } = await shopWithProduct(m.t));
  });
  afterAll(() => m.close());

  const asDaraja = (phone: string) => `254${phone.slice(1)}`;
  function settled(id: string) {
    return waitFor(
      async () => (await m.t.http().get(`/api/payments/mpesa/status/${id}`)).body,
      (b: { status: string }) => b.status !== 'pending',
      20_000,
      200,
    );
  }
  async function auditFor(orderId: string, action: string) {
    const res = await m.t
      .http()
      .get(`/api/audit-logs?action=${action}&limit=100`)
      .set(bearer(admin.accessToken))
      .expect(200);
    return (res.body as { target?: { id: string } }[]).filter((e) => e.target?.id === orderId);
  }

  it('checks a failure callback with Daraja: the real success that follows is recorded', async () => {
    const info = guest();
    const order = (await placeOrder(m.t, [{ _id: productId, quantity: 1 }], { guestInfo: info }))
      .body.order as { _id: string; purchaseNumber: string };
    m.sim.setScenario({ result: 'success', delayMs: 3000 }, asDaraja(info.phoneNumber));
    const id = (
      await m.t
        .http()
        .post('/api/payments/mpesa/stk-push')
        .send({ purchaseNumber: order.purchaseNumber, phoneNumber: info.phoneNumber })
        .expect(200)
    ).body.checkoutRequestId as string;
    await m.t
      .http()
      .post(m.callbackUrl)
      .send({
        Body: {
          stkCallback: {
            MerchantRequestID: 'forged',
            CheckoutRequestID: id,
            ResultCode: 1032,
            ResultDesc: 'Request cancelled by user',
          },
        },
      })
      .expect(200);
    await sleep(800);
    expect((await m.t.http().get(`/api/payments/mpesa/status/${id}`)).body.status).toBe('pending');
    expect(await settled(id)).toMatchObject({ status: 'paid', message: MPESA_MESSAGES.paid });
    const paid = await m.t
      .http()
      .get(`/api/orders/${order._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(paid.body.order.paymentStatus).toBe('Paid');
  });

  it('raises the refund alert when the money comes for an order cancelled meanwhile', async () => {
    const info = guest();
    const order = (await placeOrder(m.t, [{ _id: productId, quantity: 1 }], { guestInfo: info }))
      .body.order as { _id: string; purchaseNumber: string };
    m.sim.setScenario({ result: 'success', delayMs: 2500 }, asDaraja(info.phoneNumber));
    const id = (
      await m.t
        .http()
        .post('/api/payments/mpesa/stk-push')
        .send({ purchaseNumber: order.purchaseNumber, phoneNumber: info.phoneNumber })
        .expect(200)
    ).body.checkoutRequestId as string;
    await m.t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(await settled(id)).toMatchObject({
      status: 'paid',
      message: MPESA_MESSAGES.paidButOrderClosed,
    });
    expect(await auditFor(order._id, 'payment.mpesa.refund')).toHaveLength(1);
  });

  it("sends prompts only to the order's phone, unless its owner or staff ask", async () => {
    const owner = await registerCustomer(m.t);
    const info = guest();
    const order = (
      await placeOrder(m.t, [{ _id: productId, quantity: 1 }], {
        guestInfo: info,
        token: owner.accessToken,
      })
    ).body.order as { purchaseNumber: string };
    const other = '0799123456';
    const stranger = await m.t
      .http()
      .post('/api/payments/mpesa/stk-push')
      .send({ purchaseNumber: order.purchaseNumber, phoneNumber: other })
      .expect(403);
    expect(stranger.body.message).toBe(OTHER_PHONE_MESSAGE);
    const someoneElse = await registerCustomer(m.t);
    await m.t
      .http()
      .post('/api/payments/mpesa/stk-push')
      .set(bearer(someoneElse.accessToken))
      .send({ purchaseNumber: order.purchaseNumber, phoneNumber: other })
      .expect(403);
    await m.t
      .http()
      .post('/api/payments/mpesa/stk-push')
      .set(bearer(owner.accessToken))
      .send({ purchaseNumber: order.purchaseNumber, phoneNumber: other })
      .expect(200);
    await m.t
      .http()
      .post('/api/payments/mpesa/stk-push')
      .set(bearer(staff.accessToken))
      .send({ purchaseNumber: order.purchaseNumber, phoneNumber: '0799123457' })
      .expect(200);
  });
});

describe('finding 9: dates the validator accepts crash with 500', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let customer: Session;

  beforeAll(async () => {
    t = await createTestApp({ name: 'sec9', env: UNTHROTTLED });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken);
    customer = await registerCustomer(t);
  });
  afterAll(() => t.close());

  it.each([
    ['/api/orders/user?from=20260101', 'customer'],
    ['/api/orders/user?from=2026-W01', 'customer'],
    ['/api/orders?from=2026-W01', 'staff'],
    ['/api/orders?to=2026-02-31', 'staff'],
    ['/api/sales-summary/report?from=9999-12-01&to=9999-12-31', 'admin'],
    ['/api/sales-summary/report?from=2026-02-31&to=2026-03-01', 'admin'],
  ])('GET %s answers 400', async (url, who) => {
    const token = { admin, staff, customer }[who as 'admin' | 'staff' | 'customer'].accessToken;
    const res = await t.http().get(url).set(bearer(token));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^(from|to) must be a/);
  });
});

describe('finding 10: reset links and tokens outlive the events that should end them', () => {
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-sec10-'));
    t = await createTestApp({ name: 'sec10', env: { ...UNTHROTTLED, DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function resetCode(email: string): Promise<string> {
    const before = outbox(dataDir).length;
    await t.http().post('/api/auth/forgot/password').send({ email }).expect(200);
    const mails = await waitFor(
      async () => outbox(dataDir),
      (m) => m.length > before,
      10_000,
    );
    return /resetPassword\/([\w-]+)/.exec(decoded(mails[mails.length - 1]!))![1]!;
  }

  it('voids an earlier reset link when a new one is issued', async () => {
    const c = await registerCustomer(t);
    const first = await resetCode(c.user.email);
    const second = await resetCode(c.user.email);
    await t
      .http()
      .post('/api/auth/reset/password')
      .send({ code: first, password: 'First#2026x' })
      .expect(400);
    await t
      .http()
      .post('/api/auth/reset/password')
      .send({ code: second, password: 'Second#2026x' })
      .expect(200);
  });

  it('ends access tokens, refresh tokens and reset links issued before a reset', async () => {
    const c = await registerCustomer(t);
    const code = await resetCode(c.user.email);
    await t.http().get('/api/users/profile').set(bearer(c.accessToken)).expect(200);
    await t
      .http()
      .post('/api/auth/reset/password')
      .send({ code, password: 'Reset#2026x' })
      .expect(200);
    await t.http().get('/api/users/profile').set(bearer(c.accessToken)).expect(401);
    await t
      .http()
      .post('/api/auth/refreshToken')
      .send({ refreshToken: c.refreshToken })
      .expect(401);
    const fresh = await signIn(t, c.user.email, 'Reset#2026x');
    await t.http().get('/api/users/profile').set(bearer(fresh.accessToken)).expect(200);
  });

  it('ends earlier access tokens and reset links on a password change, keeping the new session', async () => {
    const c = await registerCustomer(t);
    const other = await signIn(t, c.user.email, STRONG_PASSWORD);
    const code = await resetCode(c.user.email);
    const changed = await t
      .http()
      .post('/api/auth/change/password')
      .set(bearer(c.accessToken))
      .send({ currentPassword: STRONG_PASSWORD, newPassword: 'Changed#2026x' })
      .expect(200);
    await t.http().get('/api/users/profile').set(bearer(other.accessToken)).expect(401);
    await t.http().get('/api/users/profile').set(bearer(c.accessToken)).expect(401);
    await t.http().get('/api/users/profile').set(bearer(changed.body.data.accessToken)).expect(200);
    await t
      .http()
      .post('/api/auth/reset/password')
      .send({ code, password: 'Stolen#2026x' })
      .expect(400);
  });
});

describe('finding 11: no request or connection timeouts', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({
      name: 'sec11',
      env: { HTTP_CONNECTION_TIMEOUT_MS: '1500', HTTP_REQUEST_TIMEOUT_MS: '3000' },
    });
    await t.app.listen(port, '127.0.0.1');
  });
  afterAll(() => t.close());

  it('sets both timeouts by default', () => {
    const defaults = loadConfig({});
    expect(defaults.http).toEqual({ requestTimeoutMs: 60_000, connectionTimeoutMs: 120_000 });
  });

  it('closes a connection that sends part of a body and then nothing', async () => {
    const socket: Socket = connect(port, '127.0.0.1');
    const closed = new Promise<number>((resolve) => {
      const started = Date.now();
      socket.on('close', () => resolve(Date.now() - started));
      socket.on('error', () => undefined);
    });
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
    );
    const after = await Promise.race([closed, sleep(20_000).then(() => -1)]);
    socket.destroy();
    expect(after).toBeGreaterThan(0);
  });
});

describe('finding 12: lockout, Retry-After, unused secret, tokens without exp, shared idempotency keys', () => {
  let t: TestApp;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp({
      name: 'sec12',
      env: {
        ...UNTHROTTLED,
        LOGIN_LOCKOUT_AFTER_FAILURES: '3',
        LOGIN_LOCKOUT_BASE_SECONDS: '60',
      },
    });
    ({ productId } = await shopWithProduct(t));
  });
  afterAll(() => t.close());

  it('locks an account after repeated wrong passwords, with Retry-After, even for the right one', async () => {
    const c = await registerCustomer(t);
    for (let i = 0; i < 3; i++)
      await t
        .http()
        .post('/api/auth/login')
        .send({ email: c.user.email, password: 'Wrong#2026x' })
        .expect(401);
    const locked = await t
      .http()
      .post('/api/auth/login')
      .send({ email: c.user.email, password: STRONG_PASSWORD })
      .expect(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(50);
    expect(locked.body.message).toMatch(
      /^Too many wrong passwords for this account\. Please wait (1 minute|\d+ seconds) and try again, or reset your password\.$/,
    );
  });

  it('answers every rate-limit 429 with Retry-After', async () => {
    const limited = await createTestApp({
      name: 'sec12b',
      env: { RATE_LIMIT_AUTH_PER_MINUTE: '2' },
    });
    try {
      // Five sign-ins at 2 a minute: even if a minute's window ends between two of them, at
      // most four get through (two per window), so at least one is limited.
      const answers = [];
      for (let i = 0; i < 5; i++) {
        answers.push(
          await limited
            .http()
            .post('/api/auth/login')
            .send({ email: uniqueEmail(), password: 'Wrong#2026x' }),
        );
      }
      const statuses = answers.map((a) => a.status);
      expect(statuses.slice(0, 2)).toEqual([401, 401]);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const answer of refused)
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('needs no JWT_REFRESH_SECRET in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      MONGODB_URI: 'mongodb://127.0.0.1:9/spc',
      JWT_SECRET: '4e8a2c6f0b9d3e7a1c5f8b2d6e0a4c9f3b7d1e5a',
      ADMIN_EMAIL: 'owner@example.co.ke',
      ADMIN_PASSWORD: 'Owner#2026xy',
      STOREFRONT_URL: 'https://shop.example',
      BACKOFFICE_URL: 'https://admin.example',
      SHOP_PHONE: '+254 712 000 333',
      SHOP_EMAIL: 'shop@example.co.ke',
      BUSINESS_WHATSAPP: '254712000333',
    });
    expect(config.jwt).toEqual({ accessSecret: '4e8a2c6f0b9d3e7a1c5f8b2d6e0a4c9f3b7d1e5a' });
  });

  it('refuses an access token without exp', async () => {
    const c = await registerCustomer(t);
    const jwt = new JwtService({ secret: t.config.jwt.accessSecret });
    const forever = await jwt.signAsync({ sub: c.user._id, role: 'customer', fullName: 'X' });
    await t.http().get('/api/users/profile').set(bearer(forever)).expect(401);
  });

  it("scopes a guest's Idempotency-Key by their phone and e-mail", async () => {
    const key = `checkout-${randomBytes(6).toString('hex')}`;
    const a = await placeOrder(t, [{ _id: productId, quantity: 1 }], { guestInfo: guest(), key });
    expect(a.status).toBe(201);
    const b = await placeOrder(t, [{ _id: productId, quantity: 2 }], { guestInfo: guest(), key });
    expect(b.status).toBe(201);
    expect(b.body.order._id).not.toBe(a.body.order._id);
  });
});
