/**
 * Orders on account (issue 43): an order made from an accepted quotation of an organisation whose
 * terms let it order on account does not expire unpaid; an ordinary order, and an organisation's
 * order without those terms, keep today's rule (cancelled unpaid after 24 hours). The shop still
 * cancels an order on account, and sends it out before it is paid.
 */
import { ORDER_STEPS } from '../src/orders/order-actions';
import { OrdersRepository } from '../src/orders/orders.repository';
import { OrdersService } from '../src/orders/orders.service';
import { SHOP_ACTOR } from '../src/orders/shop-actor';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import {
  approvedOrganisation,
  priceAndSend,
  quotationOf,
  trayProduct,
  type Buyers,
  type TrayProduct,
} from './support/quotations';
import { placeOrder, stockOf } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

const HOUR = 3_600_000;

describe('orders on account', () => {
  let t: TestApp;
  let world: ShopWorld;
  let tray: TrayProduct;
  let onAccount: Buyers;
  let upFront: Buyers;

  const as = (s: Session) => bearer(s.accessToken);
  const orderOf = async (id: string) =>
    (await t.http().get(`/api/orders/${id}`).set(as(world.staff)).expect(200)).body.order as {
      orderStatus: string;
      paymentStatus: string;
      onAccount: boolean;
    };

  async function setTerms(org: Buyers, account: boolean) {
    await t
      .http()
      .put(`/api/organisations/${org.org._id}/terms`)
      .set(as(world.admin))
      .send({ paymentDays: 30, creditLimit: 5_000_000, onAccount: account })
      .expect(200);
  }

  /** The buyer asks for 4 trays, the shop prices and sends, the approver accepts: the order. */
  async function accepted(org: Buyers, lpoNumber: string): Promise<{ _id: string }> {
    const lines = [{ productId: tray.productId, unitId: tray.trayId, quantity: 4 }];
    const q = quotationOf(
      await t.http().post('/api/quotations').set(as(org.buyer)).send({ lines }).expect(201),
    );
    await priceAndSend(t, world.staff, q._id, lines);
    const res = await t
      .http()
      .post(`/api/quotations/${q._id}/accept`)
      .set(as(org.approver))
      .send({ version: 1, lpoNumber })
      .expect(201);
    return res.body.order as { _id: string };
  }

  beforeAll(async () => {
    t = await createTestApp({ name: 'orders_on_account', env: UNTHROTTLED });
    world = await createShopWorld(t);
    tray = await trayProduct(t, world, 5000);
    onAccount = await approvedOrganisation(t, world, 'Kiambu County Government');
    upFront = await approvedOrganisation(t, world, 'Green Belt Schools Trust');
    await setTerms(onAccount, true);
    await setTerms(upFront, false);
  });
  afterAll(() => t.close());

  it('an order on account older than 24 hours is still open; an ordinary one and an organisation’s without the terms are cancelled', async () => {
    const stockBefore = await stockOf(t, tray.productId);
    const county = await accepted(onAccount, 'KCG/LPO/2026/1201');
    const school = await accepted(upFront, 'GBST/LPO/88');
    const shopper = await placeOrder(t, [{ _id: tray.productId, quantity: 3 }]).expect(201);
    expect(await stockOf(t, tray.productId)).toBe(stockBefore - 400 - 3);
    expect((await orderOf(county._id)).onAccount).toBe(true);
    expect((await orderOf(school._id)).onAccount).toBe(false);
    expect((await orderOf(shopper.body.order._id)).onAccount).toBe(false);

    await t.app.get(OrdersService).expireUnpaid(new Date(Date.now() + 25 * HOUR));

    expect(await orderOf(county._id)).toMatchObject({
      orderStatus: 'Pending',
      paymentStatus: 'Pending',
    });
    expect((await orderOf(school._id)).orderStatus).toBe('Cancelled');
    expect((await orderOf(shopper.body.order._id)).orderStatus).toBe('Cancelled');
    // The county's 4 trays stay held; the others' stock came back.
    expect(await stockOf(t, tray.productId)).toBe(stockBefore - 200);

    // The clock's cancel, asked of it directly, is refused in the table's words.
    const orders = t.app.get(OrdersService);
    const stored = await t.app.get(OrdersRepository).findById(county._id);
    await expect(
      orders.runOn(ORDER_STEPS.expire, SHOP_ACTOR, stored!, { hours: 24 }),
    ).rejects.toMatchObject({
      response: {
        message:
          'This order is on account; it does not expire unpaid: its money is due by its invoice',
        code: 'ILLEGAL_TRANSITION',
      },
    });
    expect((await orderOf(county._id)).orderStatus).toBe('Pending');
  });

  it('is sent out before it is paid, and cancelled by the shop only', async () => {
    const order = await accepted(onAccount, 'KCG/LPO/2026/1202');
    const detail = await t
      .http()
      .get(`/api/orders/${order._id}/detail`)
      .set(as(world.staff))
      .expect(200);
    expect(detail.body.actions).toEqual(
      expect.arrayContaining([
        { action: 'inTransit', allowed: true },
        { action: 'cancel', allowed: true },
      ]),
    );
    await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(as(onAccount.approver))
      .send({})
      .expect(403);
    await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(as(world.staff))
      .send({})
      .expect(200);
    expect((await orderOf(order._id)).orderStatus).toBe('Cancelled');
  });

  it('cannot be asked for: an accept that says onAccount is refused and makes nothing', async () => {
    const lines = [{ productId: tray.productId, unitId: tray.trayId, quantity: 2 }];
    const q = quotationOf(
      await t.http().post('/api/quotations').set(as(upFront.buyer)).send({ lines }).expect(201),
    );
    await priceAndSend(t, world.staff, q._id, lines);
    for (const body of [
      { version: 1, lpoNumber: 'GBST/LPO/90', onAccount: true },
      { version: 1, lpoNumber: 'GBST/LPO/90', order: { onAccount: true } },
    ]) {
      const res = await t
        .http()
        .post(`/api/quotations/${q._id}/accept`)
        .set(as(upFront.approver))
        .send(body);
      expect(res.status).toBe(400);
    }
    const read = await t.http().get(`/api/quotations/${q._id}`).set(as(upFront.approver));
    expect(read.body.quotation.status).not.toBe('accepted');
    const order = await t
      .http()
      .post(`/api/quotations/${q._id}/accept`)
      .set(as(upFront.approver))
      .send({ version: 1, lpoNumber: 'GBST/LPO/90' })
      .expect(201);
    expect((await orderOf(order.body.order._id)).onAccount).toBe(false);
  });

  it('keeps the terms as they stood when it was accepted', async () => {
    const order = await accepted(onAccount, 'KCG/LPO/2026/1203');
    await setTerms(onAccount, false);
    expect((await orderOf(order._id)).onAccount).toBe(true);
    const later = await accepted(onAccount, 'KCG/LPO/2026/1204');
    expect((await orderOf(later._id)).onAccount).toBe(false);
    await setTerms(onAccount, true);
  });
});
