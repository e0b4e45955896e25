/**
 * Attacks on the resume of a till sale cut off midway (issue 47): the money reconciler racing a
 * resume, a replay with another basket, a resume by another clerk, a void after a resume. Crashes
 * are simulated as in till-resume.e2e-spec.ts: a step of the saga fails once, leaving the DB as a
 * dying process would.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { OrderCredits } from '../src/orders/order-credits';
import { OrderGateSales } from '../src/orders/order-gate-sales';
import { bearer, createStaff, type Session } from './support/identity';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import { openTillSession, setTillPin } from './support/till';

const UNTHROTTLED = { THROTTLE_LIMIT: '100000', THROTTLE_AUTH_LIMIT: '100000' };

describe('attacks on a till sale resumed after a crash (issue 47)', () => {
  let t: TestApp;
  let world: ShopWorld;
  let grace: Session & { password: string };
  let sessionId: string;
  let productId: string;
  let credits: OrderCredits;
  let gate: OrderGateSales;
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const staff = () => bearer(world.staff.accessToken);
  let keySeq = 0;
  const newKey = () => `resume-attack-${Date.now()}-${keySeq++}`;

  beforeAll(async () => {
    t = await createTestApp({ name: 'till_resume_attack', env: { ...UNTHROTTLED } });
    world = await createShopWorld(t);
    grace = await createStaff(t, world.admin.accessToken, { fullName: 'Grace Wanjiku' });
    productId = (await world.createProduct({ quantity: 1_000, price: 100 }))._id;
    await setTillPin(t, world.staff, '1357');
    await setTillPin(t, grace, '2468');
    sessionId = await openTillSession(t, world.staff.accessToken, 1000);
    credits = t.app.get(OrderCredits);
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
  const entriesOf = (orderId: string) =>
    db().collection('money_entries').find({ orderId }).toArray();
  const orderOf = (orderId: string) =>
    db()
      .collection('orders')
      .findOne({ _id: new Types.ObjectId(orderId) });
  const lastGateOrder = async () =>
    String(
      (await db().collection('orders').find({ channel: 'gate' }).sort({ _id: -1 }).limit(1).next())!
        ._id,
    );
  const expectLedgersBalanced = async () => {
    expect((await checkStockLedger(db())).differences).toEqual([]);
    expect((await checkMoneyLedger(db())).problems).toEqual([]);
  };
  /** The instance "dies" inside the money's credit, once: its entry claimed, never credited. */
  const crashInCredit = () => {
    const real = credits.credit.bind(credits);
    let calls = 0;
    return jest.spyOn(credits, 'credit').mockImplementation(async (...args) => {
      if (calls++ === 0) throw new Error('the API instance died here (simulated crash)');
      return real(...args);
    });
  };

  it('the money reconciler sweeping a stale claim while a resume credits it: the cash counted once, in the ledger', async () => {
    const key = newKey();
    const body = offline(2);
    crashInCredit();
    expect((await send(body, key)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await lastGateOrder();
    // The crash was long ago: its claim is older than the reconciler's 60 s.
    expect((await entriesOf(orderId)).map((e) => [e.kind, e.state])).toEqual([['cash', 'claimed']]);
    await db()
      .collection('money_entries')
      .updateOne({ orderId }, { $set: { claimedAt: new Date(Date.now() - 120_000) } });
    // The reconciler runs between the resume finding the sale's cash entry and crediting it.
    const real = credits.credit.bind(credits);
    jest.spyOn(credits, 'credit').mockImplementation(async (...args) => {
      await credits.reconcile(new Date());
      return real(...args);
    });
    const again = await send(body, key);
    jest.restoreAllMocks();
    expect([again.status, again.body.sale?.state]).toEqual([200, 'paid']);
    expect((await entriesOf(orderId)).map((e) => [e.kind, e.amount, e.state])).toEqual([
      ['cash', 200, 'credited'],
    ]);
    const order = await orderOf(orderId);
    expect([order!.orderStatus, order!.amountPaid]).toEqual(['Completed', 200]);
    await expectLedgersBalanced();
  }, 90_000);

  it('the reconciler that read a stale claim before a resume refreshed it does not drop it afterwards', async () => {
    const key = newKey();
    const body = offline(1);
    crashInCredit();
    expect((await send(body, key)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await lastGateOrder();
    await db()
      .collection('money_entries')
      .updateOne({ orderId }, { $set: { claimedAt: new Date(Date.now() - 120_000) } });
    // The reconciler read the claim as stale (and the order not crediting it) before the resume
    // took it up; its undo lands while the resume is crediting.
    const ledger = (
      credits as unknown as { ledger: { unfinished: (b: Date) => Promise<unknown[]> } }
    ).ledger;
    const stale = await ledger.unfinished(new Date(Date.now() - 60_000));
    expect(stale.length).toBeGreaterThan(0);
    const real = credits.credit.bind(credits);
    jest.spyOn(credits, 'credit').mockImplementation(async (...args) => {
      jest.spyOn(ledger, 'unfinished').mockResolvedValueOnce(stale);
      await credits.reconcile(new Date());
      return real(...args);
    });
    const again = await send(body, key);
    jest.restoreAllMocks();
    expect([again.status, again.body.sale?.state]).toEqual([200, 'paid']);
    expect((await entriesOf(orderId)).map((e) => [e.kind, e.amount, e.state])).toEqual([
      ['cash', 100, 'credited'],
    ]);
    await expectLedgersBalanced();
  }, 90_000);

  it('a replay with another basket under the key of an unfinished sale is 422, the sale untouched', async () => {
    const key = newKey();
    const body = offline(3);
    crashInCredit();
    expect((await send(body, key)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await lastGateOrder();
    const other = await send({ ...body, lines: [{ productId, quantity: 4 }] }, key);
    expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const order = await orderOf(orderId);
    expect(order!.orderStatus).not.toBe('Completed');
    expect(order!.amountPaid).toBe(0);
    // Its own basket finishes it.
    const own = await send(body, key);
    expect([own.status, own.body.sale?.orderId, own.body.sale?.state]).toEqual([
      200,
      orderId,
      'paid',
    ]);
    await expectLedgersBalanced();
  }, 90_000);

  it("another clerk sending the same key does not resume the first clerk's sale", async () => {
    const key = newKey();
    const body = offline(2);
    crashInCredit();
    expect((await send(body, key)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await lastGateOrder();
    const r = await send(body, key, bearer(grace.accessToken));
    expect([r.status, r.body.sale]).toEqual([r.status === 200 ? -1 : r.status, undefined]);
    expect((await orderOf(orderId))!.amountPaid).toBe(0);
    expect((await send(body, key)).body.sale?.orderId).toBe(orderId);
    await expectLedgersBalanced();
  }, 90_000);

  it('a resumed sale voided pays its cash back once; sent again it answers voided, nothing more', async () => {
    const key = newKey();
    const body = offline(2);
    crashInCredit();
    expect((await send(body, key)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await lastGateOrder();
    expect((await send(body, key)).status).toBe(200);
    const voided = await t
      .http()
      .post(`/api/till/sales/${orderId}/void`)
      .set(staff())
      .send({ approverId: grace.user._id, pin: '2468', reason: 'wrong trays' });
    expect(voided.status).toBe(200);
    const again = await send(body, key);
    expect([again.status, again.body.sale?.orderId]).toEqual([200, orderId]);
    const entries = await entriesOf(orderId);
    expect(entries.map((e) => [e.direction, e.amount]).sort()).toEqual([
      ['in', 200],
      ['out', 200],
    ]);
    await expectLedgersBalanced();
  }, 90_000);

  it('a void landing while a resume takes the cash: no cash kept on the voided sale, answered in words', async () => {
    const key = newKey();
    const body = offline(2);
    crashInCredit();
    expect((await send(body, key)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await lastGateOrder();
    const real = credits.credit.bind(credits);
    let voided: { status: number; body: { sale?: { state: string } } } | null = null;
    jest.spyOn(credits, 'credit').mockImplementation(async (...args) => {
      voided ??= await t
        .http()
        .post(`/api/till/sales/${orderId}/void`)
        .set(staff())
        .send({ approverId: grace.user._id, pin: '2468', reason: 'buyer left' });
      return real(...args);
    });
    const resumed = await send(body, key);
    jest.restoreAllMocks();
    expect([voided!.status, voided!.body.sale?.state]).toEqual([200, 'voided']);
    // The resume lost to the void: answered as the sale is now (voided), or refused in words.
    if (resumed.status === 200) expect(resumed.body.sale.state).toBe('voided');
    else expect([resumed.status, typeof resumed.body.message]).toEqual([409, 'string']);
    const again = await send(body, key);
    expect([again.status, again.body.sale?.state]).toEqual([200, 'voided']);
    const order = await orderOf(orderId);
    expect([order!.orderStatus, order!.amountPaid]).toEqual(['Cancelled', 0]);
    expect(await entriesOf(orderId)).toEqual([]);
    await expectLedgersBalanced();
  }, 90_000);

  it('an online code sale resumed after its code was taken by another sale: refused in words, its stock back once, no money kept', async () => {
    const code = `TK${Date.now().toString(36).toUpperCase().slice(-6)}Q`;
    const key = newKey();
    const body = {
      sessionId,
      lines: [{ productId, quantity: 2 }],
      payments: [
        { method: 'mpesa-code', amount: 100, code },
        { method: 'cash', amount: 100, given: 100 },
      ],
    };
    const moves = () => db().collection('stock_movements').find({ productId }).toArray();
    const before = (await moves()).reduce((n, m) => n + (m.change as number), 0);
    crashInCredit();
    // The instance died there: nothing undone after it.
    jest.spyOn(gate, 'undo').mockRejectedValueOnce(new Error('died (simulated crash)'));
    expect((await send(body, key)).status).toBe(500);
    jest.restoreAllMocks();
    const orderId = await lastGateOrder();
    expect((await orderOf(orderId))!.orderStatus).not.toBe('Cancelled');
    // The crash's claim undone by the reconciler; another buyer's sale takes the code.
    await db()
      .collection('money_entries')
      .updateMany({ orderId }, { $set: { claimedAt: new Date(Date.now() - 120_000) } });
    await credits.reconcile(new Date());
    const other = await send({ ...body, lines: [{ productId, quantity: 2 }] }, newKey());
    expect([other.status, other.body.sale?.state]).toEqual([201, 'paid']);
    const resumed = await send(body, key);
    expect([resumed.status, typeof resumed.body.message]).toEqual([409, 'string']);
    const again = await send(body, key);
    expect(again.status).toBe(409);
    const order = await orderOf(orderId);
    expect([order!.orderStatus, order!.amountPaid]).toEqual(['Cancelled', 0]);
    expect(await entriesOf(orderId)).toEqual([]);
    // Only the other sale's 2 trays left the stock.
    expect((await moves()).reduce((n, m) => n + (m.change as number), 0)).toBe(before - 2);
    await expectLedgersBalanced();
  }, 90_000);
});
