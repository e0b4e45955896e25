/**
 * Who may call each organisation route: anonymous callers get 401, a role the route does not take
 * 403, and a role it takes a 2xx (a customer as the organisation's approver, or as the person
 * invited). The access matrix (access-matrix.e2e-spec.ts) counts these routes as tested here.
 */
import type request from 'supertest';
import {
  bearer,
  registerCustomer,
  uniqueEmail,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import {
  addPerson,
  invitationCode,
  organisationBody,
  ORGANISATION_ROUTES,
  signUpOrganisation,
  type OrganisationRoute,
} from './support/organisations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

type Role = 'admin' | 'staff' | 'customer';
interface OpenApiParameter {
  name: string;
  in: string;
  schema?: object;
}
const SHOP: Role[] = ['admin', 'staff'];
const ALL: Role[] = ['admin', 'staff', 'customer'];

const ALLOWED: Record<OrganisationRoute, Role[]> = {
  'POST /api/organisations': ALL,
  'GET /api/organisations': SHOP,
  'GET /api/organisations/mine': ['customer'],
  'GET /api/organisations/{id}': ALL,
  'PATCH /api/organisations/{id}': ALL,
  'POST /api/organisations/{id}/approve': SHOP,
  'POST /api/organisations/{id}/suspend': SHOP,
  'POST /api/organisations/{id}/decline': SHOP,
  'PUT /api/organisations/{id}/terms': ['admin'],
  'PUT /api/organisations/{id}/price-list': ['admin'],
  'POST /api/organisations/{id}/invitations': ALL,
  'DELETE /api/organisations/{id}/invitations/{invitationId}': ALL,
  'PATCH /api/organisations/{id}/people/{accountId}': ALL,
  'DELETE /api/organisations/{id}/people/{accountId}': ALL,
  'GET /api/organisation-invitations': ['customer'],
  'POST /api/organisation-invitations/{id}/accept': ['customer'],
  'POST /api/organisation-invitations/{id}/decline': ['customer'],
};

interface Call {
  path: string;
  body?: object;
  /** Who calls as a customer: the organisation's approver, or the person invited. */
  customer: Session;
}

describe('organisation routes: who may call them', () => {
  let t: TestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    t = await createTestApp({ name: 'organisation_access', env: UNTHROTTLED });
    world = await createShopWorld(t);
  });
  afterAll(() => t.close());

  const staff = () => bearer(world.staff.accessToken);

  /** Fresh records for one call: an organisation signed up by its approver, and what the route needs. */
  async function prepare(route: OrganisationRoute): Promise<Call> {
    const approver = await registerCustomer(t);
    const org = await signUpOrganisation(t, approver);
    const at = `/api/organisations/${org._id}`;
    const invite = async (email: string) =>
      (
        await t
          .http()
          .post(`${at}/invitations`)
          .set(bearer(approver.accessToken))
          .send({ email, role: 'buyer' })
          .expect(201)
      ).body.invitation._id as string;
    const buyer = async () => {
      const person = await registerCustomer(t);
      await addPerson(t, org._id, approver, person, 'buyer');
      return person.user._id;
    };
    const invitee = async () => {
      const person = await registerCustomer(t);
      return { person, id: await invite(person.user.email) };
    };
    switch (route) {
      case 'POST /api/organisations':
        return {
          path: '/api/organisations',
          body: organisationBody(),
          customer: await registerCustomer(t),
        };
      case 'GET /api/organisations':
        return { path: '/api/organisations', customer: approver };
      case 'GET /api/organisations/mine':
        return { path: '/api/organisations/mine', customer: approver };
      case 'GET /api/organisations/{id}':
        return { path: at, customer: approver };
      case 'PATCH /api/organisations/{id}':
        return {
          path: at,
          body: {
            deliveryContact: {
              name: 'Joseph Kariuki',
              phone: '0722000111',
              email: uniqueEmail('depot'),
            },
          },
          customer: approver,
        };
      case 'POST /api/organisations/{id}/approve':
      case 'POST /api/organisations/{id}/decline':
        return { path: `${at}/${route.split('/').pop()}`, body: {}, customer: approver };
      case 'POST /api/organisations/{id}/suspend':
        await t.http().post(`${at}/approve`).set(staff()).expect(201);
        return { path: `${at}/suspend`, body: { reason: 'Unpaid invoices' }, customer: approver };
      case 'PUT /api/organisations/{id}/terms':
        return {
          path: `${at}/terms`,
          body: { paymentDays: 30, creditLimit: 100_000, onAccount: true },
          customer: approver,
        };
      case 'PUT /api/organisations/{id}/price-list':
        return {
          path: `${at}/price-list`,
          body: { discountPercent: 5, prices: [] },
          customer: approver,
        };
      case 'POST /api/organisations/{id}/invitations':
        return {
          path: `${at}/invitations`,
          body: { email: uniqueEmail('invited'), role: 'buyer' },
          customer: approver,
        };
      case 'DELETE /api/organisations/{id}/invitations/{invitationId}':
        return {
          path: `${at}/invitations/${await invite(uniqueEmail('invited'))}`,
          customer: approver,
        };
      case 'PATCH /api/organisations/{id}/people/{accountId}':
        return {
          path: `${at}/people/${await buyer()}`,
          body: { role: 'approver' },
          customer: approver,
        };
      case 'DELETE /api/organisations/{id}/people/{accountId}':
        return { path: `${at}/people/${await buyer()}`, customer: approver };
      case 'GET /api/organisation-invitations':
        return { path: '/api/organisation-invitations', customer: (await invitee()).person };
      case 'POST /api/organisation-invitations/{id}/accept':
      case 'POST /api/organisation-invitations/{id}/decline': {
        const { person, id } = await invitee();
        return {
          path: `/api/organisation-invitations/${id}/${route.split('/').pop()}`,
          body: { code: await invitationCode(t, id) },
          customer: person,
        };
      }
    }
  }

  function send(method: string, path: string, session: Session | null, body?: object) {
    let req = (t.http() as unknown as Record<string, (u: string) => request.Test>)[
      method.toLowerCase()
    ]!(path);
    if (session) req = req.set(bearer(session.accessToken));
    return body ? req.send(body) : req;
  }

  async function call(route: OrganisationRoute, as: Role | 'anonymous'): Promise<request.Response> {
    const { path, body, customer } = await prepare(route);
    const session = as === 'customer' ? customer : as === 'anonymous' ? null : world[as];
    return send(route.split(' ')[0]!, path, session, body);
  }

  it('documents every id in their paths as an ObjectId, and answers any other with 400', async () => {
    const document = (await t.http().get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: OpenApiParameter[] }>>;
    };
    for (const route of ORGANISATION_ROUTES) {
      const [method, path] = route.split(' ') as [string, string];
      const inPath = (document.paths[path]?.[method.toLowerCase()]?.parameters ?? []).filter(
        (p) => p.in === 'path',
      );
      expect({ route, names: inPath.map((p) => p.name) }).toEqual({
        route,
        names: path.match(/\{(\w+)\}/g)?.map((name) => name.slice(1, -1)) ?? [],
      });
      for (const parameter of inPath)
        expect({ route, name: parameter.name, schema: parameter.schema }).toEqual({
          route,
          name: parameter.name,
          schema: { type: 'string', pattern: '^[0-9a-fA-F]{24}$' },
        });
      if (!inPath.length) continue;
      // Each id in turn replaced by one the document refuses ('0', as a fuzzer sends): 400.
      const { path: real, body, customer } = await prepare(route);
      const caller = ALLOWED[route].includes('admin') ? world.admin : customer;
      for (const id of real.match(/[0-9a-f]{24}/g) ?? []) {
        const res = await send(method, real.replace(id, '0'), caller, body);
        expect({ route, status: res.status, message: res.body.message }).toEqual({
          route,
          status: 400,
          message: '"0" is not a valid id',
        });
      }
    }
  });

  for (const route of ORGANISATION_ROUTES) {
    it(`${route}: 401 without a token, 403 for ${ALL.filter((r) => !ALLOWED[route].includes(r)).join(', ') || 'nobody'}, 2xx for ${ALLOWED[route].join(', ')}`, async () => {
      expect((await call(route, 'anonymous')).status).toBe(401);
      for (const role of ALL) {
        const res = await call(route, role);
        const ok = res.status >= 200 && res.status < 300;
        expect({
          role,
          status: ALLOWED[route].includes(role) ? ok : res.status,
          body: ok || res.status === 403 ? null : res.body,
        }).toEqual({
          role,
          status: ALLOWED[route].includes(role) ? true : 403,
          body: null,
        });
      }
    });
  }
});
