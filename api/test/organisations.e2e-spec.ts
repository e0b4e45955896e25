/**
 * Business accounts (issue 42) on the real database: a customer signs an organisation up (its
 * KRA PIN checked for its form and registered once), staff approve, suspend or decline it, and a
 * customer reads and changes only the organisation they buy for: any other answers 404 and changes
 * nothing. Every step is in the audit trail. Terms and price lists: organisation-terms.e2e-spec.ts;
 * people: organisation-people.e2e-spec.ts; who may call what: organisation-access.e2e-spec.ts.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type request from 'supertest';
import {
  KRA_PIN_MESSAGE,
  ORGANISATION_MESSAGES as OM,
  type OrganisationView,
} from '@spc/shared-contracts';
import { bearer, registerCustomer, UNTHROTTLED, type Session } from './support/identity';
import {
  addPerson,
  organisationBody,
  signUpOrganisation,
  uniqueKraPin,
} from './support/organisations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

describe('organisations', () => {
  let t: TestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    t = await createTestApp({ name: 'organisations', env: UNTHROTTLED });
    world = await createShopWorld(t);
  });
  afterAll(() => t.close());

  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const count = () => db().collection('organisations').countDocuments({});
  const as = (s: Session) => bearer(s.accessToken);
  const admin = () => as(world.admin);
  const staff = () => as(world.staff);
  const read = async (id: string) =>
    (await t.http().get(`/api/organisations/${id}`).set(admin()).expect(200)).body
      .organisation as OrganisationView;
  const trail = async (action: string) =>
    (await t.http().get(`/api/audit-logs?action=${action}&limit=100`).set(admin()).expect(200))
      .body as { message: string; performedBy: { id: string }; target?: { id: string } }[];

  it('lets a signed-in customer sign an organisation up: awaiting approval, with them as its approver', async () => {
    const customer = await registerCustomer(t);
    const body = organisationBody({ kraPin: '  p051234567x ' });
    body.billingContact.email = `  ${body.billingContact.email.toUpperCase()} `;
    const res = await t.http().post('/api/organisations').set(as(customer)).send(body).expect(201);
    const org = res.body.organisation as OrganisationView;
    expect(res.body.message).toBe('Organisation registered');
    expect(org).toEqual(
      expect.objectContaining({
        name: 'Kiambu County Government',
        kraPin: 'P051234567X',
        kind: 'county',
        status: 'pending',
        terms: { paymentDays: 30, creditLimit: 0, onAccount: false, invoicing: 'perTranche' },
        priceList: { discountPercent: 0, prices: [] },
      }),
    );
    expect(org.billingContact.email).toBe(body.billingContact.email.trim().toLowerCase());
    expect(org.deliveryContact.phone).toBe('+254722000111');
    expect(org.people).toEqual([
      expect.objectContaining({
        accountId: customer.user._id,
        fullName: customer.user.fullName,
        role: 'approver',
      }),
    ]);
    const mine = await t.http().get('/api/organisations/mine').set(as(customer)).expect(200);
    expect(mine.body).toEqual(
      expect.objectContaining({
        role: 'approver',
        organisation: expect.objectContaining({ _id: org._id }),
      }),
    );
    const entries = await trail('organisation.create');
    expect(entries).toContainEqual(
      expect.objectContaining({
        performedBy: expect.objectContaining({ id: customer.user._id }),
        target: expect.objectContaining({ id: org._id }),
      }),
    );
  });

  it('answers a customer without an organisation with nulls', async () => {
    const customer = await registerCustomer(t);
    const res = await t.http().get('/api/organisations/mine').set(as(customer)).expect(200);
    expect(res.body).toEqual(expect.objectContaining({ organisation: null, role: null }));
  });

  it.each([
    ['a blank inside', 'P051 234567X'],
    ['blanks between its parts', 'P 051234567 X'],
    ['8 digits', 'P05123456X'],
    ['10 digits', 'P0512345678X'],
    ['a wrong first letter', 'B051234567X'],
    ['a digit first', '0051234567X'],
    ['no last letter', 'P051234567'],
    ['a digit last', 'P0512345678'],
    ['a Cyrillic first letter', 'Р051234567X'],
    ['dashes', 'P-051234567-X'],
    ['nothing', ''],
    ['a number', 51234567],
  ])('refuses a KRA PIN with %s (400, nothing stored)', async (_, kraPin) => {
    const customer = await registerCustomer(t);
    const before = await count();
    const res = await t
      .http()
      .post('/api/organisations')
      .set(as(customer))
      .send(organisationBody({ kraPin: kraPin as string }))
      .expect(400);
    expect(res.body.message).toBe(KRA_PIN_MESSAGE);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'kraPin' })]);
    expect(await count()).toBe(before);
  });

  it('refuses a second sign-up with a registered KRA PIN, in any case, saying nothing of the first', async () => {
    const first = await registerCustomer(t);
    const pin = uniqueKraPin();
    const org = await signUpOrganisation(t, first, {
      name: 'Thika Greening Trust',
      kind: 'ngo',
      kraPin: pin,
    });
    const before = await count();
    for (const [who, spelled] of [
      [await registerCustomer(t), pin],
      [await registerCustomer(t), pin.toLowerCase()],
      [world.staff, ` ${pin} `],
    ] as const) {
      const res = await t
        .http()
        .post('/api/organisations')
        .set(as(who))
        .send(organisationBody({ kraPin: spelled }))
        .expect(409);
      expect(res.body).toEqual(
        expect.objectContaining({ code: 'KRA_PIN_TAKEN', message: OM.kraPinTaken }),
      );
      const said = JSON.stringify(res.body);
      for (const secret of [org._id, org.name, org.billingContact.email, org.billingContact.name])
        expect(said).not.toContain(secret);
    }
    expect(await count()).toBe(before);
    // Nor can another organisation be given that PIN.
    const other = await signUpOrganisation(t, await registerCustomer(t));
    const res = await t
      .http()
      .patch(`/api/organisations/${other._id}`)
      .set(staff())
      .send({ kraPin: pin.toLowerCase() })
      .expect(409);
    expect(res.body.code).toBe('KRA_PIN_TAKEN');
    expect((await read(other._id)).kraPin).toBe(other.kraPin);
  });

  it('refuses a customer who buys for an organisation a second one', async () => {
    const customer = await registerCustomer(t);
    await signUpOrganisation(t, customer);
    const before = await count();
    const res = await t
      .http()
      .post('/api/organisations')
      .set(as(customer))
      .send(organisationBody())
      .expect(409);
    expect(res.body).toEqual(expect.objectContaining({ code: 'ALREADY_IN_ORGANISATION' }));
    expect(await count()).toBe(before);
  });

  it.each([
    ['no billing contact', { billingContact: undefined }, 'billingContact'],
    ['a contact as text', { deliveryContact: 'Joseph' }, 'deliveryContact'],
    [
      'a contact phone that is no phone',
      { billingContact: { name: 'Grace', phone: '07-12', email: 'grace@example.co.ke' } },
      'billingContact.phone',
    ],
    [
      'a contact e-mail that is no e-mail',
      { deliveryContact: { name: 'Joseph', phone: '0712345678', email: 'joseph@' } },
      'deliveryContact.email',
    ],
    ['an unknown kind', { kind: 'government' }, 'kind'],
    ['a blank name', { name: '   ' }, 'name'],
  ])('refuses a sign-up with %s (400, nothing stored)', async (_, change, field) => {
    const before = await count();
    const res = await t
      .http()
      .post('/api/organisations')
      .set(as(await registerCustomer(t)))
      .send({ ...organisationBody(), ...change })
      .expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await count()).toBe(before);
  });

  it('registers an organisation staff create as approved, with no people yet', async () => {
    const res = await t
      .http()
      .post('/api/organisations')
      .set(staff())
      .send(organisationBody())
      .expect(201);
    expect(res.body.organisation).toEqual(
      expect.objectContaining({ status: 'approved', people: [] }),
    );
  });

  it('lets staff approve, suspend and decline by the status table, and not its approver', async () => {
    const customer = await registerCustomer(t);
    const org = await signUpOrganisation(t, customer);
    const step = (action: string, who = staff(), body: object = {}) =>
      t.http().post(`/api/organisations/${org._id}/${action}`).set(who).send(body);

    expect((await step('approve', as(customer))).status).toBe(403);
    expect((await read(org._id)).status).toBe('pending');
    const suspendPending = await step('suspend').expect(409);
    expect(suspendPending.body).toEqual(
      expect.objectContaining({
        code: 'ILLEGAL_TRANSITION',
        message: 'Only an approved organisation can be suspended',
      }),
    );

    expect((await step('approve').expect(201)).body.organisation.status).toBe('approved');
    expect((await step('approve').expect(409)).body.code).toBe('ILLEGAL_TRANSITION');
    expect((await step('decline').expect(409)).body.code).toBe('ILLEGAL_TRANSITION');
    await step('suspend', staff(), { reason: 'Invoices unpaid since March' }).expect(201);
    const seen = await t.http().get('/api/organisations/mine').set(as(customer)).expect(200);
    expect(seen.body.organisation).toEqual(
      expect.objectContaining({ status: 'suspended', statusReason: 'Invoices unpaid since March' }),
    );
    await step('approve', admin()).expect(201);
    expect(await read(org._id)).toEqual(
      expect.objectContaining({ status: 'approved', statusReason: '' }),
    );

    const other = await signUpOrganisation(t, await registerCustomer(t));
    await t
      .http()
      .post(`/api/organisations/${other._id}/decline`)
      .set(staff())
      .send({ reason: 'The KRA PIN is not the organisation’s' })
      .expect(201);
    expect((await read(other._id)).status).toBe('declined');

    const actions = ['approve', 'suspend', 'decline'];
    for (const action of actions)
      expect(
        (await trail(`organisation.${action}`)).some(
          (e) => e.target?.id === org._id || e.target?.id === other._id,
        ),
      ).toBe(true);
  });

  it("answers another organisation's id with 404 to a customer, and changes nothing", async () => {
    const a = await signUpOrganisation(t, await registerCustomer(t), {
      name: 'Ruiru Primary School',
      kind: 'school',
    });
    const stranger = await registerCustomer(t);
    await signUpOrganisation(t, stranger, { name: 'Limuru Tea Co-operative', kind: 'cooperative' });
    const outsider = await registerCustomer(t);
    const calls: (() => request.Test)[] = [
      () => t.http().get(`/api/organisations/${a._id}`),
      () =>
        t
          .http()
          .patch(`/api/organisations/${a._id}`)
          .send({ billingContact: { name: 'X', phone: '0711000111', email: 'x@example.co.ke' } }),
      () =>
        t
          .http()
          .post(`/api/organisations/${a._id}/invitations`)
          .send({ email: stranger.user.email, role: 'approver' }),
      () =>
        t
          .http()
          .patch(`/api/organisations/${a._id}/people/${a.people[0]!.accountId}`)
          .send({ role: 'buyer' }),
      () => t.http().delete(`/api/organisations/${a._id}/people/${a.people[0]!.accountId}`),
    ];
    for (const who of [stranger, outsider])
      for (const call of calls) {
        const res = await call().set(as(who));
        expect({ status: res.status, code: res.body.code }).toEqual({
          status: 404,
          code: 'NOT_FOUND',
        });
        expect(JSON.stringify(res.body)).not.toContain('Ruiru');
      }
    // The same answer as an id that is nobody's.
    const none = await t
      .http()
      .get('/api/organisations/665f1c2b9d3e4a0012345678')
      .set(as(stranger));
    expect(none.status).toBe(404);
    expect((await t.http().get(`/api/organisations/${a._id}`).set(as(stranger))).body.message).toBe(
      none.body.message,
    );
    expect(await read(a._id)).toEqual({ ...a, invitations: [], updatedAt: a.updatedAt });
    expect((await t.http().get('/api/organisations').set(as(stranger))).status).toBe(403);
  });

  it('lets its approver change the contacts, not the name, KRA PIN or kind; a buyer changes nothing', async () => {
    const approver = await registerCustomer(t);
    const org = await signUpOrganisation(t, approver);
    const buyer = await registerCustomer(t);
    await addPerson(t, org._id, approver, buyer, 'buyer');
    const patch = (who: Session, body: object) =>
      t.http().patch(`/api/organisations/${org._id}`).set(as(who)).send(body);
    const contact = { name: 'Mary Njoki', phone: '0733 111 222', email: 'Mary@Example.co.ke' };
    expect((await patch(buyer, { billingContact: contact })).status).toBe(403);
    for (const body of [{ name: 'Another name' }, { kraPin: uniqueKraPin() }, { kind: 'company' }])
      expect((await patch(approver, body)).status).toBe(403);
    const res = await patch(approver, { billingContact: contact }).expect(200);
    expect(res.body.organisation.billingContact).toEqual({
      ...contact,
      email: 'mary@example.co.ke',
    });
    expect(res.body.organisation.name).toBe(org.name);
    const renamed = await t
      .http()
      .patch(`/api/organisations/${org._id}`)
      .set(staff())
      .send({ name: 'Kiambu County' })
      .expect(200);
    expect(renamed.body.organisation.name).toBe('Kiambu County');
    const entry = (await trail('organisation.update')).find((e) => e.target?.id === org._id);
    expect(entry?.message).not.toContain('Mary');
  });

  it('answers an empty change with the organisation as it was; a name, PIN or kind null is left out, a contact null refused', async () => {
    const approver = await registerCustomer(t);
    const org = await signUpOrganisation(t, approver);
    const before = await read(org._id);
    const patch = (who: Record<string, string>, body: object) =>
      t.http().patch(`/api/organisations/${org._id}`).set(who).send(body);
    const nulls = { name: null, kraPin: null, kind: null };
    for (const [who, body, status] of [
      [staff(), {}, 200],
      [as(approver), {}, 200],
      [as(approver), nulls, 200],
      [admin(), nulls, 200],
      [admin(), { billingContact: null }, 400],
      [admin(), { name: 'Another name', deliveryContact: null }, 400],
    ] as const) {
      const res = await patch(who, body);
      expect({ body, status: res.status }).toEqual({ body, status });
      if (status === 200) expect(res.body.organisation).toEqual(expect.objectContaining(before));
    }
    expect(await read(org._id)).toEqual(before);
    expect((await trail('organisation.update')).some((e) => e.target?.id === org._id)).toBe(false);
    // As the document says: the texts may be null, the contacts (objects) may not.
    const schema = (await t.http().get('/api/docs-json').expect(200)).body.components.schemas
      .UpdateOrganisationDto as { properties: Record<string, { nullable?: boolean }> };
    expect(schema.properties.name?.nullable).toBe(true);
    expect(schema.properties.billingContact?.nullable).toBeUndefined();
    // What the fuzzer sent (a 500 before): a new KRA PIN and contacts, the name and kind null.
    const [kraPin, contact] = [uniqueKraPin(), { ...before.billingContact, name: 'Peter Mwangi' }];
    const changed = { kraPin, billingContact: contact, deliveryContact: contact };
    const res = await patch(admin(), { ...nulls, ...changed }).expect(200);
    expect(res.body.organisation).toEqual({ ...before, ...changed, updatedAt: expect.any(String) });
  });

  it('lists organisations for the shop by status, kind, name and KRA PIN', async () => {
    const pin = uniqueKraPin('A');
    const org = await signUpOrganisation(t, await registerCustomer(t), {
      name: 'Gatundu Mission Church',
      kind: 'church',
      kraPin: pin,
    });
    const list = async (query: string) =>
      (
        (await t.http().get(`/api/organisations?${query}`).set(staff()).expect(200)).body
          .organisations as { _id: string }[]
      ).map((o) => o._id);
    expect(await list('status=pending&kind=church')).toContain(org._id);
    expect(await list('status=approved')).not.toContain(org._id);
    expect(await list('search=mission')).toContain(org._id);
    expect(await list(`search=${pin.slice(0, 6).toLowerCase()}`)).toContain(org._id);
    expect((await t.http().get('/api/organisations?status=open').set(staff())).status).toBe(400);
  });
});
