/**
 * Orders on account (issue 43) attacked from outside: asking for the terms in a body, terms and
 * approval changed between the quotation's sending and its acceptance, two accepts at once and a
 * replay, the clock's cancellations, an approver's own cart, dispatch before payment, and another
 * organisation's people. Each test passes because a defence holds (or a hole found was closed).
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { ORDER_STEPS } from '../src/orders/order-actions';
import { OrdersRepository } from '../src/orders/orders.repository';
import { OrdersService } from '../src/orders/orders.service';
import { SHOP_ACTOR } from '../src/orders/shop-actor';
import { addDays, shopDay } from '../src/common/shop-clock';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import {
  approvedOrganisation,
  priceAndSend,
  quotationOf,
  trayProduct,
  type Buyers,
  type TrayProduct,
} from './support/quotations';
import { guest, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

const HOUR = 3_600_000;

type Line = { productId: string; unitId: string; quantity: number; batchId?: string };
interface OrderView {
  _id: string;
  orderStatus: string;
  paymentStatus: string;
  onAccount: boolean;
  booking?: { state: string } | null;
}

describe('orders on account under attack', () => {
  let t: TestApp;
  let world: ShopWorld;
  let tray: TrayProduct;
  let county: Buyers;
  let school: Buyers;
  let lpo = 0;

  const as = (s: Session) => bearer(s.accessToken);
  const http = () => t.http();
  const orderOf = async (id: string) =>
    (await http().get(`/api/orders/${id}`).set(as(world.staff)).expect(200)).body
      .order as OrderView;
  const expire = () => t.app.get(OrdersService).expireUnpaid(new Date(Date.now() + 25 * HOUR));

  async function setTerms(org: Buyers, onAccount: boolean) {
    await http()
      .put(`/api/organisations/${org.org._id}/terms`)
      .set(as(world.admin))
      .send({ paymentDays: 30, creditLimit: 50_000_000, onAccount })
      .expect(200);
  }

  /** The buyer asks for `lines`, the shop prices and sends: version 1 waits for the approver. */
  async function sent(org: Buyers, lines: Line[] = trays(2)): Promise<string> {
    const q = quotationOf(
      await http().post('/api/quotations').set(as(org.buyer)).send({ lines }).expect(201),
    );
    await priceAndSend(t, world.staff, q._id, lines);
    return q._id;
  }
  const trays = (quantity: number): Line[] => [
    { productId: tray.productId, unitId: tray.trayId, quantity },
  ];
  const accept = (quotationId: string, who: Session, body: object = {}) =>
    http()
      .post(`/api/quotations/${quotationId}/accept`)
      .set(as(who))
      .send({ version: 1, lpoNumber: `LPO/ATT/${++lpo}`, ...body });
  async function accepted(org: Buyers, lines?: Line[]): Promise<OrderView> {
    const res = await accept(await sent(org, lines), org.approver).expect(201);
    return orderOf(res.body.order._id);
  }

  beforeAll(async () => {
    t = await createTestApp({ name: 'orders_on_account_attack', env: UNTHROTTLED });
    world = await createShopWorld(t);
    tray = await trayProduct(t, world, 20_000);
    county = await approvedOrganisation(t, world, 'Kiambu County Government');
    school = await approvedOrganisation(t, world, 'Green Belt Schools Trust');
    await setTerms(county, true);
    await setTerms(school, false);
  });
  afterAll(() => t.close());

  it('refuses onAccount however a customer spells it, in every body they send, and changes nothing', async () => {
    const q = await sent(school);
    const spellings: object[] = [
      { onAccount: true },
      { onAccount: 'true' },
      { onAccount: 1 },
      { OnAccount: true },
      { on_account: true },
      { terms: { onAccount: true } },
      { acceptance: { onAccount: true } },
      { order: { onAccount: true } },
    ];
    for (const extra of spellings) {
      const res = await accept(q, school.approver, extra);
      expect({ extra, status: res.status }).toEqual({ extra, status: 400 });
    }
    // A prototype key in the raw JSON is refused too (never read as the field).
    const proto = await http()
      .post(`/api/quotations/${q}/accept`)
      .set(as(school.approver))
      .set('Content-Type', 'application/json')
      .send('{"version":1,"lpoNumber":"LPO/ATT/P","__proto__":{"onAccount":true}}');
    expect(proto.status).toBe(400);
    const read = await http().get(`/api/quotations/${q}`).set(as(school.approver)).expect(200);
    expect(read.body.quotation.status).toBe('sent');

    // The checkout, the organisation's edit, the sign-up and the profile refuse it too.
    for (const extra of spellings.slice(0, 3))
      expect(
        (
          await http()
            .post('/api/orders')
            .set(as(school.approver))
            .send({
              guestInfo: guest(),
              products: [{ _id: tray.productId, quantity: 1 }],
              ...extra,
            })
        ).status,
      ).toBe(400);
    for (const body of [{ onAccount: true }, { terms: { onAccount: true } }])
      await http()
        .patch(`/api/organisations/${school.org._id}`)
        .set(as(school.approver))
        .send(body)
        .expect(400);
    await http()
      .patch('/api/users/profile')
      .set(as(school.approver))
      .send({ onAccount: true })
      .expect(400);
    // Only an admin sets the terms: its approver and a clerk are refused.
    const terms = { paymentDays: 30, creditLimit: 50_000_000, onAccount: true };
    for (const who of [school.approver, world.staff])
      await http()
        .put(`/api/organisations/${school.org._id}/terms`)
        .set(as(who))
        .send(terms)
        .expect(403);
    const org = await http()
      .get(`/api/organisations/${school.org._id}`)
      .set(as(world.admin))
      .expect(200);
    expect(org.body.organisation.terms.onAccount).toBe(false);
    const order = await orderOf((await accept(q, school.approver).expect(201)).body.order._id);
    expect(order.onAccount).toBe(false);
  });

  it('reads the terms at acceptance, not at sending: on at sending and off at acceptance expires; off then on does not', async () => {
    const wasOn = await sent(county);
    const wasOff = await sent(school);
    await setTerms(county, false);
    await setTerms(school, true);
    const a = await orderOf((await accept(wasOn, county.approver).expect(201)).body.order._id);
    const b = await orderOf((await accept(wasOff, school.approver).expect(201)).body.order._id);
    await setTerms(county, true);
    await setTerms(school, false);
    expect([a.onAccount, b.onAccount]).toEqual([false, true]);
    await expire();
    expect((await orderOf(a._id)).orderStatus).toBe('Cancelled');
    expect((await orderOf(b._id)).orderStatus).toBe('Pending');
  });

  it('refuses a suspended organisation’s accept on account (403, nothing made); its order made before keeps its terms', async () => {
    const before = await accepted(county);
    const q = await sent(county);
    await http()
      .post(`/api/organisations/${county.org._id}/suspend`)
      .set(as(world.staff))
      .send({ reason: 'Checking its KRA PIN' })
      .expect(201);
    try {
      for (const who of [county.approver, world.staff])
        expect((await accept(q, who)).status).toBe(403);
      const read = await http().get(`/api/quotations/${q}`).set(as(world.staff)).expect(200);
      expect(read.body.quotation.status).toBe('sent');
      // The order accepted before stays on account (the terms as they stood): the clock leaves it.
      await expire();
      expect(await orderOf(before._id)).toMatchObject({ onAccount: true, orderStatus: 'Pending' });
    } finally {
      await http()
        .post(`/api/organisations/${county.org._id}/approve`)
        .set(as(world.staff))
        .send({})
        .expect(201);
    }
    expect(
      (await orderOf((await accept(q, county.approver).expect(201)).body.order._id)).onAccount,
    ).toBe(true);
  });

  it('makes one order on account of two accepts at once (approver and clerk); a replay makes none', async () => {
    const q = await sent(county);
    const [a, b] = await Promise.all([
      accept(q, county.approver, { lpoNumber: 'LPO/RACE/1' }),
      accept(q, world.staff, { lpoNumber: 'LPO/RACE/2' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const won = a.status === 201 ? a : b;
    for (const who of [county.approver, world.staff]) {
      const again = await accept(q, who, { lpoNumber: 'LPO/RACE/1' });
      expect(again.status).toBe(409);
    }
    const orders = await t.app
      .get<Connection>(getConnectionToken())
      .db!.collection('orders')
      .find({ quotationId: q })
      .toArray();
    expect(orders.map((o) => [String(o._id), o.onAccount])).toEqual([[won.body.order._id, true]]);
  });

  it('lets no clock cancel an order on account (expiry, an account closed), asked directly too; the shop cancels it', async () => {
    const order = await accepted(county);
    const orders = t.app.get(OrdersService);
    const stored = (await t.app.get(OrdersRepository).findById(order._id))!;
    for (const step of [ORDER_STEPS.expire, ORDER_STEPS.accountClosed] as const)
      await expect(
        orders.runOn(step as typeof ORDER_STEPS.expire, SHOP_ACTOR, stored, { hours: 24 }),
      ).rejects.toMatchObject({ response: { code: 'ILLEGAL_TRANSITION' } });
    await expire();
    expect((await orderOf(order._id)).orderStatus).toBe('Pending');
    const bulk = await http()
      .post('/api/orders/bulk')
      .set(as(world.staff))
      .send({ action: 'cancel', orderIds: [order._id] })
      .expect(200);
    expect(bulk.body.done).toBe(1);
    expect((await orderOf(order._id)).orderStatus).toBe('Cancelled');
  });

  it('does not put an approver’s own cart on account: their order expires unpaid, their booking asks a deposit and does not go out unpaid', async () => {
    const today = shopDay(new Date());
    const batch = (
      await http()
        .post('/api/batches')
        .set(as(world.staff))
        .send({
          productId: tray.productId,
          sownOn: addDays(today, -10),
          readyOn: addDays(today, 30),
          started: 1000,
        })
        .expect(201)
    ).body.batch as { _id: string };
    const cart = await placeOrder(t, [{ _id: tray.productId, quantity: 2 }], {
      token: county.approver.accessToken,
      guestInfo: guest(),
    }).expect(201);
    const booking = await placeOrder(
      t,
      [{ _id: tray.productId, quantity: 5, batchId: batch._id } as never],
      { token: county.approver.accessToken, guestInfo: guest() },
    ).expect(201);
    const b = await orderOf(booking.body.order._id);
    expect(b).toMatchObject({ onAccount: false, booking: { state: 'Deposit due' } });
    expect((await orderOf(cart.body.order._id)).onAccount).toBe(false);
    const out = await http().patch(`/api/orders/inTransit/${b._id}`).set(as(world.staff)).send({});
    expect(out.status).toBe(409);
    await expire();
    expect((await orderOf(cart.body.order._id)).orderStatus).toBe('Cancelled');
    expect((await orderOf(b._id)).orderStatus).toBe('Cancelled');
  });

  it('sends an order on account out unpaid (one by one or in bulk), but not before its batch is ready, and completes it only once paid', async () => {
    const today = shopDay(new Date());
    const batch = (
      await http()
        .post('/api/batches')
        .set(as(world.staff))
        .send({
          productId: tray.productId,
          sownOn: addDays(today, -10),
          readyOn: addDays(today, 20),
          started: 2000,
        })
        .expect(201)
    ).body.batch as { _id: string };
    const growing = await accepted(county, [
      { productId: tray.productId, unitId: tray.singleId, quantity: 100, batchId: batch._id },
    ]);
    expect(growing.onAccount).toBe(true);
    const early = await http()
      .patch(`/api/orders/inTransit/${growing._id}`)
      .set(as(world.staff))
      .send({});
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('not ready yet');

    const ready = await accepted(county);
    const bulk = await http()
      .post('/api/orders/bulk')
      .set(as(world.staff))
      .send({ action: 'inTransit', orderIds: [ready._id, growing._id] })
      .expect(200);
    expect(bulk.body.done).toBe(1);
    expect(bulk.body.refused.map((r: { _id: string }) => r._id)).toEqual([growing._id]);
    await http()
      .patch('/api/orders/confirm-delivery')
      .set(as(world.staff))
      .send({ orderId: ready._id })
      .expect(200);
    const complete = await http()
      .patch(`/api/orders/complete-order/${ready._id}`)
      .set(as(world.staff))
      .send({});
    expect(complete.status).toBe(409);
    expect(complete.body.code).toBe('NOT_PAID');
    expect(await orderOf(ready._id)).toMatchObject({
      orderStatus: 'Delivered',
      paymentStatus: 'Pending',
    });
  });

  it('keeps the fee and total the organisation accepted when a clerk corrects the delivery details of its order', async () => {
    const order = await accepted(county);
    const before = (await http().get(`/api/orders/${order._id}`).set(as(world.staff)).expect(200))
      .body.order as { totalAmount: number; shippingFee: number };
    expect(before.shippingFee).toBe(0);
    await http()
      .post('/api/delivery/zones')
      .set(as(world.admin))
      .send({ name: 'Mombasa coast', fee: 900, days: 5, areas: [{ county: 'Mombasa' }] })
      .expect(201);
    for (const county of ['Nairobi', 'Mombasa', 'Kiambu']) {
      await http()
        .put(`/api/orders/update/${order._id}`)
        .set(as(world.staff))
        .send({ guestInfo: guest({ county, subCounty: '', ward: '' }) })
        .expect(200);
      const after = (await http().get(`/api/orders/${order._id}`).set(as(world.staff)).expect(200))
        .body.order as { totalAmount: number; shippingFee: number };
      expect({ county, fee: after.shippingFee, total: after.totalAmount }).toEqual({
        county,
        fee: before.shippingFee,
        total: before.totalAmount,
      });
    }
  });

  it('keeps another organisation’s people out of an order on account: reading, cancelling, paying, its tranches and LPO scan', async () => {
    const order = await accepted(county);
    for (const who of [school.approver, school.buyer]) {
      await http().get(`/api/orders/${order._id}`).set(as(who)).expect(404);
      await http().get(`/api/orders/${order._id}/tranches`).set(as(who)).expect(404);
      await http().get(`/api/orders/${order._id}/lpo-scan`).set(as(who)).expect(404);
      expect(
        (await http().patch(`/api/orders/cancel/${order._id}`).set(as(who)).send({})).status,
      ).toBe(404);
      expect(
        (
          await http()
            .patch(`/api/orders/complete-payment/${order._id}`)
            .set(as(who))
            .send({ paymentMethod: 'Cash', paymentDetails: { amount: 1 } })
        ).status,
      ).toBe(403);
    }
    expect(await orderOf(order._id)).toMatchObject({
      orderStatus: 'Pending',
      paymentStatus: 'Pending',
      onAccount: true,
    });
  });
});
