/**
 * The role matrix: for every route of the API, anonymous callers get 401 (unless it is public),
 * each role that may not call it gets 403, and each role that may gets a 2xx. A route missing from
 * this table fails the last test, so a new route cannot ship without a declared, tested rule.
 */
import sharp from 'sharp';
import type { Role } from '@spc/shared-contracts';
import {
  bearer,
  createStaff,
  registerCustomer,
  STRONG_PASSWORD,
  UNTHROTTLED,
  uniqueEmail,
  type Session,
} from './support/identity';
import { CATALOG_ROUTES, SITE_PICTURE_ROUTES } from './support/factories';
import { CONTACT_ROUTES } from './support/contact';
import { DELIVERY_ROUTES } from './support/delivery';
import { PRIVACY_ROUTES } from './support/privacy';
import { TAX_ROUTES } from './support/tax';
import { PAYBILL_ROUTES, PAYMENT_ROUTES } from './support/mpesa';
import { ORDER_DESK_ROUTES } from './support/order-desk';
import { DELIVERY } from './support/shop';
import { STOCK_ROUTES } from './support/stock';
import { BATCH_ROUTES, PUBLIC_BATCH_ROUTES } from './support/batches';
import { BOOKING_ROUTES } from './support/bookings';
import { ORGANISATION_ROUTES } from './support/organisations';
import { QUOTATION_ROUTES } from './support/quotations';
import { SIGNED_NOTE_ROUTES, TRANCHE_ROUTES } from './support/tranches';
import { LPO_SCAN_ROUTES } from './support/lpo-scans';
import { STATEMENT_ROUTES } from './support/invoice-statements';
import { INVOICE_SETTLEMENT_ROUTES } from './support/invoice-settlements';
import { INVOICE_ISSUE_ROUTES } from './support/invoices-issue';
import { ETIMS_OFFICE_ROUTES } from './support/etims-office';
import { TILL_ROUTES } from './support/till';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import { OrderDocumentLinks } from '../src/orders/order-document-links';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
interface Request {
  path: string;
  body?: object;
  file?: Buffer;
}
interface Route {
  /** As the OpenAPI document names it, e.g. `PATCH /api/user/update/{id}`. */
  route: string;
  allowed: 'public' | readonly Role[];
  /** Builds a request for a caller (fresh fixtures for destructive routes). */
  request: (as: Role | 'anonymous', ctx: Context) => Promise<Request> | Request;
}
interface Context {
  t: TestApp;
  sessions: Record<Role, Session>;
  /** A product with plenty of stock, for orders. */
  productId: string;
}

function expect2xx(res: { status: number; body: unknown }): void {
  if (res.status < 200 || res.status >= 300) {
    throw new Error(`expected a 2xx answer, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

const ALL: readonly Role[] = ['admin', 'staff', 'customer'];
const ADMIN: readonly Role[] = ['admin'];
const STAFF: readonly Role[] = ['staff'];
const STAFF_ADMIN: readonly Role[] = ['admin', 'staff'];

async function freshCustomerId(ctx: Context): Promise<string> {
  return (await registerCustomer(ctx.t)).user._id;
}
async function freshStaffId(ctx: Context): Promise<string> {
  return (await createStaff(ctx.t, ctx.sessions.admin.accessToken)).user._id;
}
/** A fresh order: placed by `as` (a customer's own) or by a guest, and moved on by staff as asked. */
async function freshOrder(
  ctx: Context,
  as: Role | 'anonymous',
  steps: ('pay' | 'ship')[] = [],
): Promise<{ _id: string; purchaseNumber: string }> {
  let req = ctx.t.http().post('/api/orders');
  if (as === 'customer') req = req.set(bearer(ctx.sessions.customer.accessToken));
  const res = await req.send({
    guestInfo: DELIVERY,
    products: [{ _id: ctx.productId, quantity: 1 }],
  });
  if (res.status !== 201)
    throw new Error(`order failed: ${res.status} ${JSON.stringify(res.body)}`);
  const order = res.body.order;
  const staff = bearer(ctx.sessions.staff.accessToken);
  if (steps.includes('pay'))
    await ctx.t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(staff)
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } })
      .expect(200);
  if (steps.includes('ship'))
    await ctx.t.http().patch(`/api/orders/inTransit/${order._id}`).set(staff).expect(200);
  return order;
}
const customerOrGuest = (as: Role | 'anonymous'): Role | 'anonymous' =>
  as === 'customer' ? 'customer' : 'anonymous';

const ownId = (as: Role | 'anonymous', ctx: Context) =>
  as === 'anonymous' ? ctx.sessions.customer.user._id : ctx.sessions[as].user._id;

export const ROUTES: Route[] = [
  { route: 'GET /api/health', allowed: 'public', request: () => ({ path: '/api/health' }) },
  {
    route: 'POST /api/auth/register',
    allowed: 'public',
    request: () => ({
      path: '/api/auth/register',
      body: {
        fullName: 'Matrix Person',
        email: uniqueEmail('matrix'),
        phoneNumber: '0711000111',
        password: STRONG_PASSWORD,
      },
    }),
  },
  {
    route: 'POST /api/user',
    allowed: 'public',
    request: () => ({
      path: '/api/user',
      body: {
        fullName: 'Matrix Person',
        email: uniqueEmail('matrix'),
        phoneNumber: '0711000111',
        password: STRONG_PASSWORD,
      },
    }),
  },
  {
    route: 'POST /api/auth/login',
    allowed: 'public',
    request: (_, ctx) => ({
      path: '/api/auth/login',
      body: { email: ctx.t.config.admin.email, password: ctx.t.config.admin.password },
    }),
  },
  {
    route: 'POST /api/auth/refreshToken',
    allowed: 'public',
    request: async (_, ctx) => ({
      path: '/api/auth/refreshToken',
      body: { refreshToken: (await registerCustomer(ctx.t)).refreshToken },
    }),
  },
  {
    route: 'POST /api/auth/forgot/password',
    allowed: 'public',
    request: () => ({ path: '/api/auth/forgot/password', body: { email: uniqueEmail() } }),
  },
  {
    route: 'POST /api/auth/logout',
    allowed: ALL,
    request: (as, ctx) => ({
      path: '/api/auth/logout',
      body: { refreshToken: as === 'anonymous' ? 'x' : ctx.sessions[as].refreshToken },
    }),
  },
  {
    route: 'GET /api/users/profile',
    allowed: ALL,
    request: () => ({ path: '/api/users/profile' }),
  },
  {
    route: 'PATCH /api/users/profile',
    allowed: ALL,
    request: () => ({
      path: '/api/users/profile',
      body: { fullName: 'Matrix Name', phoneNumber: '0711000111' },
    }),
  },
  {
    route: 'PATCH /api/users/profile-picture',
    allowed: ALL,
    request: async () => ({
      path: '/api/users/profile-picture',
      file: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    }),
  },
  {
    route: 'DELETE /api/users/profile-picture',
    allowed: ALL,
    request: () => ({ path: '/api/users/profile-picture' }),
  },
  {
    route: 'GET /api/user/{id}',
    allowed: ALL,
    request: (as, ctx) => ({ path: `/api/user/${ownId(as, ctx)}` }),
  },
  {
    route: 'PATCH /api/user/update/{id}',
    allowed: ALL,
    request: async (as, ctx) => {
      const id = as === 'admin' ? await freshCustomerId(ctx) : ownId(as, ctx);
      return {
        path: `/api/user/update/${id}`,
        body: { _id: id, updatedUser: { fullName: 'Matrix Updated' } },
      };
    },
  },
  { route: 'GET /api/users', allowed: ADMIN, request: () => ({ path: '/api/users' }) },
  {
    route: 'PATCH /api/user/softDelete/{id}',
    allowed: ADMIN,
    request: async (_, ctx) => ({ path: `/api/user/softDelete/${await freshCustomerId(ctx)}` }),
  },
  {
    route: 'PATCH /api/user/restore/{id}',
    allowed: ADMIN,
    request: async (_, ctx) => ({ path: `/api/user/restore/${await freshCustomerId(ctx)}` }),
  },
  {
    route: 'DELETE /api/user/delete/{id}',
    allowed: ADMIN,
    request: async (_, ctx) => ({ path: `/api/user/delete/${await freshCustomerId(ctx)}` }),
  },
  {
    route: 'PATCH /api/admin/profile',
    allowed: ADMIN,
    request: () => ({ path: '/api/admin/profile', body: { fullName: 'Shop Admin' } }),
  },
  { route: 'GET /api/staff', allowed: ADMIN, request: () => ({ path: '/api/staff' }) },
  {
    route: 'GET /api/staff/inactive',
    allowed: ADMIN,
    request: () => ({ path: '/api/staff/inactive' }),
  },
  {
    route: 'POST /api/staff',
    allowed: ADMIN,
    request: () => ({
      path: '/api/staff',
      body: {
        fullName: 'Matrix Staff',
        email: uniqueEmail('mstaff'),
        phoneNumber: '0712345678',
        password: 'Staff#123456',
      },
    }),
  },
  {
    route: 'GET /api/staff/{id}',
    allowed: ADMIN,
    request: async (_, ctx) => ({ path: `/api/staff/${await freshStaffId(ctx)}` }),
  },
  {
    route: 'PATCH /api/staff/update/{id}',
    allowed: ADMIN,
    request: async (_, ctx) => {
      const id = await freshStaffId(ctx);
      return {
        path: `/api/staff/update/${id}`,
        body: { _id: id, updatedStaff: { fullName: 'Renamed' } },
      };
    },
  },
  {
    route: 'PATCH /api/staff/softDelete/{id}',
    allowed: ADMIN,
    request: async (_, ctx) => ({ path: `/api/staff/softDelete/${await freshStaffId(ctx)}` }),
  },
  {
    route: 'PATCH /api/staff/restore/{id}',
    allowed: ADMIN,
    request: async (_, ctx) => ({ path: `/api/staff/restore/${await freshStaffId(ctx)}` }),
  },
  {
    route: 'DELETE /api/staff/delete/{id}',
    allowed: ADMIN,
    request: async (_, ctx) => ({ path: `/api/staff/delete/${await freshStaffId(ctx)}` }),
  },
  { route: 'GET /api/audit-logs', allowed: ADMIN, request: () => ({ path: '/api/audit-logs' }) },
  {
    route: 'GET /api/audit-logs/filters',
    allowed: ADMIN,
    request: () => ({ path: '/api/audit-logs/filters' }),
  },
  {
    route: 'GET /api/audit-logs/export',
    allowed: ADMIN,
    request: () => ({ path: '/api/audit-logs/export' }),
  },
  {
    route: 'GET /api/locations/counties',
    allowed: 'public',
    request: () => ({ path: '/api/locations/counties' }),
  },
  // Orders
  {
    route: 'POST /api/orders',
    allowed: 'public',
    request: (_, ctx) => ({
      path: '/api/orders',
      body: { guestInfo: DELIVERY, products: [{ _id: ctx.productId, quantity: 1 }] },
    }),
  },
  {
    route: 'GET /api/orders/track/new-order',
    allowed: 'public',
    request: async (_, ctx) => ({
      path: `/api/orders/track/new-order?purchaseNumber=${(await freshOrder(ctx, 'anonymous')).purchaseNumber}`,
    }),
  },
  { route: 'GET /api/orders', allowed: STAFF_ADMIN, request: () => ({ path: '/api/orders' }) },
  { route: 'GET /api/orders/user', allowed: ALL, request: () => ({ path: '/api/orders/user' }) },
  {
    route: 'GET /api/orders/user/{id}',
    allowed: ALL,
    request: (as, ctx) => ({ path: `/api/orders/user/${ownId(as, ctx)}` }),
  },
  {
    route: 'GET /api/orders/{id}',
    allowed: ALL,
    request: async (as, ctx) => ({
      path: `/api/orders/${(await freshOrder(ctx, customerOrGuest(as)))._id}`,
    }),
  },
  {
    route: 'GET /api/orders/{id}/detail',
    allowed: ALL,
    request: async (as, ctx) => ({
      path: `/api/orders/${(await freshOrder(ctx, customerOrGuest(as)))._id}/detail`,
    }),
  },
  // Signed in or not: anyone with the payment e-mail's signed link (what an anonymous caller sends).
  ...(['receipt', 'delivery-note'] as const).map((document) => ({
    route: `GET /api/orders/{id}/${document}.pdf`,
    allowed: 'public' as const,
    request: async (_: Role | 'anonymous', ctx: Context) => {
      const { _id } = await freshOrder(ctx, 'anonymous', ['pay']);
      const { expires, signature } = ctx.t.app.get(OrderDocumentLinks).params(_id, document);
      return {
        path: `/api/orders/${_id}/${document}.pdf?expires=${expires}&signature=${signature}`,
      };
    },
  })),
  {
    route: 'PATCH /api/orders/complete-payment/{orderId}',
    allowed: STAFF,
    request: async (_, ctx) => ({
      path: `/api/orders/complete-payment/${(await freshOrder(ctx, 'anonymous'))._id}`,
      body: { paymentMethod: 'Cash', paymentDetails: { amount: 100 } },
    }),
  },
  {
    route: 'PATCH /api/orders/inTransit/{id}',
    allowed: STAFF,
    request: async (_, ctx) => ({
      path: `/api/orders/inTransit/${(await freshOrder(ctx, 'anonymous'))._id}`,
    }),
  },
  {
    route: 'PATCH /api/orders/confirm-delivery',
    allowed: STAFF,
    request: async (_, ctx) => ({
      path: '/api/orders/confirm-delivery',
      body: { orderId: (await freshOrder(ctx, 'anonymous', ['ship']))._id },
    }),
  },
  {
    route: 'PATCH /api/orders/complete-order/{id}',
    allowed: STAFF,
    request: async (_, ctx) => ({
      path: `/api/orders/complete-order/${(await freshOrder(ctx, 'anonymous', ['pay', 'ship']))._id}`,
    }),
  },
  {
    route: 'PATCH /api/orders/cancel/{id}',
    allowed: ['staff', 'customer'],
    request: async (as, ctx) => ({
      path: `/api/orders/cancel/${(await freshOrder(ctx, customerOrGuest(as)))._id}`,
    }),
  },
  {
    route: 'PUT /api/orders/update/{id}',
    allowed: STAFF,
    request: async (_, ctx) => ({
      path: `/api/orders/update/${(await freshOrder(ctx, 'anonymous'))._id}`,
      body: { guestInfo: DELIVERY },
    }),
  },
  {
    route: 'DELETE /api/orders/delete/{id}',
    allowed: ADMIN,
    request: async (_, ctx) => ({
      path: `/api/orders/delete/${(await freshOrder(ctx, 'anonymous'))._id}`,
    }),
  },
  // Reports
  {
    route: 'GET /api/sales-summary',
    allowed: ADMIN,
    request: () => ({ path: '/api/sales-summary' }),
  },
  {
    route: 'GET /api/sales-summary/report',
    allowed: ADMIN,
    request: () => ({ path: '/api/sales-summary/report?from=2026-11-01&to=2026-11-30' }),
  },
];

/** Routes whose success needs a secret only a person has (a mailed reset code); only access is checked. */
const ACCESS_ONLY = ['POST /api/auth/reset/password', 'POST /api/auth/change/password'];

describe('the role matrix', () => {
  let ctx: Context;

  beforeAll(async () => {
    const t = await createTestApp({ name: 'matrix', env: UNTHROTTLED });
    const { admin, staff, productId } = await createShopWorld(t, {
      product: { price: 100, quantity: 100_000 },
    });
    ctx = {
      t,
      sessions: { admin, staff, customer: await registerCustomer(t) },
      productId,
    };
  });
  afterAll(() => ctx.t.close());

  async function call(route: Route, as: Role | 'anonymous') {
    const [method, template] = route.route.split(' ') as [string, string];
    const req = await route.request(as, ctx);
    expect(req.path.split('/').length).toBe(template.split('/').length);
    let call = ctx.t.http()[method.toLowerCase() as Method](req.path);
    if (as !== 'anonymous') call = call.set(bearer(ctx.sessions[as].accessToken));
    if (req.file) return call.attach('file', req.file, 'picture.png');
    return req.body ? call.send(req.body) : call;
  }

  for (const route of ROUTES) {
    describe(route.route, () => {
      if (route.allowed === 'public') {
        it('is open to anonymous callers', async () => {
          expect2xx(await call(route, 'anonymous'));
        });
        return;
      }
      it('answers 401 without a token', async () => {
        expect((await call(route, 'anonymous')).status).toBe(401);
      });
      for (const role of ALL) {
        const allowed = route.allowed.includes(role);
        it(`${allowed ? 'lets' : 'refuses'} ${role}${allowed ? '' : ' with 403'}`, async () => {
          const res = await call(route, role);
          if (allowed) expect2xx(res);
          else expect(res.status).toBe(403);
        });
      }
    });
  }

  it('reset and change password are public and signed-in only, respectively', async () => {
    await ctx.t
      .http()
      .post('/api/auth/reset/password')
      .send({ code: 'x', password: 'Fresh#Start9' })
      .expect(400);
    await ctx.t
      .http()
      .post('/api/auth/change/password')
      .send({ currentPassword: 'x', newPassword: 'Fresh#Start9' })
      .expect(401);
  });

  it('covers every route the API documents', async () => {
    const doc = await ctx.t.http().get('/api/docs-json').expect(200);
    const documented = Object.entries(
      doc.body.paths as Record<string, Record<string, unknown>>,
    ).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    const covered = new Set([...ROUTES.map((r) => r.route), ...ACCESS_ONLY, ...EXTRA_ROUTES]);
    expect(documented.filter((r) => !covered.has(r))).toEqual([]);
  });
});

/**
 * Routes whose matrix lives in their own domain's test file (catalog-access.e2e-spec.ts, catalog-tax.e2e-spec.ts,
 * site-pictures.e2e-spec.ts, stock-ledger.e2e-spec.ts, order-desk.e2e-spec.ts, batches.e2e-spec.ts, bookings.e2e-spec.ts, organisation-access.e2e-spec.ts, quotation-lpo-scan.e2e-spec.ts, order-tranches.e2e-spec.ts, order-tranche-signed-note.e2e-spec.ts, invoices-statement.e2e-spec.ts, invoices-settle.e2e-spec.ts, invoices-issue.e2e-spec.ts, etims-office.e2e-spec.ts, till-sales.e2e-spec.ts; the public payments routes in payments-mpesa.e2e-spec.ts, which needs
 * the Daraja simulator).
 */
const EXTRA_ROUTES: readonly string[] = [
  ...CATALOG_ROUTES,
  ...TAX_ROUTES,
  ...PAYMENT_ROUTES,
  ...Object.keys(PAYBILL_ROUTES),
  ...SITE_PICTURE_ROUTES,
  ...STOCK_ROUTES,
  ...ORDER_DESK_ROUTES,
  ...CONTACT_ROUTES,
  ...DELIVERY_ROUTES,
  ...PRIVACY_ROUTES,
  ...BATCH_ROUTES,
  ...PUBLIC_BATCH_ROUTES,
  ...BOOKING_ROUTES,
  ...ORGANISATION_ROUTES,
  ...QUOTATION_ROUTES,
  ...TRANCHE_ROUTES,
  ...SIGNED_NOTE_ROUTES,
  ...LPO_SCAN_ROUTES,
  ...STATEMENT_ROUTES,
  ...INVOICE_SETTLEMENT_ROUTES,
  ...INVOICE_ISSUE_ROUTES,
  ...ETIMS_OFFICE_ROUTES,
  ...TILL_ROUTES,
];
