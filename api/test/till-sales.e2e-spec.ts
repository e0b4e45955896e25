/**
 * The gate's till (issue 46) against the real database: a gate sale is an order of its own kind,
 * placed through the same saga (the stock ledger once), paid through the money ledger (one entry
 * a payment) and handed over at once; the same Idempotency-Key makes one sale; the cash-up's
 * totals are the money ledger's; a void or a refund needs a second person's PIN, which locks after
 * TILL_PIN_MAX_TRIES wrong tries; every refusal is a 4xx that changes nothing.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { TILL_MESSAGES, TILL_PIN_MAX_TRIES } from '@spc/shared-contracts';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { postProduct, productFields } from './support/factories';
import {
  bearer,
  createStaff,
  registerCustomer,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { guest, placeOrder, stockOf } from './support/shop';
import { addDays, shopDay } from '../src/common/shop-clock';
import { createTestApp, type TestApp } from './support/test-app';
import { openTillSession, setTillPin, TILL_ADMIN_ROUTES, TILL_ROUTES } from './support/till';

interface Unit {
  _id: string;
  name: string;
}
type Payment = { method: string; amount: number; given?: number; code?: string };

describe('the till at the gate', () => {
  let t: TestApp;
  let world: ShopWorld;
  let other: Session & { password: string };
  let productId: string;
  let single: Unit;
  let tray: Unit;
  let sessionId: string;
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const staff = () => bearer(world.staff.accessToken);
  let keyCount = 0;
  const newKey = () => `till-test-${Date.now()}-${keyCount++}`;

  beforeAll(async () => {
    t = await createTestApp({ name: 'till_sales', env: { ...UNTHROTTLED } });
    world = await createShopWorld(t);
    other = await createStaff(t, world.admin.accessToken, { fullName: 'Grace Wanjiku' });
    await setTillPin(t, world.staff, '1357');
    await setTillPin(t, other, '2468');
    const units = [
      { name: 'Single seedling', seedlings: 1, minQuantity: 10, step: 5 },
      { name: 'Tray of 50', seedlings: 50, price: 1500, sku: 'TILL-T50' },
    ];
    const res = await postProduct(
      t,
      world.staff.accessToken,
      productFields(world.category._id, {
        price: 40,
        productQuantity: 5_000,
        units: JSON.stringify(units),
      }),
    );
    expect(res.status).toBe(201);
    productId = res.body.product._id;
    [single, tray] = res.body.product.units as Unit[];
    sessionId = await openTillSession(t, world.staff.accessToken, 2000);
  });
  afterAll(() => t.close());

  /** 3 trays at 1,500 and 20 singles at 40: KES 5,300. */
  const basket = () => [
    { productId, unitId: tray._id, quantity: 3 },
    { productId, unitId: single._id, quantity: 20 },
  ];
  const sell = (payments: Payment[], key = newKey(), lines = basket(), token = staff()) =>
    t
      .http()
      .post('/api/till/sales')
      .set(token)
      .set('Idempotency-Key', key)
      .send({ sessionId, lines, payments });
  const entriesOf = (orderId: string) =>
    db().collection('money_entries').find({ orderId }).toArray();
  const movementsOf = (orderId: string) =>
    db().collection('stock_movements').find({ orderId }).toArray();
  const orderCount = () => db().collection('orders').countDocuments({ channel: 'gate' });
  const entryCount = () => db().collection('money_entries').countDocuments();
  const snapshot = async () => ({
    stock: await stockOf(t, productId),
    orders: await orderCount(),
    entries: await entryCount(),
  });
  const expectLedgersBalanced = async () => {
    expect((await checkStockLedger(db())).differences).toEqual([]);
    expect((await checkMoneyLedger(db())).problems).toEqual([]);
  };

  it('sells trays and singles for cash: the stock taken once, one money entry, handed over', async () => {
    const before = await stockOf(t, productId);
    const res = await sell([{ method: 'cash', amount: 5300, given: 6000 }]);
    expect(res.status).toBe(201);
    const sale = res.body.sale;
    expect(sale).toMatchObject({ total: 5300, paid: 5300, change: 700, state: 'paid' });
    expect(await stockOf(t, productId)).toBe(before - 170);
    const moved = await movementsOf(sale.orderId);
    expect(moved.reduce((n, m) => n + (m.change as number), 0)).toBe(-170);
    const entries = await entriesOf(sale.orderId);
    expect(entries.map((e) => [e.direction, e.kind, e.amount])).toEqual([['in', 'cash', 5300]]);
    const order = (await t.http().get(`/api/orders/${sale.orderId}`).set(staff()).expect(200)).body
      .order;
    expect(order).toMatchObject({
      orderStatus: 'Completed',
      paymentStatus: 'Paid',
      fulfillmentStatus: 'Fulfilled',
      paymentMethod: 'Cash',
      placedBy: null,
      customerName: 'Walk-in buyer',
    });
    await expectLedgersBalanced();
  });

  it('makes one sale of the same Idempotency-Key sent twice at once', async () => {
    const before = await snapshot();
    const key = newKey();
    const payments = [{ method: 'cash', amount: 5300 }];
    const [a, b] = await Promise.all([sell(payments, key), sell(payments, key)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.sale.orderId).toBe(b.body.sale.orderId);
    expect(await snapshot()).toEqual({
      stock: before.stock - 170,
      orders: before.orders + 1,
      entries: before.entries + 1,
    });
  });

  it('splits a sale between cash and an M-Pesa code: one money entry each', async () => {
    const res = await sell([
      { method: 'cash', amount: 300, given: 500 },
      { method: 'mpesa-code', amount: 5000, code: 'tlsplit001' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.sale).toMatchObject({ state: 'paid', change: 200, paid: 5300 });
    const entries = await entriesOf(res.body.sale.orderId);
    expect(entries.map((e) => [e.kind, e.amount, e.code ?? null]).sort()).toEqual([
      ['cash', 300, null],
      ['desk-mpesa', 5000, 'TLSPLIT001'],
    ]);
  });

  it('refuses, changing nothing: a code in the ledger, a quantity off the step, payments that do not add up, cash short', async () => {
    await sell([{ method: 'mpesa-code', amount: 5300, code: 'TLTAKEN001' }]).expect(201);
    const before = await snapshot();
    const taken = await sell([{ method: 'mpesa-code', amount: 5300, code: 'tl-taken 001' }]);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('TLTAKEN001');
    const offStep = await sell([{ method: 'cash', amount: 480 }], newKey(), [
      { productId, unitId: single._id, quantity: 12 },
    ]);
    expect(offStep.status).toBe(400);
    expect(offStep.body.message).toContain(
      'Single seedling: in steps of 5 from 10 (10 or 15, not 12)',
    );
    const mismatch = await sell([{ method: 'cash', amount: 5000 }]);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe(TILL_MESSAGES.paymentsMismatch('KES 5,300'));
    const short = await sell([{ method: 'cash', amount: 5300, given: 5000 }]);
    expect(short.status).toBe(400);
    expect(short.body.message).toBe(TILL_MESSAGES.cashShort('KES 5,300'));
    expect(await snapshot()).toEqual(before);
  });

  it('voids only with a second person’s PIN: its cash back and its stock returned, once', async () => {
    const sale = (await sell([{ method: 'cash', amount: 5300 }]).expect(201)).body.sale;
    const stock = await stockOf(t, productId);
    const voidWith = (approverId: string, pin: string) =>
      t
        .http()
        .post(`/api/till/sales/${sale.orderId}/void`)
        .set(staff())
        .send({ approverId, pin, reason: 'Rung up twice' });
    const own = await voidWith(world.staff.user._id, '1357');
    expect([own.status, own.body.message]).toEqual([403, TILL_MESSAGES.secondPerson]);
    const wrong = await voidWith(other.user._id, '9999');
    expect([wrong.status, wrong.body.message]).toEqual([
      403,
      TILL_MESSAGES.pinWrong(TILL_PIN_MAX_TRIES - 1),
    ]);
    expect(await stockOf(t, productId)).toBe(stock);
    const [a, b] = await Promise.all([
      voidWith(other.user._id, '2468'),
      voidWith(other.user._id, '2468'),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await stockOf(t, productId)).toBe(stock + 170);
    const outs = (await entriesOf(sale.orderId)).filter((e) => e.direction === 'out');
    expect(outs.map((e) => [e.kind, e.amount, e.state])).toEqual([['cash', 5300, 'recorded']]);
    const view = (await t.http().get(`/api/till/sales/${sale.orderId}`).set(staff()).expect(200))
      .body.sale;
    expect(view).toMatchObject({ state: 'voided', refunded: 5300 });
    await expectLedgersBalanced();
  });

  it('refunds part of a sale, never above what is left; two at once take it once', async () => {
    const sale = (await sell([{ method: 'cash', amount: 5300 }]).expect(201)).body.sale;
    const refund = (amount: number) =>
      t
        .http()
        .post(`/api/till/sales/${sale.orderId}/refund`)
        .set(staff())
        .send({ amount, approverId: other.user._id, pin: '2468', reason: 'Wilted tray' });
    const entries = await entryCount();
    const above = await refund(5301);
    expect([above.status, above.body.message]).toEqual([
      409,
      TILL_MESSAGES.refundAboveSale('KES 5,300'),
    ]);
    expect(await entryCount()).toBe(entries);
    expect((await refund(1500)).status).toBe(200);
    const [a, b] = await Promise.all([refund(3800), refund(3800)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const outs = (await entriesOf(sale.orderId)).filter((e) => e.direction === 'out');
    expect(outs.reduce((n, e) => n + (e.amount as number), 0)).toBe(5300);
    await expectLedgersBalanced();
  });

  it('locks a PIN after the wrong tries in a row (two at once count twice); an admin unlocks it', async () => {
    const locker = await createStaff(t, world.admin.accessToken, { fullName: 'Tom Otieno' });
    await setTillPin(t, locker, '4321');
    const sale = (await sell([{ method: 'cash', amount: 5300 }]).expect(201)).body.sale;
    const voidWith = (pin: string) =>
      t
        .http()
        .post(`/api/till/sales/${sale.orderId}/void`)
        .set(staff())
        .send({ approverId: locker.user._id, pin, reason: 'Test' });
    const first = await Promise.all([voidWith('0000'), voidWith('0001')]);
    expect(first.map((r) => r.body.message).sort()).toEqual(
      [
        TILL_MESSAGES.pinWrong(TILL_PIN_MAX_TRIES - 2),
        TILL_MESSAGES.pinWrong(TILL_PIN_MAX_TRIES - 1),
      ].sort(),
    );
    for (let i = 2; i < TILL_PIN_MAX_TRIES - 1; i++)
      expect((await voidWith('0000')).status).toBe(403);
    const last = await voidWith('0000');
    expect([last.status, last.body.message]).toEqual([403, TILL_MESSAGES.pinLocked]);
    const right = await voidWith('4321');
    expect([right.status, right.body.message]).toEqual([403, TILL_MESSAGES.pinLocked]);
    expect(
      (await t.http().get(`/api/till/sales/${sale.orderId}`).set(staff())).body.sale.state,
    ).toBe('paid');
    await t
      .http()
      .put(`/api/till/pin/${locker.user._id}`)
      .set(bearer(world.admin.accessToken))
      .send({ pin: '8642' })
      .expect(200);
    expect((await voidWith('8642')).status).toBe(200);
  });

  it('keeps sessions to their clerk: another staff member gets 404, an admin sees it', async () => {
    const path = `/api/till/sessions/${sessionId}`;
    expect((await t.http().get(path).set(bearer(other.accessToken))).status).toBe(404);
    expect((await t.http().get(path).set(bearer(world.admin.accessToken))).status).toBe(200);
    const close = await t
      .http()
      .post(`${path}/close`)
      .set(bearer(other.accessToken))
      .send({ countedCash: 0 });
    expect(close.status).toBe(404);
    const sale = await sell(
      [{ method: 'cash', amount: 5300 }],
      newKey(),
      basket(),
      bearer(other.accessToken),
    );
    expect([sale.status, sale.body.message]).toEqual([403, TILL_MESSAGES.sessionNotYours]);
  });

  it('collects a booking at the gate: its balance taken in cash and handed over in one call', async () => {
    const inDays = (n: number) => addDays(shopDay(new Date()), n);
    const batch = (
      await t
        .http()
        .post('/api/batches')
        .set(staff())
        .send({
          productId: world.productId,
          sownOn: inDays(-10),
          readyOn: inDays(30),
          started: 100,
        })
        .expect(201)
    ).body.batch;
    const placed = await placeOrder(
      t,
      [{ _id: world.productId, quantity: 10, batchId: batch._id } as never],
      {
        guestInfo: guest(),
      },
    ).expect(201);
    const bookingId = placed.body.order._id as string;
    const deposit = placed.body.order.booking.deposit as number;
    await t
      .http()
      .post(`/api/orders/${bookingId}/booking/deposit`)
      .set(staff())
      .send({ transactionCode: 'TLDEPOSIT1', amount: deposit })
      .expect(200);
    const gateSession = await openTillSession(t, other.accessToken, 500);
    const collect = (amount: number) =>
      t
        .http()
        .post(`/api/till/bookings/${bookingId}/collect`)
        .set(bearer(other.accessToken))
        .send({ sessionId: gateSession, payments: [{ method: 'cash', amount, given: amount }] });
    const early = await collect(1);
    expect([early.status, early.body.message]).toEqual([
      409,
      expect.stringContaining('is not ready yet') as unknown as string,
    ]);
    await t.http().post(`/api/batches/${batch._id}/ready`).set(staff()).expect(201);
    const order = (await t.http().get(`/api/orders/${bookingId}`).set(staff()).expect(200)).body
      .order;
    const balance = order.totalAmount - order.amountPaid;
    const entries = await entryCount();
    const wrong = await collect(balance - 1);
    expect(wrong.status).toBe(400);
    expect(await entryCount()).toBe(entries);
    const res = await collect(balance);
    expect(res.status).toBe(200);
    expect(res.body.sale).toMatchObject({ state: 'paid', total: order.totalAmount });
    const after = (await t.http().get(`/api/orders/${bookingId}`).set(staff()).expect(200)).body
      .order;
    expect(after).toMatchObject({ orderStatus: 'Completed', paymentStatus: 'Paid' });
    expect((await collect(balance)).status).toBe(409);
    const cashUp = (
      await t
        .http()
        .get(`/api/till/sessions/${gateSession}`)
        .set(bearer(other.accessToken))
        .expect(200)
    ).body.cashUp;
    // The deposit paid by M-Pesa before is the booking's, not this session's.
    expect(cashUp.methods.map((m: { expected: number }) => m.expected)).toEqual([500 + balance, 0]);
    expect(cashUp.session).toMatchObject({ sales: 1, total: balance });
    await expectLedgersBalanced();
  });

  it('cash-up totals equal the money ledger; the session closes once', async () => {
    const path = `/api/till/sessions/${sessionId}`;
    const cashUp = (await t.http().get(path).set(staff()).expect(200)).body.cashUp;
    const orders = await db()
      .collection('orders')
      .find({ 'till.sessionId': sessionId })
      .sort({ orderDate: 1 })
      .toArray();
    const entries = await db()
      .collection('money_entries')
      .find({ orderId: { $in: orders.map((o) => o._id.toString()) } })
      .toArray();
    const total = (pick: (e: (typeof entries)[number]) => boolean) =>
      entries.filter(pick).reduce((n, e) => n + (e.amount as number), 0);
    const cashIn = total((e) => e.direction === 'in' && e.kind === 'cash');
    const cashOut = total((e) => e.direction === 'out' && e.kind === 'cash');
    const mpesaIn = total((e) => e.direction === 'in' && e.kind !== 'cash');
    expect(cashUp.methods).toEqual([
      { method: 'cash', expected: 2000 + cashIn - cashOut, counted: null, difference: null },
      { method: 'mpesa', expected: mpesaIn, counted: null, difference: null },
    ]);
    expect(mpesaIn).toBe(5000 + 5300);
    expect(cashUp.voids).toHaveLength(2);
    expect(cashUp.refunds).toHaveLength(2);
    expect(cashUp.voids[0]).toMatchObject({
      approvedByName: 'Grace Wanjiku',
      reason: 'Rung up twice',
    });
    const expected = 2000 + cashIn - cashOut;
    const close = () =>
      t
        .http()
        .post(`${path}/close`)
        .set(staff())
        .send({ countedCash: expected - 100 });
    const [a, b] = await Promise.all([close(), close()]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const closed = (a.status === 200 ? a : b).body.cashUp;
    expect(closed.methods[0]).toMatchObject({ counted: expected - 100, difference: -100 });
    expect((await close()).body.message).toBe(TILL_MESSAGES.sessionClosed);
    const late = await sell([{ method: 'cash', amount: 5300 }]);
    expect([late.status, late.body.message]).toEqual([409, TILL_MESSAGES.sessionClosed]);
    const reopen = () =>
      t.http().post(`${path}/reopen`).set(bearer(world.admin.accessToken)).send({});
    expect((await reopen()).body.session).toMatchObject({
      state: 'open',
      countedCash: null,
      reopened: [{ byName: world.admin.user.fullName }],
    });
    expect((await reopen()).status).toBe(409);
    expect((await close()).status).toBe(200);
    const day = shopDay(new Date());
    const list = async (token: string) =>
      (await t.http().get(`/api/till/sessions?day=${day}`).set(bearer(token)).expect(200)).body
        .sessions as { staffId: string }[];
    expect(new Set((await list(world.staff.accessToken)).map((x) => x.staffId))).toEqual(
      new Set([world.staff.user._id]),
    );
    expect(new Set((await list(world.admin.accessToken)).map((x) => x.staffId))).toEqual(
      new Set([world.staff.user._id, other.user._id]),
    );
    const listed = await t.http().get(`/api/till/sales?sessionId=${sessionId}`).set(staff());
    expect(listed.body.sales.map((x: { orderId: string }) => x.orderId)).toEqual(
      orders.map((o) => o._id.toString()),
    );
    const notTheirs = await t
      .http()
      .get(`/api/till/sales?sessionId=${sessionId}`)
      .set(bearer(other.accessToken));
    expect(notTheirs.status).toBe(404);
    const logs = await db().collection('audit_logs').find({}).toArray();
    const audited = [...new Set(logs.map((l) => l.action as string))];
    expect(audited.filter((a) => a.startsWith('till.')).sort()).toEqual([
      'till.pin.reset',
      'till.pin.set',
      'till.refund',
      'till.session.close',
      'till.session.open',
      'till.session.reopen',
      'till.void',
    ]);
    const csv = await t.http().get(`${path}/cash-up.csv`).set(staff()).expect(200);
    expect(csv.text).toContain('Expected');
    const pdf = await t.http().get(`${path}/cash-up.pdf`).set(staff()).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    await expectLedgersBalanced();
  });

  it('after its session is closed, a void is 409 before any PIN try; reopened by an admin, it voids', async () => {
    const clerk = await createStaff(t, world.admin.accessToken, { fullName: 'Late Void Clerk' });
    const own = await openTillSession(t, clerk.accessToken, 0);
    const key = newKey();
    const sellOwn = () =>
      t
        .http()
        .post('/api/till/sales')
        .set(bearer(clerk.accessToken))
        .set('Idempotency-Key', key)
        .send({ sessionId: own, lines: basket(), payments: [{ method: 'cash', amount: 5300 }] });
    const sale = (await sellOwn().expect(201)).body.sale;
    await t
      .http()
      .post(`/api/till/sessions/${own}/close`)
      .set(bearer(clerk.accessToken))
      .send({ countedCash: 5300 })
      .expect(200);
    const voidWith = (pin: string) =>
      t
        .http()
        .post(`/api/till/sales/${sale.orderId}/void`)
        .set(bearer(clerk.accessToken))
        .send({ approverId: other.user._id, pin, reason: 'Rung up twice' });
    const tries = async () =>
      (
        await db()
          .collection('till_pins')
          .findOne({ _id: other.user._id as never })
      )?.failures;
    const before = await tries();
    for (const pin of ['9999', '2468']) {
      const res = await voidWith(pin);
      expect([res.status, res.body.message]).toEqual([409, TILL_MESSAGES.sessionClosedForReversal]);
    }
    expect(await tries()).toBe(before);
    expect((await entriesOf(sale.orderId)).filter((e) => e.direction === 'out')).toEqual([]);
    await t
      .http()
      .post(`/api/till/sessions/${own}/reopen`)
      .set(bearer(world.admin.accessToken))
      .expect((r) => expect(r.status).toBeLessThan(300));
    expect((await voidWith('2468')).status).toBe(200);
    // The same sale sent again under its key was made (then voided): answered as it is.
    const again = await sellOwn();
    expect([again.status, again.body.sale.state]).toEqual([200, 'voided']);
  });

  it('is for staff and admins: 401 signed out, 403 for a customer, 403 for staff on the admin routes', async () => {
    const customer = await registerCustomer(t);
    const id = '64b000000000000000000001';
    const call = (route: string, token?: string) => {
      const [method, template] = route.split(' ') as [string, string];
      const path = template.replace(/\{[a-zA-Z]+\}/g, id);
      const req = t.http()[method.toLowerCase() as 'get'](path);
      return token ? req.set(bearer(token)) : req;
    };
    const seen: string[] = [];
    for (const route of TILL_ROUTES) {
      seen.push(
        `${route} ${(await call(route)).status} ${(await call(route, customer.accessToken)).status}`,
      );
    }
    expect(seen).toEqual(TILL_ROUTES.map((r) => `${r} 401 403`));
    for (const route of TILL_ADMIN_ROUTES)
      expect([route, (await call(route, world.staff.accessToken)).status]).toEqual([route, 403]);
  });
});
