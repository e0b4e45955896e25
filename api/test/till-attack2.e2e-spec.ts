/**
 * An outside tester's second attack on the gate's till (issue 46), through the HTTP API only: the
 * till's rules (a second person's PIN for money given back, a closed session's cash-up never
 * changing behind the count) tried again through the ordinary order routes, on a sale waiting for
 * its M-Pesa Express prompt. Each `it` is named for what a user would see.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { bearer, createStaff, type Session } from './support/identity';
import { createMpesaTestApp, MPESA_TEST_SETTINGS, type MpesaTestApp } from './support/mpesa';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { openTillSession, setTillPin } from './support/till';
import { waitFor } from './support/wait';

let phoneSeq = Math.floor(Math.random() * 80_000_000);
const newPhone = () => `07${10_000_000 + phoneSeq++}`;
const asDaraja = (phone: string) => `254${phone.slice(1)}`;

describe('the till under a second attack: its sales through the ordinary order routes', () => {
  let m: MpesaTestApp;
  let world: ShopWorld;
  const db = () => m.t.app.get<Connection>(getConnectionToken()).db!;

  beforeAll(async () => {
    m = await createMpesaTestApp('till_attack2');
    world = await createShopWorld(m.t);
  });
  afterAll(() => m.close());

  /**
   * A sale of 10 seedlings at KES 100 in this clerk's session: cash 200, and a prompt for 800 the
   * buyer declines; answers its order id once the prompt has failed (the sale waits).
   */
  const waitingSale = async (clerk: Session, sessionId: string) => {
    const phone = newPhone();
    m.sim.setScenario('cancelled', asDaraja(phone));
    const res = await m.t
      .http()
      .post('/api/till/sales')
      .set(bearer(clerk.accessToken))
      .send({
        sessionId,
        lines: [{ productId: world.productId, quantity: 10 }],
        payments: [
          { method: 'cash', amount: 200, given: 200 },
          { method: 'mpesa-express', amount: 800, phone },
        ],
      });
    expect(res.status).toBe(201);
    const orderId = res.body.sale.orderId as string;
    await waitFor(
      async () =>
        (await m.t.http().get(`/api/till/sales/${orderId}`).set(bearer(clerk.accessToken))).body
          .sale,
      (s) => s?.payments?.[1]?.state === 'failed',
      15_000,
    );
    return orderId;
  };
  const cashUpOf = async (clerk: Session, sessionId: string) =>
    (
      await m.t
        .http()
        .get(`/api/till/sessions/${sessionId}`)
        .set(bearer(clerk.accessToken))
        .expect(200)
    ).body.cashUp;
  const outOf = async (orderId: string) =>
    (await db().collection('money_entries').find({ orderId, direction: 'out' }).toArray()).reduce(
      (n, e) => n + (e.amount as number),
      0,
    );

  it('a clerk alone gives back a waiting gate sale’s cash through the order’s Cancel, with no second person’s PIN', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Otieno Till' });
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const orderId = await waitingSale(clerk, sessionId);
    const res = await m.t
      .http()
      .patch(`/api/orders/cancel/${orderId}`)
      .set(bearer(clerk.accessToken))
      .send({ refund: { method: 'Cash', amount: 200, reference: 'drawer' } });
    // A gate sale's money goes back only by the till's void, approved by a second person's PIN.
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await outOf(orderId)).toBe(0);
  });

  it('cash recorded at the desk on a waiting gate sale after its session closed changes the counted cash-up', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Achieng Till' });
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const orderId = await waitingSale(clerk, sessionId);
    await m.t
      .http()
      .post(`/api/till/sessions/${sessionId}/close`)
      .set(bearer(clerk.accessToken))
      .send({ countedCash: 1200 })
      .expect(200);
    const counted = await cashUpOf(clerk, sessionId);
    const desk = await m.t
      .http()
      .patch(`/api/orders/complete-payment/${orderId}`)
      .set(bearer(world.staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: 800 } });
    // The till's own reversals answer 409 once the session is closed; so should the desk.
    expect(await cashUpOf(clerk, sessionId)).toEqual(counted);
    expect(desk.status).toBe(409);
  });

  it('(held) an admin cannot delete a voided gate sale of a closed session: its cash-up stays as counted', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Wafula Till' });
    const approver = await createStaff(m.t, world.admin.accessToken, { fullName: 'Njeri Pin' });
    await setTillPin(m.t, approver, '2468');
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const sale = await m.t
      .http()
      .post('/api/till/sales')
      .set(bearer(clerk.accessToken))
      .send({
        sessionId,
        lines: [{ productId: world.productId, quantity: 3 }],
        payments: [{ method: 'cash', amount: 300 }],
      })
      .expect(201);
    const orderId = sale.body.sale.orderId as string;
    await m.t
      .http()
      .post(`/api/till/sales/${orderId}/void`)
      .set(bearer(clerk.accessToken))
      .send({ approverId: approver.user._id, pin: '2468', reason: 'Wrong tray' })
      .expect(200);
    await m.t
      .http()
      .post(`/api/till/sessions/${sessionId}/close`)
      .set(bearer(clerk.accessToken))
      .send({ countedCash: 1000 })
      .expect(200);
    const counted = await cashUpOf(clerk, sessionId);
    const deleted = await m.t
      .http()
      .delete(`/api/orders/delete/${orderId}`)
      .set(bearer(world.admin.accessToken));
    // The void and who approved it must stay in the closed session's record.
    expect(await cashUpOf(clerk, sessionId)).toEqual(counted);
    expect(deleted.status).toBe(409);
  });

  it('a gate sale cancelled through the order page after its session closed changes the counted cash-up', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Kamau Till' });
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const orderId = await waitingSale(clerk, sessionId);
    await m.t
      .http()
      .post(`/api/till/sessions/${sessionId}/close`)
      .set(bearer(clerk.accessToken))
      .send({ countedCash: 1200 })
      .expect(200);
    const counted = await cashUpOf(clerk, sessionId);
    const cancelled = await m.t
      .http()
      .patch(`/api/orders/cancel/${orderId}`)
      .set(bearer(world.staff.accessToken))
      .send({ refund: { method: 'Cash', amount: 200, reference: 'drawer' } });
    // The till's void answers 409 `sessionClosedForReversal` here; the order page must not differ.
    expect(await cashUpOf(clerk, sessionId)).toEqual(counted);
    expect(cancelled.status).toBe(409);
  });

  it('a waiting gate sale is sent out from the order page with 800 of its 1000 unpaid', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Mutua Till' });
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const orderId = await waitingSale(clerk, sessionId);
    const statusOf = async () =>
      (await m.t.http().get(`/api/orders/${orderId}`).set(bearer(clerk.accessToken)).expect(200))
        .body.order.orderStatus as string;
    const before = await statusOf();
    const out = await m.t
      .http()
      .patch(`/api/orders/inTransit/${orderId}`)
      .set(bearer(clerk.accessToken));
    expect([out.status, await statusOf()]).toEqual([409, before]);
  });

  it('(held) a sale voided while its M-Pesa prompt is open: the 800 paid later waits in the inbox to go back', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Chebet Till' });
    const approver = await createStaff(m.t, world.admin.accessToken, { fullName: 'Auma Pin' });
    await setTillPin(m.t, approver, '2468');
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const phone = newPhone();
    m.sim.setScenario('late-callback', asDaraja(phone));
    const sale = await m.t
      .http()
      .post('/api/till/sales')
      .set(bearer(clerk.accessToken))
      .send({
        sessionId,
        lines: [{ productId: world.productId, quantity: 10 }],
        payments: [
          { method: 'cash', amount: 200, given: 200 },
          { method: 'mpesa-express', amount: 800, phone },
        ],
      })
      .expect(201);
    const orderId = sale.body.sale.orderId as string;
    const voided = await m.t
      .http()
      .post(`/api/till/sales/${orderId}/void`)
      .set(bearer(clerk.accessToken))
      .send({ approverId: approver.user._id, pin: '2468', reason: 'Buyer left' });
    const push = await db().collection('mpesa_pushes').findOne({ orderId });
    await m.sim.settled(push!._id as unknown as string);
    await new Promise((r) => setTimeout(r, 4000));
    const entries = await db().collection('money_entries').find({ orderId }).toArray();
    const sum = (dir: string) =>
      entries.filter((e) => e.direction === dir).reduce((n, e) => n + (e.amount as number), 0);
    const purchaseNumber = sale.body.sale.purchaseNumber as string;
    const parked = await db().collection('money_entries').findOne({ meantFor: purchaseNumber });
    // The void went through; the prompt's 800 paid afterwards waits in the inbox to go back.
    expect([voided.status, sum('in'), sum('out')]).toEqual([200, 200, 200]);
    expect(parked).toMatchObject({ amount: 800, orderId: null, state: 'open', returnable: 800 });
  });

  it('a paybill payment naming a waiting gate sale after its session closed changes the counted cash-up', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Koech Till' });
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const orderId = await waitingSale(clerk, sessionId);
    await m.t
      .http()
      .post(`/api/till/sessions/${sessionId}/close`)
      .set(bearer(clerk.accessToken))
      .send({ countedCash: 1200 })
      .expect(200);
    const counted = await cashUpOf(clerk, sessionId);
    const { purchaseNumber } = (
      await m.t.http().get(`/api/till/sales/${orderId}`).set(bearer(clerk.accessToken))
    ).body.sale;
    await m.sim.payBill({
      account: purchaseNumber as string,
      amount: 800,
      phone: asDaraja(newPhone()),
    });
    await new Promise((r) => setTimeout(r, 3000));
    // Parked in the inbox (or counted in a session still open), never added behind the count.
    expect(await cashUpOf(clerk, sessionId)).toEqual(counted);
  });

  it('(held) an admin cannot ring up a sale in a clerk’s open session', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Wanjala Till' });
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const res = await m.t
      .http()
      .post('/api/till/sales')
      .set(bearer(world.admin.accessToken))
      .send({
        sessionId,
        lines: [{ productId: world.productId, quantity: 1 }],
        payments: [{ method: 'cash', amount: 100 }],
      });
    expect(res.status).toBe(403);
    expect((await cashUpOf(clerk, sessionId)).session.sales).toBe(0);
  });

  it('(held) a gate sale’s M-Pesa code arriving later as a paybill payment is not a second payment to give back', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Nduta Till' });
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const code = `TG${Date.now().toString(36).toUpperCase().slice(-8)}`;
    await m.t
      .http()
      .post('/api/till/sales')
      .set(bearer(clerk.accessToken))
      .send({
        sessionId,
        lines: [{ productId: world.productId, quantity: 3 }],
        payments: [{ method: 'mpesa-code', amount: 300, code }],
      })
      .expect(201);
    // Safaricom confirms the buyer's paybill payment (account typed as "GATE") after the sale.
    await m.t
      .http()
      .post(`/api/payments/mpesa/c2b/confirmation/${MPESA_TEST_SETTINGS.MPESA_CALLBACK_TOKEN}`)
      .send({ TransID: code, TransAmount: '300.00', BillRefNumber: 'GATE', MSISDN: '254712345678' })
      .expect(200);
    const inbox = await waitFor(
      async () =>
        (
          await m.t
            .http()
            .get('/api/payments/mpesa/inbox')
            .set(bearer(world.staff.accessToken))
            .expect(200)
        ).body.payments as { transId: string; status: string }[],
      (ps) => ps.some((p) => p.transId === code),
      8_000,
    ).catch(() => []);
    expect(inbox.filter((p) => p.transId === code).length).toBeLessThanOrEqual(1);
    const refund = await m.t
      .http()
      .post(`/api/payments/mpesa/c2b/${code}/refund`)
      .set(bearer(world.staff.accessToken))
      .send({});
    // Listed for the clerk as counting for nothing; never given back a second time.
    expect(refund.status).toBe(409);
    const entries = await db().collection('money_entries').find({ code }).toArray();
    // One payment, already taken at the till: nothing open for the inbox to hand out again.
    expect(entries.map((e) => [e.direction, e.amount, e.state])).toEqual([['in', 300, 'credited']]);
  });

  it('an inbox payment assigned to a waiting gate sale after its session closed changes the counted cash-up', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Opiyo Till' });
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const orderId = await waitingSale(clerk, sessionId);
    await m.t
      .http()
      .post(`/api/till/sessions/${sessionId}/close`)
      .set(bearer(clerk.accessToken))
      .send({ countedCash: 1200 })
      .expect(200);
    const counted = await cashUpOf(clerk, sessionId);
    const { purchaseNumber } = (
      await m.t.http().get(`/api/till/sales/${orderId}`).set(bearer(clerk.accessToken))
    ).body.sale;
    const stray = await m.sim.payBill({
      account: 'my seedlings',
      amount: 800,
      phone: asDaraja(newPhone()),
      validate: false,
    });
    await waitFor(
      async () =>
        (
          await m.t
            .http()
            .get('/api/payments/mpesa/inbox')
            .set(bearer(world.staff.accessToken))
            .expect(200)
        ).body.payments as { transId: string; status: string }[],
      (ps) => ps.some((p) => p.transId === stray.transId && p.status === 'inbox'),
      15_000,
    );
    const assigned = await m.t
      .http()
      .post(`/api/payments/mpesa/c2b/${stray.transId}/assign`)
      .set(bearer(world.staff.accessToken))
      .send({ purchaseNumber });
    // A gate sale is paid at its till, in its session; a closed one's count never changes.
    expect(await cashUpOf(clerk, sessionId)).toEqual(counted);
    expect(assigned.status).toBe(409);
  });

  it('(held) an admin reopening a clerk’s session while the clerk opens a new one leaves one open', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Barasa Till' });
    const first = await openTillSession(m.t, clerk.accessToken, 1000);
    await m.t
      .http()
      .post(`/api/till/sessions/${first}/close`)
      .set(bearer(clerk.accessToken))
      .send({ countedCash: 1000 })
      .expect(200);
    const [reopened, opened] = await Promise.all([
      m.t.http().post(`/api/till/sessions/${first}/reopen`).set(bearer(world.admin.accessToken)),
      m.t.http().post('/api/till/sessions').set(bearer(clerk.accessToken)).send({ float: 500 }),
    ]);
    const open = await db()
      .collection('till_sessions')
      .countDocuments({ staffId: clerk.user._id, state: 'open' });
    expect([reopened.status, opened.status].filter((x) => x === 409)).toHaveLength(1);
    expect(open).toBe(1);
  });

  it('a gate sale is not cancelled with its refund on the order page, and its void at the till gives the money back once', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Rotich Till' });
    const approver = await createStaff(m.t, world.admin.accessToken, { fullName: 'Moraa Pin' });
    await setTillPin(m.t, approver, '2468');
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const orderId = await waitingSale(clerk, sessionId);
    await m.t
      .http()
      .patch(`/api/orders/cancel/${orderId}`)
      .set(bearer(clerk.accessToken))
      .send({ refund: { method: 'Cash', amount: 200, reference: 'drawer' } })
      .expect(409);
    expect(await outOf(orderId)).toBe(0);
    const voided = await m.t
      .http()
      .post(`/api/till/sales/${orderId}/void`)
      .set(bearer(clerk.accessToken))
      .send({ approverId: approver.user._id, pin: '2468', reason: 'Buyer left' });
    expect(voided.status).toBe(200);
    const again = await m.t
      .http()
      .post(`/api/till/sales/${orderId}/void`)
      .set(bearer(clerk.accessToken))
      .send({ approverId: approver.user._id, pin: '2468', reason: 'Again' });
    expect(again.status).toBe(409);
    expect(await outOf(orderId)).toBe(200);
    expect((await cashUpOf(clerk, sessionId)).methods[0].expected).toBe(1000);
  });

  it('(held) another clerk gets no CSV or PDF of a clerk’s cash-up', async () => {
    const clerk = await createStaff(m.t, world.admin.accessToken, { fullName: 'Akinyi Till' });
    const other = await createStaff(m.t, world.admin.accessToken, { fullName: 'Kiprop Till' });
    const sessionId = await openTillSession(m.t, clerk.accessToken, 1000);
    const base = `/api/till/sessions/${sessionId}`;
    const csv = await m.t.http().get(`${base}/cash-up.csv`).set(bearer(other.accessToken));
    const pdf = await m.t.http().get(`${base}/cash-up.pdf`).set(bearer(other.accessToken));
    expect([csv.status, pdf.status]).toEqual([404, 404]);
  });
});
