/**
 * Who may call each catalog route: reads are public (a product's tax is for admin and staff); admin
 * and staff manage categories and products; only admin deletes a product. Anonymous callers of a protected route get
 * 401, other roles 403, and allowed roles a 2xx. A catalog route missing here fails the last test.
 */
import type { Role } from '@spc/shared-contracts';
import {
  CATALOG_ROUTES,
  createCategory,
  createProduct,
  multipart,
  productFields,
  tempUploadsDir,
  type ProductFields,
} from './support/factories';
import {
  bearer,
  createStaff,
  registerCustomer,
  signInAdmin,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

type Caller = Role | 'anonymous';
interface Call {
  path: string;
  body?: object;
  form?: ProductFields;
}
interface Route {
  route: (typeof CATALOG_ROUTES)[number];
  allowed: 'public' | readonly Role[];
  call: () => Promise<Call>;
}

const MANAGERS: readonly Role[] = ['admin', 'staff'];
const ROLES: readonly Role[] = ['admin', 'staff', 'customer'];

describe('catalog access rules', () => {
  let t: TestApp;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;
  const sessions = {} as Record<Role, Session>;

  // Fresh fixtures per call, so a destructive route can succeed for every allowed role.
  const category = () => createCategory(t, sessions.admin.accessToken);
  const product = async () => createProduct(t, sessions.admin.accessToken, (await category())._id);

  const routes: Route[] = [
    {
      route: 'GET /api/categories',
      allowed: 'public',
      call: async () => ({ path: '/api/categories' }),
    },
    {
      route: 'GET /api/categories/{id}',
      allowed: 'public',
      call: async () => ({ path: `/api/categories/${(await category())._id}` }),
    },
    {
      route: 'POST /api/categories',
      allowed: MANAGERS,
      call: async () => ({
        path: '/api/categories',
        body: { name: `Matrix ${Math.random()}`, description: 'Access check' },
      }),
    },
    {
      route: 'PUT /api/categories/update/{id}',
      allowed: MANAGERS,
      call: async () => ({
        path: `/api/categories/update/${(await category())._id}`,
        body: { description: 'Changed' },
      }),
    },
    {
      route: 'DELETE /api/categories/delete/{id}',
      allowed: MANAGERS,
      call: async () => ({ path: `/api/categories/delete/${(await category())._id}` }),
    },
    {
      route: 'GET /api/products',
      allowed: 'public',
      call: async () => ({ path: '/api/products' }),
    },
    {
      route: 'GET /api/products/{id}',
      allowed: 'public',
      call: async () => ({ path: `/api/products/${(await product())._id}` }),
    },
    {
      route: 'GET /api/products/{id}/tax',
      allowed: MANAGERS,
      call: async () => ({ path: `/api/products/${(await product())._id}/tax` }),
    },
    {
      route: 'POST /api/products',
      allowed: MANAGERS,
      call: async () => ({ path: '/api/products', form: productFields((await category())._id) }),
    },
    {
      route: 'PUT /api/products/update/{id}',
      allowed: MANAGERS,
      call: async () => ({
        path: `/api/products/update/${(await product())._id}`,
        form: { price: '420' },
      }),
    },
    {
      route: 'PATCH /api/products/check-stock/{id}',
      allowed: MANAGERS,
      call: async () => ({ path: `/api/products/check-stock/${(await product())._id}` }),
    },
    {
      route: 'PATCH /api/products/update-stock/{id}',
      allowed: MANAGERS,
      call: async () => ({
        path: `/api/products/update-stock/${(await product())._id}`,
        body: { productQuantity: 10 },
      }),
    },
    {
      route: 'PATCH /api/products/apply-offer/{id}',
      allowed: MANAGERS,
      call: async () => ({
        path: `/api/products/apply-offer/${(await product())._id}`,
        body: { offerPrice: 300 },
      }),
    },
    {
      route: 'DELETE /api/products/delete/{id}',
      allowed: ['admin'],
      call: async () => ({ path: `/api/products/delete/${(await product())._id}` }),
    },
  ];

  async function send(route: Route, as: Caller, headers: Record<string, string> = {}) {
    const [method, template] = route.route.split(' ') as [string, string];
    const call = await route.call();
    expect(call.path.split('/').length).toBe(template.split('/').length);
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    let req = t.http()[verb](call.path).set(headers);
    if (as !== 'anonymous') req = req.set(bearer(sessions[as].accessToken));
    if (call.form) return multipart(req, call.form);
    return call.body ? req.send(call.body) : req;
  }

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({
      name: 'catalog_access',
      env: { ...UNTHROTTLED, UPLOADS_DIR: uploads.dir },
    });
    sessions.admin = await signInAdmin(t);
    sessions.staff = await createStaff(t, sessions.admin.accessToken);
    sessions.customer = await registerCustomer(t);
  });
  afterAll(async () => {
    await t.close();
    await uploads.remove();
  });

  for (const route of routes) {
    describe(route.route, () => {
      if (route.allowed === 'public') {
        it('is open to anonymous callers', async () => {
          const res = await send(route, 'anonymous');
          expect(res.status).toBe(200);
        });
        return;
      }
      const allowed = route.allowed;
      it('answers 401 without a token', async () => {
        const res = await send(route, 'anonymous');
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          success: false,
          statusCode: 401,
          code: 'UNAUTHENTICATED',
          message: 'Please sign in to continue.',
        });
      });
      for (const role of ROLES) {
        const ok = allowed.includes(role);
        it(`${ok ? 'lets' : 'refuses'} ${role}${ok ? '' : ' with 403'}`, async () => {
          const res = await send(route, role);
          if (ok) {
            expect(res.status).toBeGreaterThanOrEqual(200);
            expect(res.status).toBeLessThan(300);
            expect(res.body.success).toBe(true);
          } else {
            expect(res.status).toBe(403);
            expect(res.body.message).toBe('You do not have permission to do this');
          }
        });
      }
    });
  }

  it('grants nothing for the old clients’ role headers', async () => {
    const remove = routes.find((r) => r.route === 'DELETE /api/products/delete/{id}')!;
    for (const as of ['staff', 'customer'] as const) {
      const res = await send(remove, as, { isAdmin: 'true', isAdminOrStaff: 'true' });
      expect(res.status).toBe(403);
    }
    const create = routes.find((r) => r.route === 'POST /api/categories')!;
    expect((await send(create, 'anonymous', { isAdmin: 'true' })).status).toBe(401);
  });

  it('covers every catalog route the API documents', async () => {
    const doc = await t.http().get('/api/docs-json').expect(200);
    const documented = Object.entries(doc.body.paths as Record<string, object>)
      .filter(([path]) => /^\/api\/(categories|products)(\/|$)/.test(path))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual([...CATALOG_ROUTES].sort());
    expect(routes.map((r) => r.route).sort()).toEqual([...CATALOG_ROUTES].sort());
  });
});
