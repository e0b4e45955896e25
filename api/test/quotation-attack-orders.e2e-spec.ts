/**
 * The order an accepted quotation became, attacked from the organisation's side: the buyer it was
 * placed for (the shop accepted on the approver's written word) is not the one who decides on it,
 * still less once removed from the organisation. The shop cancels it (credit and stock back once).
 */
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import {
  approvedOrganisation,
  quotationOf,
  trayProduct,
  type Buyers,
  type TrayProduct,
  priceAndSend,
} from './support/quotations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

describe('an order from a quotation attacked by its organisation’s people', () => {
  let t: TestApp;
  let world: ShopWorld;
  let county: Buyers;
  let tray: TrayProduct;

  beforeAll(async () => {
    t = await createTestApp({ name: 'quotation_attack_orders', env: UNTHROTTLED });
    world = await createShopWorld(t);
    county = await approvedOrganisation(t, world);
    await t
      .http()
      .put(`/api/organisations/${county.org._id}/terms`)
      .set(bearer(world.admin.accessToken))
      .send({ paymentDays: 30, creditLimit: 1_000_000, onAccount: false })
      .expect(200);
    tray = await trayProduct(t, world, 5000);
  });
  afterAll(() => t.close());

  const as = (s: Session) => bearer(s.accessToken);

  /** The buyer asks, the shop prices, sends and accepts it on the approver's word: the order. */
  async function orderForBuyer(lpoNumber: string): Promise<{ _id: string }> {
    const lines = [{ productId: tray.productId, unitId: tray.trayId, quantity: 4 }];
    const q = quotationOf(
      await t.http().post('/api/quotations').set(as(county.buyer)).send({ lines }).expect(201),
    );
    await priceAndSend(t, world.staff, q._id, lines);
    const res = await t
      .http()
      .post(`/api/quotations/${q._id}/accept`)
      .set(as(world.staff))
      .send({ version: 1, lpoNumber })
      .expect(201);
    return res.body.order as { _id: string };
  }

  const stock = async () =>
    (await t.http().get(`/api/products/${tray.productId}`).expect(200)).body.product
      .productQuantity as number;
  const status = async (id: string) =>
    (await t.http().get(`/api/orders/${id}`).set(as(world.staff)).expect(200)).body.order
      .orderStatus as string;

  it('lets neither the buyer it was placed for nor, once removed, that person cancel it; the shop does, once', async () => {
    const before = await stock();
    const order = await orderForBuyer('KCG/LPO/2026/0777');
    expect(await stock()).toBe(before - 200);
    const byBuyer = await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(as(county.buyer))
      .send({});
    expect(byBuyer.status).toBe(403);
    expect(byBuyer.body.code).toBe('ASK_THE_SHOP');
    // Their order page offers no cancel: it says why, in the same words.
    const page = await t
      .http()
      .get(`/api/orders/${order._id}/detail`)
      .set(as(county.buyer))
      .expect(200);
    expect(page.body.actions).toContainEqual({
      action: 'cancel',
      allowed: false,
      reason: expect.stringContaining('KCG/LPO/2026/0777: ask the shop to cancel it'),
      code: 'ASK_THE_SHOP',
    });
    await t
      .http()
      .delete(`/api/organisations/${county.org._id}/people/${county.buyer.user._id}`)
      .set(as(county.approver))
      .expect((res) => expect(res.status).toBeLessThan(300));
    const byFormer = await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(as(county.buyer))
      .send({});
    expect(byFormer.status).toBe(403);
    expect(await status(order._id)).not.toBe('Cancelled');
    expect(await stock()).toBe(before - 200);

    await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(as(world.staff))
      .send({})
      .expect(200);
    await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(as(world.staff))
      .send({})
      .expect(409);
    expect(await stock()).toBe(before);
  });
});
