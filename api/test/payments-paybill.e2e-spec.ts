/**
 * Paybill payments that find their order, the payments inbox, the second chance after a failed
 * prompt, and M-Pesa refunds that are sent (issue 30), against the Daraja simulator in tools/mpesa
 * (C2B, transaction status query, reversal, B2C) and the SMS simulator, over real HTTP.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startSmsSimulator, type SmsSimulator } from '../../tools/sms/simulator';
import { bearer, registerCustomer, type Session } from './support/identity';
import {
  createMpesaTestApp,
  MPESA_TEST_SETTINGS,
  PAYBILL_ROUTES,
  type MpesaTestApp,
} from './support/mpesa';
import { DELIVERY, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { SMS_TEST_SETTINGS } from './support/sms';
import { waitFor } from './support/wait';

interface Order {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
  paymentStatus: string;
  paymentMethod: string | null;
  paymentDetails: { amount: number; transactionCode: string } | null;
  amountPaid: number;
  amountOutstanding: number;
  excessPaid: number;
  orderStatus: string;
}

let phoneSeq = Math.floor(Math.random() * 80_000_000);
const newPhone = () => `07${10_000_000 + phoneSeq++}`;
const asDaraja = (phone: string) => `254${phone.slice(1)}`;
const token = MPESA_TEST_SETTINGS.MPESA_CALLBACK_TOKEN;

describe('M-Pesa paybill, payments inbox and refunds', () => {
  let m: MpesaTestApp;
  let sms: SmsSimulator;
  let admin: Session;
  let staff: Session;
  let customer: Session;
  let productId: string;

  beforeAll(async () => {
    sms = await startSmsSimulator({
      username: SMS_TEST_SETTINGS.AT_USERNAME,
      apiKey: SMS_TEST_SETTINGS.AT_API_KEY,
    });
    m = await createMpesaTestApp('paybill', {
      ...SMS_TEST_SETTINGS,
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: sms.url,
      SMS_RETRY_INTERVAL_MS: '200',
    });
    const world = await createShopWorld(m.t, {
      product: { price: 500, quantity: 10_000 },
      customer: true,
    });
    ({ admin, staff, productId } = world);
    customer = world.customer!;
    await waitFor(
      async () => m.sim.c2b.registrations.length,
      (n) => n > 0,
      10_000,
      100,
    );
  });
  afterAll(async () => {
    await m.close();
    await sms.close();
  });

  async function order(phone = newPhone(), quantity = 2): Promise<Order & { phone: string }> {
    const res = await placeOrder(m.t, [{ _id: productId, quantity }], {
      guestInfo: { ...DELIVERY, phoneNumber: phone },
    }).expect(201);
    return { ...(res.body.order as Order), phone };
  }

  async function asStaff(id: string): Promise<Order> {
    return (await m.t.http().get(`/api/orders/${id}`).set(bearer(staff.accessToken)).expect(200))
      .body.order as Order;
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

  /** The order's M-Pesa refunds, once the first is sent. */
  const refundsSent = (orderId: string) =>
    waitFor(
      async () =>
        (
          await m.t
            .http()
            .get(`/api/payments/mpesa/orders/${orderId}`)
            .set(bearer(staff.accessToken))
        ).body.refunds as {
          method: string;
          amount: number;
          status: string;
          originalTransId: string;
        }[],
      (r) => r[0]?.status === 'sent',
      10_000,
      100,
    );

  /** The audit entries of an order for an action, once there is one (they follow the change). */
  const auditSoon = (orderId: string, action: string) =>
    waitFor(
      () => auditFor(orderId, action),
      (entries) => entries.length > 0,
      10_000,
      100,
    );

  /** The C2B payment as the shop recorded it, once it is no longer being checked or matched. */
  async function settled(transId: string) {
    return waitFor(
      async () => {
        const res = await m.t
          .http()
          .get('/api/payments/mpesa/inbox')
          .set(bearer(staff.accessToken))
          .expect(200);
        return res.body as { payments: { transId: string; reason: string; status: string }[] };
      },
      (body) => body.payments.some((p) => p.transId === transId),
      10_000,
      100,
    );
  }

  const waitOrder = (id: string, done: (o: Order) => boolean) =>
    waitFor(() => asStaff(id), done, 10_000, 100);

  it('registers the validation and confirmation URLs with Daraja on start', () => {
    const reg = m.sim.c2b.registrations.at(-1)!;
    expect(reg).toMatchObject({
      ShortCode: MPESA_TEST_SETTINGS.MPESA_SHORTCODE,
      ResponseType: 'Cancelled',
      ValidationURL: expect.stringMatching(
        new RegExp(`/api/payments/mpesa/c2b/validation/${token}$`),
      ),
      ConfirmationURL: expect.stringMatching(
        new RegExp(`/api/payments/mpesa/c2b/confirmation/${token}$`),
      ),
    });
  });

  it('a paybill payment with the purchase number, its confirmation replayed five times, pays the order once', async () => {
    const o = await order();
    // Typed in lower case with spaces, as people do.
    const account = `${o.purchaseNumber.slice(0, 4)} ${o.purchaseNumber.slice(4)}`.toLowerCase();
    const paid = await m.sim.payBill({
      account,
      amount: o.totalAmount,
      phone: asDaraja(o.phone),
      replays: 5,
    });
    expect(paid.completed).toBe(true);
    expect(paid.confirmationStatuses).toEqual([200, 200, 200, 200, 200]);

    const after = await waitOrder(o._id, (x) => x.paymentStatus === 'Paid');
    expect(after).toMatchObject({
      paymentStatus: 'Paid',
      paymentMethod: 'Mpesa',
      orderStatus: 'Processing',
      paymentDetails: { amount: o.totalAmount, transactionCode: paid.transId },
      amountPaid: o.totalAmount,
      amountOutstanding: 0,
      excessPaid: 0,
    });
    // Confirmed with Daraja's status query, recorded and audited once, the customer texted once.
    expect(m.sim.c2b.transactions.get(paid.transId)).toBeDefined();
    expect(await auditSoon(o._id, 'order.payment')).toHaveLength(1);
    // The text follows the payment (sent after the order is paid): wait for it, then count.
    const texts = await waitFor(
      async () =>
        sms.outbox.filter((s) => s.to === `+${asDaraja(o.phone)}` && /payment of/.test(s.message)),
      (t) => t.length > 0,
      10_000,
      100,
    );
    expect(texts).toHaveLength(1);
    expect((await asStaff(o._id)).amountPaid).toBe(o.totalAmount);
  });

  it('a lower amount leaves the order part-paid, and the clerk sees the balance; the rest pays it', async () => {
    const o = await order();
    const first = await m.sim.payBill({
      account: o.purchaseNumber,
      amount: 400,
      phone: asDaraja(o.phone),
    });
    const part = await waitOrder(o._id, (x) => x.amountPaid === 400);
    expect(part).toMatchObject({
      paymentStatus: 'Pending',
      amountPaid: 400,
      amountOutstanding: o.totalAmount - 400,
    });
    const [told] = await auditSoon(o._id, 'order.payment.part');
    expect(told!.message).toContain(
      `KES ${(o.totalAmount - 400).toLocaleString('en-US')} outstanding`,
    );
    // The same transaction again credits nothing more.
    await m.t
      .http()
      .post(`/api/payments/mpesa/c2b/confirmation/${token}`)
      .send({
        TransID: first.transId,
        TransAmount: '400.00',
        BillRefNumber: o.purchaseNumber,
        MSISDN: asDaraja(o.phone),
      })
      .expect(200);
    const second = await m.sim.payBill({
      account: o.purchaseNumber,
      amount: o.totalAmount - 400,
      phone: asDaraja(o.phone),
    });
    const paid = await waitOrder(o._id, (x) => x.paymentStatus === 'Paid');
    expect(paid).toMatchObject({
      amountPaid: o.totalAmount,
      amountOutstanding: 0,
      paymentDetails: { amount: o.totalAmount, transactionCode: second.transId },
    });
  });

  it('after a part payment, the M-Pesa prompt asks for the balance, and its payment completes the order', async () => {
    const o = await order();
    await m.sim.payBill({ account: o.purchaseNumber, amount: 300, phone: asDaraja(o.phone) });
    await waitOrder(o._id, (x) => x.amountPaid === 300);
    m.sim.setScenario('success', asDaraja(o.phone));
    const res = await m.t
      .http()
      .post('/api/payments/mpesa/stk-push')
      .send({ purchaseNumber: o.purchaseNumber, phoneNumber: o.phone })
      .expect(200);
    const push = await m.sim.settled(res.body.checkoutRequestId as string);
    expect(push.request.Amount).toBe(o.totalAmount - 300);
    expect(await waitOrder(o._id, (x) => x.paymentStatus === 'Paid')).toMatchObject({
      amountPaid: o.totalAmount,
      amountOutstanding: 0,
      excessPaid: 0,
      paymentDetails: { amount: o.totalAmount },
    });
  });

  it('validation refuses an account that is no open order; an unknown account lands in the inbox, and a clerk assigns it', async () => {
    const refused = await m.sim.payBill({ account: 'NOSUCHORDER', amount: 50 });
    expect(refused.completed).toBe(false);
    expect(refused.validation?.body).toMatchObject({ ResultCode: 'C2B00012' });

    const o = await order();
    const before = (
      await m.t
        .http()
        .get('/api/payments/mpesa/inbox/count')
        .set(bearer(staff.accessToken))
        .expect(200)
    ).body.waiting as number;
    // A shortcode without external validation: Daraja confirms whatever was typed.
    const stray = await m.sim.payBill({
      account: 'my seedlings',
      amount: o.totalAmount,
      phone: asDaraja(newPhone()),
      validate: false,
    });
    const inbox = await settled(stray.transId);
    expect(inbox.payments.find((p) => p.transId === stray.transId)).toMatchObject({
      status: 'inbox',
      reason: expect.stringContaining('No open order has the account number "my seedlings"'),
    });
    const counted = await m.t
      .http()
      .get('/api/payments/mpesa/inbox/count')
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(counted.body.waiting).toBe(before + 1);
    expect((await asStaff(o._id)).paymentStatus).toBe('Pending');

    // Customers may not see or touch the inbox.
    await m.t.http().get('/api/payments/mpesa/inbox').expect(401);
    // A closed or unknown order is refused and the payment stays in the inbox.
    await m.t
      .http()
      .post(`/api/payments/mpesa/c2b/${stray.transId}/assign`)
      .set(bearer(staff.accessToken))
      .send({ purchaseNumber: 'SPDNOTHERE' })
      .expect(404);
    const assigned = await m.t
      .http()
      .post(`/api/payments/mpesa/c2b/${stray.transId}/assign`)
      .set(bearer(staff.accessToken))
      .send({ purchaseNumber: o.purchaseNumber })
      .expect(200);
    expect(assigned.body.payment).toMatchObject({
      status: 'matched',
      matchedBy: 'staff',
      purchaseNumber: o.purchaseNumber,
    });
    expect(await asStaff(o._id)).toMatchObject({
      paymentStatus: 'Paid',
      paymentDetails: { transactionCode: stray.transId },
    });
    // Assigned once: again is a 409 and changes nothing.
    await m.t
      .http()
      .post(`/api/payments/mpesa/c2b/${stray.transId}/assign`)
      .set(bearer(staff.accessToken))
      .send({ purchaseNumber: o.purchaseNumber })
      .expect(409);
    expect(
      (await m.t.http().get('/api/payments/mpesa/inbox/count').set(bearer(staff.accessToken))).body
        .waiting,
    ).toBe(before);
  });

  it("a payment by phone number alone pays a signed-in customer's one open order of their own phone (paid from before); two open orders leave it in the inbox", async () => {
    const phone = newPhone();
    const owner = await registerCustomer(m.t, { phoneNumber: `+254${phone.slice(1)}` });
    // Their first order is paid from that phone with its purchase number: the phone is theirs.
    const first = (
      await placeOrder(m.t, [{ _id: productId, quantity: 1 }], {
        token: owner.accessToken,
        guestInfo: { ...DELIVERY, phoneNumber: phone },
      }).expect(201)
    ).body.order as Order;
    await m.sim.payBill({
      account: first.purchaseNumber,
      amount: first.totalAmount,
      phone: asDaraja(phone),
    });
    await waitOrder(first._id, (x) => x.paymentStatus === 'Paid');
    const placed = await placeOrder(m.t, [{ _id: productId, quantity: 2 }], {
      token: owner.accessToken,
      guestInfo: { ...DELIVERY, phoneNumber: phone },
    }).expect(201);
    const o = placed.body.order as Order;
    const paid = await m.sim.payBill({
      account: '',
      amount: o.totalAmount,
      phone: asDaraja(phone),
      validate: false,
    });
    expect(await waitOrder(o._id, (x) => x.paymentStatus === 'Paid')).toMatchObject({
      paymentDetails: { transactionCode: paid.transId },
    });

    await placeOrder(m.t, [{ _id: productId, quantity: 1 }], {
      token: owner.accessToken,
      guestInfo: { ...DELIVERY, phoneNumber: phone },
    }).expect(201);
    await placeOrder(m.t, [{ _id: productId, quantity: 1 }], {
      token: owner.accessToken,
      guestInfo: { ...DELIVERY, phoneNumber: phone },
    }).expect(201);
    const unsure = await m.sim.payBill({
      account: '',
      amount: 100,
      phone: asDaraja(phone),
      validate: false,
    });
    const inbox = await settled(unsure.transId);
    expect(inbox.payments.find((p) => p.transId === unsure.transId)!.reason).toContain(
      'several open orders',
    );
  });

  it("a guest order naming a stranger's phone never collects the stranger's paybill payment", async () => {
    const stranger = newPhone();
    const o = await order(stranger);
    const paid = await m.sim.payBill({
      account: '',
      amount: o.totalAmount,
      phone: asDaraja(stranger),
      validate: false,
    });
    const inbox = await settled(paid.transId);
    expect(inbox.payments.find((p) => p.transId === paid.transId)).toMatchObject({
      status: 'inbox',
      reason: expect.stringContaining("no open order has the payer's phone"),
    });
    expect(await asStaff(o._id)).toMatchObject({ paymentStatus: 'Pending', amountPaid: 0 });
  });

  it('an over-payment pays the order and records the excess, which goes back by B2C', async () => {
    const o = await order();
    const paid = await m.sim.payBill({
      account: o.purchaseNumber,
      amount: o.totalAmount + 300,
      phone: asDaraja(o.phone),
    });
    expect(await waitOrder(o._id, (x) => x.paymentStatus === 'Paid')).toMatchObject({
      amountPaid: o.totalAmount + 300,
      excessPaid: 300,
    });
    const inbox = await settled(paid.transId);
    expect(inbox.payments.find((p) => p.transId === paid.transId)).toMatchObject({
      status: 'matched',
      excess: 300,
    });
    await m.t
      .http()
      .post(`/api/payments/mpesa/c2b/${paid.transId}/refund`)
      .set(bearer(staff.accessToken))
      .expect(200);
    const refunds = await refundsSent(o._id);
    expect(refunds).toEqual([
      expect.objectContaining({ method: 'b2c', amount: 300, status: 'sent' }),
    ]);
    const b2c = m.sim.c2b.refunds.filter(
      (r) => r.kind === 'b2c' && r.request.PartyB === asDaraja(o.phone),
    );
    expect(b2c).toHaveLength(1);
  });

  it("a reversal's failure callback, then a success after a retry, sends one refund; a replayed result changes nothing", async () => {
    const stray = await m.sim.payBill({
      account: 'unknown',
      amount: 700,
      phone: asDaraja(newPhone()),
      validate: false,
    });
    await settled(stray.transId);
    m.sim.setResultScenario('reversal', ['failed']);
    await m.t
      .http()
      .post(`/api/payments/mpesa/c2b/${stray.transId}/refund`)
      .set(bearer(staff.accessToken))
      .expect(200);
    const id = `payment:${stray.transId}`;
    const mine = () =>
      m.sim.c2b.refunds.filter(
        (r) => r.kind === 'reversal' && r.request.TransactionID === stray.transId,
      );
    await waitFor(
      async () => mine().map((r) => r.resultStatuses.length),
      (s) => s[0] === 1,
      10_000,
      100,
    );
    // Sent at most once while it is not known to have failed; after the failure, retried by staff.
    await waitFor(
      async () =>
        m.t
          .http()
          .post(`/api/payments/mpesa/refunds/${encodeURIComponent(id)}/retry`)
          .set(bearer(staff.accessToken)),
      (res) => res.status === 200,
      5_000,
      100,
    );
    await waitFor(
      async () => mine().filter((r) => r.transactionId).length,
      (n) => n === 1,
      10_000,
      100,
    );
    await waitFor(
      async () => mine()[1]!.resultStatuses.length,
      (n) => n === 1,
      10_000,
      100,
    );
    const retryAgain = await m.t
      .http()
      .post(`/api/payments/mpesa/refunds/${encodeURIComponent(id)}/retry`)
      .set(bearer(staff.accessToken))
      .expect(409);
    expect(retryAgain.body.message).toBe('This refund was sent already');
    // The success result replayed (and a forged failure for it) changes nothing.
    const sent = mine()[1]!;
    for (const code of [0, 'R000002'])
      await m.t
        .http()
        .post(`/api/payments/mpesa/result/reversal/${token}`)
        .send({
          Result: {
            ResultType: 0,
            ResultCode: code,
            ResultDesc: 'replayed',
            OriginatorConversationID: sent.originatorConversationId,
            ConversationID: sent.conversationId,
            TransactionID: 'TFORGED000',
          },
        })
        .expect(200);
    expect(mine()).toHaveLength(2);
    expect(mine().filter((r) => r.transactionId)).toHaveLength(1);
    const audit = await m.t
      .http()
      .get('/api/audit-logs?action=payment.mpesa.refund.sent&limit=100')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(
      (audit.body as { message: string }[]).filter((e) => e.message.includes('KES 700')),
    ).toHaveLength(1);
  });

  it('cancelling a paid order with its refund sent by M-Pesa reverses the paybill payment, and staff see it sent', async () => {
    const o = await order();
    const paid = await m.sim.payBill({
      account: o.purchaseNumber,
      amount: o.totalAmount,
      phone: asDaraja(o.phone),
    });
    await waitOrder(o._id, (x) => x.paymentStatus === 'Paid');
    await m.t
      .http()
      .patch(`/api/orders/cancel/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Mpesa', amount: o.totalAmount, send: true } })
      .expect(200);
    const refunds = await refundsSent(o._id);
    expect(refunds).toEqual([
      expect.objectContaining({
        method: 'reversal',
        status: 'sent',
        originalTransId: paid.transId,
      }),
    ]);
    expect(m.sim.c2b.transactions.get(paid.transId)!.reversed).toBe(true);
    expect(await auditSoon(o._id, 'payment.mpesa.refund.sent')).toHaveLength(1);
  });

  it("a customer's paybill payment and its refund are in their data, and leave with the account", async () => {
    const phone = newPhone();
    const leaving = await registerCustomer(m.t);
    const placed = await placeOrder(m.t, [{ _id: productId, quantity: 2 }], {
      token: leaving.accessToken,
      guestInfo: { ...DELIVERY, phoneNumber: phone },
    }).expect(201);
    const o = placed.body.order as Order;
    const paid = await m.sim.payBill({
      account: o.purchaseNumber,
      amount: o.totalAmount,
      phone: asDaraja(phone),
    });
    await waitOrder(o._id, (x) => x.paymentStatus === 'Paid');
    await m.t
      .http()
      .patch(`/api/orders/cancel/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Mpesa', amount: o.totalAmount, send: true } })
      .expect(200);
    await refundsSent(o._id);

    const mine = await m.t
      .http()
      .get('/api/users/profile/data-export')
      .set(bearer(leaving.accessToken))
      .expect(200);
    const data = JSON.parse(mine.text) as {
      payments: { kind: string; transactionCode?: string; amount?: number }[];
      refunds: { kind?: string; status?: string; amount?: number }[];
      summary: string[];
    };
    expect(data.payments).toContainEqual(
      expect.objectContaining({
        kind: 'mpesa-paybill',
        transactionCode: paid.transId,
        amount: o.totalAmount,
      }),
    );
    expect(data.refunds).toContainEqual(
      expect.objectContaining({ kind: 'mpesa-refund', status: 'sent', amount: o.totalAmount }),
    );
    expect(data.summary.join(' ')).toContain('paybill payments: 1');

    await m.t
      .http()
      .post('/api/users/profile/delete')
      .set(bearer(leaving.accessToken))
      .send({ password: leaving.password })
      .expect(200);
    const db = m.t.app.get<Connection>(getConnectionToken()).db!;
    const payment = await db
      .collection<{ _id: string }>('mpesa_c2b_payments')
      .findOne({ _id: paid.transId });
    expect(payment).toMatchObject({ amount: o.totalAmount, phone: '', payerName: '' });
    const refund = await db.collection('mpesa_refunds').findOne({ orderId: o._id });
    expect(refund).toMatchObject({ status: 'sent', phone: '' });
  });

  it("refuses an order id that is not one when staff ask for an order's M-Pesa payments", async () => {
    const res = await m.t
      .http()
      .get('/api/payments/mpesa/orders/not-an-order')
      .set(bearer(staff.accessToken))
      .expect(400);
    expect(res.body.message).toMatch(/id/i);
  });

  it('refuses callbacks without the secret token; a forged transaction id changes nothing', async () => {
    const o = await order();
    const forged = {
      TransID: 'TFAKE12345',
      TransAmount: String(o.totalAmount),
      BillRefNumber: o.purchaseNumber,
      MSISDN: asDaraja(o.phone),
    };
    await m.t
      .http()
      .post('/api/payments/mpesa/c2b/confirmation/wrong-token-0123456789abcdef')
      .send(forged)
      .expect(404);
    await m.t
      .http()
      .post('/api/payments/mpesa/result/reversal/wrong-token-0123456789abcdef')
      .send({})
      .expect(404);
    await m.t.http().post(`/api/payments/mpesa/c2b/confirmation/${token}`).send(forged).expect(200);
    const inbox = await settled('TFAKE12345');
    expect(inbox.payments.find((p) => p.transId === 'TFAKE12345')!.reason).toContain(
      'M-Pesa did not confirm this payment',
    );
    expect(await asStaff(o._id)).toMatchObject({ paymentStatus: 'Pending', amountPaid: 0 });
  });

  it('a failed prompt sends one SMS with the paybill, the purchase number as account and the amount', async () => {
    const o = await order();
    m.sim.setScenario('cancelled', asDaraja(o.phone));
    for (let i = 0; i < 2; i += 1) {
      const res = await m.t
        .http()
        .post('/api/payments/mpesa/stk-push')
        .send({ purchaseNumber: o.purchaseNumber, phoneNumber: o.phone })
        .expect(200);
      await m.sim.settled(res.body.checkoutRequestId as string);
      await waitFor(
        async () =>
          (await m.t.http().get(`/api/payments/mpesa/status/${res.body.checkoutRequestId}`)).body
            .status as string,
        (s) => s === 'failed',
        10_000,
        100,
      );
    }
    const texts = await waitFor(
      async () =>
        sms.outbox.filter((s) => s.to === `+${asDaraja(o.phone)}` && /Paybill/.test(s.message)),
      (list) => list.length > 0,
      10_000,
      100,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(
      sms.outbox.filter((s) => s.to === `+${asDaraja(o.phone)}` && /Paybill/.test(s.message)),
    ).toHaveLength(1);
    expect(texts[0]!.message).toContain(
      `Paybill ${MPESA_TEST_SETTINGS.MPESA_SHORTCODE}, account ${o.purchaseNumber}, amount KES ${o.totalAmount.toLocaleString('en-US')}`,
    );
    // The order page offers "Try M-Pesa again" with the paybill details; the prompt limits stay.
    const info = await m.t
      .http()
      .get(`/api/payments/mpesa/pay-info/${o.purchaseNumber}`)
      .expect(200);
    expect(info.body).toMatchObject({
      payable: true,
      paybill: MPESA_TEST_SETTINGS.MPESA_SHORTCODE,
      account: o.purchaseNumber,
      amountDue: o.totalAmount,
      lastPrompt: { status: 'failed' },
    });
    await m.t.http().get('/api/payments/mpesa/pay-info/SPDNOSUCH99').expect(404);
  });

  it('lets Daraja in only with the token, staff (and admins) at the inbox and refunds, admins at registration', async () => {
    const path = (route: string) =>
      route
        .split(' ')[1]!
        .replace('{token}', 'not-the-token-0123456789abcdef')
        .replace('{kind}', 'status')
        .replace('{transId}', 'TNOSUCH000')
        .replace('{orderId}', '665f1c2b9d3e4a0012345679')
        .replace('{refundId}', 'order%3A665f1c2b9d3e4a0012345679');
    for (const [route, who] of Object.entries(PAYBILL_ROUTES)) {
      const call = () => {
        const [method] = route.split(' ');
        const req =
          method === 'GET' ? m.t.http().get(path(route)) : m.t.http().post(path(route)).send({});
        return req;
      };
      const anonymous = (await call()).status;
      const asCustomer = (await call().set(bearer(customer.accessToken))).status;
      const asStaffMember = (await call().set(bearer(staff.accessToken))).status;
      const asAdmin = (await call().set(bearer(admin.accessToken))).status;
      if (who === 'daraja') {
        expect([route, anonymous, asCustomer, asStaffMember]).toEqual([route, 404, 404, 404]);
      } else {
        expect([route, anonymous, asCustomer]).toEqual([route, 401, 403]);
        expect([route, asStaffMember === 403]).toEqual([route, who === 'admin']);
        expect([route, [401, 403].includes(asAdmin)]).toEqual([route, false]);
      }
    }
  });
});
