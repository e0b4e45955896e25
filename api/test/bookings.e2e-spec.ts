/**
 * The money and life of a booking after it is placed (issue 32): the deposit (M-Pesa prompt,
 * paybill, or recorded by staff), the batch ready → balance due with the SMS, the balance, the
 * dispatch taking the seedlings from the batch; an expired deposit; a released balance; a failed
 * batch whose bookings are moved or refunded. Against the Daraja and SMS simulators over HTTP.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startSmsSimulator, type SmsSimulator } from '../../tools/sms/simulator';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { BookingLifeService } from '../src/bookings/booking-life.service';
import { BatchesService } from '../src/batches/batches.service';
import { OrderBookings } from '../src/bookings/booking-orders';
import { OrdersService } from '../src/orders/orders.service';
import { addDays, shopDay } from '../src/common/shop-clock';
import { BOOKING_ROUTES } from './support/bookings';
import { bearer, registerCustomer, type Session } from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { guest, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { SMS_TEST_SETTINGS } from './support/sms';
import { waitFor } from './support/wait';

interface Booking {
  state: string;
  deposit: number;
  balance: number;
  depositPaidAt: string | null;
  balanceDueBy: string | null;
  releaseDecision: string | null;
  problem: string | null;
  batchId: string;
  movedFromBatchId: string | null;
  fulfilledAt: string | null;
}
interface Order {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
  amountPaid: number;
  amountDueNow: number;
  paymentStatus: string;
  orderStatus: string;
  booking: Booking | null;
  guestInfo: { phoneNumber: string };
}

interface Batch {
  _id: string;
  available: number;
  quantity: number;
  status: string;
}

const asDaraja = (phone: string) => `254${phone.slice(1)}`;

describe('bookings: deposit, balance, release, affected', () => {
  let m: MpesaTestApp;
  let sms: SmsSimulator;
  let staff: Session;
  let admin: Session;
  let productId: string;
  let life: BookingLifeService;
  let world: ShopWorld;

  beforeAll(async () => {
    sms = await startSmsSimulator({
      username: SMS_TEST_SETTINGS.AT_USERNAME,
      apiKey: SMS_TEST_SETTINGS.AT_API_KEY,
    });
    m = await createMpesaTestApp('bookings', {
      ...SMS_TEST_SETTINGS,
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: sms.url,
      SMS_RETRY_INTERVAL_MS: '200',
      BOOKING_DEPOSIT_PERCENT: '30',
      BOOKING_BALANCE_DAYS: '7',
    });
    world = await createShopWorld(m.t, { product: { price: 500, quantity: 1000 } });
    staff = world.staff;
    admin = world.admin;
    productId = world.productId;
    life = m.t.app.get(BookingLifeService, { strict: false });
  });
  afterAll(async () => {
    // Whatever the bookings did, the ledger still sums to the stock and to each batch.
    // (Movements are copied to the ledger right after each change: waited for, not raced.)
    const db = m.t.app.get<Connection>(getConnectionToken()).db!;
    const check = await waitFor(
      () => checkStockLedger(db),
      (c) => c.differences.length === 0 && c.overbooked.length === 0,
      15_000,
      250,
    );
    expect(check.differences).toEqual([]);
    expect(check.overbooked).toEqual([]);
    await m.close();
    await sms.close();
  });

  const inDays = (n: number) => addDays(shopDay(new Date()), n);
  const newBatch = async (started = 100, readyIn = 60, product = productId): Promise<Batch> =>
    (
      await m.t
        .http()
        .post('/api/batches')
        .set(bearer(staff.accessToken))
        .send({ productId: product, sownOn: inDays(-10), readyOn: inDays(readyIn), started })
        .expect(201)
    ).body.batch as Batch;

  async function book(batchId: string, quantity = 3, product = productId): Promise<Order> {
    const res = await placeOrder(m.t, [{ _id: product, quantity, batchId } as never], {
      guestInfo: guest(),
    }).expect(201);
    return res.body.order as Order;
  }

  const get = async (id: string): Promise<Order> =>
    (await m.t.http().get(`/api/orders/${id}`).set(bearer(staff.accessToken)).expect(200)).body
      .order as Order;
  const until = (id: string, done: (o: Order) => boolean) =>
    waitFor(() => get(id), done, 15_000, 150);
  const textsTo = (o: Order, re: RegExp) =>
    sms.outbox.filter(
      (s) => s.to === `+${asDaraja(o.guestInfo.phoneNumber)}` && re.test(s.message),
    );
  const batchNow = async (id: string): Promise<Batch> =>
    (await m.t.http().get(`/api/batches/${id}`).set(bearer(staff.accessToken)).expect(200)).body
      .batch as Batch;

  function deposit(o: Order, amount: number, code: string) {
    return m.t
      .http()
      .post(`/api/orders/${o._id}/booking/deposit`)
      .set(bearer(staff.accessToken))
      .send({ transactionCode: code, amount });
  }

  const readyBatch = (id: string) =>
    m.t.http().post(`/api/batches/${id}/ready`).set(bearer(staff.accessToken)).expect(201);

  it('deposit by M-Pesa prompt → ready → balance by prompt → dispatched: the seedlings leave the batch once', async () => {
    const batch = await newBatch(100);
    const o = await book(batch._id, 3);
    expect(o.totalAmount).toBe(1500);
    expect(o.booking).toMatchObject({ state: 'Deposit due', deposit: 450, balance: 1050 });
    expect(o.amountDueNow).toBe(450);

    // The prompt asks for the deposit.
    m.sim.setScenario('success', asDaraja(o.guestInfo.phoneNumber));
    await m.t
      .http()
      .post('/api/payments/mpesa/stk-push')
      .send({ purchaseNumber: o.purchaseNumber, phoneNumber: o.guestInfo.phoneNumber })
      .expect(200);
    const booked = await until(o._id, (x) => x.booking?.state === 'Booked');
    expect(booked).toMatchObject({ amountPaid: 450, amountDueNow: 1050, paymentStatus: 'Pending' });
    // Tracking (public) shows the ready day and the money, nothing about the customer.
    const track = await m.t
      .http()
      .get(`/api/orders/track/new-order?purchaseNumber=${o.purchaseNumber}`)
      .expect(200);
    expect(track.body.booking).toEqual({
      state: 'Booked',
      readyOn: inDays(60),
      depositPercent: 30,
      deposit: 450,
      amountPaid: 450,
      balanceDue: 1050,
      amountDueNow: 1050,
      balanceDueBy: null,
    });
    await waitFor(
      async () => textsTo(o, /deposit of KES 450/).length,
      (n) => n === 1,
      10_000,
      100,
    );

    await readyBatch(batch._id);
    const due = await get(o._id);
    expect(due.booking).toMatchObject({ state: 'Balance due', balanceDueBy: inDays(7) });
    const told = await waitFor(
      async () => textsTo(o, /are ready\. Pay the balance of KES 1,050/),
      (t) => t.length === 1,
      10_000,
      100,
    );
    expect(told[0]!.message).toContain(`account ${o.purchaseNumber}`);
    // Called again (a crash, a second instance): nobody is told twice.
    await m.t
      .http()
      .post(`/api/batches/${batch._id}/ready`)
      .set(bearer(staff.accessToken))
      .expect(409);
    await life.sweep();
    expect(textsTo(o, /are ready\. Pay/)).toHaveLength(1);

    m.sim.setScenario('success', asDaraja(o.guestInfo.phoneNumber));
    await m.t
      .http()
      .post('/api/payments/mpesa/stk-push')
      .send({ purchaseNumber: o.purchaseNumber, phoneNumber: o.guestInfo.phoneNumber })
      .expect(200);
    const paid = await until(o._id, (x) => x.paymentStatus === 'Paid');
    expect(paid).toMatchObject({ orderStatus: 'Processing', amountPaid: 1500, amountDueNow: 0 });
    expect(paid.booking!.state).toBe('Paid');

    const before = await batchNow(batch._id);
    await m.t
      .http()
      .patch(`/api/orders/inTransit/${o._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    const after = await batchNow(batch._id);
    expect(before.quantity - after.quantity).toBe(3);
    expect((await get(o._id)).booking!.fulfilledAt).not.toBeNull();
    await life.sweep();
    expect((await batchNow(batch._id)).quantity).toBe(after.quantity);
  });

  it('a deposit of the wrong amount is refused and changes nothing; the right one books it', async () => {
    const batch = await newBatch(100);
    const o = await book(batch._id, 2);
    const res = await deposit(o, 299, 'SBK1WRONG1').expect(400);
    expect(res.body.message).toBe('The deposit of this booking is KES 300');
    expect(await get(o._id)).toMatchObject({ amountPaid: 0, booking: { state: 'Deposit due' } });
    await m.t
      .http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: 300 } })
      .expect(400);
    await deposit(o, 300, 'SBK1RIGHT1').expect(200);
    expect(await get(o._id)).toMatchObject({
      amountPaid: 300,
      amountDueNow: 700,
      booking: { state: 'Booked' },
    });
    // The same code on another booking is refused.
    const other = await book(batch._id, 2);
    await deposit(other, 300, 'sbk1 right1').expect(409);
    // The balance through complete-payment, with the balance amount only.
    await m.t
      .http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: 1000 } })
      .expect(400);
    const paid = await m.t
      .http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: 700 } })
      .expect(200);
    expect(paid.body.order).toMatchObject({
      paymentStatus: 'Paid',
      amountPaid: 1000,
      booking: { state: 'Paid' },
    });
  });

  it('a paybill payment pays the deposit, a second one the balance', async () => {
    const batch = await newBatch(100);
    const o = await book(batch._id, 4);
    const phone = asDaraja(o.guestInfo.phoneNumber);
    await m.sim.payBill({ account: o.purchaseNumber, amount: 600, phone });
    await until(o._id, (x) => x.booking?.state === 'Booked');
    await readyBatch(batch._id);
    await m.sim.payBill({ account: o.purchaseNumber, amount: 1400, phone });
    const paid = await until(o._id, (x) => x.paymentStatus === 'Paid');
    expect(paid).toMatchObject({ amountPaid: 2000, booking: { state: 'Paid' } });
  });

  it('an unpaid deposit expires like an unpaid order and gives its seedlings back to the batch', async () => {
    const batch = await newBatch(50);
    const o = await book(batch._id, 5);
    expect((await batchNow(batch._id)).available).toBe(45);
    const orders = m.t.app.get(OrdersService, { strict: false });
    await orders.expireUnpaid(new Date(Date.now() + 3 * 24 * 3_600_000));
    expect(await get(o._id)).toMatchObject({
      orderStatus: 'Cancelled',
      booking: { state: 'Expired' },
    });
    expect((await batchNow(batch._id)).available).toBe(50);
  });

  it('a balance unpaid after its day releases the booking: seedlings into ready stock, deposit kept and recorded', async () => {
    const batch = await newBatch(100);
    const o = await book(batch._id, 2);
    await deposit(o, 300, 'SBK2KEEP01').expect(200);
    await readyBatch(batch._id);
    expect(await life.releaseOverdue(new Date())).toBe(0);
    const stockBefore = (await m.t.http().get(`/api/products/${productId}`).expect(200)).body;
    expect(await life.releaseOverdue(new Date(Date.now() + 9 * 24 * 3_600_000))).toBe(1);
    const released = await get(o._id);
    expect(released).toMatchObject({
      orderStatus: 'Cancelled',
      booking: { state: 'Released', releaseDecision: 'kept' },
    });
    const stockAfter = (await m.t.http().get(`/api/products/${productId}`).expect(200)).body;
    const qty = (b: { product?: { productQuantity: number }; productQuantity?: number }) =>
      b.product?.productQuantity ?? b.productQuantity ?? 0;
    expect(qty(stockAfter) - qty(stockBefore)).toBe(2);
    await waitFor(
      async () => textsTo(o, /was released/).length,
      (n) => n === 1,
      10_000,
      100,
    );
  });

  it('a failed batch: one booking moves to the next batch with its deposit, the other is refunded', async () => {
    const batch = await newBatch(100, 30);
    const next = await newBatch(100, 90);
    const first = await book(batch._id, 2);
    const second = await book(batch._id, 2);
    await deposit(first, 300, 'SBK3MOVE01').expect(200);
    await deposit(second, 300, 'SBK3REFU01').expect(200);
    await m.t
      .http()
      .post(`/api/batches/${batch._id}/fail`)
      .set(bearer(staff.accessToken))
      .send({ note: 'Damping off' })
      .expect(201);
    expect((await get(first._id)).booking).toMatchObject({ state: 'Affected', problem: 'failed' });
    await waitFor(
      async () => textsTo(second, /did not grow as planned/).length,
      (n) => n === 1,
      10_000,
      100,
    );

    const moved = await m.t
      .http()
      .post(`/api/orders/${first._id}/booking/move`)
      .set(bearer(staff.accessToken))
      .send({ batchId: next._id })
      .expect(200);
    expect(moved.body.order).toMatchObject({
      amountPaid: 300,
      booking: { state: 'Booked', batchId: next._id, movedFromBatchId: batch._id },
    });
    expect((await batchNow(next._id)).available).toBe(98);

    const refunded = await m.t
      .http()
      .post(`/api/orders/${second._id}/booking/refund`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(refunded.body.order).toMatchObject({
      orderStatus: 'Cancelled',
      booking: { state: 'Refunded' },
    });
    // Refunded as any paid order's refund is: recorded, sent by M-Pesa.
    const refunds = await waitFor(
      async () =>
        (
          await m.t
            .http()
            .get(`/api/payments/mpesa/orders/${second._id}`)
            .set(bearer(staff.accessToken))
        ).body.refunds as { amount: number; status: string }[],
      (r) => r[0]?.status === 'sent',
      15_000,
      200,
    );
    expect(refunds[0]!.amount).toBe(300);
    // Only an affected booking moves or is refunded.
    await m.t
      .http()
      .post(`/api/orders/${first._id}/booking/refund`)
      .set(bearer(staff.accessToken))
      .expect(409);
  });

  it('a move cut off by a crash after the new hold is undone by the sweep; the booking can move again', async () => {
    const batch = await newBatch(10, 30);
    const next = await newBatch(10, 90);
    const o = await book(batch._id, 2);
    await m.t
      .http()
      .post(`/api/batches/${batch._id}/fail`)
      .set(bearer(staff.accessToken))
      .send({ note: 'frost' })
      .expect(201);
    // What a crash right after taking the new hold leaves: the move claimed, the seedlings held.
    const affected = (await m.t.app.get(OrderBookings, { strict: false }).find(o._id))!;
    expect(await m.t.app.get(OrderBookings, { strict: false }).claimMove(affected, next._id)).toBe(
      true,
    );
    await m.t.app.get(BatchesService, { strict: false }).hold(next._id, productId, o._id, 2);
    expect((await batchNow(next._id)).available).toBe(8);
    // Another move meanwhile is refused (one move at a time).
    await m.t
      .http()
      .post(`/api/orders/${o._id}/booking/move`)
      .set(bearer(staff.accessToken))
      .send({ batchId: next._id })
      .expect(409);
    expect(await life.finishMoves(new Date(Date.now() + 120_000))).toBe(1);
    expect((await batchNow(next._id)).available).toBe(10);
    expect((await get(o._id)).booking!.state).toBe('Affected');
    await m.t
      .http()
      .post(`/api/orders/${o._id}/booking/move`)
      .set(bearer(staff.accessToken))
      .send({ batchId: next._id })
      .expect(200);
    expect((await batchNow(next._id)).available).toBe(8);
    expect(await life.finishMoves(new Date(Date.now() + 120_000))).toBe(0);
  });

  it('a shortfall affects the latest bookings only, told by SMS', async () => {
    const batch = await newBatch(10);
    const early = await book(batch._id, 4);
    const middle = await book(batch._id, 4);
    const late = await book(batch._id, 2);
    await m.t
      .http()
      .post(`/api/batches/${batch._id}/losses`)
      .set(bearer(staff.accessToken))
      .send({ quantity: 4, note: 'Hail' })
      .expect(201);
    expect((await get(early._id)).booking!.state).toBe('Deposit due');
    expect((await get(middle._id)).booking).toMatchObject({ state: 'Affected', problem: 'short' });
    expect((await get(late._id)).booking).toMatchObject({ state: 'Affected', problem: 'short' });
    await waitFor(
      async () => textsTo(late, /did not grow as planned/).length,
      (n) => n === 1,
      10_000,
      100,
    );
    // An affected booking takes no money until it is moved or refunded.
    await deposit(middle, 600, 'SBK4SHORT1').expect(409);
  });

  it('money stays clear: the report separates deposits and balances from sales; the dashboard tiles', async () => {
    const day = inDays(0);
    const report = await m.t
      .http()
      .get(`/api/sales-summary/report?from=${day}&to=${day}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    // Deposits so far: 450 + 300 (staff) + 600 (paybill) + 300 + 300 + 300; balances 1050 + 700 + 1400.
    expect(report.body.moneyReceived).toEqual({
      deposits: 2250,
      depositCount: 6,
      balances: 3150,
      balanceCount: 3,
    });
    // Sales completed: the three bookings paid in full, for their whole totals.
    expect(report.body.totals).toMatchObject({ orders: 3, revenue: 1500 + 1000 + 2000 });

    const before = await m.t
      .http()
      .get('/api/sales-summary')
      .set(bearer(admin.accessToken))
      .expect(200);
    const batch = await newBatch(100, 1);
    // Tomorrow is next week on a Sunday (Nairobi): a batch due today stands for this week's then.
    if (new Date(`${inDays(0)}T12:00:00Z`).getUTCDay() === 0) await newBatch(100, 0);
    const o = await book(batch._id, 2);
    await deposit(o, 300, 'SBK5TILES1').expect(200);
    await readyBatch(batch._id);
    const after = await m.t
      .http()
      .get('/api/sales-summary')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(after.body.batchesReadyThisWeek).toBeGreaterThanOrEqual(1);
    // Due in 7 days (the default BOOKING_BALANCE_DAYS): within the coming seven days, so counted
    // whatever today's weekday.
    const counted = 1;
    expect(after.body.balancesDueThisWeek.count - before.body.balancesDueThisWeek.count).toBe(
      counted,
    );
    expect(after.body.balancesDueThisWeek.amount - before.body.balancesDueThisWeek.amount).toBe(
      counted * 700,
    );
  });

  it('lets staff record deposits, staff or the owning customer move or refund, staff and admin read the queue', async () => {
    const owner = await registerCustomer(m.t);
    const stranger = await registerCustomer(m.t);
    const admin_ = admin.accessToken;
    const later = await newBatch(1000, 120);
    /** A fresh affected booking of `owner` (its batch failed). */
    const affected = async () => {
      const batch = await newBatch(10);
      const res = await placeOrder(
        m.t,
        [{ _id: productId, quantity: 1, batchId: batch._id } as never],
        {
          token: owner.accessToken,
          guestInfo: guest(),
        },
      ).expect(201);
      await m.t
        .http()
        .post(`/api/batches/${batch._id}/fail`)
        .set(bearer(staff.accessToken))
        .send({ note: 'wilt' })
        .expect(201);
      return res.body.order as Order;
    };
    const call = async (route: (typeof BOOKING_ROUTES)[number], token?: string) => {
      const [method, template] = route.split(' ') as [string, string];
      let url = template;
      let body: object | undefined;
      if (route.endsWith('/deposit')) {
        const o = await book((await newBatch(10))._id, 1);
        url = template.replace('{id}', o._id);
        body = {
          transactionCode: `SAC${Math.random().toString(36).slice(2, 9).toUpperCase()}`,
          amount: 150,
        };
      } else if (template.includes('{id}')) {
        url = template.replace('{id}', (await affected())._id);
        if (route.endsWith('/move')) body = { batchId: later._id };
      } else if (route.endsWith('/queue')) url = `${template}?tab=affected`;
      const req =
        method === 'GET'
          ? m.t.http().get(url)
          : m.t
              .http()
              .post(url)
              .send(body ?? {});
      return token ? req.set(bearer(token)) : req;
    };
    const allowed: Record<(typeof BOOKING_ROUTES)[number], string[]> = {
      'POST /api/orders/{id}/booking/deposit': [staff.accessToken],
      'POST /api/orders/{id}/booking/move': [staff.accessToken, owner.accessToken],
      'POST /api/orders/{id}/booking/refund': [staff.accessToken, owner.accessToken],
      'GET /api/bookings/queue': [staff.accessToken, admin_],
      'GET /api/bookings/counts': [staff.accessToken, admin_],
    };
    for (const route of BOOKING_ROUTES) {
      expect({ route, status: (await call(route)).status }).toEqual({ route, status: 401 });
      for (const token of allowed[route]) {
        const res = await call(route, token);
        expect({ route, status: res.status }).toEqual({ route, status: 200 });
      }
      const refused = [staff.accessToken, admin_, owner.accessToken].filter(
        (tk) => !allowed[route].includes(tk),
      );
      for (const token of refused) {
        // A customer on staff routes: 403; admin on the desk's payment and move/refund: 403.
        expect({ route, status: (await call(route, token)).status }).toEqual({
          route,
          status: 403,
        });
      }
    }
    // Another customer's booking is not theirs to move or refund (and is not told it exists).
    const theirs = await affected();
    await m.t
      .http()
      .post(`/api/orders/${theirs._id}/booking/refund`)
      .set(bearer(stranger.accessToken))
      .expect(404);
    await m.t
      .http()
      .post(`/api/orders/${theirs._id}/booking/move`)
      .set(bearer(stranger.accessToken))
      .send({ batchId: later._id })
      .expect(404);
    expect((await get(theirs._id)).booking!.state).toBe('Affected');
  });

  it('the bookings queue and its counts', async () => {
    const batch = await newBatch(20);
    const o = await book(batch._id, 1);
    const counts = await m.t
      .http()
      .get('/api/bookings/counts')
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(counts.body).toMatchObject({
      deposits: expect.any(Number),
      balances: expect.any(Number),
      dispatch: expect.any(Number),
      affected: expect.any(Number),
    });
    expect(counts.body.deposits).toBeGreaterThan(0);
    const page = await m.t
      .http()
      .get('/api/bookings/queue?tab=deposits')
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(page.body.orders.every((x: Order) => x.booking?.state === 'Deposit due')).toBe(true);
    expect(page.body.orders.map((x: Order) => x.purchaseNumber)).toContain(o.purchaseNumber);
    await m.t
      .http()
      .get('/api/bookings/queue?tab=nonsense')
      .set(bearer(staff.accessToken))
      .expect(400);
  });

  it('a booking paid in full whose batch failed stays paid when moved: no balance asked for, dispatched from the new batch', async () => {
    const batch = await newBatch(100, 30);
    const next = await newBatch(100, 90);
    const o = await book(batch._id, 2);
    await deposit(o, 300, 'SBK6PAID01').expect(200);
    await m.t
      .http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: 700 } })
      .expect(200);
    expect(await get(o._id)).toMatchObject({
      paymentStatus: 'Paid',
      amountPaid: 1000,
      booking: { state: 'Paid' },
    });
    await m.t
      .http()
      .post(`/api/batches/${batch._id}/fail`)
      .set(bearer(staff.accessToken))
      .send({ note: 'Blight' })
      .expect(201);
    expect((await get(o._id)).booking).toMatchObject({ state: 'Affected', problem: 'failed' });

    const moved = await m.t
      .http()
      .post(`/api/orders/${o._id}/booking/move`)
      .set(bearer(staff.accessToken))
      .send({ batchId: next._id })
      .expect(200);
    expect(moved.body.order).toMatchObject({
      paymentStatus: 'Paid',
      amountPaid: 1000,
      amountDueNow: 0,
      booking: { state: 'Paid', batchId: next._id, movedFromBatchId: batch._id },
    });

    await readyBatch(next._id);
    await life.sweep();
    expect(await get(o._id)).toMatchObject({
      paymentStatus: 'Paid',
      amountDueNow: 0,
      booking: { state: 'Paid', balanceDueBy: null },
    });
    const before = await batchNow(next._id);
    await m.t
      .http()
      .patch(`/api/orders/inTransit/${o._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(before.quantity - (await batchNow(next._id)).quantity).toBe(2);
    expect((await get(o._id)).booking!.fulfilledAt).not.toBeNull();
  });

  it('a booking of KES 1 has a deposit of KES 1, not 0', async () => {
    const penny = await world.createProduct({ price: 1, quantity: 1000 });
    const batch = await newBatch(10, 60, penny._id);
    const o = await book(batch._id, 1, penny._id);
    expect(o).toMatchObject({ totalAmount: 1, amountDueNow: 1 });
    expect(o.booking).toMatchObject({ state: 'Deposit due', deposit: 1, balance: 0 });
    const track = await m.t
      .http()
      .get(`/api/orders/track/new-order?purchaseNumber=${o.purchaseNumber}`)
      .expect(200);
    expect(track.body.booking).toMatchObject({ deposit: 1, amountDueNow: 1 });
    // The deposit can be taken, and it pays the booking in full.
    const paid = await deposit(o, 1, 'SBK7PENNY1').expect(200);
    expect(paid.body.order).toMatchObject({
      paymentStatus: 'Paid',
      amountPaid: 1,
      booking: { state: 'Paid' },
    });
  });
});

describe('bookings released with the refund policy', () => {
  let m: MpesaTestApp;
  let staff: Session;
  let productId: string;

  beforeAll(async () => {
    m = await createMpesaTestApp('bookings-refund', { BOOKING_RELEASE_DEPOSIT: 'refund' });
    const world = await createShopWorld(m.t, { product: { price: 500, quantity: 1000 } });
    staff = world.staff;
    productId = world.productId;
  });
  // Closing waits for the paybill and refund loop's pass in flight (this suite's refunds go to the
  // simulator); one clean-clone CI run saw it outlast the default 60 s, never seen alone (3 runs)
  // or in the whole e2e run since: more room, and the note says so.
  afterAll(() => m.close(), 180_000);

  it('refunds the deposit by M-Pesa and records the decision', async () => {
    const day = shopDay(new Date());
    const batch = (
      await m.t
        .http()
        .post('/api/batches')
        .set(bearer(staff.accessToken))
        .send({ productId, sownOn: addDays(day, -5), readyOn: addDays(day, 30), started: 50 })
        .expect(201)
    ).body.batch as Batch;
    const o = (
      await placeOrder(m.t, [{ _id: productId, quantity: 2, batchId: batch._id } as never], {
        guestInfo: guest(),
      }).expect(201)
    ).body.order as Order;
    await m.sim.payBill({
      account: o.purchaseNumber,
      amount: 300,
      phone: asDaraja(o.guestInfo.phoneNumber),
    });
    await waitFor(
      async () =>
        (await m.t.http().get(`/api/orders/${o._id}`).set(bearer(staff.accessToken))).body.order
          .booking.state as string,
      (state) => state === 'Booked',
      15_000,
      150,
    );
    await m.t
      .http()
      .post(`/api/batches/${batch._id}/ready`)
      .set(bearer(staff.accessToken))
      .expect(201);
    const life = m.t.app.get(BookingLifeService, { strict: false });
    expect(await life.releaseOverdue(new Date(Date.now() + 9 * 24 * 3_600_000))).toBe(1);
    const released = (
      await m.t.http().get(`/api/orders/${o._id}`).set(bearer(staff.accessToken)).expect(200)
    ).body.order as Order;
    expect(released).toMatchObject({
      orderStatus: 'Cancelled',
      booking: { state: 'Released', releaseDecision: 'refunded' },
    });
    const refunds = await waitFor(
      async () =>
        (await m.t.http().get(`/api/payments/mpesa/orders/${o._id}`).set(bearer(staff.accessToken)))
          .body.refunds as { amount: number; status: string }[],
      (r) => r[0]?.status === 'sent',
      15_000,
      200,
    );
    expect(refunds[0]!.amount).toBe(300);
  });
});
