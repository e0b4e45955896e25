/**
 * Who may call each quotation route: anonymous callers get 401; a role the route (or the rules
 * table, QUOTATION_RULES) does not take gets 403; a role it takes a 2xx (a customer as the
 * organisation's approver). The access matrix (access-matrix.e2e-spec.ts) counts these routes as
 * tested here. Accepting answers what the orders answer: until they place orders from quotations,
 * the allowed roles are checked to pass the guards (neither 401 nor 403).
 */
import { addDays, shopDay } from '../src/common/shop-clock';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import {
  approvedOrganisation,
  QUOTATION_ROUTES,
  quotationOf,
  site,
  trayProduct,
  type Buyers,
  type QuotationRoute,
  type TrayProduct,
} from './support/quotations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

type Role = 'admin' | 'staff' | 'customer';
const SHOP: Role[] = ['admin', 'staff'];
const ALL: Role[] = ['admin', 'staff', 'customer'];

const ALLOWED: Record<QuotationRoute, Role[]> = {
  'POST /api/quotations': ALL,
  'GET /api/quotations': ALL,
  'GET /api/quotations/awaiting-shop/count': SHOP,
  'GET /api/quotations/{id}': ALL,
  'PUT /api/quotations/{id}/draft': SHOP,
  'POST /api/quotations/{id}/send': SHOP,
  'GET /api/quotations/{id}/versions/{version}/pdf': ALL,
  'POST /api/quotations/{id}/messages': ALL,
  'POST /api/quotations/{id}/ask-changes': ['customer'],
  'POST /api/quotations/{id}/decline': ['customer'],
  'POST /api/quotations/{id}/withdraw': SHOP,
  'POST /api/quotations/{id}/accept': ALL,
};

const today = () => shopDay(new Date());

describe('quotation routes: who may call them', () => {
  let t: TestApp;
  let world: ShopWorld;
  let county: Buyers;
  let tray: TrayProduct;
  let lpo = 0;

  beforeAll(async () => {
    t = await createTestApp({ name: 'quotation_access', env: UNTHROTTLED });
    world = await createShopWorld(t);
    county = await approvedOrganisation(t, world);
    tray = await trayProduct(t, world, 5000);
  });
  afterAll(() => t.close());

  const lines = () => [{ productId: tray.productId, unitId: tray.trayId, quantity: 2 }];
  const draftBody = () => ({
    lines: lines(),
    delivery: site(addDays(today(), 10)),
    deliveryFee: 0,
    validUntil: addDays(today(), 30),
  });

  const session = (role: Role): Session => (role === 'customer' ? county.approver : world[role]);

  /** A fresh quotation sent as version 1, and the path and body of the route on it. */
  async function prepare(
    route: QuotationRoute,
    role: Role | null,
  ): Promise<{ path: string; body?: object }> {
    const as = bearer(world.staff.accessToken);
    // Written by staff from a call: the organisation's requests a day stay for the route itself.
    const q = quotationOf(
      await t
        .http()
        .post('/api/quotations')
        .set(as)
        .send({ lines: lines(), organisationId: county.org._id })
        .expect(201),
    );
    await t.http().put(`/api/quotations/${q._id}/draft`).set(as).send(draftBody()).expect(200);
    if (route !== 'POST /api/quotations/{id}/send')
      await t.http().post(`/api/quotations/${q._id}/send`).set(as).expect(201);
    const path = route.split(' ')[1]!.replace('{id}', q._id).replace('{version}', '1');
    const bodies: Partial<Record<QuotationRoute, object>> = {
      'POST /api/quotations':
        role === 'customer'
          ? { lines: lines() }
          : { lines: lines(), organisationId: county.org._id },
      'PUT /api/quotations/{id}/draft': draftBody(),
      'POST /api/quotations/{id}/messages': { text: 'When can you deliver?' },
      'POST /api/quotations/{id}/ask-changes': { text: 'A lower tray price, please' },
      'POST /api/quotations/{id}/decline': {},
      'POST /api/quotations/{id}/withdraw': {},
      'POST /api/quotations/{id}/accept': { version: 1, lpoNumber: `LPO-ACCESS-${++lpo}` },
    };
    return { path, body: bodies[route] };
  }

  async function call(route: QuotationRoute, role: Role | null) {
    const who = role ? session(role) : null;
    const { path, body } = await prepare(route, role);
    const method = route.split(' ')[0]!.toLowerCase() as 'get' | 'post' | 'put';
    const req = t.http()[method](path);
    if (who) req.set(bearer(who.accessToken));
    return body ? req.send(body) : req;
  }

  for (const route of QUOTATION_ROUTES) {
    it(`${route}: 401 without a token, 403 for ${ALL.filter((r) => !ALLOWED[route].includes(r)).join(', ') || 'nobody'}, allowed for ${ALLOWED[route].join(', ')}`, async () => {
      expect((await call(route, null)).status).toBe(401);
      for (const role of ALL) {
        const res = await call(route, role);
        const allowed = ALLOWED[route].includes(role);
        const passed =
          route === 'POST /api/quotations/{id}/accept'
            ? res.status !== 401 && res.status !== 403
            : res.status >= 200 && res.status < 300;
        expect({
          role,
          status: allowed ? passed : res.status,
          body: passed || res.status === 403 ? null : res.body,
        }).toEqual({
          role,
          status: allowed ? true : 403,
          body: null,
        });
      }
    });
  }
});
