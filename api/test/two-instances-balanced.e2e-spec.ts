/**
 * Two API processes (`node api/dist/main.js`) on one database behind a round-robin balancer, as
 * `API_REPLICAS=2` runs them: the shoppers' and clerks' requests and Daraja's callbacks are spread
 * over both, and both run every background sweep (notices, expiry, reconcilers, paybill matching).
 * Orders, a burst, a booking's notices, an expiry and paybill payments: everything happens once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { withDatabaseName } from '../../tools/db/launcher';
import { startDarajaSimulator, type DarajaSimulator } from '../../tools/mpesa/simulator';
import { startSmsSimulator, type SmsSimulator } from '../../tools/sms/simulator';
import { ApiProcess, assertBuilt, freePort, PRODUCTION_ENV } from './support/api-process';
import { Balancer } from './support/balancer';
import { bearer, createStaff, signInAdmin } from './support/identity';
import { decoded, outbox } from './support/mail';
import { MPESA_TEST_SETTINGS } from './support/mpesa';
import { createCategory, createProduct, guest, placeOrder } from './support/shop';
import { SMS_TEST_SETTINGS } from './support/sms';
import { LIFTED_ABUSE_LIMITS, serverUri, type TestApp } from './support/test-app';
import { sleep, waitFor } from './support/wait';

/** Unpaid orders expire after 18 s here; the expiry sweep looks every 4.5 s. */
const EXPIRY_HOURS = 0.005;
const BOOKINGS = 12;

interface OrderBody {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
  orderStatus: string;
  paymentStatus: string;
  amountPaid: number;
  guestInfo: { phoneNumber: string; email: string };
  booking?: { state: string; deposit: number } | null;
}

const asMsisdn = (phone: string) => `+254${phone.slice(1)}`;

describe('two API instances behind a balancer: everything happens once', () => {
  const databaseName = `e2e_two_balanced_${randomBytes(3).toString('hex')}`;
  const uri = withDatabaseName(serverUri(), databaseName);
  let a: ApiProcess;
  let b: ApiProcess;
  let lb: Balancer;
  let daraja: DarajaSimulator;
  let sms: SmsSimulator;
  let mongo: MongoClient;
  let dataDir: string;
  let admin: string;
  let staff: string;
  let categoryId: string;

  /** The shared helpers drive the shop through the balancer, as a browser would. */
  const shop = () => ({ http: () => lb.http(), config: a.config }) as unknown as TestApp;
  const db = () => mongo.db(databaseName);

  beforeAll(async () => {
    assertBuilt();
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-two-balanced-'));
    const ports = [await freePort(), await freePort()];
    lb = await Balancer.start(ports.map((port) => ({ port })));
    daraja = await startDarajaSimulator({
      consumerKey: MPESA_TEST_SETTINGS.MPESA_CONSUMER_KEY,
      consumerSecret: MPESA_TEST_SETTINGS.MPESA_CONSUMER_SECRET,
      shortcode: MPESA_TEST_SETTINGS.MPESA_SHORTCODE,
      passkey: MPESA_TEST_SETTINGS.MPESA_PASSKEY,
      delayMs: 100,
    });
    sms = await startSmsSimulator({
      username: SMS_TEST_SETTINGS.AT_USERNAME,
      apiKey: SMS_TEST_SETTINGS.AT_API_KEY,
    });
    const env = {
      ...PRODUCTION_ENV,
      // sandbox-local M-Pesa and the SMS simulator are refused in production.
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      MONGODB_URI: uri,
      // One folder for both, as compose's shared outbox volume.
      DATA_DIR: dataDir,
      UPLOADS_DIR: path.join(dataDir, 'uploads'),
      ...LIFTED_ABUSE_LIMITS,
      RATE_LIMIT_AUTH_PER_MINUTE: '10000',
      RATE_LIMIT_TRACKING_PER_MINUTE: '10000',
      RATE_LIMIT_ORDERS_PER_MINUTE: '10000',
      CATALOG_SYNC_INTERVAL_MS: '500',
      // A placement is undone (409, try again) after this long: 24 at once on a loaded machine took
      // over a second, so 1 s here refused a shopper while stock was left.
      ORDER_RECONCILE_AFTER_MS: '10000',
      UNPAID_ORDER_EXPIRY_HOURS: String(EXPIRY_HOURS),
      ...MPESA_TEST_SETTINGS,
      MPESA_ENV: 'sandbox-local',
      MPESA_BASE_URL: daraja.url,
      MPESA_CALLBACK_BASE_URL: lb.baseUrl,
      MPESA_RECONCILE_AFTER_MS: '1000',
      ...SMS_TEST_SETTINGS,
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: sms.url,
      SMS_RETRY_INTERVAL_MS: '200',
    };
    a = new ApiProcess('A', ports[0]!, env);
    b = new ApiProcess('B', ports[1]!, env);
    await Promise.all([a.ready(), b.ready()]);
    mongo = await MongoClient.connect(uri);
    admin = (await signInAdmin(shop())).accessToken;
    staff = (await createStaff(shop(), admin, { fullName: 'Wanjiru Desk' })).accessToken;
    categoryId = (await createCategory(shop(), admin))._id;
    await waitFor(
      async () => daraja.c2b.registrations.length,
      (n) => n > 0,
      15_000,
      200,
    );
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await lb?.close();
    await daraja?.close();
    await sms?.close();
    await mongo
      ?.db(databaseName)
      .dropDatabase()
      .finally(() => mongo.close());
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function product(quantity: number, price = 100): Promise<string> {
    return (
      await createProduct(shop(), admin, categoryId, {
        productName: `Balanced ${randomBytes(3).toString('hex')}`,
        productQuantity: quantity,
        price,
      })
    )._id;
  }

  const dbStock = async (id: string) =>
    (await db()
      .collection('products')
      .findOne({ _id: new ObjectId(id) }, { projection: { productQuantity: 1 } }))!
      .productQuantity as number;

  const shownBy = async (api: ApiProcess, id: string) =>
    (await api.http().get(`/api/products/${id}`).expect(200)).body.product
      .productQuantity as number;

  const get = async (id: string) =>
    (await lb.http().get(`/api/orders/${id}`).set(bearer(staff)).expect(200)).body
      .order as OrderBody;

  /** Every message in the shared outbox, by recipient and subject. */
  function mails(): { to: string; subject: string }[] {
    return outbox(dataDir).map((eml) => {
      const text = decoded(eml);
      return {
        to: /^To: (.*)$/m.exec(text)?.[1]?.trim() ?? '',
        subject: /^Subject: (.*)$/m.exec(text)?.[1]?.trim() ?? '',
      };
    });
  }

  /** Messages sent more than once: the same text to the same number, the same subject to the same address. */
  function twice(): string[] {
    const seen = new Map<string, number>();
    for (const m of sms.outbox)
      seen.set(`sms ${m.to}: ${m.message}`, (seen.get(`sms ${m.to}: ${m.message}`) ?? 0) + 1);
    for (const m of mails())
      seen.set(`mail ${m.to}: ${m.subject}`, (seen.get(`mail ${m.to}: ${m.subject}`) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${n}× ${k}`);
  }

  it('spreads requests over both instances', async () => {
    for (let i = 0; i < 4; i++) await lb.http().get('/api/health').expect(200);
    expect(lb.served.every((n) => n > 2)).toBe(true);
  });

  it('orders at both instances at once never sell more than the stock, and every instance shows what the database holds', async () => {
    const scarce = await product(7);
    const plenty = await product(500);
    const answers = await Promise.all(
      Array.from({ length: 24 }, () =>
        placeOrder(
          shop(),
          [
            { _id: plenty, quantity: 3 },
            { _id: scarce, quantity: 1 },
          ],
          { guestInfo: guest() },
        ),
      ),
    );
    const placed = answers.filter((r) => r.status === 201).length;
    expect({ placed, refused: answers.every((r) => r.status === 201 || r.status === 409) }).toEqual(
      {
        placed: 7,
        refused: true,
      },
    );
    expect({ scarce: await dbStock(scarce), plenty: await dbStock(plenty) }).toEqual({
      scarce: 0,
      plenty: 500 - 3 * 7,
    });
    // Each instance's page follows the database within the sync interval, and stays on it. These
    // unpaid orders expire after 18 s and hand their stock back, which a loaded run reaches: an
    // instance is compared with the database only while the database held still around its read.
    const agreed = async (api: ApiProcess, id: string) => {
      for (;;) {
        const before = await dbStock(id);
        const shown = await shownBy(api, id);
        if ((await dbStock(id)) === before) return shown === before;
      }
    };
    const everyAgrees = async () => {
      const seen: Record<string, boolean> = {};
      for (const [name, api] of [
        ['a', a],
        ['b', b],
      ] as const)
        for (const [what, id] of [
          ['scarce', scarce],
          ['plenty', plenty],
        ] as const)
          seen[`${name}.${what}`] = await agreed(api, id);
      return seen;
    };
    const all = { 'a.scarce': true, 'a.plenty': true, 'b.scarce': true, 'b.plenty': true };
    expect(
      await waitFor(everyAgrees, (seen) => Object.values(seen).every(Boolean), 5_000, 100),
    ).toEqual(all);
    await sleep(3_000);
    expect(
      await waitFor(everyAgrees, (seen) => Object.values(seen).every(Boolean), 2_000, 100),
    ).toEqual(all);
  });

  it("a batch's bookings are told once that their balance is due, by SMS and by e-mail, with both instances sweeping", async () => {
    const seedlings = await product(0, 50);
    const batch = (
      await lb
        .http()
        .post('/api/batches')
        .set(bearer(staff))
        .send({
          productId: seedlings,
          sownOn: new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10),
          readyOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
          started: 500,
        })
        .expect(201)
    ).body.batch._id as string;
    // Each booking's deposit is recorded at the desk as soon as it is placed (each clerk's request
    // reaches either instance): unpaid orders expire after 18 s here, which twelve placements in a
    // row can outlast on a loaded machine.
    const bookings: OrderBody[] = [];
    for (let i = 0; i < BOOKINGS; i++) {
      const res = await placeOrder(
        shop(),
        [{ _id: seedlings, quantity: 4, batchId: batch } as never],
        {
          guestInfo: guest(),
        },
      );
      if (res.status !== 201)
        throw new Error(`booking ${i + 1}: ${res.status} ${JSON.stringify(res.body)}`);
      const o = res.body.order as OrderBody;
      await lb
        .http()
        .post(`/api/orders/${o._id}/booking/deposit`)
        .set(bearer(staff))
        .send({
          transactionCode: `SBK${randomBytes(4).toString('hex').toUpperCase().slice(0, 7)}`,
          amount: o.booking!.deposit,
        })
        .expect(200);
      bookings.push(o);
    }
    await lb.http().post(`/api/batches/${batch}/ready`).set(bearer(staff)).send({}).expect(201);
    for (const o of bookings)
      await waitFor(
        () => get(o._id),
        (x) => x.booking?.state === 'Balance due',
        15_000,
        200,
      );
    // Several sweeps of both instances later.
    await sleep(5_000);
    const told = bookings.map((o) => ({
      order: o.purchaseNumber,
      sms: sms.outbox.filter(
        (m) =>
          m.to === asMsisdn(o.guestInfo.phoneNumber) &&
          m.message.includes('are ready. Pay the balance'),
      ).length,
      mail: mails().filter(
        (m) =>
          m.to.includes(o.guestInfo.email) &&
          m.subject.includes(`balance due for booking ${o.purchaseNumber}`),
      ).length,
    }));
    expect(told).toEqual(bookings.map((o) => ({ order: o.purchaseNumber, sms: 1, mail: 1 })));
  });

  it('an unpaid order expires once: its stock comes back once and its customer is told once', async () => {
    const id = await product(20);
    const who = guest();
    const res = await placeOrder(shop(), [{ _id: id, quantity: 6 }], { guestInfo: who });
    expect(res.status).toBe(201);
    const o = res.body.order as OrderBody;
    expect(await dbStock(id)).toBe(14);
    const expired = await waitFor(
      () => get(o._id),
      (x) => x.orderStatus === 'Cancelled',
      60_000,
      500,
    );
    expect(expired.orderStatus).toBe('Cancelled');
    await sleep(6_000);
    expect({
      stock: await dbStock(id),
      shownA: await shownBy(a, id),
      shownB: await shownBy(b, id),
      cancelledSms: sms.outbox.filter(
        (m) => m.to === asMsisdn(who.phoneNumber) && m.message.includes('has been cancelled'),
      ).length,
      restocks: await db()
        .collection('stock_movements')
        .countDocuments({ productId: id, orderId: o._id, change: { $gt: 0 } }),
    }).toEqual({ stock: 20, shownA: 20, shownB: 20, cancelledSms: 1, restocks: 1 });
  }, 90_000);

  it('paybill payments confirmed through either instance, some twice, are each credited once', async () => {
    const id = await product(1000, 250);
    const orders: OrderBody[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await placeOrder(shop(), [{ _id: id, quantity: 2 }], { guestInfo: guest() });
      expect(res.status).toBe(201);
      orders.push(res.body.order as OrderBody);
    }
    // Daraja sends each confirmation again (its retry); the balancer gives each to the next instance.
    const paid = await Promise.all(
      orders.map((o) =>
        daraja.payBill({
          account: o.purchaseNumber,
          amount: o.totalAmount,
          phone: `254${o.guestInfo.phoneNumber.slice(1)}`,
          replays: 2,
        }),
      ),
    );
    for (const o of orders)
      await waitFor(
        () => get(o._id),
        (x) => x.paymentStatus === 'Paid',
        15_000,
        200,
      );
    await sleep(3_000);
    const entries = db().collection('money_entries');
    const seen = await Promise.all(
      orders.map(async (o, i) => ({
        order: o.purchaseNumber,
        paid: (await get(o._id)).amountPaid,
        entries: await entries.countDocuments({ orderId: o._id, direction: 'in' }),
        entry: await entries.countDocuments({ _id: `c2b:${paid[i]!.transId}` as never }),
        paidSms: sms.outbox.filter(
          (m) =>
            m.to === asMsisdn(o.guestInfo.phoneNumber) && m.message.includes('received. Thank you'),
        ).length,
      })),
    );
    expect(seen).toEqual(
      orders.map((o) => ({
        order: o.purchaseNumber,
        paid: o.totalAmount,
        entries: 1,
        entry: 1,
        paidSms: 1,
      })),
    );
  });

  it('sent no text message and no e-mail twice', () => {
    expect(twice()).toEqual([]);
    expect(lb.served.every((n) => n > 20)).toBe(true);
  });
});
