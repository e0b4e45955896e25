/**
 * M-Pesa Express (issue 7) against the Daraja simulator in tools/mpesa: the API sends real HTTP
 * requests to it and it calls the API's callback URL back, as Safaricom would.
 */
import { MPESA_MESSAGES, type MpesaPushStatus } from '@spc/shared-contracts';
import type request from 'supertest';
import type { ScenarioName } from '../../tools/mpesa/simulator';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OTHER_PHONE_MESSAGE } from '../src/payments/mpesa.service';
import { PUSH_LIMITS } from '../src/payments/prompt-limits';
import {
  bearer,
  registerCustomer,
  signInAdmin,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { createMpesaTestApp, PAYMENT_ROUTES, type MpesaTestApp } from './support/mpesa';
import { createCategory, createProduct, DELIVERY, guest, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { waitFor } from './support/wait';
import { createTestApp } from './support/test-app';
import { earlyInAWindow } from './support/rate-window';

interface PlacedOrder {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
  /** The phone number on the order: a prompt from an anonymous checkout may only go there. */
  phone: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The prompt limits count in fixed ten-minute windows (common/quota.ts): a test of "at most N in
 * ten minutes" starts its burst at least two minutes before the end (a loaded machine took over
 * half a minute for 40 prompts).
 */
const awayFromWindowEdge = () => earlyInAWindow(PUSH_LIMITS.windowMs, 120_000);
// A test may wait up to two minutes for the next window before its own steps.
jest.setTimeout(300_000);
let phoneSeq = Math.floor(Math.random() * 80_000_000);
/** A fresh Safaricom number per call, so scenarios and per-phone limits never collide. */
const newPhone = () => `07${10_000_000 + phoneSeq++}`;
const asDaraja = (phone: string) => `254${phone.slice(1)}`;

describe('M-Pesa Express', () => {
  let m: MpesaTestApp;
  let admin: Session;
  let staff: Session;
  let productId: string;

  beforeAll(async () => {
    m = await createMpesaTestApp('payments');
    ({ admin, staff, productId } = await createShopWorld(m.t, {
      product: { price: 450, quantity: 10_000 },
    }));
  });
  afterAll(() => m.close());

  async function order(quantity = 2, phone = newPhone()): Promise<PlacedOrder> {
    const res = await placeOrder(m.t, [{ _id: productId, quantity }], {
      guestInfo: { ...DELIVERY, phoneNumber: phone },
    }).expect(201);
    return { ...(res.body.order as PlacedOrder), phone };
  }

  function push(purchaseNumber: string, phoneNumber: string) {
    return m.t.http().post('/api/payments/mpesa/stk-push').send({ purchaseNumber, phoneNumber });
  }

  /** Pushes with a scenario chosen for this phone and answers the CheckoutRequestID. */
  async function pay(o: PlacedOrder, scenario: ScenarioName, phone = o.phone) {
    m.sim.setScenario(scenario, asDaraja(phone));
    const res = await push(o.purchaseNumber, phone).expect(200);
    return res.body.checkoutRequestId as string;
  }

  /** Polls the public status as the checkout does, until the prompt is no longer pending. */
  function settledStatus(id: string, timeoutMs = 15_000) {
    return waitFor(
      async () =>
        (await m.t.http().get(`/api/payments/mpesa/status/${id}`).expect(200)).body as {
          success: boolean;
          status: MpesaPushStatus;
          message: string;
        },
      (body) => body.status !== 'pending',
      timeoutMs,
      150,
    );
  }

  async function orderAsStaff(id: string) {
    return (await m.t.http().get(`/api/orders/${id}`).set(bearer(staff.accessToken)).expect(200))
      .body.order;
  }

  async function auditFor(orderId: string, action: string) {
    const res = await m.t
      .http()
      .get(`/api/audit-logs?action=${action}&limit=100`)
      .set(bearer(admin.accessToken))
      .expect(200);
    return (res.body as { target?: { id: string }; message: string }[]).filter(
      (e) => e.target?.id === orderId,
    );
  }

  it('offers M-Pesa Express at checkout when it is configured', async () => {
    const res = await m.t.http().get('/api/payments/options').expect(200);
    expect(res.body).toEqual({ success: true, message: 'Payment options', mpesaExpress: true });
  });

  it('sends the prompt for the order total and marks the order paid with the receipt, once, even when the callback comes twice', async () => {
    const phone = newPhone();
    const o = await order(2, phone);
    m.sim.setScenario('duplicate-callback', asDaraja(phone));
    const res = await push(o.purchaseNumber, `${phone.slice(0, 4)} ${phone.slice(4)}`).expect(200);
    expect(res.body).toEqual({
      success: true,
      message: MPESA_MESSAGES.promptSent,
      checkoutRequestId: expect.stringMatching(/^ws_CO_/),
    });
    const id = res.body.checkoutRequestId as string;

    const sent = m.sim.pushes.find((p) => p.checkoutRequestId === id)!;
    expect(sent.request).toMatchObject({
      BusinessShortCode: '174379',
      TransactionType: 'CustomerPayBillOnline',
      Amount: 900,
      PartyA: asDaraja(phone),
      PartyB: '174379',
      PhoneNumber: asDaraja(phone),
      AccountReference: o.purchaseNumber,
      CallBackURL: expect.stringMatching(/\/api\/payments\/mpesa\/callback\/[\w-]{24,}$/),
    });
    expect(String(sent.request.TransactionDesc).length).toBeLessThanOrEqual(13);

    const waiting = await m.t.http().get(`/api/payments/mpesa/status/${id}`).expect(200);
    expect(waiting.body).toEqual({
      success: true,
      status: 'pending',
      message: MPESA_MESSAGES.waiting,
    });

    const done = await m.sim.settled(id);
    expect(done.callbacksSent).toBe(2);
    expect(done.callbackStatuses).toEqual([200, 200]);
    expect(await settledStatus(id)).toEqual({
      success: true,
      status: 'paid',
      message: MPESA_MESSAGES.paid,
    });

    // The same callback once more, as Safaricom retries: answered 200, changes nothing.
    const replay = await m.t
      .http()
      .post(m.callbackUrl)
      .send({
        Body: {
          stkCallback: {
            MerchantRequestID: done.merchantRequestId,
            CheckoutRequestID: id,
            ResultCode: 0,
            ResultDesc: 'The service request is processed successfully.',
            CallbackMetadata: {
              Item: [
                { Name: 'Amount', Value: 900 },
                { Name: 'MpesaReceiptNumber', Value: done.outcome!.receipt },
                { Name: 'TransactionDate', Value: 20261122101010 },
              ],
            },
          },
        },
      })
      .expect(200);
    expect(replay.body).toMatchObject({ ResultCode: 0 });
    await sleep(300);

    const paid = await orderAsStaff(o._id);
    expect(paid).toMatchObject({
      paymentStatus: 'Paid',
      orderStatus: 'Processing',
      paymentMethod: 'Mpesa',
      paymentDetails: {
        amount: 900,
        transactionCode: done.outcome!.receipt,
        completedBy: { fullName: 'M-Pesa Express' },
      },
    });
    const transactionDate = String(done.outcome!.transactionDate);
    const nairobi = `${transactionDate.slice(0, 4)}-${transactionDate.slice(4, 6)}-${transactionDate.slice(6, 8)}T${transactionDate.slice(8, 10)}:${transactionDate.slice(10, 12)}:${transactionDate.slice(12, 14)}+03:00`;
    expect(paid.paymentDetails.timePaid).toBe(new Date(nairobi).toISOString());
    expect(paid.paidAt).toBe(new Date(nairobi).toISOString());

    const payments = await auditFor(o._id, 'order.payment');
    expect(payments).toHaveLength(1);
    expect(payments[0]!.message).toContain(done.outcome!.receipt!);
    expect((await auditFor(o._id, 'payment.mpesa.duplicate')).length).toBeGreaterThanOrEqual(2);
    expect(m.sim.tokensIssued()).toBe(1);
  });

  /** A success callback as someone holding the callback token could send it. */
  function forgedSuccess(id: string, amount: number, receipt: string) {
    return m.t
      .http()
      .post(m.callbackUrl)
      .send({
        Body: {
          stkCallback: {
            MerchantRequestID: 'forged',
            CheckoutRequestID: id,
            ResultCode: 0,
            ResultDesc: 'The service request is processed successfully.',
            CallbackMetadata: {
              Item: [
                { Name: 'Amount', Value: amount },
                { Name: 'MpesaReceiptNumber', Value: receipt },
                { Name: 'TransactionDate', Value: 20261122101010 },
              ],
            },
          },
        },
      })
      .expect(200);
  }

  describe('money confirmed, never inferred', () => {
    it("asks Daraja when the callback names another amount: paid as Daraja confirms, without that callback's receipt", async () => {
      const o = await order(1);
      const id = await pay(o, 'wrong-amount');
      expect(await settledStatus(id)).toMatchObject({
        status: 'paid',
        message: MPESA_MESSAGES.paid,
      });
      const done = await m.sim.settled(id);
      const after = await orderAsStaff(o._id);
      expect(after).toMatchObject({
        paymentStatus: 'Paid',
        paymentDetails: { amount: 450, transactionCode: id },
      });
      expect(after.paymentDetails.transactionCode).not.toBe(done.outcome!.receipt);
      const mismatch = await auditFor(o._id, 'payment.mpesa.mismatch');
      expect(mismatch).toHaveLength(1);
      expect(mismatch[0]!.message).toContain('KES 451');
      expect(await auditFor(o._id, 'payment.mpesa.failed')).toHaveLength(0);
    });

    it('does not let a forged wrong-amount success settle the prompt as failed: the real payment is recorded', async () => {
      const phone = newPhone();
      const o = await order(1, phone);
      // The real payment: paid after 2 s, and its callback is lost.
      m.sim.setScenario({ result: 'success', callback: 'none', delayMs: 2000 }, asDaraja(phone));
      const id = (await push(o.purchaseNumber, phone).expect(200)).body.checkoutRequestId as string;
      await forgedSuccess(id, 1, 'TFORGED0002');
      await sleep(500);
      expect((await m.t.http().get(`/api/payments/mpesa/status/${id}`)).body.status).toBe(
        'pending',
      );
      expect(await settledStatus(id)).toMatchObject({
        status: 'paid',
        message: MPESA_MESSAGES.paid,
      });
      expect(await orderAsStaff(o._id)).toMatchObject({
        paymentStatus: 'Paid',
        paymentDetails: { transactionCode: id },
      });
    });

    it('asks Daraja again about a prompt settled as failed, and records the payment it confirms later', async () => {
      const phone = newPhone();
      const o = await order(1, phone);
      // Daraja answers "timeout" to the status query, then the shopper's payment goes through.
      m.sim.setScenario(
        { result: 'success', queryFirst: 'timeout', callback: 'none', delayMs: 4000 },
        asDaraja(phone),
      );
      const id = (await push(o.purchaseNumber, phone).expect(200)).body.checkoutRequestId as string;
      expect(await settledStatus(id)).toMatchObject({ status: 'failed' });
      expect(await orderAsStaff(o._id)).toMatchObject({ paymentStatus: 'Pending' });
      const paid = await waitFor(
        () => orderAsStaff(o._id),
        (x) => x.paymentStatus === 'Paid',
        20_000,
        200,
      );
      expect(paid.paymentDetails).toMatchObject({ amount: 450, transactionCode: id });
      // The prompt's own record follows the order's payment (its write comes just after).
      const prompt = await waitFor(
        async () =>
          (await m.t.http().get(`/api/payments/mpesa/status/${id}`)).body.status as string,
        (status) => status === 'paid',
        10_000,
        100,
      );
      expect(prompt).toBe('paid');
      expect(await auditFor(o._id, 'payment.mpesa.reopened')).toHaveLength(1);
      expect(await auditFor(o._id, 'order.payment')).toHaveLength(1);
    });

    it('does not let a forged receipt win over the genuine late callback', async () => {
      const phone = newPhone();
      const o = await order(2, phone);
      // The status query pays it (after 1 s) well before Daraja's own callback comes.
      m.sim.setScenario({ result: 'success', lateCallbackMs: 4000 }, asDaraja(phone));
      const id = (await push(o.purchaseNumber, phone).expect(200)).body.checkoutRequestId as string;
      expect(await settledStatus(id)).toMatchObject({ status: 'paid' });
      await forgedSuccess(id, 900, 'tforged0003');
      const done = await m.sim.settled(id);
      expect(done.callbackStatuses).toEqual([200]);
      const disputed = await waitFor(
        () => auditFor(o._id, 'payment.mpesa.receipt-disputed'),
        (entries) => entries.length > 0,
        10_000,
        100,
      );
      expect(disputed[0]!.message).toContain('TFORGED0003');
      expect(disputed[0]!.message).toContain(done.outcome!.receipt!);
      // Neither code is on the order until the shop checks its statement: the forged one never
      // stays (the order goes back to the prompt's reference just after the dispute is audited).
      const final = await waitFor(
        () => orderAsStaff(o._id),
        (x) => x.paymentDetails.transactionCode === id,
        10_000,
        100,
      );
      expect(final.paymentDetails.transactionCode).toBe(id);
      await sleep(500);
      expect((await orderAsStaff(o._id)).paymentDetails.transactionCode).toBe(id);
    });
  });

  it('marks the order paid through the status query when no callback ever comes', async () => {
    const o = await order(3);
    const id = await pay(o, 'no-callback');
    expect(await settledStatus(id)).toMatchObject({ status: 'paid', message: MPESA_MESSAGES.paid });
    expect(m.sim.pushes.find((p) => p.checkoutRequestId === id)!.callbacksSent).toBe(0);
    const paid = await orderAsStaff(o._id);
    expect(paid).toMatchObject({
      paymentStatus: 'Paid',
      paymentMethod: 'Mpesa',
      paymentDetails: { amount: 1350, transactionCode: id },
    });
    expect(await auditFor(o._id, 'order.payment')).toHaveLength(1);
  });

  it('puts the receipt on the order when the callback comes after the status query paid it', async () => {
    const phone = newPhone();
    const o = await order(2, phone);
    // The query (after MPESA_RECONCILE_AFTER_MS, 1 s here) pays it well before the callback comes.
    m.sim.setScenario({ result: 'success', lateCallbackMs: 5000 }, asDaraja(phone));
    const id = (await push(o.purchaseNumber, phone).expect(200)).body.checkoutRequestId as string;
    expect(await settledStatus(id)).toMatchObject({ status: 'paid' });
    expect((await orderAsStaff(o._id)).paymentDetails.transactionCode).toBe(id);
    const done = await m.sim.settled(id);
    expect(done.callbackStatuses).toEqual([200]);
    let code = id;
    for (let i = 0; i < 100 && code === id; i++) {
      await sleep(100);
      code = (await orderAsStaff(o._id)).paymentDetails.transactionCode;
    }
    expect(code).toBe(done.outcome!.receipt);
    expect(await auditFor(o._id, 'order.payment')).toHaveLength(1);
    expect(await auditFor(o._id, 'order.payment.receipt')).toHaveLength(1);
  });

  it.each([
    ['cancelled', MPESA_MESSAGES.cancelled],
    ['timeout', MPESA_MESSAGES.timedOut],
    ['wrong-pin', MPESA_MESSAGES.wrongPin],
    ['insufficient', MPESA_MESSAGES.insufficientBalance],
  ] as const)(
    'tells the shopper when the prompt ends %s, and a new prompt can still pay',
    async (scenario, message) => {
      const phone = newPhone();
      const o = await order(1, phone);
      const id = await pay(o, scenario, phone);
      expect(await settledStatus(id)).toEqual({ success: true, status: 'failed', message });
      expect(await orderAsStaff(o._id)).toMatchObject({ paymentStatus: 'Pending' });
      // The prompt's state is written before its audit entry: the poll can see 'failed' first.
      const failed = await waitFor(
        () => auditFor(o._id, 'payment.mpesa.failed'),
        (entries) => entries.length > 0,
        10_000,
        100,
      );
      expect(failed).toHaveLength(1);

      const retry = await pay(o, 'success', phone);
      expect(await settledStatus(retry)).toMatchObject({ status: 'paid' });
      expect(await orderAsStaff(o._id)).toMatchObject({ paymentStatus: 'Paid' });
    },
  );

  it('does not believe a success callback that Daraja does not confirm', async () => {
    const phone = newPhone();
    const o = await order(1, phone);
    m.sim.setScenario({ result: 'success', callback: 'none', delayMs: 60_000 }, asDaraja(phone));
    const id = (await push(o.purchaseNumber, phone).expect(200)).body.checkoutRequestId as string;
    await forgedSuccess(id, 450, 'TFORGED0001');
    await sleep(2000);
    expect((await m.t.http().get(`/api/payments/mpesa/status/${id}`)).body.status).toBe('pending');
    expect(await orderAsStaff(o._id)).toMatchObject({ paymentStatus: 'Pending' });
  });

  it('refuses callbacks without the secret token, and ignores prompts it never sent', async () => {
    const wrong = await m.t
      .http()
      .post('/api/payments/mpesa/callback/not-the-token-0123456789abcdef')
      .send({ Body: { stkCallback: { CheckoutRequestID: 'x', ResultCode: 0 } } });
    expect(wrong.status).toBe(404);
    await m.t
      .http()
      .post(m.callbackUrl)
      .send({ Body: { stkCallback: { CheckoutRequestID: 'ws_CO_unknown', ResultCode: 0 } } })
      .expect(200);
    await m.t.http().post(m.callbackUrl).send({ something: 'else' }).expect(200);
    const unknown = await m.t.http().get('/api/payments/mpesa/status/ws_CO_unknown').expect(404);
    expect(unknown.body.message).toBe(MPESA_MESSAGES.unknownPrompt);
  });

  it('refuses prompts for paid, cancelled, dispatched or unknown orders and for numbers that are not Safaricom lines', async () => {
    const paid = await order(1);
    await m.t
      .http()
      .patch(`/api/orders/complete-payment/${paid._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: paid.totalAmount } })
      .expect(200);
    expect((await push(paid.purchaseNumber, newPhone()).expect(409)).body.message).toBe(
      MPESA_MESSAGES.alreadyPaid,
    );

    const cancelled = await order(1);
    await m.t
      .http()
      .patch(`/api/orders/cancel/${cancelled._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect((await push(cancelled.purchaseNumber, newPhone()).expect(409)).body.message).toBe(
      MPESA_MESSAGES.orderCancelled,
    );

    const shipped = await order(1);
    await m.t
      .http()
      .patch(`/api/orders/inTransit/${shipped._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect((await push(shipped.purchaseNumber, newPhone()).expect(409)).body.message).toBe(
      MPESA_MESSAGES.orderNotPending,
    );

    expect((await push('SPD22222222', newPhone()).expect(404)).body.message).toBe(
      MPESA_MESSAGES.unknownOrder,
    );
    const open = await order(1);
    expect((await push(open.purchaseNumber, '0212345678').expect(400)).body.message).toBe(
      MPESA_MESSAGES.invalidPhone,
    );
    // The amount is the order's: a client cannot name one.
    await m.t
      .http()
      .post('/api/payments/mpesa/stk-push')
      .send({ purchaseNumber: open.purchaseNumber, phoneNumber: newPhone(), amount: 1 })
      .expect(400);
    expect(m.sim.pushes.some((p) => p.request.AccountReference === open.purchaseNumber)).toBe(
      false,
    );
  });

  it(`limits prompts to ${PUSH_LIMITS.perOrder} per order and ${PUSH_LIMITS.perPhone} per phone in ${PUSH_LIMITS.windowMs / 60_000} minutes`, async () => {
    await awayFromWindowEdge();
    const phone = newPhone();
    const first = await order(1, phone);
    m.sim.setScenario({ result: 'cancelled', delayMs: 30_000 }, asDaraja(phone));
    for (let i = 0; i < PUSH_LIMITS.perOrder; i++)
      await push(first.purchaseNumber, phone).expect(200);
    const perOrder = await push(first.purchaseNumber, phone).expect(429);
    expect(perOrder.body).toMatchObject({
      success: false,
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: MPESA_MESSAGES.tooManyForOrder,
    });

    const second = await order(1, phone);
    for (let i = PUSH_LIMITS.perOrder; i < PUSH_LIMITS.perPhone; i++)
      await push(second.purchaseNumber, phone).expect(200);
    const perPhone = await push(second.purchaseNumber, phone).expect(429);
    expect(perPhone.body.message).toBe(MPESA_MESSAGES.tooManyForPhone);
    // Another phone may still pay the second order (staff may prompt any phone).
    await push(second.purchaseNumber, newPhone()).set(bearer(staff.accessToken)).expect(200);
  });

  const reachedPhone = (phone: string) =>
    m.sim.pushes.filter((p) => String(p.request.PhoneNumber) === asDaraja(phone)).length;

  it(`sends ${PUSH_LIMITS.perOrder} prompts for one order when 40 are asked at once`, async () => {
    await awayFromWindowEdge();
    const phone = newPhone();
    m.sim.setScenario({ result: 'cancelled', delayMs: 30_000 }, asDaraja(phone));
    const o = await order(1, phone);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => push(o.purchaseNumber, phone)),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(PUSH_LIMITS.perOrder);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(40 - PUSH_LIMITS.perOrder);
    expect(reachedPhone(phone)).toBe(PUSH_LIMITS.perOrder);
  });

  it(`sends ${PUSH_LIMITS.perPhone} prompts to one phone in ten minutes when 40 orders naming it ask at once`, async () => {
    await awayFromWindowEdge();
    const phone = newPhone();
    m.sim.setScenario({ result: 'cancelled', delayMs: 30_000 }, asDaraja(phone));
    const orders = await Promise.all(Array.from({ length: 40 }, () => order(1, phone)));
    const answers = await Promise.all(orders.map((o) => push(o.purchaseNumber, phone)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(PUSH_LIMITS.perPhone);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.body.message).toBe(MPESA_MESSAGES.tooManyForPhone);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(reachedPhone(phone)).toBe(PUSH_LIMITS.perPhone);
  });

  it('keeps every payments route public: a token neither helps nor hurts', async () => {
    const quiet = newPhone();
    const o = await order(1, quiet);
    const id = await pay(o, 'cancelled');
    await settledStatus(id);
    m.sim.setScenario({ result: 'cancelled', delayMs: 30_000 }, asDaraja(quiet));
    const calls: Record<(typeof PAYMENT_ROUTES)[number], () => request.Test> = {
      'GET /api/payments/options': () => m.t.http().get('/api/payments/options'),
      'POST /api/payments/mpesa/stk-push': () => push(o.purchaseNumber, quiet),
      'GET /api/payments/mpesa/status/{checkoutRequestId}': () =>
        m.t.http().get(`/api/payments/mpesa/status/${id}`),
      'POST /api/payments/mpesa/callback/{token}': () => m.t.http().post(m.callbackUrl).send({}),
      'GET /api/payments/mpesa/pay-info/{purchaseNumber}': () =>
        m.t.http().get(`/api/payments/mpesa/pay-info/${o.purchaseNumber}`),
    };
    for (const route of PAYMENT_ROUTES) {
      for (const token of [undefined, staff.accessToken, admin.accessToken]) {
        const req = calls[route]();
        const res = await (token ? req.set(bearer(token)) : req);
        expect([route, res.status]).toEqual([route, 200]);
      }
    }
  });
});

describe('M-Pesa prompts reaching one phone', () => {
  const BURST = 40;
  /** Under the ten-minute limit, so that a burst shows the day's limit alone. */
  const PER_PHONE_PER_DAY = 3;
  let m: MpesaTestApp;
  let staff: Session;
  let productId: string;

  beforeAll(async () => {
    m = await createMpesaTestApp('prompts', {
      MPESA_PROMPTS_PER_PHONE_PER_DAY: String(PER_PHONE_PER_DAY),
    });
    ({ staff, productId } = await createShopWorld(m.t, {
      product: { price: 350, quantity: 10_000 },
    }));
  });
  afterAll(() => m.close());

  async function order(phone: string) {
    const res = await placeOrder(m.t, [{ _id: productId, quantity: 1 }], {
      guestInfo: { ...DELIVERY, phoneNumber: phone },
    }).expect(201);
    return res.body.order as { purchaseNumber: string };
  }
  const push = (purchaseNumber: string, phoneNumber: string, token?: string) => {
    const req = m.t.http().post('/api/payments/mpesa/stk-push');
    return (token ? req.set(bearer(token)) : req).send({ purchaseNumber, phoneNumber });
  };
  const reached = (phone: string) =>
    m.sim.pushes.filter((p) => String(p.request.PhoneNumber) === asDaraja(phone)).length;

  it(`sends ${PER_PHONE_PER_DAY} prompts a day to one phone however it is typed, ${BURST} at once (MPESA_PROMPTS_PER_PHONE_PER_DAY)`, async () => {
    const phone = newPhone();
    m.sim.setScenario({ result: 'cancelled', delayMs: 30_000 }, asDaraja(phone));
    const national = phone.slice(1);
    const spellings = [
      phone,
      `+254${national}`,
      `254 ${national}`,
      `0${national.slice(0, 3)} ${national.slice(3)}`,
    ];
    // Staff may prompt any phone for any order: the day's limit holds across orders and spellings.
    const orders = await Promise.all(Array.from({ length: BURST }, () => order(newPhone())));
    const answers = await Promise.all(
      orders.map((o, i) => push(o.purchaseNumber, spellings[i % 4]!, staff.accessToken)),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(PER_PHONE_PER_DAY);
    expect(answers.find((r) => r.status === 429)!.body.message).toBe(
      MPESA_MESSAGES.tooManyForPhoneToday,
    );
    expect(reached(phone)).toBe(PER_PHONE_PER_DAY);
  });
});

describe("M-Pesa prompts over the day's budget", () => {
  const BUDGET = 4;
  let m: MpesaTestApp;
  let dataDir: string;
  let productId: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spc-prompt-budget-'));
    m = await createMpesaTestApp('promptbudget', {
      MPESA_PROMPTS_PER_DAY: String(BUDGET),
      DATA_DIR: dataDir,
    });
    const admin = await signInAdmin(m.t);
    const category = await createCategory(m.t, admin.accessToken);
    productId = (
      await createProduct(m.t, admin.accessToken, category._id, { productQuantity: 10_000 })
    )._id;
  });
  afterAll(async () => {
    await m.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(`sends ${BUDGET} prompts when 30 shoppers ask at once, then pauses them and tells the shop once`, async () => {
    const phones = Array.from({ length: 30 }, newPhone);
    for (const p of phones)
      m.sim.setScenario({ result: 'cancelled', delayMs: 30_000 }, asDaraja(p));
    const orders = await Promise.all(
      phones.map(async (phone) => {
        // Thirty shoppers: each their own phone and e-mail (one e-mail for all would be one person
        // placing thirty orders at once, which the open-order caps refuse as a flood).
        const res = await placeOrder(m.t, [{ _id: productId, quantity: 1 }], {
          guestInfo: { ...DELIVERY, phoneNumber: phone, email: `shopper-${phone}@example.co.ke` },
        }).expect(201);
        return { purchaseNumber: res.body.order.purchaseNumber as string, phone };
      }),
    );
    const answers = await Promise.all(
      orders.map((o) =>
        m.t
          .http()
          .post('/api/payments/mpesa/stk-push')
          .send({ purchaseNumber: o.purchaseNumber, phoneNumber: o.phone }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(BUDGET);
    const paused = answers.filter((r) => r.status === 503);
    expect(paused).toHaveLength(30 - BUDGET);
    expect(paused[0]!.body.message).toBe(MPESA_MESSAGES.pausedForToday);
    expect(m.sim.pushes).toHaveLength(BUDGET);
    const alerts = await waitFor(
      async () =>
        (await readdir(path.join(dataDir, 'outbox')).catch(() => [] as string[])).filter((f) =>
          f.includes('m-pesa-prompts-used-up'),
        ),
      (files) => files.length > 0,
      10_000,
    );
    await sleep(300);
    const mail = await readFile(path.join(dataDir, 'outbox', alerts[0]!), 'utf8');
    expect(mail).toContain(`To: ${m.t.config.admin.email}`);
    expect(mail).toContain('MPESA_PROMPTS_PER_DAY');
    // Once a day, however many were refused (only the admin works at this shop).
    expect(
      (await readdir(path.join(dataDir, 'outbox'))).filter((f) =>
        f.includes('m-pesa-prompts-used-up'),
      ),
    ).toHaveLength(1);
  });
});

describe('M-Pesa Express when it is not configured', () => {
  it('is not offered, refuses prompts with a message and has no callback', async () => {
    const t = await createTestApp({ name: 'payments_off', env: UNTHROTTLED });
    try {
      expect((await t.http().get('/api/payments/options').expect(200)).body.mpesaExpress).toBe(
        false,
      );
      const { product } = await createShopWorld(t, { product: { price: 350, quantity: 40 } });
      const o = (await placeOrder(t, [{ _id: product._id, quantity: 1 }]).expect(201)).body.order;
      const res = await t
        .http()
        .post('/api/payments/mpesa/stk-push')
        .send({ purchaseNumber: o.purchaseNumber, phoneNumber: DELIVERY.phoneNumber })
        .expect(503);
      expect(res.body.message).toBe(MPESA_MESSAGES.notAvailable);
      await t
        .http()
        .post('/api/payments/mpesa/callback/test-callback-token-0123456789abcdef')
        .send({})
        .expect(404);
    } finally {
      await t.close();
    }
  });
});

describe('M-Pesa callbacks with an address allow-list', () => {
  it("refuses callbacks from addresses other than Safaricom's", async () => {
    const m = await createMpesaTestApp('payments_allow', {
      MPESA_CALLBACK_ALLOWED_IPS: '196.201.214.200,196.201.214.206',
    });
    try {
      const res = await m.t.http().post(m.callbackUrl).send({}).expect(403);
      expect(res.body.message).toBe('This address may not send M-Pesa callbacks');
    } finally {
      await m.close();
    }
  });
});

describe("M-Pesa: failure callbacks checked with Daraja, prompts to the order's phone", () => {
  let m: MpesaTestApp;
  let staff: Session;
  let admin: Session;
  let productId: string;

  beforeAll(async () => {
    m = await createMpesaTestApp('payments_forged');
    ({ staff, admin, productId } = await createShopWorld(m.t));
  });
  afterAll(() => m.close());

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
