/**
 * A till sale cut off midway (its instance died after placing it: stock taken, some or none of its
 * payments recorded, not handed over), sent again under its key with the same sale, is resumed:
 * its payments not yet taken are taken, it is handed over, and it answers the sale (200). Stock
 * and money move once, however often and however many at once it is sent again. The crash is
 * simulated without killing the server: the gate's hand-over (or a payment) fails once, as a
 * process dying there would leave the sale — placed, partly paid, never handed over — in the DB.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { TILL_MESSAGES } from '@spc/shared-contracts';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { OrderGateSales } from '../src/orders/order-gate-sales';
import { OrderReconciler } from '../src/orders/order-reconciler';
import { bearer, createStaff, type Session } from './support/identity';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { stockOf } from './support/shop';
import { createTestApp, type TestApp } from './support/test-app';
import { openTillSession } from './support/till';

type Payment = { method: string; amount: number; given?: number; code?: string };

const UNTHROTTLED = { THROTTLE_LIMIT: '100000', THROTTLE_AUTH_LIMIT: '100000' };
let codeSeq = 0;
const newCode = () =>
  `TR${(Date.now() + codeSeq++).toString(36).toUpperCase().slice(-7)}${codeSeq % 10}`;

describe('a till sale cut off midway is resumed when sent again (issue 47)', () => {
  let t: TestApp;
  let world: ShopWorld;
  let grace: Session & { password: string };
  let sessionId: string;
  let productId: string;
  let gate: OrderGateSales;
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const staff = () => bearer(world.staff.accessToken);
  let keySeq = 0;
  const newKey = () => `resume-${Date.now()}-${keySeq++}`;
  const FLOAT = 1000;

  beforeAll(async () => {
    t = await createTestApp({ name: 'till_resume', env: { ...UNTHROTTLED } });
    world = await createShopWorld(t);
    grace = await createStaff(t, world.admin.accessToken, { fullName: 'Grace Wanjiku' });
    productId = (await world.createProduct({ quantity: 1_000, price: 100 }))._id;
    sessionId = await openTillSession(t, world.staff.accessToken, FLOAT);
    gate = t.app.get(OrderGateSales);
  }, 120_000);
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const send = (body: object, key: string, token = staff()) =>
    t.http().post('/api/till/sales').set(token).set('Idempotency-Key', key).send(body);
  const offline = (quantity: number, session = sessionId) => ({
    sessionId: session,
    lines: [{ productId, quantity }],
    payments: [{ method: 'cash', amount: quantity * 100 }],
    offline: {
      soldAt: new Date(Date.now() - 60_000).toISOString(),
      prices: [{ productId, unitPrice: 100 }],
    },
  });
  const gateOrders = () => db().collection('orders').countDocuments({ channel: 'gate' });
  const entriesOf = (orderId: string) =>
    db().collection('money_entries').find({ orderId }).toArray();
  const movesOf = (orderId: string) =>
    db().collection('stock_movements').find({ orderId }).toArray();
  const cashExpected = async (id = sessionId) =>
    (
      await t.http().get(`/api/till/sessions/${id}`).set(staff()).expect(200)
    ).body.cashUp.methods.find((x: { method: string }) => x.method === 'cash').expected;
  const expectLedgersBalanced = async () => {
    expect((await checkStockLedger(db())).differences).toEqual([]);
    expect((await checkMoneyLedger(db())).problems).toEqual([]);
  };
  /** The instance "dies" at this step of the gate's saga, once: what it wrote before stays. */
  const crashAt = (step: 'handOver' | 'takePayment', after = 0) => {
    const real = gate[step].bind(gate) as (...a: unknown[]) => Promise<unknown>;
    let calls = 0;
    return jest.spyOn(gate, step).mockImplementation((async (...args: unknown[]) => {
      if (calls++ === after) throw new Error('the API instance died here (simulated crash)');
      return real(...args);
    }) as never);
  };
  /** The sale the first request left behind under its key: placed, not handed over. */
  const leftBehind = async (before: number) => {
    expect(await gateOrders()).toBe(before + 1);
    const order = await db()
      .collection('orders')
      .find({ channel: 'gate' })
      .sort({ _id: -1 })
      .limit(1)
      .next();
    expect(['InTransit', 'Completed']).not.toContain(order!.orderStatus);
    return String(order!._id);
  };

  it('an offline cash sale cut off after its cash was taken: two replays at once finish it once', async () => {
    const before = await gateOrders();
    const stock = await stockOf(t, productId);
    const cash = await cashExpected();
    const key = newKey();
    const body = offline(3);
    crashAt('handOver');
    const first = await send(body, key);
    expect(first.status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await leftBehind(before);
    // The crash's state: its stock taken and its cash in the money ledger, not handed over.
    expect((await movesOf(orderId)).map((m) => m.change)).toEqual([-3]);
    expect((await entriesOf(orderId)).map((e) => [e.kind, e.amount])).toEqual([['cash', 300]]);

    const [a, b] = await Promise.all([send(body, key), send(body, key)]);
    for (const r of [a, b]) {
      expect([r.status, r.body.sale?.orderId ?? r.body.message, r.body.sale?.state]).toEqual([
        200,
        orderId,
        'paid',
      ]);
    }
    const again = await send(body, key);
    expect([again.status, again.body.sale.orderId]).toEqual([200, orderId]);

    expect(await gateOrders()).toBe(before + 1);
    expect((await movesOf(orderId)).map((m) => m.change)).toEqual([-3]);
    const entries = await entriesOf(orderId);
    expect(entries.map((e) => [e.kind, e.amount, e.state])).toEqual([['cash', 300, 'credited']]);
    const order = await db()
      .collection('orders')
      .findOne({ _id: new Types.ObjectId(orderId) });
    expect([order!.orderStatus, order!.paymentStatus, order!.amountPaid]).toEqual([
      'Completed',
      'Paid',
      300,
    ]);
    expect(await stockOf(t, productId)).toBe(stock - 3);
    expect(await cashExpected()).toBe(cash + 300);
    await expectLedgersBalanced();
  }, 90_000);

  it('an offline cash sale cut off before any payment: two replays at once take the cash once', async () => {
    const before = await gateOrders();
    const cash = await cashExpected();
    const key = newKey();
    const body = offline(2);
    crashAt('takePayment');
    expect((await send(body, key)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await leftBehind(before);
    expect(await entriesOf(orderId)).toEqual([]);

    const replays = await Promise.all([send(body, key), send(body, key)]);
    for (const r of replays)
      expect([r.status, r.body.sale?.orderId ?? r.body.message]).toEqual([200, orderId]);
    expect(await gateOrders()).toBe(before + 1);
    expect((await movesOf(orderId)).map((m) => m.change)).toEqual([-2]);
    expect((await entriesOf(orderId)).map((e) => [e.kind, e.amount])).toEqual([['cash', 200]]);
    // Its cash dated when the till sold it.
    expect(new Date((await entriesOf(orderId))[0]!.at).toISOString()).toBe(body.offline.soldAt);
    expect(await cashExpected()).toBe(cash + 200);
    await expectLedgersBalanced();
  }, 90_000);

  it('an online sale cut off between its M-Pesa code and its cash: resumed, each once', async () => {
    const before = await gateOrders();
    const key = newKey();
    const code = newCode();
    const body = {
      sessionId,
      lines: [{ productId, quantity: 4 }],
      payments: [
        { method: 'mpesa-code', amount: 150, code },
        { method: 'cash', amount: 250, given: 300 },
      ] as Payment[],
    };
    crashAt('takePayment', 1);
    // Dead, the instance undoes nothing either.
    jest.spyOn(gate, 'undo').mockRejectedValue(new Error('the API instance died here'));
    expect((await send(body, key)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await leftBehind(before);
    expect((await entriesOf(orderId)).map((e) => [e.kind, e.amount])).toEqual([
      ['desk-mpesa', 150],
    ]);

    const replays = await Promise.all([send(body, key), send(body, key)]);
    for (const r of replays)
      expect([r.status, r.body.sale?.orderId ?? r.body.message, r.body.sale?.state]).toEqual([
        200,
        orderId,
        'paid',
      ]);
    const entries = await entriesOf(orderId);
    expect(entries.map((e) => [e.kind, e.amount, e.state]).sort()).toEqual([
      ['cash', 250, 'credited'],
      ['desk-mpesa', 150, 'credited'],
    ]);
    expect((await movesOf(orderId)).map((m) => m.change)).toEqual([-4]);
    await expectLedgersBalanced();
  }, 90_000);

  it('a sale cut off midway and cancelled since (the unpaid-order expiry) stays refused, changing nothing', async () => {
    const before = await gateOrders();
    const key = newKey();
    const body = offline(1);
    crashAt('takePayment');
    expect((await send(body, key)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await leftBehind(before);
    await db()
      .collection('orders')
      .updateOne({ _id: new Types.ObjectId(orderId) }, { $set: { orderStatus: 'Cancelled' } });
    const replay = await send(body, key);
    expect([replay.status, replay.body.message]).toEqual([409, TILL_MESSAGES.saleRefused]);
    expect(await entriesOf(orderId)).toEqual([]);
    expect(await gateOrders()).toBe(before + 1);
  }, 90_000);

  it('a sale cut off midway whose session closed since: 409 in words until an admin reopens it, then finished once in its cash-up', async () => {
    const own = await openTillSession(t, grace.accessToken, 500);
    const token = bearer(grace.accessToken);
    const before = await gateOrders();
    const key = newKey();
    const body = offline(2, own);
    crashAt('takePayment');
    expect((await send(body, key, token)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await leftBehind(before);
    await t
      .http()
      .post(`/api/till/sessions/${own}/close`)
      .set(token)
      .send({ countedCash: 500 })
      .expect((r) => expect(r.status).toBeLessThan(300));
    const refused = await send(body, key, token);
    expect([refused.status, refused.body.message]).toEqual([
      409,
      TILL_MESSAGES.saleUnfinishedClosed,
    ]);
    expect(await entriesOf(orderId)).toEqual([]);

    await t
      .http()
      .post(`/api/till/sessions/${own}/reopen`)
      .set(bearer(world.admin.accessToken))
      .expect((r) => expect(r.status).toBeLessThan(300));
    const resumed = await send(body, key, token);
    expect([resumed.status, resumed.body.sale?.orderId, resumed.body.sale?.state]).toEqual([
      200,
      orderId,
      'paid',
    ]);
    expect((await entriesOf(orderId)).map((e) => [e.kind, e.amount])).toEqual([['cash', 200]]);
    const view = (
      await t.http().get(`/api/till/sessions/${own}`).set(token).expect(200)
    ).body.cashUp.methods.find((x: { method: string }) => x.method === 'cash');
    expect(view.expected).toBe(500 + 200);
    await expectLedgersBalanced();
  }, 90_000);

  it('a key the crash left uncompleted (its sale placed) is completed by the reconciler, never released for a second sale', async () => {
    const before = await gateOrders();
    const key = newKey();
    const body = offline(1);
    const made = await send(body, key).expect(201);
    // The crash's state: the sale placed, its key claimed long ago and never pointed at it.
    const keys = db().collection('till_sale_keys');
    const stored = { key: `${world.staff.user._id}:${key}` };
    expect(await keys.countDocuments(stored)).toBe(1);
    await keys.updateOne(stored, {
      $set: { orderId: null, createdAt: new Date(Date.now() - 3_600_000) },
    });
    await t.app.get(OrderReconciler).reconcile({ olderThanMs: 1000 });
    expect((await keys.findOne(stored))?.orderId).toBe(made.body.sale.orderId);
    const replay = await send(body, key);
    expect([replay.status, replay.body.sale?.orderId]).toEqual([200, made.body.sale.orderId]);
    expect(await gateOrders()).toBe(before + 1);
  }, 60_000);
});
