/**
 * What only admins give an organisation, on the real database: its terms (payment days, a credit
 * limit in whole KES, ordering on account) and its price list (a price per product and sale unit,
 * a discount elsewhere). Staff and its approver get 403; a price below zero, a discount outside
 * 0–100 or a product or unit the catalogue does not sell is refused 400; nothing changes.
 */
import {
  ORGANISATION_LIMITS as L,
  ORGANISATION_MESSAGES as OM,
  type OrganisationView,
} from '@spc/shared-contracts';
import { OrganisationsService } from '../src/organisations/organisations.service';
import { postProduct, productFields } from './support/factories';
import { bearer, registerCustomer, UNTHROTTLED, type Session } from './support/identity';
import { signUpOrganisation } from './support/organisations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

describe('organisation terms and price lists', () => {
  let t: TestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    t = await createTestApp({ name: 'organisation_terms', env: UNTHROTTLED });
    world = await createShopWorld(t);
  });
  afterAll(() => t.close());

  const as = (s: Session) => bearer(s.accessToken);
  const admin = () => as(world.admin);
  const staff = () => as(world.staff);
  const read = async (id: string) =>
    (await t.http().get(`/api/organisations/${id}`).set(admin()).expect(200)).body
      .organisation as OrganisationView;
  const trail = async (action: string) =>
    (await t.http().get(`/api/audit-logs?action=${action}&limit=100`).set(admin()).expect(200))
      .body as { message: string; target?: { id: string } }[];

  it('lets only admins set the terms: staff and its approver get 403 and change nothing', async () => {
    const customer = await registerCustomer(t);
    const org = await signUpOrganisation(t, customer);
    const terms = { paymentDays: 30, creditLimit: 1_500_000, onAccount: true };
    const put = (who: Record<string, string>, body: object) =>
      t.http().put(`/api/organisations/${org._id}/terms`).set(who).send(body);
    expect((await put(staff(), terms)).status).toBe(403);
    expect((await put(as(customer), terms)).status).toBe(403);
    expect((await read(org._id)).terms).toEqual({
      paymentDays: 30,
      creditLimit: 0,
      onAccount: false,
      invoicing: 'perTranche',
    });

    for (const bad of [
      { ...terms, creditLimit: -1 },
      { ...terms, creditLimit: 1000.5 },
      { ...terms, creditLimit: '1000' },
      { ...terms, paymentDays: 181 },
      { ...terms, onAccount: 'yes' },
      { ...terms, invoicing: null },
      { ...terms, invoicing: 'monthly' },
      { paymentDays: 30, creditLimit: 1000 },
    ])
      expect({ bad, status: (await put(admin(), bad)).status }).toEqual({ bad, status: 400 });
    expect((await read(org._id)).terms.creditLimit).toBe(0);

    const res = await put(admin(), terms).expect(200);
    expect(res.body.organisation.terms).toEqual({ ...terms, invoicing: 'perTranche' });
    const entry = (await trail('organisation.terms')).find((e) => e.target?.id === org._id);
    expect(entry?.message).toContain('credit limit KES 1,500,000');
  });

  it('refuses a price list below zero, out of 0–100 % or naming what the catalogue does not sell, and keeps a good one', async () => {
    const org = await signUpOrganisation(t, await registerCustomer(t));
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
    const product = made.body.product as {
      _id: string;
      units: [{ _id: string }, { _id: string }];
    };
    const [single, tray] = product.units;
    const put = (body: object, who = admin()) =>
      t.http().put(`/api/organisations/${org._id}/price-list`).set(who).send(body);
    const entry = (over: object = {}) => ({
      productId: product._id,
      unitId: tray._id,
      price: 1200,
      ...over,
    });
    const refusals: [object, string][] = [
      [{ discountPercent: 0, prices: [entry({ price: -1 })] }, OM.price],
      [{ discountPercent: 0, prices: [entry({ price: 10.5 })] }, OM.price],
      [{ discountPercent: -1, prices: [] }, OM.discount],
      [{ discountPercent: 101, prices: [] }, OM.discount],
      [
        { discountPercent: 0, prices: [entry({ productId: '665f1c2b9d3e4a0012345678' })] },
        OM.unknownProduct('665f1c2b9d3e4a0012345678'),
      ],
      [
        { discountPercent: 0, prices: [entry({ unitId: '665f1c2b9d3e4a0012345679' })] },
        'has no unit with the id 665f1c2b9d3e4a0012345679',
      ],
      [{ discountPercent: 0, prices: [entry(), entry({ price: 1100 })] }, OM.priceListDuplicate],
      [
        { discountPercent: 0, prices: [entry({ productId: 'not-an-id' })] },
        'productId must be the id of a product',
      ],
    ];
    for (const [body, message] of refusals) {
      const res = await put(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(JSON.stringify(res.body)).toContain(message);
    }
    expect((await put({ discountPercent: 5, prices: [entry()] }, staff())).status).toBe(403);
    expect((await read(org._id)).priceList).toEqual({ discountPercent: 0, prices: [] });

    const res = await put({
      discountPercent: 10,
      prices: [entry(), entry({ unitId: single._id.toUpperCase(), price: 0 })],
    }).expect(200);
    expect(res.body.organisation.priceList).toEqual({
      discountPercent: 10,
      prices: [
        {
          productId: product._id,
          unitId: tray._id,
          price: 1200,
          productName: expect.any(String),
          unitName: 'Tray of 50',
        },
        {
          productId: product._id,
          unitId: single._id,
          price: 0,
          productName: expect.any(String),
          unitName: 'Single seedling',
        },
      ],
    });
    expect((await trail('organisation.price-list')).some((e) => e.target?.id === org._id)).toBe(
      true,
    );
  });

  it('refuses a price list holding anything but prices, or more prices than it may hold, with 400', async () => {
    const org = await signUpOrganisation(t, await registerCustomer(t));
    const put = (body: object) =>
      t.http().put(`/api/organisations/${org._id}/price-list`).set(admin()).send(body);
    const entry = {
      productId: world.productId,
      unitId: world.productId,
      price: 1200,
    };
    for (const bad of [0, false, null, 'a price', [entry], {}]) {
      const body = { discountPercent: 0, prices: [entry, bad] };
      const res = await put(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(JSON.stringify(res.body.errors)).toContain('prices.1');
    }
    // One more than the limit is refused by name, not as a body too large (413).
    const many = (n: number) => ({
      discountPercent: 0,
      prices: Array.from({ length: n }, () => entry),
    });
    const over = await put(many(L.priceListEntries + 1));
    expect({ status: over.status, message: over.body.message }).toEqual({
      status: 400,
      message: OM.priceListTooLong,
    });
    // As many as it may hold are read (and these refused only for naming one price twice).
    const full = await put(many(L.priceListEntries));
    expect({ status: full.status, message: full.body.message }).toEqual({
      status: 400,
      message: OM.priceListDuplicate,
    });
    expect((await read(org._id)).priceList).toEqual({ discountPercent: 0, prices: [] });
  });

  it('tells orders and quotations the approved organisation, role and price list of a customer', async () => {
    const service = t.app.get(OrganisationsService);
    const approver = await registerCustomer(t);
    const org = await signUpOrganisation(t, approver);
    expect(await service.approvedMembership(approver.user._id)).toBeNull();
    expect(await service.priceListOf(org._id)).toBeNull();
    await t.http().post(`/api/organisations/${org._id}/approve`).set(staff()).expect(201);
    await t
      .http()
      .put(`/api/organisations/${org._id}/price-list`)
      .set(admin())
      .send({ discountPercent: 12, prices: [] })
      .expect(200);
    expect(await service.approvedMembership(approver.user._id)).toEqual({
      organisation: expect.objectContaining({ _id: org._id, status: 'approved' }),
      role: 'approver',
    });
    expect(await service.priceListOf(org._id)).toEqual({ discountPercent: 12, prices: [] });
    expect(await service.approvedMembership((await registerCustomer(t)).user._id)).toBeNull();
  });
});
