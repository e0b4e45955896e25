/**
 * M-Pesa Express at the gate's till (issue 46), against the Daraja simulator: a sale split between
 * cash and a prompt to the buyer's phone waits for the prompt (its cash recorded at once), and is
 * handed over once the callback pays it; a declined prompt leaves it waiting, handed over never.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { bearer, createStaff } from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { openTillSession, setTillPin } from './support/till';
import { stockOf } from './support/shop';
import { waitFor } from './support/wait';

let phoneSeq = Math.floor(Math.random() * 80_000_000);
const newPhone = () => `07${10_000_000 + phoneSeq++}`;
const asDaraja = (phone: string) => `254${phone.slice(1)}`;

describe('M-Pesa Express at the till', () => {
  let m: MpesaTestApp;
  let world: ShopWorld;
  let sessionId: string;
  const db = () => m.t.app.get<Connection>(getConnectionToken()).db!;
  const staff = () => bearer(world.staff.accessToken);

  beforeAll(async () => {
    m = await createMpesaTestApp('till_mpesa');
    world = await createShopWorld(m.t);
    sessionId = await openTillSession(m.t, world.staff.accessToken, 1000);
  });
  afterAll(() => m.close());

  /** 10 seedlings at KES 100: cash 200, and a prompt for 800 to this phone. */
  const sell = (phone: string) =>
    m.t
      .http()
      .post('/api/till/sales')
      .set(staff())
      .send({
        sessionId,
        lines: [{ productId: world.productId, quantity: 10 }],
        payments: [
          { method: 'cash', amount: 200, given: 200 },
          { method: 'mpesa-express', amount: 800, phone },
        ],
      });
  const saleOf = async (id: string) =>
    (await m.t.http().get(`/api/till/sales/${id}`).set(staff()).expect(200)).body.sale;

  it('waits for the prompt with its cash recorded, then hands the sale over once it is paid', async () => {
    const phone = newPhone();
    m.sim.setScenario('success', asDaraja(phone));
    const res = await sell(phone);
    expect(res.status).toBe(201);
    expect(res.body.sale).toMatchObject({ state: 'awaiting-payment', paid: 200 });
    const paid = await waitFor(
      () => saleOf(res.body.sale.orderId),
      (s) => s.state === 'paid',
      15_000,
    );
    expect(paid.paid).toBe(1000);
    const order = await waitFor(
      async () =>
        (await m.t.http().get(`/api/orders/${res.body.sale.orderId}`).set(staff()).expect(200)).body
          .order,
      (o) => o.orderStatus === 'Completed',
      15_000,
    );
    expect(order).toMatchObject({ paymentStatus: 'Paid', fulfillmentStatus: 'Fulfilled' });
    const entries = await db()
      .collection('money_entries')
      .find({ orderId: res.body.sale.orderId })
      .toArray();
    expect(entries.map((e) => [e.kind, e.amount]).sort()).toEqual([
      ['cash', 200],
      ['mpesa-express', 800],
    ]);
    const cashUp = (
      await m.t.http().get(`/api/till/sessions/${sessionId}`).set(staff()).expect(200)
    ).body.cashUp;
    expect(cashUp.methods.map((x: { expected: number }) => x.expected)).toEqual([1200, 800]);
    expect((await checkMoneyLedger(db())).problems).toEqual([]);
  });

  it('refuses a prompt to no Kenyan mobile number, changing nothing', async () => {
    const before = await db().collection('orders').countDocuments();
    const res = await sell('12345');
    expect(res.status).toBe(400);
    expect(await db().collection('orders').countDocuments()).toBe(before);
  });

  it('voids a sale whose prompt was declined: its cash part back, its stock returned', async () => {
    const approver = await createStaff(m.t, world.admin.accessToken, { fullName: 'Grace Wanjiku' });
    await setTillPin(m.t, approver, '2468');
    const phone = newPhone();
    m.sim.setScenario('cancelled', asDaraja(phone));
    const stock = await stockOf(m.t, world.productId);
    const res = await sell(phone);
    expect(res.status).toBe(201);
    await m.sim.settled(
      (await db().collection('mpesa_pushes').findOne({ orderId: res.body.sale.orderId }))!
        ._id as unknown as string,
    );
    const waiting = await waitFor(
      () => saleOf(res.body.sale.orderId),
      (x) => x.payments[1].state === 'failed',
      10_000,
    );
    expect([waiting.state, waiting.payments[1].state]).toEqual(['awaiting-payment', 'failed']);
    const voided = await m.t
      .http()
      .post(`/api/till/sales/${res.body.sale.orderId}/void`)
      .set(staff())
      .send({ approverId: approver.user._id, pin: '2468', reason: 'Prompt declined' })
      .expect(200);
    expect(voided.body.sale).toMatchObject({ state: 'voided', refunded: 200 });
    expect(await stockOf(m.t, world.productId)).toBe(stock);
    expect((await checkMoneyLedger(db())).problems).toEqual([]);
  });
});
