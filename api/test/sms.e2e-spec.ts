/**
 * Order text messages against the Africa's Talking simulator in tools/sms: the API sends real HTTP
 * requests to it, and the tests read what a customer's phone would have received from its outbox.
 */
import { createApp } from '../src/app.factory';
import { SmsService } from '../src/sms/sms.service';
import { bearer, registerCustomer, type Session } from './support/identity';
import { DELIVERY, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { createSmsTestApp, type SmsTestApp } from './support/sms';
import { waitFor } from './support/wait';

let phoneSeq = Math.floor(Math.random() * 80_000_000);
/** A fresh Safaricom number per order, so each test reads only its own messages. */
const newPhone = () => `07${10_000_000 + phoneSeq++}`;
const msisdn = (phone: string) => `+254${phone.slice(1)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Order SMS', () => {
  let s: SmsTestApp;
  let staff: Session;
  let productId: string;

  beforeAll(async () => {
    s = await createSmsTestApp('sms');
    ({ staff, productId } = await createShopWorld(s.t, {
      product: { price: 300, quantity: 10_000 },
    }));
  });
  afterAll(() => s.close());

  const asStaff = (method: 'patch', url: string) =>
    s.t.http()[method](url).set(bearer(staff.accessToken));

  async function guestOrder(phone: string, key?: string) {
    const res = await placeOrder(s.t, [{ _id: productId, quantity: 2 }], {
      guestInfo: { ...DELIVERY, phoneNumber: phone },
      key,
    }).expect(201);
    return res.body.order as { _id: string; purchaseNumber: string; totalAmount: number };
  }

  it('texts a guest once per event: placed (number and tracking link), paid, sent, delivered', async () => {
    const phone = newPhone();
    const order = await guestOrder(phone);
    const [placed] = await s.messagesTo(msisdn(phone), 1);
    expect(placed!.message).toContain(order.purchaseNumber);
    expect(placed!.message).toContain('KES 600');
    expect(placed!.message).toContain(
      `${s.t.config.storefrontUrl}/track-orders?purchaseNumber=${order.purchaseNumber}`,
    );
    expect(placed!.from).toBe('SPC');

    await asStaff('patch', `/api/orders/complete-payment/${order._id}`)
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: 600 } })
      .expect(200);
    await asStaff('patch', `/api/orders/inTransit/${order._id}`).expect(200);
    await asStaff('patch', '/api/orders/confirm-delivery').send({ orderId: order._id }).expect(200);
    // Fulfilling a delivered order sends nothing more: its "delivered" message went already.
    await asStaff('patch', `/api/orders/complete-order/${order._id}`).expect(200);

    const all = await s.messagesTo(msisdn(phone), 4);
    await sleep(500);
    const texts = s.sim.outbox.filter((m) => m.to === msisdn(phone)).map((m) => m.message);
    expect(texts).toHaveLength(4);
    expect(all.map((m) => m.message)).toEqual(texts);
    expect(texts[1]).toMatch(new RegExp(`payment of KES 600 for order ${order.purchaseNumber}`));
    expect(texts[2]).toMatch(/is on its way/);
    expect(texts[3]).toMatch(/has been delivered/);

    const records = await s.t.app.get(SmsService).forOrder(order._id);
    expect(records.map((r) => [r.event, r.status, r.attempts])).toEqual([
      ['placed', 'sent', 1],
      ['paid', 'sent', 1],
      ['sent', 'sent', 1],
      ['delivered', 'sent', 1],
    ]);
    const ids = s.sim.outbox.filter((m) => m.to === msisdn(phone)).map((m) => m.messageId);
    expect(records.map((r) => r.gatewayId)).toEqual(ids);
  });

  it('texts a cancellation, and a replayed placement sends no second "placed" message', async () => {
    const phone = newPhone();
    const key = `sms-replay-${phone}`;
    const order = await guestOrder(phone, key);
    const replay = await placeOrder(s.t, [{ _id: productId, quantity: 2 }], {
      guestInfo: { ...DELIVERY, phoneNumber: phone },
      key,
    });
    expect(replay.body.order.purchaseNumber).toBe(order.purchaseNumber);
    await s.messagesTo(msisdn(phone), 1);
    await asStaff('patch', `/api/orders/cancel/${order._id}`).expect(200);
    const texts = (await s.messagesTo(msisdn(phone), 2)).map((m) => m.message);
    await sleep(500);
    expect(s.sim.outbox.filter((m) => m.to === msisdn(phone))).toHaveLength(2);
    expect(texts[1]).toContain(`your order ${order.purchaseNumber} has been cancelled`);
    expect(texts[1]).toContain(s.t.config.shopContacts.phone);
  });

  it('normalises the number the shopper typed to +254', async () => {
    const phone = newPhone();
    await guestOrder(`254${phone.slice(1)}`);
    const other = newPhone();
    await guestOrder(`${other.slice(0, 4)} ${other.slice(4)}`);
    expect(await s.messagesTo(msisdn(other), 1)).toHaveLength(1);
    expect(await s.messagesTo(msisdn(phone), 1)).toHaveLength(1);
  });

  it('sends nothing to a customer who turned SMS off in the profile, and records why', async () => {
    const phone = newPhone();
    const customer = await registerCustomer(s.t, { phoneNumber: phone });
    const bad = await s.t
      .http()
      .patch('/api/users/profile')
      .set(bearer(customer.accessToken))
      .send({ fullName: 'Wanjiku Kamau', phoneNumber: phone, smsNotifications: 'maybe' })
      .expect(400);
    expect(JSON.stringify(bad.body)).toContain('smsNotifications must be true or false');
    const off = await s.t
      .http()
      .patch('/api/users/profile')
      .set(bearer(customer.accessToken))
      .send({ fullName: 'Wanjiku Kamau', phoneNumber: phone, smsNotifications: false })
      .expect(200);
    expect(off.body.user.smsNotifications).toBe(false);

    const res = await placeOrder(s.t, [{ _id: productId, quantity: 1 }], {
      token: customer.accessToken,
      guestInfo: { ...DELIVERY, phoneNumber: phone },
    }).expect(201);
    const orderId = res.body.order._id as string;
    await asStaff('patch', `/api/orders/inTransit/${orderId}`).expect(200);
    const records = await waitFor(
      () => s.t.app.get(SmsService).forOrder(orderId),
      (r) => r.length >= 2,
      5000,
    );
    expect(records.map((r) => [r.event, r.status, r.lastError])).toEqual([
      ['placed', 'skipped', 'the customer turned SMS off'],
      ['sent', 'skipped', 'the customer turned SMS off'],
    ]);
    await sleep(500);
    expect(s.sim.outbox.filter((m) => m.to === msisdn(phone))).toHaveLength(0);

    const on = await s.t
      .http()
      .patch('/api/users/profile')
      .set(bearer(customer.accessToken))
      .send({ fullName: 'Wanjiku Kamau', phoneNumber: phone, smsNotifications: true })
      .expect(200);
    expect(on.body.user.smsNotifications).toBe(true);
    await asStaff('patch', '/api/orders/confirm-delivery').send({ orderId }).expect(200);
    const [delivered] = await s.messagesTo(msisdn(phone), 1);
    expect(delivered!.message).toMatch(/has been delivered/);
  });

  it('places the order while the gateway fails, and retries the message until it is sent', async () => {
    const phone = newPhone();
    s.sim.failNext(2);
    const failuresBefore = s.sim.failures();
    const order = await guestOrder(phone);
    expect(order.purchaseNumber).toBeTruthy();
    const [placed] = await s.messagesTo(msisdn(phone), 1);
    expect(placed!.message).toContain(order.purchaseNumber);
    expect(s.sim.failures() - failuresBefore).toBe(2);
    const [record] = await waitFor(
      () => s.t.app.get(SmsService).forOrder(order._id),
      (r) => r[0]?.status === 'sent',
      5000,
    );
    expect(record).toMatchObject({ event: 'placed', status: 'sent', attempts: 3 });
    expect(record!.lastError).toMatch(/gateway answered 500/);
    expect(record!.gatewayId).toBe(placed!.messageId);
  });
});

describe('Order SMS retries with two API instances', () => {
  let s: SmsTestApp;
  let second: Awaited<ReturnType<typeof createApp>>;
  let productId: string;

  beforeAll(async () => {
    s = await createSmsTestApp('sms_two');
    // A second instance on the same database and gateway: its retry loop races the first one's.
    second = await createApp(s.t.config);
    await second.init();
    ({ productId } = await createShopWorld(s.t, { product: { price: 120, quantity: 10_000 } }));
  });
  afterAll(async () => {
    await second?.close();
    await s.close();
  });

  it('sends each failed message exactly once when both instances retry it', async () => {
    const phones = Array.from({ length: 6 }, newPhone);
    s.sim.failNext(phones.length);
    for (const phone of phones)
      await placeOrder(s.t, [{ _id: productId, quantity: 1 }], {
        guestInfo: { ...DELIVERY, phoneNumber: phone },
      }).expect(201);
    const all = await waitFor(
      async () => phones.map((p) => s.sim.outbox.filter((m) => m.to === msisdn(p)).length),
      (counts) => counts.every((c) => c >= 1),
      15_000,
    );
    // Several more retry rounds of both instances: nothing is sent a second time.
    await sleep(1500);
    expect(all.every((c) => c === 1)).toBe(true);
    expect(phones.map((p) => s.sim.outbox.filter((m) => m.to === msisdn(p)).length)).toEqual(
      phones.map(() => 1),
    );
  });
});
