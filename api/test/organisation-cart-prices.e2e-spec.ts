/**
 * An organisation's price list in its buyers' carts (issue 42): "The price list applies to that
 * organisation's quotes and to its buyers' carts when they are signed in." A buyer of an approved
 * organisation pays its own price for a product and unit, or the shop's price less its discount;
 * a guest, a customer of no organisation and a buyer of one not approved pay the shop's price.
 */
import { bearer, registerCustomer, UNTHROTTLED, type Session } from './support/identity';
import { postProduct, productFields } from './support/factories';
import { signUpOrganisation } from './support/organisations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

describe('an organisation’s price list in its buyers’ carts', () => {
  let t: TestApp;
  let world: ShopWorld;
  let product: { _id: string; units: [{ _id: string }, { _id: string }] };

  beforeAll(async () => {
    t = await createTestApp({ name: 'organisation_cart_prices', env: UNTHROTTLED });
    world = await createShopWorld(t);
    const made = await postProduct(
      t,
      world.staff.accessToken,
      productFields(world.category._id, {
        price: 40,
        productQuantity: 5000,
        units: JSON.stringify([
          { name: 'Single seedling', seedlings: 1 },
          {
            name: 'Tray of 50',
            seedlings: 50,
            price: 1500,
            tiers: [{ minQuantity: 10, price: 1350 }],
          },
        ]),
      }),
    ).expect(201);
    product = made.body.product;
  });
  afterAll(() => t.close());

  const as = (s: Session) => bearer(s.accessToken);
  const delivery = (s: Session) => ({
    fullName: s.user.fullName,
    phoneNumber: '+254712345678',
    email: s.user.email,
    county: 'Kiambu',
    streetAddress: 'Kiambu Road',
  });
  /** Places 12 trays and 30 singles as `who` (a guest without one) and answers the lines' prices. */
  async function prices(who?: Session) {
    let req = t.http().post('/api/orders');
    if (who) req = req.set(as(who));
    const res = await req
      .send({
        guestInfo: who ? delivery(who) : { ...delivery(world.staff), email: 'guest@example.co.ke' },
        products: [
          { _id: product._id, unitId: product.units[1]._id, quantity: 12 },
          { _id: product._id, unitId: product.units[0]._id, quantity: 30 },
        ],
      })
      .expect(201);
    const lines = res.body.order.products as {
      unitPrice: number;
      lineTotal: number;
      tier: unknown;
    }[];
    return {
      trays: lines[0]!.unitPrice,
      singles: lines[1]!.unitPrice,
      subtotal: res.body.order.subtotal as number,
      trayTier: lines[0]!.tier !== null,
    };
  }

  it('charges a signed-in buyer of an approved organisation its prices, anyone else the shop’s', async () => {
    const approver = await registerCustomer(t);
    const org = await signUpOrganisation(t, approver);
    await t
      .http()
      .put(`/api/organisations/${org._id}/price-list`)
      .set(as(world.admin))
      .send({
        discountPercent: 10,
        prices: [{ productId: product._id, unitId: product.units[1]._id, price: 1200 }],
      })
      .expect(200);
    // Not approved yet: the shop's prices (12 trays reach the 10-tray price, 1,350).
    const shop = { trays: 1350, singles: 40, subtotal: 12 * 1350 + 30 * 40, trayTier: true };
    expect(await prices(approver)).toEqual(shop);

    await t
      .http()
      .post(`/api/organisations/${org._id}/approve`)
      .set(as(world.staff))
      .send({})
      .expect(201);
    // Its own tray price (no tier names it), and singles at the shop's 40 less 10 %.
    expect(await prices(approver)).toEqual({
      trays: 1200,
      singles: 36,
      subtotal: 12 * 1200 + 30 * 36,
      trayTier: false,
    });
    expect(await prices()).toEqual(shop);
    expect(await prices(await registerCustomer(t))).toEqual(shop);

    await t
      .http()
      .post(`/api/organisations/${org._id}/suspend`)
      .set(as(world.staff))
      .send({})
      .expect(201);
    expect(await prices(approver)).toEqual(shop);
  });
});
