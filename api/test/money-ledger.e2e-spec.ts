/**
 * The money ledger (issue 38): every shilling in or out is one entry; one M-Pesa code is one entry
 * whichever way it came (desk, paybill, deposit, balance, M-Pesa Express); money goes back only to
 * who paid, only what came in, only by the shop. Concurrent clerks, replayed and forged Daraja
 * callbacks and shoppers' requests against the Daraja simulator over HTTP, asserted as a clerk, a
 * shopper or Daraja sees them: HTTP answers, the order's amounts, its `money` block, the payments
 * inbox, the refunds list and the transfers the simulator was asked for.
 */
import { randomBytes } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import type request from 'supertest';
import { BookingLifeService } from '../src/bookings/booking-life.service';
import type { Actor } from '../src/common/principal';
import { MoneyLedgerService } from '../src/money/money-ledger.service';
import { OrderReconciler } from '../src/orders/order-reconciler';
import { MpesaRefundsService } from '../src/payments/c2b/mpesa-refunds.service';
import { addDays, shopDay } from '../src/common/shop-clock';
import { bearer, createStaff, registerCustomer, type Session } from './support/identity';
import { createMpesaTestApp, MPESA_TEST_SETTINGS, type MpesaTestApp } from './support/mpesa';
import { DELIVERY, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { sleep, waitFor } from './support/wait';

interface Booking {
  state: string;
  deposit: number;
  balance: number;
  batchId: string;
  releaseDecision?: 'kept' | 'refunded' | null;
}
interface Order {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
  amountPaid: number;
  amountOutstanding: number;
  excessPaid: number;
  amountDueNow: number;
  paymentStatus: string;
  orderStatus: string;
  booking: Booking | null;
  guestInfo: { phoneNumber: string };
}
interface MoneyEntry {
  id: string;
  direction: 'in' | 'out';
  kind: string;
  amount: number;
  code: string | null;
  reference: string;
  state: string;
  payer: string | null;
  by: { fullName: string; role: string } | null;
  of: string | null;
  returned: number;
}
interface Money {
  received: number;
  refunded: number;
  refundable: number;
  entries: MoneyEntry[];
}
interface Payment {
  transId: string;
  amount: number;
  account: string;
  status: string;
  reason: string;
  purchaseNumber: string | null;
  excess: number;
  refundId: string | null;
}
interface Refund {
  id: string;
  method: string;
  amount: number;
  status: string;
  originalTransId: string;
  attempts: number;
}
type Answer = request.Response;

let phoneSeq = Math.floor(Math.random() * 80_000_000);
/** A fresh Safaricom number per call, so simulator scenarios never collide. */
const newPhone = () => `07${10_000_000 + phoneSeq++}`;
const asDaraja = (phone: string) => `254${phone.slice(1)}`;
/** A fresh M-Pesa code, as M-Pesa writes them. */
const newCode = () => `SML${randomBytes(4).toString('hex').toUpperCase().slice(0, 7)}`;
const statuses = (answers: Answer[]) => answers.map((a) => a.status).sort((a, b) => a - b);
const token = MPESA_TEST_SETTINGS.MPESA_CALLBACK_TOKEN;

describe('money ledger: money moves exactly once', () => {
  let m: MpesaTestApp;
  let admin: Session;
  let staff: Session;
  /** Five clerks at five desks. */
  let clerks: Session[];
  let productId: string;

  beforeAll(async () => {
    m = await createMpesaTestApp('money-ledger', { BOOKING_DEPOSIT_PERCENT: '30' });
    const world = await createShopWorld(m.t, { product: { price: 500, quantity: 100_000 } });
    ({ admin, staff, productId } = world);
    clerks = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => createStaff(m.t, admin.accessToken, { fullName: `Clerk ${i}` })),
    );
    await waitFor(
      async () => m.sim.c2b.registrations.length,
      (n) => n > 0,
      10_000,
      100,
    );
  });
  // Closing waits for the paybill and refund loop's pass in flight.
  afterAll(() => m.close(), 120_000);

  const http = () => m.t.http();

  // --- Orders and bookings -------------------------------------------------------------------

  async function order(
    options: { quantity?: number; phone?: string; token?: string; guestInfo?: object } = {},
  ): Promise<Order> {
    const phone = options.phone ?? newPhone();
    const res = await placeOrder(m.t, [{ _id: productId, quantity: options.quantity ?? 2 }], {
      token: options.token,
      guestInfo: options.guestInfo ?? { ...DELIVERY, phoneNumber: phone },
    });
    if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.order as Order;
  }

  const inDays = (n: number) => addDays(shopDay(new Date()), n);
  async function newBatch(started = 1000, readyIn = 60): Promise<string> {
    const res = await http()
      .post('/api/batches')
      .set(bearer(staff.accessToken))
      .send({ productId, sownOn: inDays(-10), readyOn: inDays(readyIn), started })
      .expect(201);
    return res.body.batch._id as string;
  }

  async function booking(
    batchId: string,
    options: { quantity?: number; token?: string; phone?: string } = {},
  ): Promise<Order> {
    const res = await placeOrder(
      m.t,
      [{ _id: productId, quantity: options.quantity ?? 2, batchId } as never],
      {
        token: options.token,
        guestInfo: { ...DELIVERY, phoneNumber: options.phone ?? newPhone() },
      },
    );
    if (res.status !== 201) throw new Error(`booking: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.order as Order;
  }

  const get = async (id: string): Promise<Order> =>
    (await http().get(`/api/orders/${id}`).set(bearer(staff.accessToken)).expect(200)).body
      .order as Order;
  const until = (id: string, done: (o: Order) => boolean) =>
    waitFor(() => get(id), done, 15_000, 100);

  /** The order's money as its detail page shows it (staff by default). */
  async function moneyOf(id: string, as: Session = staff): Promise<Money> {
    const res = await http().get(`/api/orders/${id}/detail`).set(bearer(as.accessToken));
    if (res.status !== 200) throw new Error(`detail: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.money as Money;
  }

  /** The order's paybill payments and M-Pesa refunds, as the back office lists them. */
  async function mpesaOf(orderId: string): Promise<{ payments: Payment[]; refunds: Refund[] }> {
    const res = await http()
      .get(`/api/payments/mpesa/orders/${orderId}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    return res.body as { payments: Payment[]; refunds: Refund[] };
  }

  /**
   * The excess of a payment as a clerk sees it in the inbox: its order shows the excess a moment
   * before the payment's record is marked matched (only then can it be given back).
   */
  async function excessListed(transId: string, excess: number): Promise<void> {
    await waitFor(
      inbox,
      (list) => list.some((p) => p.transId === transId && p.excess === excess),
      15_000,
      100,
    );
  }

  async function inbox(): Promise<Payment[]> {
    const res = await http()
      .get('/api/payments/mpesa/inbox')
      .set(bearer(staff.accessToken))
      .expect(200);
    return res.body.payments as Payment[];
  }

  /** A paybill payment once it waits in the inbox. */
  async function inInbox(transId: string): Promise<Payment> {
    const found = await waitFor(
      async () => (await inbox()).find((p) => p.transId === transId && p.status === 'inbox'),
      (p) => p !== undefined,
      15_000,
      100,
    );
    if (!found) throw new Error(`paybill payment ${transId} never reached the inbox`);
    return found;
  }

  /** Where a paybill payment ended: matched to this order, or waiting in the inbox. */
  async function landed(transId: string, orderId: string): Promise<'matched' | 'inbox'> {
    const where = await waitFor(
      async () => {
        if ((await mpesaOf(orderId)).payments.some((p) => p.transId === transId)) return 'matched';
        if ((await inbox()).some((p) => p.transId === transId && p.status === 'inbox'))
          return 'inbox';
        return null;
      },
      (w) => w !== null,
      15_000,
      100,
    );
    if (!where) throw new Error(`paybill payment ${transId} went nowhere`);
    return where;
  }

  async function audit(action: string) {
    const res = await http()
      .get(`/api/audit-logs?action=${action}&limit=100`)
      .set(bearer(admin.accessToken))
      .expect(200);
    return res.body as { target?: { id: string }; message: string }[];
  }

  /** Transfers (reversals and B2C) Daraja was asked for that touch this payment or phone. */
  const transfersFor = (codeOrPhone: string) =>
    m.sim.c2b.refunds.filter(
      (r) =>
        r.request.TransactionID === codeOrPhone ||
        r.request.PartyB === codeOrPhone ||
        r.request.PartyB === asDaraja(codeOrPhone),
    );

  // --- The money routes ----------------------------------------------------------------------

  /** Complete Payment at the desk: an M-Pesa code a clerk read off the message. */
  const deskPay = (o: Order, code: string, amount: number, as: Session = staff) =>
    http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(as.accessToken))
      .send({
        paymentMethod: 'Mpesa',
        paymentDetails: { amount, transactionCode: code, timePaid: new Date().toISOString() },
      });

  const deskCash = (o: Order, amount: number, as: Session = staff) =>
    http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(as.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount } });

  const deposit = (o: Order, code: string, amount: number, as: Session = staff) =>
    http()
      .post(`/api/orders/${o._id}/booking/deposit`)
      .set(bearer(as.accessToken))
      .send({ transactionCode: code, amount });

  const assign = (transId: string, purchaseNumber: string, as: Session = staff) =>
    http()
      .post(`/api/payments/mpesa/c2b/${transId}/assign`)
      .set(bearer(as.accessToken))
      .send({ purchaseNumber });

  const refundPayment = (transId: string, as: Session = staff) =>
    http().post(`/api/payments/mpesa/c2b/${transId}/refund`).set(bearer(as.accessToken)).send({});

  const cancel = (id: string, body: object | undefined, as: Session) => {
    const req = http().patch(`/api/orders/cancel/${id}`).set(bearer(as.accessToken));
    return body === undefined ? req.send() : req.send(body);
  };

  /** A C2B confirmation posted straight to the API, as whoever has the callback token could. */
  const confirmation = (body: Record<string, unknown>) =>
    http().post(`/api/payments/mpesa/c2b/confirmation/${token}`).send(body);

  /** An M-Pesa Express prompt for what is due now, with the simulator's scenario for its phone. */
  async function prompt(
    o: Order,
    scenario: Parameters<MpesaTestApp['sim']['setScenario']>[0] = 'success',
  ): Promise<string> {
    const phone = o.guestInfo.phoneNumber;
    m.sim.setScenario(scenario, asDaraja(phone));
    const res = await http()
      .post('/api/payments/mpesa/stk-push')
      .send({ purchaseNumber: o.purchaseNumber, phoneNumber: phone });
    if (res.status !== 200) throw new Error(`stk-push: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.checkoutRequestId as string;
  }

  /** A paybill payment to an account that is no order: it waits in the inbox. */
  async function stray(amount: number, phone = newPhone()): Promise<Payment> {
    const paid = await m.sim.payBill({
      account: `lost ${randomBytes(3).toString('hex')}`,
      amount,
      phone: asDaraja(phone),
      validate: false,
    });
    return inInbox(paid.transId);
  }

  /** A part payment by paybill, with the purchase number as account; answers its code. */
  async function partPay(o: Order, amount: number): Promise<string> {
    const paid = await m.sim.payBill({
      account: o.purchaseNumber,
      amount,
      phone: asDaraja(o.guestInfo.phoneNumber),
    });
    await until(o._id, (x) => x.amountPaid >= amount);
    // The order takes the money first, its entry counts a moment later: wait for both.
    await waitFor(
      async () => (await moneyOf(o._id)).received,
      (r) => r >= amount,
      10_000,
      50,
    );
    return paid.transId;
  }

  // ============================================================================================
  // The issue's "Done when"
  // ============================================================================================

  it('two inbox payments assigned to one order at the same moment by two clerks: one credits it, the other stays in the inbox, credited nowhere', async () => {
    for (let round = 0; round < 3; round++) {
      const o = await order();
      const [a, b] = await Promise.all([stray(o.totalAmount), stray(o.totalAmount)]);
      const answers = await Promise.all([
        assign(a.transId, o.purchaseNumber, clerks[0]!),
        assign(b.transId, o.purchaseNumber, clerks[1]!),
      ]);
      expect(statuses(answers)).toEqual([200, 409]);
      const won = answers[0]!.status === 200 ? a : b;
      const lost = won === a ? b : a;

      expect(await get(o._id)).toMatchObject({
        paymentStatus: 'Paid',
        amountPaid: o.totalAmount,
        amountOutstanding: 0,
        excessPaid: 0,
      });
      const money = await moneyOf(o._id);
      expect(money).toMatchObject({ received: o.totalAmount, refunded: 0 });
      expect(money.entries.map((e) => [e.direction, e.code])).toEqual([['in', won.transId]]);
      expect((await mpesaOf(o._id)).payments.map((p) => p.transId)).toEqual([won.transId]);
      // The refused payment is back in the inbox, on no order; it is money that can still be used
      // once: assigned to an order that is due it, it pays that order and only that one.
      const back = (await inbox()).find((p) => p.transId === lost.transId);
      expect(back).toMatchObject({ status: 'inbox', excess: 0 });
      expect(back!.purchaseNumber ?? null).toBeNull();
      const other = await order();
      await assign(lost.transId, other.purchaseNumber).expect(200);
      expect(await get(other._id)).toMatchObject({ paymentStatus: 'Paid', excessPaid: 0 });
      expect((await get(o._id)).amountPaid).toBe(o.totalAmount);
    }
  }, 120_000);

  it("a booking's deposit recorded by 2 clerks at once, and by 5, with different codes or one code: credited once", async () => {
    const batch = await newBatch();
    for (const [n, oneCode] of [
      [2, false],
      [2, true],
      [5, false],
      [5, true],
    ] as const) {
      const b = await booking(batch);
      const deposit_ = b.booking!.deposit;
      const shared = newCode();
      const answers = await Promise.all(
        clerks.slice(0, n).map((c) => deposit(b, oneCode ? shared : newCode(), deposit_, c)),
      );
      expect({ n, oneCode, statuses: statuses(answers) }).toEqual({
        n,
        oneCode,
        statuses: [200, ...Array<number>(n - 1).fill(409)],
      });
      expect(await get(b._id)).toMatchObject({
        amountPaid: deposit_,
        paymentStatus: 'Pending',
        amountDueNow: b.totalAmount - deposit_,
        booking: { state: 'Booked' },
      });
      const money = await moneyOf(b._id);
      expect(money.received).toBe(deposit_);
      expect(money.entries).toHaveLength(1);
    }

    // One deposit code on five bookings at once: one of them is booked.
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => booking(batch)));
    const shared = newCode();
    const answers = await Promise.all(
      five.map((b, i) => deposit(b, shared, b.booking!.deposit, clerks[i]!)),
    );
    expect(statuses(answers)).toEqual([200, 409, 409, 409, 409]);
    const after = await Promise.all(five.map((b) => get(b._id)));
    expect(after.filter((o) => o.amountPaid > 0)).toHaveLength(1);
    expect(after.filter((o) => o.booking!.state === 'Booked')).toHaveLength(1);
  }, 120_000);

  it('one M-Pesa code through desk, paybill, deposit and balance, in every order of two of them: the second use is refused', async () => {
    const batch = await newBatch();
    type Use = 'desk' | 'paybill' | 'deposit' | 'balance';
    const USES: Use[] = ['desk', 'paybill', 'deposit', 'balance'];

    /** An order ready for this use of a code: ordinary and unpaid, or a booking due it. */
    async function payable(use: Use): Promise<Order> {
      if (use === 'desk' || use === 'paybill') return order();
      const b = await booking(batch);
      if (use === 'deposit') return b;
      await deposit(b, newCode(), b.booking!.deposit).expect(200);
      return get(b._id);
    }

    /** Uses the code on the order; answers the HTTP status (Daraja's for the paybill). */
    async function use(kind: Use, o: Order, code: string): Promise<Answer | { status: number }> {
      if (kind === 'desk' || kind === 'balance')
        return deskPay(o, code, o.totalAmount - o.amountPaid);
      if (kind === 'deposit') return deposit(o, code, o.booking!.deposit);
      const paid = await m.sim.payBill({
        account: o.purchaseNumber,
        amount: o.totalAmount - o.amountPaid,
        phone: asDaraja(o.guestInfo.phoneNumber),
        transId: code,
      });
      return { status: paid.confirmationStatuses[0] ?? 0 };
    }

    const pairs: [Use, Use][] = USES.flatMap((a) => USES.map((b): [Use, Use] => [a, b]));
    for (const [first, second] of pairs) {
      const code = newCode();
      const one = await payable(first);
      const firstAnswer = await use(first, one, code);
      expect({ first, status: firstAnswer.status }).toEqual({ first, status: 200 });
      if (first === 'paybill') expect(await landed(code, one._id)).toBe('matched');
      const paidOne = await get(one._id);
      expect(paidOne.amountPaid).toBeGreaterThan(one.amountPaid);

      const two = await payable(second);
      const answer = await use(second, two, code);
      if (second === 'paybill') {
        // Daraja is never answered with an error; the payment waits with its reason.
        expect({ first, second, status: answer.status }).toEqual({ first, second, status: 200 });
        if (first !== 'paybill') {
          const waiting = await inInbox(code);
          expect(waiting.reason).toContain(one.purchaseNumber);
          await assign(code, two.purchaseNumber).expect(409);
        } else {
          await sleep(500);
        }
      } else {
        expect({ first, second, status: answer.status }).toEqual({ first, second, status: 409 });
        expect((answer as Answer).body.message).toContain(one.purchaseNumber);
      }
      const after = await get(two._id);
      expect({ first, second, amountPaid: after.amountPaid }).toEqual({
        first,
        second,
        amountPaid: two.amountPaid,
      });
      expect((await get(one._id)).amountPaid).toBe(paidOne.amountPaid);
    }

    // A deposit's code is not the same booking's balance.
    const b = await booking(batch);
    const code = newCode();
    await deposit(b, code, b.booking!.deposit).expect(200);
    const balance = await deskPay(b, code, b.totalAmount - b.booking!.deposit).expect(409);
    expect(balance.body.message).toContain(b.purchaseNumber);
    expect(await get(b._id)).toMatchObject({
      amountPaid: b.booking!.deposit,
      booking: { state: 'Booked' },
    });

    // A code waiting in the inbox is not taken at the desk either.
    const waiting = await stray(700);
    const o = await order();
    const res = await deskPay(o, waiting.transId, o.totalAmount).expect(409);
    expect(res.body.message).toContain('inbox');
  }, 300_000);

  it('an M-Pesa Express receipt replayed as a paybill confirmation for another order credits nothing and cannot be used', async () => {
    const phone = newPhone();
    const a = await order({ phone });
    const b = await order();
    const id = await prompt(a);
    const receipt = (await m.sim.settled(id)).outcome!.receipt!;
    await until(a._id, (x) => x.paymentStatus === 'Paid');
    await waitFor(
      async () => (await moneyOf(a._id)).entries.map((e) => e.code),
      (codes) => codes.includes(receipt),
      10_000,
      100,
    );

    await confirmation({
      TransID: receipt,
      TransAmount: String(a.totalAmount),
      BillRefNumber: b.purchaseNumber,
      MSISDN: asDaraja(phone),
    }).expect(200);
    const waiting = await inInbox(receipt);
    expect(waiting.reason).toContain(a.purchaseNumber);
    expect(await get(b._id)).toMatchObject({ paymentStatus: 'Pending', amountPaid: 0 });
    expect((await moneyOf(b._id)).received).toBe(0);
    // Neither assigned nor reversed (which would reverse a's payment).
    await assign(receipt, b.purchaseNumber).expect(409);
    await refundPayment(receipt).expect(409);
    await sleep(700);
    expect(transfersFor(receipt)).toEqual([]);
    expect(await get(a._id)).toMatchObject({ paymentStatus: 'Paid', amountPaid: a.totalAmount });
  });

  it('a forged paybill confirmation waits unconfirmed in the inbox: assign 409, refund 409, nothing sent', async () => {
    const o = await order();
    const forged = newCode();
    await confirmation({
      TransID: forged,
      TransAmount: '50000',
      BillRefNumber: o.purchaseNumber,
      MSISDN: asDaraja(newPhone()),
    }).expect(200);
    const waiting = await inInbox(forged);
    expect(waiting.reason).toContain('M-Pesa did not confirm');
    await assign(forged, o.purchaseNumber).expect(409);
    await refundPayment(forged).expect(409);
    expect(await get(o._id)).toMatchObject({ paymentStatus: 'Pending', amountPaid: 0 });
    expect((await inbox()).find((p) => p.transId === forged)).toMatchObject({ status: 'inbox' });
    await sleep(700);
    expect(transfersFor(forged)).toEqual([]);
  });

  it('a customer never chooses a refund: cancel with a refund is 400 and changes nothing; their part-paid order is the shop to cancel (409 ASK_THE_SHOP)', async () => {
    const phone = newPhone();
    const me = await registerCustomer(m.t, { phoneNumber: `+254${phone.slice(1)}` });

    // Nothing received: a refund field is refused, and nothing changes; without it the cancel goes.
    const unpaid = await order({ token: me.accessToken, phone });
    const withRefund = await cancel(
      unpaid._id,
      { refund: { method: 'Cash', amount: unpaid.totalAmount, reference: 'cash back' } },
      me,
    );
    expect(withRefund.status).toBe(400);
    expect(withRefund.body.code).toBe('ASK_THE_SHOP');
    expect(await get(unpaid._id)).toMatchObject({ orderStatus: 'Pending', amountPaid: 0 });
    expect((await moneyOf(unpaid._id)).entries).toEqual([]);
    await cancel(unpaid._id, undefined, me).expect(200);

    // Part-paid: only the shop cancels it, and no field chooses method, amount or number.
    const part = await order({ token: me.accessToken, phone });
    const code = await partPay(part, 300);
    const plain = await cancel(part._id, undefined, me);
    expect(plain.status).toBe(409);
    expect(plain.body.code).toBe('ASK_THE_SHOP');
    const attempts: object[] = [
      {},
      { refund: null },
      { refund: { method: 'Mpesa', amount: 300, send: true } },
      { refund: { method: 'Mpesa', amount: 300, send: true }, phoneNumber: '0799000111' },
      { refund: { method: 'Mpesa', amount: 300, send: true, phoneNumber: '0799000111' } },
      { refund: { method: 'Cash', amount: 300, reference: 'handed over' } },
      { refund: { method: 'Mpesa', amount: 300, reference: 'SABCDEFGH1' } },
      { refund: { method: 'Mpesa', amount: 1, send: true } },
    ];
    for (const body of attempts) {
      const res = await cancel(part._id, body, me);
      expect({ body, status: res.status >= 400 && res.status < 500 }).toEqual({
        body,
        status: true,
      });
    }
    const valid = await cancel(
      part._id,
      { refund: { method: 'Mpesa', amount: 300, send: true } },
      me,
    );
    expect(valid.status).toBe(400);
    expect(valid.body.code).toBe('ASK_THE_SHOP');
    expect(await get(part._id)).toMatchObject({
      orderStatus: 'Pending',
      paymentStatus: 'Pending',
      amountPaid: 300,
    });
    expect(await moneyOf(part._id)).toMatchObject({ received: 300, refunded: 0 });
    await sleep(1200);
    expect(transfersFor(code)).toEqual([]);
    expect(transfersFor('0799000111')).toEqual([]);
    expect((await mpesaOf(part._id)).refunds).toEqual([]);
  });

  it('a fully paid booking refunded after its batch fails gives back its deposit and its balance, each to what paid it', async () => {
    const batch = await newBatch(100, 30);
    const b = await booking(batch);
    const deposit_ = b.booking!.deposit;
    const balance = b.totalAmount - deposit_;
    const id = await prompt(b);
    const receipt = (await m.sim.settled(id)).outcome!.receipt!;
    await until(b._id, (x) => x.booking?.state === 'Booked');
    const paid = await m.sim.payBill({
      account: b.purchaseNumber,
      amount: balance,
      phone: asDaraja(newPhone()),
    });
    await until(b._id, (x) => x.paymentStatus === 'Paid');
    await http()
      .post(`/api/batches/${batch}/fail`)
      .set(bearer(staff.accessToken))
      .send({ note: 'Damping off' })
      .expect(201);
    await until(b._id, (x) => x.booking?.state === 'Affected');

    await http()
      .post(`/api/orders/${b._id}/booking/refund`)
      .set(bearer(staff.accessToken))
      .expect(200);
    const money = await moneyOf(b._id);
    expect(money).toMatchObject({
      received: b.totalAmount,
      refunded: b.totalAmount,
      refundable: 0,
    });
    const outs = money.entries.filter((e) => e.direction === 'out');
    expect(outs.map((e) => e.amount).sort((x, y) => x - y)).toEqual(
      [deposit_, balance].sort((x, y) => x - y),
    );
    const ins = money.entries.filter((e) => e.direction === 'in');
    expect(new Set(outs.map((e) => e.of))).toEqual(new Set(ins.map((e) => e.id)));

    const refunds = await waitFor(
      async () => (await mpesaOf(b._id)).refunds,
      (r) => r.length === 2 && r.every((x) => x.status === 'sent'),
      15_000,
      200,
    );
    expect(refunds.reduce((n, r) => n + r.amount, 0)).toBe(b.totalAmount);
    // The deposit back to the phone that paid the prompt (reversal of its receipt, or B2C to it);
    // the balance reversed.
    const depositBack = [...transfersFor(receipt), ...transfersFor(b.guestInfo.phoneNumber)];
    expect(depositBack.map((r) => Number(r.request.Amount))).toEqual([deposit_]);
    expect(transfersFor(paid.transId).map((r) => [r.kind, Number(r.request.Amount)])).toEqual([
      ['reversal', balance],
    ]);
  }, 90_000);

  it('ten clerks cancelling one part-paid order with its refund sent, at once: one 200, nine 409, never 500; one refund sent', async () => {
    const o = await order();
    const code = await partPay(o, 300);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        cancel(o._id, { refund: { method: 'Mpesa', amount: 300, send: true } }, clerks[i % 5]!),
      ),
    );
    expect(statuses(answers)).toEqual([200, ...Array<number>(9).fill(409)]);
    expect(await get(o._id)).toMatchObject({ orderStatus: 'Cancelled' });
    // The cancellation that went through gave the 300 back: one outgoing entry, one transfer.
    const money = await moneyOf(o._id);
    expect(money).toMatchObject({ received: 300, refunded: 300, refundable: 0 });
    expect(money.entries.filter((e) => e.direction === 'out')).toHaveLength(1);
    const refunds = await waitFor(
      async () => (await mpesaOf(o._id)).refunds,
      (r) => r.some((x) => x.status === 'sent'),
      // The simulator answers in a moment; a loaded shared machine has taken over 15 s.
      40_000,
      200,
    );
    await sleep(1000);
    expect((await mpesaOf(o._id)).refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 300, status: 'sent' });
    expect(transfersFor(code)).toHaveLength(1);
    expect(await get(o._id)).toMatchObject({ orderStatus: 'Cancelled' });
  }, 90_000);

  /** A stray paybill payment whose refund by reversal failed: one transfer, audited as failed. */
  async function failedRefund(amount: number) {
    const waiting = await stray(amount);
    const id = `payment:${waiting.transId}`;
    m.sim.setResultScenario('reversal', ['failed']);
    await refundPayment(waiting.transId).expect(200);
    await waitFor(
      async () =>
        (await audit('payment.mpesa.refund.failed')).filter((e) => e.target?.id === id).length,
      (k) => k === 1,
      15_000,
      150,
    );
    expect(transfersFor(waiting.transId)).toHaveLength(1);
    return { waiting, id };
  }

  it('two retries of a failed refund at once: one 200, one 409, one audit entry, one more transfer', async () => {
    const { waiting, id } = await failedRefund(777);

    const retry = (as: Session) =>
      http()
        .post(`/api/payments/mpesa/refunds/${encodeURIComponent(id)}/retry`)
        .set(bearer(as.accessToken))
        .send({});
    const answers = await Promise.all([retry(clerks[0]!), retry(clerks[1]!)]);
    expect(statuses(answers)).toEqual([200, 409]);
    const retried = (await audit('payment.mpesa.refund.retried')).filter(
      (e) => e.target?.id === id,
    );
    expect(retried).toHaveLength(1);
    await waitFor(
      async () => transfersFor(waiting.transId).filter((r) => r.transactionId).length,
      (k) => k === 1,
      10_000,
      100,
    );
    await sleep(700);
    expect(transfersFor(waiting.transId)).toHaveLength(2);
  }, 60_000);

  it("a failed refund is not sent again by the sweep when its payback's mark of being sent was lost (only a clerk's retry sends it)", async () => {
    const { waiting, id } = await failedRefund(778);
    // The sweep finds the payback as if its `transfer` mark had not been written yet (the moment
    // between the refund asked for and the mark, or a crash there): it asks for the refund again.
    const db = m.t.app.get<Connection>(getConnectionToken()).db!;
    const marked = await db
      .collection('money_entries')
      .updateMany({ direction: 'out', transfer: id }, { $set: { transfer: null } });
    expect(marked.modifiedCount).toBe(1);
    await m.t.app.get(MpesaRefundsService).sweep();
    await sleep(700);
    expect(transfersFor(waiting.transId)).toHaveLength(1);
    expect((await db.collection('mpesa_refunds').findOne({ _id: id as never }))?.status).toBe(
      'failed',
    );
  }, 60_000);

  it('paybill amounts with cents and of 1e21: 200 to Daraja, the payment waits in the inbox with why, nothing credited, nothing to assign', async () => {
    const o = await order();
    const cents = await m.sim.payBill({
      account: o.purchaseNumber,
      amount: o.totalAmount - 0.5,
      phone: asDaraja(o.guestInfo.phoneNumber),
    });
    expect(cents.confirmationStatuses).toEqual([200]);
    const centsWaiting = await inInbox(cents.transId);
    expect(centsWaiting.reason).toMatch(/whole number of shillings/);
    await assign(cents.transId, o.purchaseNumber).expect(409);

    const huge = newCode();
    await confirmation({
      TransID: huge,
      TransAmount: 1e21,
      BillRefNumber: o.purchaseNumber,
      MSISDN: asDaraja(o.guestInfo.phoneNumber),
    }).expect(200);
    const hugeWaiting = await inInbox(huge);
    expect(hugeWaiting.reason).toMatch(/ceiling/);
    await assign(huge, o.purchaseNumber).expect(409);

    expect(await get(o._id)).toMatchObject({ paymentStatus: 'Pending', amountPaid: 0 });
    expect((await moneyOf(o._id)).entries).toEqual([]);
  });

  it("money entries are visible: the staff detail names who recorded a desk payment; the customer's shows the same amounts without staff or numbers", async () => {
    const phone = newPhone();
    const me = await registerCustomer(m.t, { phoneNumber: `+254${phone.slice(1)}` });
    const o = await order({ token: me.accessToken, phone });
    const code = newCode();
    await deskPay(o, code, o.totalAmount, clerks[2]!).expect(200);

    const staffView = await moneyOf(o._id);
    expect(staffView).toMatchObject({
      received: o.totalAmount,
      refunded: 0,
      refundable: o.totalAmount,
    });
    expect(staffView.entries).toEqual([
      expect.objectContaining({
        direction: 'in',
        amount: o.totalAmount,
        code,
        by: expect.objectContaining({ fullName: 'Clerk 3' }),
      }),
    ]);

    const mine = await moneyOf(o._id, me);
    expect(mine).toMatchObject({
      received: o.totalAmount,
      refunded: 0,
      refundable: o.totalAmount,
    });
    expect(mine.entries).toEqual([
      expect.objectContaining({ direction: 'in', amount: o.totalAmount, by: null, payer: null }),
    ]);
    // Another customer sees nothing of it.
    const stranger = await registerCustomer(m.t);
    await http().get(`/api/orders/${o._id}/detail`).set(bearer(stranger.accessToken)).expect(404);
  });

  // ============================================================================================
  // Attacks: each path that moves money, tried as an outsider would
  // ============================================================================================

  describe('attacks', () => {
    it('a paybill payment, a desk code and an M-Pesa Express payment for one order at once: it is credited once', async () => {
      for (let round = 0; round < 2; round++) {
        const phone = newPhone();
        const o = await order({ phone });
        m.sim.setScenario({ result: 'success', delayMs: 150 }, asDaraja(phone));
        const [prompted, paid, desk] = await Promise.all([
          http()
            .post('/api/payments/mpesa/stk-push')
            .send({ purchaseNumber: o.purchaseNumber, phoneNumber: phone }),
          m.sim.payBill({
            account: o.purchaseNumber,
            amount: o.totalAmount,
            phone: asDaraja(phone),
          }),
          sleep(150).then(() => deskPay(o, newCode(), o.totalAmount, clerks[3]!)),
        ]);
        expect(prompted.status).toBe(200);
        await m.sim.settled(prompted.body.checkoutRequestId as string);
        await landed(paid.transId, o._id);
        expect([200, 409]).toContain(desk.status);
        await sleep(800);
        const after = await get(o._id);
        expect(after).toMatchObject({
          paymentStatus: 'Paid',
          amountPaid: o.totalAmount,
          excessPaid: 0,
        });
        const money = await moneyOf(o._id);
        expect(money.received).toBe(o.totalAmount);
        expect(money.entries.filter((e) => e.direction === 'in')).toHaveLength(1);
      }
    }, 90_000);

    it('one inbox payment assigned to two orders at once: one 200, one 409, one order credited', async () => {
      const a = await order();
      const b = await order();
      const p = await stray(a.totalAmount);
      const answers = await Promise.all([
        assign(p.transId, a.purchaseNumber, clerks[0]!),
        assign(p.transId, b.purchaseNumber, clerks[1]!),
      ]);
      expect(statuses(answers)).toEqual([200, 409]);
      const paid = [await get(a._id), await get(b._id)].map((o) => o.amountPaid);
      expect(paid.sort((x, y) => x - y)).toEqual([0, a.totalAmount]);
    });

    it('an inbox payment assigned and refunded at the same moment: one of the two, never both', async () => {
      for (let round = 0; round < 3; round++) {
        const o = await order();
        const p = await stray(o.totalAmount);
        const [assigned, refunded] = await Promise.all([
          assign(p.transId, o.purchaseNumber, clerks[0]!),
          refundPayment(p.transId, clerks[1]!),
        ]);
        expect(statuses([assigned, refunded])).toEqual([200, 409]);
        await sleep(800);
        const credited = (await get(o._id)).amountPaid;
        const sent = transfersFor(p.transId);
        if (assigned.status === 200) {
          expect(credited).toBe(o.totalAmount);
          expect(sent).toEqual([]);
        } else {
          expect(credited).toBe(0);
          expect(sent).toHaveLength(1);
        }
      }
    }, 60_000);

    it('one payment refunded by two clerks at once (an inbox payment, an excess): one 200, one 409, one transfer', async () => {
      const waiting = await stray(640);
      const both = await Promise.all([
        refundPayment(waiting.transId, clerks[0]!),
        refundPayment(waiting.transId, clerks[1]!),
      ]);
      expect(statuses(both)).toEqual([200, 409]);

      const o = await order();
      const phone = asDaraja(o.guestInfo.phoneNumber);
      const paid = await m.sim.payBill({
        account: o.purchaseNumber,
        amount: o.totalAmount + 250,
        phone,
      });
      await until(o._id, (x) => x.excessPaid === 250);
      await excessListed(paid.transId, 250);
      const excess = await Promise.all([
        refundPayment(paid.transId, clerks[2]!),
        refundPayment(paid.transId, clerks[3]!),
      ]);
      expect(statuses(excess)).toEqual([200, 409]);
      await sleep(1500);
      expect(transfersFor(waiting.transId)).toHaveLength(1);
      expect(transfersFor(phone).map((r) => [r.kind, Number(r.request.Amount)])).toEqual([
        ['b2c', 250],
      ]);
      expect((await moneyOf(o._id)).refunded).toBe(250);
    });

    it('a cancel with its refund racing a paybill payment: whatever wins, what was credited is what was refunded, and the late money waits in the inbox', async () => {
      for (let round = 0; round < 3; round++) {
        const o = await order();
        await partPay(o, 300);
        const [cancelled, late] = await Promise.all([
          cancel(o._id, { refund: { method: 'Mpesa', amount: 300, send: true } }, clerks[round]!),
          m.sim.payBill({
            account: o.purchaseNumber,
            amount: o.totalAmount - 300,
            phone: asDaraja(o.guestInfo.phoneNumber),
          }),
        ]);
        expect([200, 409]).toContain(cancelled.status);
        // Refused by validation (the order was cancelled first): the money never left the payer.
        const where = late.completed ? await landed(late.transId, o._id) : 'refused';
        const after = await get(o._id);
        const money = await moneyOf(o._id);
        if (after.orderStatus === 'Cancelled') {
          expect(['inbox', 'refused']).toContain(where);
          expect(money.refunded).toBe(money.received);
        } else {
          expect(where).toBe('matched');
          expect(after).toMatchObject({ paymentStatus: 'Paid', amountPaid: o.totalAmount });
          expect(money).toMatchObject({ received: o.totalAmount, refunded: 0 });
        }
      }
    }, 90_000);

    it("an over-payment's excess refund racing the order's full refund: money back never exceeds what came in", async () => {
      for (let round = 0; round < 2; round++) {
        const o = await order();
        const phone = asDaraja(o.guestInfo.phoneNumber);
        const paid = await m.sim.payBill({
          account: o.purchaseNumber,
          amount: o.totalAmount + 300,
          phone,
        });
        await until(o._id, (x) => x.paymentStatus === 'Paid');
        const [excess, cancelled] = await Promise.all([
          refundPayment(paid.transId, clerks[0]!),
          cancel(
            o._id,
            { refund: { method: 'Mpesa', amount: o.totalAmount + 300, send: true } },
            clerks[1]!,
          ),
        ]);
        expect([excess.status, cancelled.status].filter((s) => s >= 500)).toEqual([]);
        expect([excess.status, cancelled.status].filter((s) => s === 200)).toHaveLength(1);
        await sleep(1500);
        const money = await moneyOf(o._id);
        expect(money.refunded).toBeLessThanOrEqual(money.received);
        const sent = [...transfersFor(paid.transId), ...transfersFor(phone)];
        expect(sent.reduce((n, r) => n + Number(r.request.Amount), 0)).toBeLessThanOrEqual(
          o.totalAmount + 300,
        );
      }
    }, 60_000);

    it('a paybill confirmation replayed with another account and amount changes nothing', async () => {
      const a = await order();
      const b = await order({ quantity: 4 });
      const code = await partPay(a, a.totalAmount);
      await confirmation({
        TransID: code.toLowerCase(),
        TransAmount: String(b.totalAmount),
        BillRefNumber: b.purchaseNumber,
        MSISDN: asDaraja(newPhone()),
      }).expect(200);
      await sleep(1000);
      expect(await get(b._id)).toMatchObject({ amountPaid: 0, paymentStatus: 'Pending' });
      expect(await get(a._id)).toMatchObject({ amountPaid: a.totalAmount, excessPaid: 0 });
      expect((await moneyOf(a._id)).received).toBe(a.totalAmount);
    });

    it('a code in five spellings is one code: lower case, blanks, dashes and full-width forms are refused as taken; a Cyrillic look-alike is not a code', async () => {
      const code = newCode();
      // An amount no other test pays: an M-Pesa Express payment of the usual amount that an
      // earlier test's status query settled without its receipt (under load) would make the
      // desk refuse a new code of that amount for 15 minutes (CODE_TAKEN, CI of stop 56).
      const first = await order({ quantity: 9 });
      await deskPay(first, code, first.totalAmount).expect(200);
      const spaced = `${code.slice(0, 3)} ${code.slice(3, 6)} ${code.slice(6)}`;
      const spellings = [
        code.toLowerCase(),
        ` ${spaced} `,
        `${code.slice(0, 4)}-${code.slice(4)}`,
        code.replace(/[A-Z0-9]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0)),
      ];
      for (const spelling of spellings) {
        const o = await order();
        const res = await deskPay(o, spelling, o.totalAmount);
        expect({ spelling, status: res.status }).toEqual({ spelling, status: 409 });
        expect(res.body.message).toContain(first.purchaseNumber);
        const b = await booking(await newBatch());
        const dep = await deposit(b, spelling, b.booking!.deposit);
        expect({ spelling, status: dep.status }).toEqual({ spelling, status: 409 });
      }
      // Cyrillic Ѕ and М for the Latin S and M: a look-alike of the code is not a code at all.
      const cyrillic = code.replace('S', '\u0405').replace('M', '\u041c');
      const o = await order();
      const res = await deskPay(o, cyrillic, o.totalAmount);
      expect(res.status).toBe(400);
      expect(await get(o._id)).toMatchObject({ amountPaid: 0 });
      // The paybill in lower case is the same code: it waits in the inbox, credited nowhere.
      const other = await order();
      await confirmation({
        TransID: code.toLowerCase(),
        TransAmount: String(other.totalAmount),
        BillRefNumber: other.purchaseNumber,
        MSISDN: asDaraja(newPhone()),
      }).expect(200);
      await inInbox(code);
      expect(await get(other._id)).toMatchObject({ amountPaid: 0 });
    }, 90_000);

    it('amounts that are not whole shillings within bounds are refused at the desk, the deposit and the refund, and change nothing', async () => {
      const o = await order();
      const batch = await newBatch();
      const b = await booking(batch);
      for (const amount of [0, -1, 1.5, '1000', `${o.totalAmount}`, 1e21, null, [o.totalAmount]]) {
        const desk = await deskPay(o, newCode(), amount as number);
        expect({ amount, status: desk.status }).toEqual({ amount, status: 400 });
        const cash = await deskCash(o, amount as number);
        expect({ amount, status: cash.status }).toEqual({ amount, status: 400 });
        const dep = await deposit(b, newCode(), amount as number);
        expect({ amount, status: dep.status }).toEqual({ amount, status: 400 });
      }
      expect(await get(o._id)).toMatchObject({ amountPaid: 0, paymentStatus: 'Pending' });
      expect(await get(b._id)).toMatchObject({ amountPaid: 0, booking: { state: 'Deposit due' } });

      const part = await order();
      await partPay(part, 300);
      for (const amount of [0, -1, 299, 301, 299.5, '300', 1e21, part.totalAmount]) {
        const res = await cancel(
          part._id,
          { refund: { method: 'Mpesa', amount, send: true } },
          staff,
        );
        expect({ amount, status: res.status }).toEqual({ amount, status: 400 });
      }
      expect(await get(part._id)).toMatchObject({ orderStatus: 'Pending', amountPaid: 300 });
      expect((await moneyOf(part._id)).refunded).toBe(0);
    }, 60_000);

    it("a customer's routes on another customer's order answer 404 and change nothing", async () => {
      const owner = await registerCustomer(m.t);
      const stranger = await registerCustomer(m.t);
      const o = await order({ token: owner.accessToken });
      const batch = await newBatch(10, 30);
      const b = await booking(batch, { token: owner.accessToken });
      await deposit(b, newCode(), b.booking!.deposit).expect(200);
      await http()
        .post(`/api/batches/${batch}/fail`)
        .set(bearer(staff.accessToken))
        .send({ note: 'frost' })
        .expect(201);
      await until(b._id, (x) => x.booking?.state === 'Affected');
      const as = bearer(stranger.accessToken);
      await http().patch(`/api/orders/cancel/${o._id}`).set(as).send().expect(404);
      await http().get(`/api/orders/${o._id}/detail`).set(as).expect(404);
      await http().get(`/api/orders/${o._id}`).set(as).expect(404);
      await http().post(`/api/orders/${b._id}/booking/refund`).set(as).send({}).expect(404);
      await http()
        .post(`/api/orders/${b._id}/booking/move`)
        .set(as)
        .send({ batchId: await newBatch(10, 90) })
        .expect(404);
      expect(await get(o._id)).toMatchObject({ orderStatus: 'Pending' });
      expect(await get(b._id)).toMatchObject({ booking: { state: 'Affected' } });
      expect((await moneyOf(b._id)).refunded).toBe(0);
    });

    // --- Holes found (these fail on the code under test) ---------------------------------------

    it('two clerks cancelling one part-paid order with its refund at once: the order is never cancelled without its refund', async () => {
      for (let round = 0; round < 10; round++) {
        const o = await order();
        await partPay(o, 300);
        const refund = { refund: { method: 'Mpesa', amount: 300, send: true } };
        const answers = await Promise.all([
          cancel(o._id, refund, clerks[0]!),
          cancel(o._id, refund, clerks[1]!),
        ]);
        expect({ round, statuses: statuses(answers) }).toEqual({ round, statuses: [200, 409] });
        const money = await moneyOf(o._id);
        expect({ round, received: money.received, refunded: money.refunded }).toEqual({
          round,
          received: 300,
          refunded: 300,
        });
      }
    }, 120_000);

    it('an M-Pesa Express payment its order no longer takes waits in the payments inbox, where the shop can give it back', async () => {
      const phone = newPhone();
      const a = await order({ phone });
      m.sim.setScenario({ result: 'success', delayMs: 2500 }, asDaraja(phone));
      const res = await http()
        .post('/api/payments/mpesa/stk-push')
        .send({ purchaseNumber: a.purchaseNumber, phoneNumber: phone })
        .expect(200);
      await deskCash(a, a.totalAmount).expect(200);
      const receipt = (await m.sim.settled(res.body.checkoutRequestId as string)).outcome!.receipt!;
      await sleep(1000);
      expect(await moneyOf(a._id)).toMatchObject({ received: a.totalAmount });
      // The shop holds the prompt's money on no order: staff must see it to give it back.
      // The prompt settles in the background (the callback, then M-Pesa's status query): under a
      // loaded CI machine that takes seconds.
      const waiting = await waitFor(
        async () => (await inbox()).find((p) => p.transId === receipt),
        (p) => p !== undefined,
        20_000,
        200,
      );
      expect(waiting).toMatchObject({ status: 'inbox', amount: a.totalAmount });
      await refundPayment(receipt).expect(200);
    });

    it('an M-Pesa Express receipt the shop never heard (no callback: the status query settled it) replayed as a paybill confirmation credits nothing', async () => {
      const phone = newPhone();
      const a = await order({ phone });
      const b = await order();
      const id = await prompt(a, 'no-callback');
      await until(a._id, (x) => x.paymentStatus === 'Paid');
      const receipt = m.sim.pushes.find((p) => p.checkoutRequestId === id)!.outcome!.receipt!;

      await confirmation({
        TransID: receipt,
        TransAmount: String(a.totalAmount),
        BillRefNumber: b.purchaseNumber,
        MSISDN: asDaraja(phone),
      }).expect(200);
      await sleep(1500);
      expect(await get(b._id)).toMatchObject({ paymentStatus: 'Pending', amountPaid: 0 });
      expect((await moneyOf(b._id)).received).toBe(0);
    });

    it('the receipt of an M-Pesa Express payment the shop never heard is refused at the desk for another order', async () => {
      const phone = newPhone();
      const a = await order({ phone });
      const b = await order();
      const id = await prompt(a, 'no-callback');
      await until(a._id, (x) => x.paymentStatus === 'Paid');
      const receipt = m.sim.pushes.find((p) => p.checkoutRequestId === id)!.outcome!.receipt!;
      const res = await deskPay(b, receipt, b.totalAmount);
      expect(res.status).toBe(409);
      expect(await get(b._id)).toMatchObject({ paymentStatus: 'Pending', amountPaid: 0 });
      // (Were it taken, the staff cancel of b "sent back by M-Pesa" reverses a's payment.)
    });

    it('an M-Pesa Express payment that arrives after its order was paid another way keeps its code: it cannot pay another order at the desk', async () => {
      const phone = newPhone();
      const a = await order({ phone });
      const b = await order();
      m.sim.setScenario({ result: 'success', delayMs: 2500 }, asDaraja(phone));
      const res = await http()
        .post('/api/payments/mpesa/stk-push')
        .send({ purchaseNumber: a.purchaseNumber, phoneNumber: phone })
        .expect(200);
      const id = res.body.checkoutRequestId as string;
      await deskCash(a, a.totalAmount).expect(200);
      const receipt = (await m.sim.settled(id)).outcome!.receipt!;
      await waitFor(
        async () => (await http().get(`/api/payments/mpesa/status/${id}`)).body.status as string,
        (s) => s !== 'pending',
        10_000,
        150,
      );
      await sleep(500);
      // The shop received the prompt's money: its code is on an entry (to be given back).
      const taken = await deskPay(b, receipt, b.totalAmount);
      expect(taken.status).toBe(409);
      expect(await get(b._id)).toMatchObject({ amountPaid: 0 });
    });

    it('an admin cannot delete a part-paid order: the money received on it stays on the books', async () => {
      const o = await order();
      await partPay(o, 300);
      const res = await http().delete(`/api/orders/delete/${o._id}`).set(bearer(admin.accessToken));
      expect(res.status).toBe(409);
      expect(await get(o._id)).toMatchObject({ amountPaid: 300, orderStatus: 'Pending' });
    });

    it("a clerk cannot change a part-paid order's delivery so that its total falls below what was paid", async () => {
      const zone = await http()
        .post('/api/delivery/zones')
        .set(bearer(admin.accessToken))
        .send({ name: 'Lake (money test)', fee: 1000, days: 3, areas: [{ county: 'Kisumu' }] });
      expect([200, 201]).toContain(zone.status);
      const lake = {
        ...DELIVERY,
        phoneNumber: newPhone(),
        county: 'Kisumu',
        subCounty: 'Kisumu Central',
        ward: 'Kondele',
      };
      const o = await order({ guestInfo: lake });
      const subtotal = o.totalAmount - 1000;
      await partPay(o, subtotal + 500);
      const res = await http()
        .put(`/api/orders/update/${o._id}`)
        .set(bearer(staff.accessToken))
        .send({ guestInfo: { ...lake, county: 'Kiambu', subCounty: 'Ruiru', ward: 'Gitothua' } });
      const after = await get(o._id);
      // Either refused, or the order shows what was paid beyond its new total as excess.
      if (res.status === 200) {
        expect(after.amountPaid - after.totalAmount).toBe(after.excessPaid);
        expect(after.paymentStatus).toBe('Paid');
      } else {
        expect(res.status).toBe(409);
        expect(after.totalAmount).toBe(o.totalAmount);
      }
    });

    it('a customer cannot record a cash refund on their own booking (refund of an affected booking paid in cash)', async () => {
      const me = await registerCustomer(m.t);
      const batch = await newBatch(10, 30);
      const b = await booking(batch, { token: me.accessToken });
      await deskCash(b, b.totalAmount).expect(200);
      await http()
        .post(`/api/batches/${batch}/fail`)
        .set(bearer(staff.accessToken))
        .send({ note: 'wilt' })
        .expect(201);
      await until(b._id, (x) => x.booking?.state === 'Affected');
      const res = await http()
        .post(`/api/orders/${b._id}/booking/refund`)
        .set(bearer(me.accessToken))
        .send({});
      expect(res.status).toBe(409);
      const money = await moneyOf(b._id);
      expect(money.refunded).toBe(0);
      expect(money.entries.filter((e) => e.direction === 'out')).toEqual([]);
    });

    it('a paid booking moved to another batch after its batch failed is still paid and is dispatched once its new batch is ready', async () => {
      const failing = await newBatch(100, 30);
      const next = await newBatch(100, 90);
      const b = await booking(failing);
      await deposit(b, newCode(), b.booking!.deposit).expect(200);
      await deskPay(await get(b._id), newCode(), b.totalAmount - b.booking!.deposit).expect(200);
      await http()
        .post(`/api/batches/${failing}/fail`)
        .set(bearer(staff.accessToken))
        .send({ note: 'blight' })
        .expect(201);
      await until(b._id, (x) => x.booking?.state === 'Affected');
      await http()
        .post(`/api/orders/${b._id}/booking/move`)
        .set(bearer(staff.accessToken))
        .send({ batchId: next })
        .expect(200);
      await http().post(`/api/batches/${next}/ready`).set(bearer(staff.accessToken)).expect(201);
      const ready = await get(b._id);
      expect(ready).toMatchObject({
        paymentStatus: 'Paid',
        amountPaid: b.totalAmount,
        amountDueNow: 0,
        booking: { state: 'Paid' },
      });
      await http()
        .patch(`/api/orders/inTransit/${b._id}`)
        .set(bearer(staff.accessToken))
        .expect(200);
    });

    it("a paybill payment matched by phone alone does not go to someone who merely registered the payer's phone", async () => {
      const victimPhone = newPhone();
      // Anyone may register with any phone: nothing proves it is theirs.
      const squatter = await registerCustomer(m.t, {
        phoneNumber: `+254${victimPhone.slice(1)}`,
      });
      const theirs = await order({ token: squatter.accessToken, phone: victimPhone });
      const victims = await order({ phone: victimPhone });
      // The victim pays with a mistyped account on a shortcode without validation.
      const paid = await m.sim.payBill({
        account: `${victims.purchaseNumber}X`,
        amount: theirs.totalAmount,
        phone: asDaraja(victimPhone),
        validate: false,
      });
      const where = await landed(paid.transId, theirs._id);
      expect(where).toBe('inbox');
      expect(await get(theirs._id)).toMatchObject({ amountPaid: 0 });
    });
  });

  // ============================================================================================
  // Attacks, round 2: the paths the first round left untried
  // ============================================================================================

  describe('attacks, round 2', () => {
    interface EntryDoc {
      _id: string;
      state: string;
      [field: string]: unknown;
    }
    const connection = () => m.t.app.get<Connection>(getConnectionToken());
    /** The ledger's collection, written straight to simulate an API stopped midway. */
    const entriesDb = () => connection().collection<EntryDoc>('money_entries');
    const ordersDb = () => connection().collection<{ _id: Types.ObjectId }>('orders');
    const paybillDb = () => connection().collection<{ _id: string }>('mpesa_c2b_payments');
    const ledger = () => m.t.app.get(MoneyLedgerService, { strict: false });
    const life = () => m.t.app.get(BookingLifeService, { strict: false });
    /** Who a refund taken straight from the ledger is by (a clerk whose request never finished). */
    const CLERK: Actor = { id: 'round-2-clerk', fullName: 'Clerk 1', role: 'staff' };

    /**
     * The bookings sweep as it runs two minutes from now (what a crash left midway is then stale),
     * again until `done` holds (a sweep already running in the background makes a call a no-op).
     */
    const sweepUntil = <T>(read: () => Promise<T>, done: (value: T) => boolean) =>
      waitFor(
        async () => {
          await life().sweep(new Date(Date.now() + 120_000));
          return read();
        },
        done,
        15_000,
        200,
      );

    /**
     * What a clerk's cancel with its refund sent by M-Pesa does before the cancellation is written:
     * the refund taken from the order's incoming entries (`claiming`). The API "stops" right after.
     */
    async function refundTakenThenCrash(orderId: string, amount: number): Promise<string[]> {
      const ins = (await ledger().ofOrder(orderId)).filter((e) => e.direction === 'in');
      const parts = ledger().planPayback(ins, amount, {
        method: 'Mpesa',
        send: true,
        reference: '',
      });
      return ledger().takeOut(CLERK, parts, 'refund');
    }

    const overdue = (bookings: Order[]) =>
      ordersDb().updateMany(
        { _id: { $in: bookings.map((b) => new Types.ObjectId(b._id)) } },
        { $set: { 'booking.balanceDueBy': '2001-01-01' } },
      );

    const batchStep = (batchId: string, step: 'ready' | 'fail') =>
      http()
        .post(`/api/batches/${batchId}/${step}`)
        .set(bearer(staff.accessToken))
        .send(step === 'fail' ? { note: 'round 2' } : {})
        .expect(201);

    /**
     * An M-Pesa Express payment its order could not take (a clerk took cash for the order while the
     * prompt was open): it waits in the payments inbox, listed by its receipt, or (settled by the
     * status query, no callback, so no receipt) by its prompt's reference.
     */
    async function strayPrompt(withReceipt: boolean) {
      const phone = newPhone();
      const o = await order({ phone });
      m.sim.setScenario(
        withReceipt ? { result: 'success', delayMs: 2000 } : 'no-callback',
        asDaraja(phone),
      );
      const res = await http()
        .post('/api/payments/mpesa/stk-push')
        .send({ purchaseNumber: o.purchaseNumber, phoneNumber: phone })
        .expect(200);
      const id = res.body.checkoutRequestId as string;
      await deskCash(o, o.totalAmount).expect(200);
      const receipt = (await m.sim.settled(id)).outcome!.receipt!;
      const key = withReceipt ? receipt : id;
      const payment = await waitFor(
        async () => (await inbox()).find((p) => p.transId === key && p.status === 'inbox'),
        (p) => p !== undefined,
        // The callback comes 2 s after the prompt; at a load average of 19 it took over 15 s.
        60_000,
        150,
      );
      if (!payment) throw new Error(`the prompt's payment ${key} never reached the inbox`);
      return { order: o, phone, id, receipt, payment };
    }

    const sentOf = (codeOrPhone: string) =>
      transfersFor(codeOrPhone).map((r) => [r.kind, Number(r.request.Amount)]);

    // --- Holes --------------------------------------------------------------------------------

    it('an M-Pesa Express payment that over-pays its order (a paybill part payment landed while the prompt was open): its excess can be given back', async () => {
      const phone = newPhone();
      const o = await order({ phone });
      m.sim.setScenario({ result: 'success', delayMs: 2500 }, asDaraja(phone));
      const res = await http()
        .post('/api/payments/mpesa/stk-push')
        .send({ purchaseNumber: o.purchaseNumber, phoneNumber: phone })
        .expect(200);
      // Before answering the prompt (for the whole total), KES 300 is paid by paybill.
      await m.sim.payBill({ account: o.purchaseNumber, amount: 300, phone: asDaraja(newPhone()) });
      await until(o._id, (x) => x.amountPaid === 300);
      const receipt = (await m.sim.settled(res.body.checkoutRequestId as string)).outcome!.receipt!;
      const paid = await until(o._id, (x) => x.paymentStatus === 'Paid');
      expect(paid).toMatchObject({ amountPaid: o.totalAmount + 300, excessPaid: 300 });
      await waitFor(
        async () => (await moneyOf(o._id)).received,
        (r) => r === o.totalAmount + 300,
        10_000,
        100,
      );
      // The shop owes the shopper KES 300: staff must see it, and be able to send it back. (Settled
      // by the status query first, under load, the prompt is listed by its receipt once the
      // callback that names it is in.)
      const listed = await waitFor(
        async () => (await inbox()).some((p) => p.transId === receipt && p.excess === 300),
        (yes) => yes,
        10_000,
        150,
      );
      const refund = await refundPayment(receipt);
      await sleep(1200);
      expect({
        listed,
        refund: refund.status,
        why: refund.status === 200 ? null : (refund.body.message as string),
        sent: sentOf(phone),
      }).toEqual({ listed: true, refund: 200, why: null, sent: [['b2c', 300]] });
      expect(await moneyOf(o._id)).toMatchObject({ received: o.totalAmount + 300, refunded: 300 });
    });

    it("an over-payment refunded with its order's cancellation leaves the payments inbox (no excess left to refund there)", async () => {
      const o = await order();
      const paid = await m.sim.payBill({
        account: o.purchaseNumber,
        amount: o.totalAmount + 300,
        phone: asDaraja(o.guestInfo.phoneNumber),
      });
      await until(o._id, (x) => x.excessPaid === 300);
      await excessListed(paid.transId, 300);
      expect((await inbox()).find((p) => p.transId === paid.transId)).toMatchObject({
        excess: 300,
      });
      await cancel(
        o._id,
        { refund: { method: 'Mpesa', amount: o.totalAmount + 300, send: true } },
        clerks[0]!,
      ).expect(200);
      expect(await moneyOf(o._id)).toMatchObject({
        received: o.totalAmount + 300,
        refunded: o.totalAmount + 300,
        refundable: 0,
      });
      // Another clerk then sees the excess waiting and tries to refund it: nothing left.
      await refundPayment(paid.transId, clerks[1]!).expect(409);
      await sleep(800);
      expect(sentOf(paid.transId)).toEqual([['reversal', o.totalAmount + 300]]);
      const still = (await inbox()).find((p) => p.transId === paid.transId);
      expect(still ?? null).toBeNull();
    });

    it('an M-Pesa Express payment without its receipt waiting in the inbox can be assigned and given back by the id the inbox lists (its prompt reference)', async () => {
      const [a, b] = await Promise.all([strayPrompt(false), strayPrompt(false)]);
      expect(a.payment.transId).toMatch(/^ws_CO_/);
      expect(a.payment).toMatchObject({ amount: a.order.totalAmount, status: 'inbox' });
      const target = await order();
      const assigned = await assign(a.payment.transId, target.purchaseNumber);
      const refunded = await refundPayment(b.payment.transId);
      await sleep(1000);
      expect({
        assigned: assigned.status,
        refunded: refunded.status,
        targetPaid: (await get(target._id)).amountPaid,
        sent: sentOf(b.phone),
      }).toEqual({
        assigned: 200,
        refunded: 200,
        targetPaid: target.totalAmount,
        sent: [['b2c', b.order.totalAmount]],
      });
    });

    it("a prompt's reference (ws_CO_…), the code the inbox lists for a payment received without its receipt, is not taken at the desk as a new M-Pesa code for another order", async () => {
      const s = await strayPrompt(false);
      // Another amount than the prompt's, so the 15-minute "same amount" guard does not apply.
      const other = await order({ quantity: 3 });
      const res = await deskPay(other, s.payment.transId, other.totalAmount);
      expect({
        status: res.status,
        refused: res.status >= 400 && res.status < 500,
        paid: (await get(other._id)).amountPaid,
      }).toEqual({ status: res.status, refused: true, paid: 0 });
      // The prompt's money is still the one payment: in the inbox, to assign or give back.
      expect((await inbox()).some((p) => p.transId === s.payment.transId)).toBe(true);
    });

    it("a waiting M-Pesa Express payment the status query settled before its callback gets the callback's receipt as its code (CI, stop 51)", async () => {
      const phone = newPhone();
      const o = await order({ phone });
      // Paid on the phone after 1.5 s, which the status query reports; the callback comes 4 s later.
      m.sim.setScenario(
        { result: 'success', delayMs: 1500, lateCallbackMs: 4000 },
        asDaraja(phone),
      );
      const res = await http()
        .post('/api/payments/mpesa/stk-push')
        .send({ purchaseNumber: o.purchaseNumber, phoneNumber: phone })
        .expect(200);
      const id = res.body.checkoutRequestId as string;
      await deskCash(o, o.totalAmount).expect(200);
      const receipt = (await m.sim.settled(id)).outcome!.receipt!;
      // Before the callback, the query's settlement waits under the prompt's reference.
      const first = await waitFor(
        async () => (await inbox()).find((p) => [id, receipt].includes(p.transId)),
        (p) => p !== undefined,
        20_000,
        150,
      );
      expect(first?.status).toBe('inbox');
      const after = await waitFor(
        async () => (await inbox()).find((p) => p.transId === receipt && p.status === 'inbox'),
        (p) => p !== undefined,
        30_000,
        150,
      );
      expect(after).toMatchObject({ transId: receipt, status: 'inbox' });
      expect((await inbox()).filter((p) => [id, receipt].includes(p.transId))).toHaveLength(1);
    });

    it("a waiting M-Pesa Express payment's receipt replayed as a paybill confirmation does not hide it: the shop can still give it back", async () => {
      const s = await strayPrompt(true);
      await confirmation({
        TransID: s.receipt,
        TransAmount: String(s.order.totalAmount),
        BillRefNumber: 'nothing at all',
        MSISDN: asDaraja(newPhone()),
      }).expect(200);
      await waitFor(
        async () =>
          (await inbox()).some((p) => p.transId === s.receipt && p.account === 'nothing at all'),
        (seen) => seen,
        10_000,
        100,
      );
      const res = await refundPayment(s.receipt);
      await sleep(1000);
      expect({
        refund: res.status,
        why: res.status === 200 ? null : (res.body.message as string),
        sent: sentOf(s.receipt),
      }).toEqual({ refund: 200, why: null, sent: [['reversal', s.order.totalAmount]] });
    });

    it('a cancellation a crash cut off after its refund was recorded, before its line in the sales record, still counts the refund in the sales report (crash drill, stop 49)', async () => {
      const today = shopDay(new Date());
      const refunds = async () =>
        (
          await http()
            .get(`/api/sales-summary/report?from=${today}&to=${today}`)
            .set(bearer(admin.accessToken))
            .expect(200)
        ).body.totals.refunds as { orders: number; amount: number };
      const o = await order({ quantity: 13 });
      await deskPay(o, newCode(), o.totalAmount).expect(200);
      const before = await refunds();
      await cancel(
        o._id,
        { refund: { method: 'Cash', amount: o.totalAmount, reference: 'cash back' } },
        staff,
      ).expect(200);
      expect(await refunds()).toEqual({
        orders: before.orders + 1,
        amount: before.amount + o.totalAmount,
      });
      // What the drill's kill left: the cancelling write named the refund and its entries were
      // marked recorded; the sales record's line and the stock return never came.
      await connection().collection('order_refunds').deleteOne({ orderId: o._id });
      await ordersDb().updateOne(
        { _id: new Types.ObjectId(o._id) },
        { $set: { stockReturn: 'done', updatedAt: new Date(Date.now() - 120_000) } },
      );
      await m.t.app.get(OrderReconciler, { strict: false }).reconcile({ olderThanMs: 60_000 });
      expect(await refunds()).toEqual({
        orders: before.orders + 1,
        amount: before.amount + o.totalAmount,
      });
      expect(await moneyOf(o._id)).toMatchObject({ refunded: o.totalAmount, refundable: 0 });
    });

    it("a clerk's refund a crash left midway is not paid out once the booking was released with its deposit kept (BOOKING_RELEASE_DEPOSIT=keep)", async () => {
      expect(m.t.config.bookings.releaseDeposit).toBe('keep');
      const batch = await newBatch(100, 30);
      const b = await booking(batch);
      const dep = b.booking!.deposit;
      const code = newCode();
      await deposit(b, code, dep).expect(200);
      await batchStep(batch, 'ready');
      await until(b._id, (x) => x.booking?.state === 'Balance due');
      // A clerk cancels it with the deposit sent back; the API stops once the refund is taken.
      const [out] = await refundTakenThenCrash(b._id, dep);
      // Its balance day has passed: the bookings sweep releases it, the deposit kept by policy.
      await overdue([b]);
      await life().releaseOverdue(new Date());
      const released = await until(b._id, (x) => x.orderStatus === 'Cancelled');
      expect(released.booking).toMatchObject({ state: 'Released', releaseDecision: 'kept' });
      // A minute on, the reconciler finds the refund left midway.
      await sweepUntil(
        () => entriesDb().findOne({ _id: out! }),
        (e) => e?.state !== 'claiming',
      );
      await sleep(1500);
      const after = await get(b._id);
      const money = await moneyOf(b._id);
      const kept = after.booking!.releaseDecision === 'kept';
      expect({
        decision: after.booking!.releaseDecision,
        refunded: money.refunded,
        sent: sentOf(code),
      }).toEqual({
        decision: after.booking!.releaseDecision,
        refunded: kept ? 0 : dep,
        sent: kept ? [] : [['reversal', dep]],
      });
    });

    it("a customer's view of their order's money shows no staff name or phone number, including in a refund's reference (a clerk's note)", async () => {
      const phone = newPhone();
      const me = await registerCustomer(m.t, { phoneNumber: `+254${phone.slice(1)}` });
      const o = await order({ token: me.accessToken, phone, quantity: 8 });
      await deskCash(o, o.totalAmount, clerks[1]!).expect(200);
      await cancel(
        o._id,
        {
          refund: {
            method: 'Cash',
            amount: o.totalAmount,
            reference: 'Handed back by Clerk 2 at the Thika desk; queries to 0799123456',
          },
        },
        clerks[1]!,
      ).expect(200);
      const staffView = await moneyOf(o._id);
      expect(staffView).toMatchObject({ received: o.totalAmount, refunded: o.totalAmount });
      const mine = await moneyOf(o._id, me);
      expect(mine).toMatchObject({ received: o.totalAmount, refunded: o.totalAmount });
      const text = JSON.stringify(mine);
      expect({
        staffName: text.includes('Clerk 2'),
        number: text.includes('0799123456'),
      }).toEqual({ staffName: false, number: false });
    });

    it('a payback a crash cut off before the ledger took it (an inbox payment marked for reversal, an excess marked for B2C) is not lost: it waits in the inbox again or goes back once', async () => {
      // An inbox payment: a clerk's "Refund" marked it, and the API stopped before the ledger.
      const waiting = await stray(610);
      await paybillDb().updateOne(
        { _id: waiting.transId },
        { $set: { status: 'refund', refundId: `payment:${waiting.transId}` } },
      );
      // An over-payment's excess: marked for B2C, and the API stopped before the ledger.
      const o = await order();
      const phone = asDaraja(o.guestInfo.phoneNumber);
      const paid = await m.sim.payBill({
        account: o.purchaseNumber,
        amount: o.totalAmount + 300,
        phone,
      });
      await until(o._id, (x) => x.excessPaid === 300);
      await excessListed(paid.transId, 300);
      await paybillDb().updateOne(
        { _id: paid.transId },
        { $set: { refundId: `excess:${paid.transId}` } },
      );
      // The API is back; its sweeps run (the bookings sweep a few minutes on, the paybill loop).
      await sweepUntil(
        async () => true,
        () => true,
      );
      await sleep(2500);
      const listed = await inbox();
      const inboxPayment = {
        listed: listed.some((p) => p.transId === waiting.transId && p.status === 'inbox'),
        sent: transfersFor(waiting.transId).length,
      };
      const excess = {
        listed: listed.some((p) => p.transId === paid.transId && p.excess === 300),
        sent: transfersFor(phone).length,
      };
      expect({
        inboxPayment: inboxPayment.listed !== (inboxPayment.sent === 1),
        excess: excess.listed !== (excess.sent === 1),
        detail: { inboxPayment, excess },
      }).toEqual({ inboxPayment: true, excess: true, detail: { inboxPayment, excess } });
    });

    // --- Guards (no hole found; each a real risk) ---------------------------------------------

    it('an order whose excess went back already: its cancellation gives back exactly the rest, to the payer, once', async () => {
      const o = await order();
      const phone = asDaraja(o.guestInfo.phoneNumber);
      const paid = await m.sim.payBill({
        account: o.purchaseNumber,
        amount: o.totalAmount + 300,
        phone,
      });
      await until(o._id, (x) => x.excessPaid === 300);
      await excessListed(paid.transId, 300);
      await refundPayment(paid.transId).expect(200);
      const wrong = await cancel(
        o._id,
        { refund: { method: 'Mpesa', amount: o.totalAmount + 300, send: true } },
        staff,
      );
      expect(wrong.status).toBe(400);
      await cancel(
        o._id,
        { refund: { method: 'Mpesa', amount: o.totalAmount, send: true } },
        staff,
      ).expect(200);
      await waitFor(
        async () => transfersFor(phone).length,
        (n) => n >= 2,
        10_000,
        100,
      );
      await sleep(700);
      expect(sentOf(phone).sort()).toEqual(
        [
          ['b2c', 300],
          ['b2c', o.totalAmount],
        ].sort(),
      );
      expect(sentOf(paid.transId)).toEqual([]);
      expect(await moneyOf(o._id)).toMatchObject({
        received: o.totalAmount + 300,
        refunded: o.totalAmount + 300,
        refundable: 0,
      });
      await refundPayment(paid.transId).expect(409);
    });

    it("a booking paid by M-Pesa Express (deposit), paybill (part) and cash (rest), cancelled by a clerk with send: each part back the way it came, the total once; the customer's view names no staff and no payer", async () => {
      const phone = newPhone();
      const me = await registerCustomer(m.t, { phoneNumber: `+254${phone.slice(1)}` });
      const batch = await newBatch(100, 30);
      const b = await booking(batch, { token: me.accessToken, phone });
      const dep = b.booking!.deposit;
      const id = await prompt(b);
      const receipt = (await m.sim.settled(id)).outcome!.receipt!;
      await until(b._id, (x) => x.booking?.state === 'Booked');
      const stranger = newPhone();
      const part = await m.sim.payBill({
        account: b.purchaseNumber,
        amount: 200,
        phone: asDaraja(stranger),
      });
      await until(b._id, (x) => x.amountPaid === dep + 200);
      const rest = b.totalAmount - dep - 200;
      await deskCash(await get(b._id), rest, clerks[4]!).expect(200);
      await until(b._id, (x) => x.paymentStatus === 'Paid');
      await waitFor(
        async () => (await moneyOf(b._id)).received,
        (r) => r === b.totalAmount,
        10_000,
        100,
      );
      await cancel(
        b._id,
        { refund: { method: 'Mpesa', amount: b.totalAmount, send: true } },
        clerks[3]!,
      ).expect(200);
      const money = await moneyOf(b._id);
      expect(money).toMatchObject({
        received: b.totalAmount,
        refunded: b.totalAmount,
        refundable: 0,
      });
      expect(
        money.entries
          .filter((e) => e.direction === 'out')
          .map((e) => [e.kind, e.amount])
          .sort(),
      ).toEqual(
        [
          ['cash', rest],
          ['reversal', 200],
          ['reversal', dep],
        ].sort(),
      );
      await waitFor(
        async () => (await mpesaOf(b._id)).refunds,
        (r) => r.length === 2 && r.every((x) => x.status === 'sent'),
        15_000,
        200,
      );
      await sleep(500);
      expect(sentOf(receipt)).toEqual([['reversal', dep]]);
      expect(sentOf(part.transId)).toEqual([['reversal', 200]]);
      expect(sentOf(phone)).toEqual([]);
      expect(sentOf(stranger)).toEqual([]);

      const res = await http()
        .get(`/api/orders/${b._id}/detail`)
        .set(bearer(me.accessToken))
        .expect(200);
      const mine = res.body.money as Money;
      expect(mine).toMatchObject({ received: b.totalAmount, refunded: b.totalAmount });
      expect(mine.entries).toHaveLength(money.entries.length);
      expect(mine.entries.filter((e) => e.by !== null || e.payer !== null)).toEqual([]);
      const text = JSON.stringify(res.body);
      for (const secret of ['Clerk 4', 'Clerk 5', stranger.slice(1), asDaraja(stranger)])
        expect({ secret, leaked: text.includes(secret) }).toEqual({ secret, leaked: false });
    }, 60_000);

    it('an affected booking refunded by two clerks and moved by a third at the same moment: one of the three, its deposit back at most once', async () => {
      const failing = await newBatch(100, 30);
      const next = await newBatch(100, 90);
      const bs = await Promise.all([1, 2, 3].map(() => booking(failing)));
      const codes = bs.map(() => newCode());
      for (const [i, b] of bs.entries())
        await deposit(b, codes[i]!, b.booking!.deposit).expect(200);
      await batchStep(failing, 'fail');
      for (const b of bs) await until(b._id, (x) => x.booking?.state === 'Affected');
      const refundAs = (b: Order, as: Session) =>
        http().post(`/api/orders/${b._id}/booking/refund`).set(bearer(as.accessToken)).send({});
      const moveAs = (b: Order, as: Session) =>
        http()
          .post(`/api/orders/${b._id}/booking/move`)
          .set(bearer(as.accessToken))
          .send({ batchId: next });
      const answers = await Promise.all(
        bs.map((b) =>
          Promise.all([refundAs(b, clerks[0]!), refundAs(b, clerks[1]!), moveAs(b, clerks[2]!)]),
        ),
      );
      await sleep(1500);
      for (const [i, b] of bs.entries()) {
        const [r1, r2, mv] = answers[i]!;
        const all = [r1!, r2!, mv!].map((a) => a.status);
        expect({
          i,
          errors: all.filter((s) => s >= 500),
          ok: all.filter((s) => s === 200),
        }).toEqual({ i, errors: [], ok: [200] });
        const after = await get(b._id);
        const money = await moneyOf(b._id);
        if (mv!.status === 200) {
          expect(after).toMatchObject({
            orderStatus: 'Pending',
            booking: { state: 'Booked', batchId: next },
          });
          expect({ refunded: money.refunded, sent: sentOf(codes[i]!) }).toEqual({
            refunded: 0,
            sent: [],
          });
        } else {
          expect(after).toMatchObject({ orderStatus: 'Cancelled', booking: { state: 'Refunded' } });
          expect({ refunded: money.refunded, sent: sentOf(codes[i]!) }).toEqual({
            refunded: b.booking!.deposit,
            sent: [['reversal', b.booking!.deposit]],
          });
        }
      }
    });

    it('BOOKING_RELEASE_DEPOSIT=refund: a release racing a balance payment or a staff cancel gives the deposit back at most once, and the refused balance waits to be given back', async () => {
      const policy = m.t.config.bookings;
      const was = policy.releaseDeposit;
      policy.releaseDeposit = 'refund';
      try {
        const batch = await newBatch(100, 30);
        const bs = await Promise.all([0, 1, 2, 3].map(() => booking(batch)));
        const codes = bs.map(() => newCode());
        for (const [i, b] of bs.entries())
          await deposit(b, codes[i]!, b.booking!.deposit).expect(200);
        await batchStep(batch, 'ready');
        for (const b of bs) await until(b._id, (x) => x.booking?.state === 'Balance due');
        await overdue(bs);
        const balance = (b: Order) => b.totalAmount - b.booking!.deposit;
        const refundOf = (b: Order) => ({
          refund: { method: 'Mpesa', amount: b.booking!.deposit, send: true },
        });
        const [, pay0, pay1, cancel2, cancel3] = await Promise.all([
          life().releaseOverdue(new Date()),
          m.sim.payBill({
            account: bs[0]!.purchaseNumber,
            amount: balance(bs[0]!),
            phone: asDaraja(bs[0]!.guestInfo.phoneNumber),
          }),
          sleep(30).then(() =>
            m.sim.payBill({
              account: bs[1]!.purchaseNumber,
              amount: balance(bs[1]!),
              phone: asDaraja(bs[1]!.guestInfo.phoneNumber),
            }),
          ),
          cancel(bs[2]!._id, refundOf(bs[2]!), clerks[0]!),
          sleep(30).then(() => cancel(bs[3]!._id, refundOf(bs[3]!), clerks[1]!)),
        ]);
        await sleep(2000);
        for (const [i, paid] of [pay0!, pay1!].entries()) {
          const b = bs[i]!;
          const dep = b.booking!.deposit;
          const where = paid.completed ? await landed(paid.transId, b._id) : 'refused';
          const after = await get(b._id);
          const money = await moneyOf(b._id);
          if (after.orderStatus === 'Cancelled')
            expect({
              i,
              where: where === 'matched' ? 'matched' : 'not credited',
              received: money.received,
              refunded: money.refunded,
              sent: sentOf(codes[i]!),
            }).toEqual({
              i,
              where: 'not credited',
              received: dep,
              refunded: dep,
              sent: [['reversal', dep]],
            });
          else
            expect({
              i,
              where,
              state: after.booking!.state,
              refunded: money.refunded,
              sent: sentOf(codes[i]!),
            }).toEqual({ i, where: 'matched', state: 'Paid', refunded: 0, sent: [] });
        }
        for (const [k, res] of [cancel2!, cancel3!].entries()) {
          const i = k + 2;
          const b = bs[i]!;
          const dep = b.booking!.deposit;
          expect([200, 409]).toContain(res.status);
          const after = await get(b._id);
          const money = await moneyOf(b._id);
          expect({
            i,
            status: after.orderStatus,
            refunded: money.refunded,
            outs: money.entries.filter((e) => e.direction === 'out').length,
            sent: sentOf(codes[i]!),
          }).toEqual({
            i,
            status: 'Cancelled',
            refunded: dep,
            outs: 1,
            sent: [['reversal', dep]],
          });
        }
      } finally {
        policy.releaseDeposit = was;
      }
    }, 60_000);

    it("a booking's deposit paid by M-Pesa Express while a clerk records it at the desk: what the booking shows paid is what its entries brought, and a refused prompt waits whole in the inbox", async () => {
      const batch = await newBatch();
      for (let round = 0; round < 2; round++) {
        const phone = newPhone();
        const b = await booking(batch, { phone });
        m.sim.setScenario({ result: 'success', delayMs: 150 }, asDaraja(phone));
        const [pushed, desk] = await Promise.all([
          http()
            .post('/api/payments/mpesa/stk-push')
            .send({ purchaseNumber: b.purchaseNumber, phoneNumber: phone }),
          sleep(150).then(() => deposit(b, newCode(), b.booking!.deposit, clerks[round]!)),
        ]);
        expect(pushed.status).toBe(200);
        expect([200, 409]).toContain(desk.status);
        const id = pushed.body.checkoutRequestId as string;
        const receipt = (await m.sim.settled(id)).outcome!.receipt!;
        await waitFor(
          async () => (await http().get(`/api/payments/mpesa/status/${id}`)).body.status as string,
          (s) => s !== 'pending',
          10_000,
          150,
        );
        await sleep(500);
        const after = await get(b._id);
        const money = await moneyOf(b._id);
        expect({ round, received: money.received, state: after.booking!.state }).toEqual({
          round,
          received: after.amountPaid,
          state: 'Booked',
        });
        expect(after.amountPaid).toBeLessThan(after.totalAmount);
        if (!money.entries.some((e) => e.code === receipt))
          expect((await inbox()).find((p) => p.transId === receipt)).toMatchObject({
            status: 'inbox',
            amount: b.booking!.deposit,
          });
      }
    });

    it('a desk payment of exactly what is due while a paybill part payment lands: the order shows what its entries brought, and the refused money is not lost', async () => {
      for (let round = 0; round < 3; round++) {
        const o = await order({ quantity: 5 });
        const code = newCode();
        const [desk, paid] = await Promise.all([
          deskPay(o, code, o.totalAmount, clerks[round]!),
          m.sim.payBill({
            account: o.purchaseNumber,
            amount: 300,
            phone: asDaraja(o.guestInfo.phoneNumber),
          }),
        ]);
        expect(desk.status).toBeLessThan(500);
        const where = paid.completed ? await landed(paid.transId, o._id) : 'refused';
        const after = await get(o._id);
        const money = await waitFor(
          () => moneyOf(o._id),
          (x) => x.received === after.amountPaid,
          5_000,
          100,
        );
        expect({ round, received: money.received }).toEqual({ round, received: after.amountPaid });
        if (desk.status === 200) {
          expect({ round, where: where !== 'matched', paid: after.amountPaid }).toEqual({
            round,
            where: true,
            paid: o.totalAmount,
          });
        } else {
          expect({ round, where, paid: after.amountPaid }).toEqual({
            round,
            where: 'matched',
            paid: 300,
          });
          // The refused desk code is not left on the books: it can be used once, for what is due.
          await deskPay(after, code, o.totalAmount - 300).expect(200);
        }
      }
    });

    it('an M-Pesa Express payment waiting in the inbox assigned to an order and given back at the same moment: one of the two', async () => {
      const s = await strayPrompt(true);
      const target = await order();
      const [a, r] = await Promise.all([
        assign(s.receipt, target.purchaseNumber, clerks[0]!),
        refundPayment(s.receipt, clerks[1]!),
      ]);
      expect(statuses([a, r])).toEqual([200, 409]);
      await sleep(1000);
      const credited = (await get(target._id)).amountPaid;
      if (a.status === 200) {
        expect({ credited, sent: sentOf(s.receipt) }).toEqual({
          credited: target.totalAmount,
          sent: [],
        });
      } else {
        expect({ credited, sent: sentOf(s.receipt) }).toEqual({
          credited: 0,
          sent: [['reversal', s.order.totalAmount]],
        });
      }
      expect((await inbox()).some((p) => p.transId === s.receipt)).toBe(false);
      // Neither can happen again.
      await assign(s.receipt, (await order()).purchaseNumber).expect(409);
      await refundPayment(s.receipt).expect(409);
    });

    it('the refund retry route with ids in odd spellings: 4xx, never a transfer; the id as listed is retried once', async () => {
      const waiting = await stray(555);
      const t = waiting.transId;
      m.sim.setResultScenario('reversal', ['failed']);
      await refundPayment(t).expect(200);
      const id = `payment:${t}`;
      await waitFor(
        async () =>
          (await audit('payment.mpesa.refund.failed')).filter((e) => e.target?.id === id).length,
        (k) => k === 1,
        15_000,
        150,
      );
      expect(transfersFor(t)).toHaveLength(1);
      const retry = (raw: string) =>
        http()
          .post(`/api/payments/mpesa/refunds/${raw}/retry`)
          .set(bearer(staff.accessToken))
          .send({});
      const odd = [
        `PAYMENT:${t}`,
        `payment:${t.toLowerCase()}`,
        `payment:${t}%20`,
        `%20payment:${t}`,
        `payment:${t}%00`,
        `payment:${t}%0A`,
        `payment::${t}`,
        `payment:${t}_`,
        `payment%253A${t}`,
        `out:${t}`,
        `excess:${t}`,
        `order:${t}`,
        `payment:${t}%2F..`,
        `payment:${encodeURIComponent(`${t}\u200b`)}`,
      ];
      for (const raw of odd) {
        const res = await retry(raw);
        expect({ raw, status: res.status >= 400 && res.status < 500 }).toEqual({
          raw,
          status: true,
        });
      }
      await sleep(500);
      expect(transfersFor(t)).toHaveLength(1);
      await retry(encodeURIComponent(id)).expect(200);
      await retry(encodeURIComponent(id)).expect(409);
      await waitFor(
        async () => transfersFor(t).length,
        (k) => k === 2,
        10_000,
        100,
      );
      await sleep(500);
      expect(transfersFor(t)).toHaveLength(2);
    });

    it('paybill amounts at the bounds: KES 1 and KES 250,000 are credited, KES 250,001 waits in the inbox', async () => {
      const big = await order({ quantity: 600 });
      expect(big.totalAmount).toBeGreaterThan(250_001);
      const payer = asDaraja(big.guestInfo.phoneNumber);
      await m.sim.payBill({ account: big.purchaseNumber, amount: 1, phone: payer });
      await until(big._id, (x) => x.amountPaid === 1);
      await m.sim.payBill({ account: big.purchaseNumber, amount: 250_000, phone: payer });
      await until(big._id, (x) => x.amountPaid === 250_001);
      const over = newCode();
      await confirmation({
        TransID: over,
        TransAmount: '250001',
        BillRefNumber: big.purchaseNumber,
        MSISDN: payer,
      }).expect(200);
      expect((await inInbox(over)).reason).toMatch(/ceiling/);
      await assign(over, big.purchaseNumber).expect(409);
      expect(await get(big._id)).toMatchObject({
        amountPaid: 250_001,
        amountOutstanding: big.totalAmount - 250_001,
        paymentStatus: 'Pending',
      });
      const money = await waitFor(
        () => moneyOf(big._id),
        (x) => x.received === 250_001,
        5_000,
        100,
      );
      expect(money.entries.map((e) => e.amount).sort((x, y) => x - y)).toEqual([1, 250_000]);
    });

    it('the reconciler finishes a credit a crash left claimed after the order took it, and undoes one the order never took: counted once, nothing lost, the code free again', async () => {
      // (1) The order took a desk payment; the API stopped before marking its entry credited.
      const o = await order({ quantity: 3 });
      const code = newCode();
      await deskPay(o, code, o.totalAmount).expect(200);
      const [taken] = await entriesDb().find({ orderId: o._id }).toArray();
      await entriesDb().updateOne(
        { _id: taken!._id },
        { $set: { state: 'claimed', claimedAt: new Date() } },
      );
      // (2) A desk claim for another order written just before the API stopped (no order write).
      const p = await order({ quantity: 4 });
      const code2 = newCode();
      const now = new Date();
      const orphan = `desk-mpesa:${new Types.ObjectId().toHexString()}`;
      await entriesDb().insertOne({
        _id: orphan,
        direction: 'in',
        kind: 'desk-mpesa',
        amount: p.totalAmount,
        code: code2,
        reference: '',
        orderId: p._id,
        purchaseNumber: p.purchaseNumber,
        payer: null,
        meantFor: null,
        state: 'claimed',
        split: null,
        returnable: p.totalAmount,
        returned: 0,
        returns: [],
        of: null,
        purpose: null,
        send: false,
        transfer: null,
        byId: CLERK.id,
        byName: CLERK.fullName,
        byRole: CLERK.role,
        at: now,
        claimedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      // (3) A paybill payment whose assignment stopped midway: its entry claimed for an order that
      // never took it, the payment itself left 'matching'.
      const q = await order({ quantity: 6 });
      const waiting = await stray(q.totalAmount);
      await entriesDb().updateOne(
        { _id: `c2b:${waiting.transId}` },
        {
          $set: {
            state: 'claimed',
            orderId: q._id,
            purchaseNumber: q.purchaseNumber,
            claimedAt: new Date(),
          },
        },
      );
      await paybillDb().updateOne(
        { _id: waiting.transId },
        { $set: { status: 'matching', updatedAt: new Date(Date.now() - 120_000) } },
      );
      // Meanwhile both desk codes are taken.
      const other = await order({ quantity: 7 });
      await deskPay(other, code, other.totalAmount).expect(409);
      await deskPay(other, code2, other.totalAmount).expect(409);

      await sweepUntil(
        async () => [
          (await entriesDb().findOne({ _id: taken!._id }))?.state,
          await entriesDb().findOne({ _id: orphan }),
          (await entriesDb().findOne({ _id: `c2b:${waiting.transId}` }))?.state,
        ],
        ([one, two, three]) => one === 'credited' && two === null && three === 'open',
      );
      // (1) counts once.
      expect(await get(o._id)).toMatchObject({ paymentStatus: 'Paid', amountPaid: o.totalAmount });
      const mo = await moneyOf(o._id);
      expect({ received: mo.received, entries: mo.entries.length }).toEqual({
        received: o.totalAmount,
        entries: 1,
      });
      // (2) is gone, its order unpaid; the code can now be used once.
      expect(await get(p._id)).toMatchObject({ paymentStatus: 'Pending', amountPaid: 0 });
      await deskPay(p, code2, p.totalAmount).expect(200);
      await deskPay(other, code2, other.totalAmount).expect(409);
      expect((await moneyOf(p._id)).received).toBe(p.totalAmount);
      // (3) is back in the inbox, credited nowhere, and can be assigned once.
      await inInbox(waiting.transId);
      expect(await get(q._id)).toMatchObject({ amountPaid: 0 });
      await assign(waiting.transId, q.purchaseNumber).expect(200);
      await assign(waiting.transId, other.purchaseNumber).expect(409);
      expect(await get(q._id)).toMatchObject({ paymentStatus: 'Paid', amountPaid: q.totalAmount });
      expect((await moneyOf(q._id)).received).toBe(q.totalAmount);
    });

    it('a refund a crash left midway: undone when the order was not cancelled (a clerk then cancels with its refund, sent once), recorded and sent once when it was', async () => {
      const o = await order();
      const code = await partPay(o, 300);
      const [out] = await refundTakenThenCrash(o._id, 300);
      // While it is midway, another clerk's cancel is refused rather than cancelling without it.
      const meanwhile = await cancel(
        o._id,
        { refund: { method: 'Mpesa', amount: 300, send: true } },
        clerks[1]!,
      );
      expect(meanwhile.status).toBe(409);
      await sweepUntil(
        () => entriesDb().findOne({ _id: out! }),
        (e) => e === null,
      );
      expect(await moneyOf(o._id)).toMatchObject({ received: 300, refunded: 0, refundable: 300 });
      await cancel(
        o._id,
        { refund: { method: 'Mpesa', amount: 300, send: true } },
        clerks[1]!,
      ).expect(200);

      // The cancellation was written (naming its refund, as the cancel step's write does); the API
      // stopped before the refund was marked recorded.
      const p = await order();
      const code2 = await partPay(p, 400);
      const [out2] = await refundTakenThenCrash(p._id, 400);
      await ordersDb().updateOne(
        { _id: new Types.ObjectId(p._id) },
        { $set: { orderStatus: 'Cancelled', cancelledDate: new Date(), refundOut: [out2] } },
      );
      await sweepUntil(
        () => entriesDb().findOne({ _id: out2! }),
        (e) => e?.state === 'recorded',
      );
      await waitFor(
        async () => transfersFor(code).length + transfersFor(code2).length,
        (n) => n >= 2,
        10_000,
        100,
      );
      await sleep(1000);
      expect(sentOf(code)).toEqual([['reversal', 300]]);
      expect(sentOf(code2)).toEqual([['reversal', 400]]);
      expect(await moneyOf(o._id)).toMatchObject({ received: 300, refunded: 300, refundable: 0 });
      expect(await moneyOf(p._id)).toMatchObject({ received: 400, refunded: 400, refundable: 0 });
    });

    it("a cancel's refund read while its payment's credit was still being marked (claimed, then credited under it) is taken, not refused as being refunded (CI)", async () => {
      const o = await order();
      const code = await partPay(o, 300);
      const id = MoneyLedgerService.inId('paybill', code);
      // The order took the payment; its entry is marked credited a moment later. A clerk's cancel
      // reads the entry in between, as "claimed"...
      await entriesDb().updateOne({ _id: id }, { $set: { state: 'claimed' } });
      const ins = (await ledger().ofOrder(o._id)).filter((e) => e.direction === 'in');
      expect(ins.map((e) => e.state)).toEqual(['claimed']);
      // ...and the marking lands before the refund is taken.
      await entriesDb().updateOne({ _id: id }, { $set: { state: 'credited' } });
      const parts = ledger().planPayback(ins, 300, { method: 'Mpesa', send: true, reference: '' });
      const taken = await ledger()
        .takeOut(CLERK, parts, 'refund')
        .then(
          (out) => ({ out: out.length, refused: null }),
          (error: Error) => ({ out: 0, refused: error.message }),
        );
      expect(taken).toEqual({ out: 1, refused: null });
    });

    it("a cancel's refund read from a claim that meanwhile went back to the inbox and was claimed for another order takes nothing of the other order's money", async () => {
      const o = await order();
      const other = await order();
      const code = await partPay(o, 300);
      const id = MoneyLedgerService.inId('paybill', code);
      await entriesDb().updateOne({ _id: id }, { $set: { state: 'claimed' } });
      const ins = (await ledger().ofOrder(o._id)).filter((e) => e.direction === 'in');
      // Undone and claimed again, for the other order, between the read and the refund.
      await entriesDb().updateOne(
        { _id: id },
        { $set: { orderId: other._id, purchaseNumber: other.purchaseNumber } },
      );
      const parts = ledger().planPayback(ins, 300, { method: 'Mpesa', send: true, reference: '' });
      const taken = await ledger()
        .takeOut(CLERK, parts, 'refund')
        .then(
          (out) => ({ out: out.length, refused: null }),
          (error: Error) => ({ out: 0, refused: error.message }),
        );
      expect(taken).toEqual({
        out: 0,
        refused: 'This money is being refunded already: reload to see the refund',
      });
      expect(await entriesDb().findOne({ _id: id })).toMatchObject({
        returnable: 300,
        returned: 0,
      });
    });
  });
});

/**
 * A second app in the same file must come after the first has closed: Passport's JWT strategy is
 * registered process-wide, so the later app's replaces the earlier's and its tokens stop working.
 */
describe('money ledger: a shortcode without the status query (MPESA_C2B_VERIFY=false)', () => {
  let n: MpesaTestApp;
  let staff: Session;
  let productId: string;
  const inboxOf = async () =>
    (await n.t.http().get('/api/payments/mpesa/inbox').set(bearer(staff.accessToken)).expect(200))
      .body.payments as Payment[];

  beforeAll(async () => {
    n = await createMpesaTestApp('money-ledger-unverified', { MPESA_C2B_VERIFY: 'false' });
    ({ staff, productId } = await createShopWorld(n.t, {
      product: { price: 500, quantity: 1000 },
    }));
    await waitFor(
      async () => n.sim.c2b.registrations.length,
      (k) => k > 0,
      10_000,
      100,
    );
  });
  afterAll(() => n.close(), 120_000);

  it("an assigned inbox payment's excess never goes back by B2C: M-Pesa never confirmed who paid it", async () => {
    const placed = await placeOrder(n.t, [{ _id: productId, quantity: 2 }], {
      guestInfo: { ...DELIVERY, phoneNumber: newPhone() },
    }).expect(201);
    const target = placed.body.order as Order;
    const paid = await n.sim.payBill({
      account: 'nothing like an order',
      amount: target.totalAmount + 300,
      phone: asDaraja(newPhone()),
      validate: false,
    });
    await waitFor(
      async () => (await inboxOf()).find((p) => p.transId === paid.transId)?.status,
      (s) => s === 'inbox',
      10_000,
      100,
    );
    await n.t
      .http()
      .post(`/api/payments/mpesa/c2b/${paid.transId}/assign`)
      .set(bearer(staff.accessToken))
      .send({ purchaseNumber: target.purchaseNumber })
      .expect(200);
    const credited = (
      await n.t.http().get(`/api/orders/${target._id}`).set(bearer(staff.accessToken)).expect(200)
    ).body.order as Order;
    expect(credited).toMatchObject({ paymentStatus: 'Paid', excessPaid: 300 });
    const excess = await n.t
      .http()
      .post(`/api/payments/mpesa/c2b/${paid.transId}/refund`)
      .set(bearer(staff.accessToken))
      .send({});
    expect(excess.status).toBeGreaterThanOrEqual(400);
    expect(excess.status).toBeLessThan(500);
    await sleep(1500);
    expect(n.sim.c2b.refunds.filter((r) => r.kind === 'b2c')).toEqual([]);
    // The order's refund takes the whole payment back, by a reversal of its code.
    await n.t
      .http()
      .patch(`/api/orders/cancel/${target._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Mpesa', amount: target.totalAmount + 300, send: true } })
      .expect(200);
    await waitFor(
      async () => n.sim.c2b.refunds.length,
      (k) => k > 0,
      10_000,
      100,
    );
    await sleep(700);
    expect(n.sim.c2b.refunds.map((r) => [r.kind, r.request.TransactionID])).toEqual([
      ['reversal', paid.transId],
    ]);
    expect(n.sim.c2b.refunds.filter((r) => r.kind === 'b2c')).toEqual([]);
  });

  it('an excess given back by hand is recorded with its code: it leaves the inbox, nothing is sent, and it cannot go back twice', async () => {
    const placed = await placeOrder(n.t, [{ _id: productId, quantity: 1 }], {
      guestInfo: { ...DELIVERY, phoneNumber: newPhone() },
    }).expect(201);
    const target = placed.body.order as Order;
    const paid = await n.sim.payBill({
      account: target.purchaseNumber,
      amount: target.totalAmount + 250,
      phone: asDaraja(newPhone()),
      validate: false,
    });
    await waitFor(
      async () => (await inboxOf()).find((p) => p.transId === paid.transId)?.status,
      (s) => s === 'matched',
      10_000,
      100,
    );
    const sentBefore = n.sim.c2b.refunds.length;
    const refund = (body: object) =>
      n.t
        .http()
        .post(`/api/payments/mpesa/c2b/${paid.transId}/refund`)
        .set(bearer(staff.accessToken))
        .send(body);
    await refund({ byHand: '' }).expect(400);
    await refund({ byHand: 'SKB3H2J1K0 from the shop phone' }).expect(200);
    await refund({ byHand: 'SKB3H2J1K0 from the shop phone' }).expect(409);
    expect((await inboxOf()).find((p) => p.transId === paid.transId)).toBeUndefined();
    const detail = (
      await n.t
        .http()
        .get(`/api/orders/${target._id}/detail`)
        .set(bearer(staff.accessToken))
        .expect(200)
    ).body.money as { received: number; refunded: number; entries: { kind: string }[] };
    expect(detail).toMatchObject({ received: target.totalAmount + 250, refunded: 250 });
    expect(detail.entries.map((e) => e.kind)).toEqual(['paybill', 'mpesa-by-hand']);
    await sleep(500);
    expect(n.sim.c2b.refunds.length).toBe(sentBefore);
  });
});
