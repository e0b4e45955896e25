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
  signInAdmin,
  STRONG_PASSWORD,
  UNTHROTTLED,
  uniqueEmail,
  type Session,
} from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

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
}

function expect2xx(res: { status: number; body: unknown }): void {
  if (res.status < 200 || res.status >= 300) {
    throw new Error(`expected a 2xx answer, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

const ALL: readonly Role[] = ['admin', 'staff', 'customer'];
const ADMIN: readonly Role[] = ['admin'];

async function freshCustomerId(ctx: Context): Promise<string> {
  return (await registerCustomer(ctx.t)).user._id;
}
async function freshStaffId(ctx: Context): Promise<string> {
  return (await createStaff(ctx.t, ctx.sessions.admin.accessToken)).user._id;
}
const ownId = (as: Role | 'anonymous', ctx: Context) =>
  as === 'anonymous' ? ctx.sessions.customer.user._id : ctx.sessions[as].user._id;

export const IDENTITY_ROUTES: Route[] = [
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
        password: 'Staff#1234',
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
];

/** Routes whose success needs a secret only a person has (a mailed reset code); only access is checked. */
const ACCESS_ONLY = ['POST /api/auth/reset/password', 'POST /api/auth/change/password'];

describe('the role matrix', () => {
  let ctx: Context;

  beforeAll(async () => {
    const t = await createTestApp({ name: 'matrix', env: UNTHROTTLED });
    const admin = await signInAdmin(t);
    ctx = {
      t,
      sessions: {
        admin,
        staff: await createStaff(t, admin.accessToken),
        customer: await registerCustomer(t),
      },
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

  for (const route of IDENTITY_ROUTES) {
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
    const covered = new Set([
      ...IDENTITY_ROUTES.map((r) => r.route),
      ...ACCESS_ONLY,
      ...EXTRA_ROUTES,
    ]);
    expect(documented.filter((r) => !covered.has(r))).toEqual([]);
  });
});

/** Routes whose matrix lives in their own domain's test file. */
const EXTRA_ROUTES: string[] = [];
