/**
 * Organisations as an outside tester attacks them, on the real database: their rules raced with
 * requests at once (one organisation per customer, at least one approver, one acceptance), KRA PINs
 * in other spellings, fields the caller may not set slipped into a sign-up or a change, invitations
 * taken up by someone else or late, and a person removed who keeps calling.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { OrganisationView } from '@spc/shared-contracts';
import { bearer, registerCustomer, UNTHROTTLED, type Session } from './support/identity';
import {
  addPerson,
  invitationCode,
  organisationBody,
  signUpOrganisation,
} from './support/organisations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

describe('organisations under attack', () => {
  let t: TestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    t = await createTestApp({ name: 'org_attack', env: UNTHROTTLED });
    world = await createShopWorld(t);
  });
  afterAll(() => t.close());

  const as = (s: Session) => bearer(s.accessToken);
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const read = async (org: string) =>
    (await t.http().get(`/api/organisations/${org}`).set(as(world.admin)).expect(200)).body
      .organisation as OrganisationView;
  const membershipsOf = (accountId: string) =>
    db().collection('organisations').countDocuments({ 'members.accountId': accountId });
  const invite = (org: string, by: Session, email: string, role = 'buyer') =>
    t.http().post(`/api/organisations/${org}/invitations`).set(as(by)).send({ email, role });
  /** Accepts with the code of the invitation's e-mail, as the person invited would. */
  const accept = async (id: string, by: Session, code?: string) =>
    t
      .http()
      .post(`/api/organisation-invitations/${id}/accept`)
      .set(as(by))
      .send({ code: code ?? (await invitationCode(t, id)) });

  it('keeps a customer signing up five organisations at once in one of them', async () => {
    const customer = await registerCustomer(t);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.http().post('/api/organisations').set(as(customer)).send(organisationBody()),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await membershipsOf(customer.user._id)).toBe(1);
  });

  it('keeps a customer signing up and accepting an invitation at once in one organisation', async () => {
    const other = await signUpOrganisation(t, await registerCustomer(t));
    const customer = await registerCustomer(t);
    const invitation = (await invite(other._id, world.staff, customer.user.email).expect(201)).body
      .invitation as { _id: string };
    const code = await invitationCode(t, invitation._id);
    const [signUp, joined] = await Promise.all([
      t.http().post('/api/organisations').set(as(customer)).send(organisationBody()),
      accept(invitation._id, customer, code),
    ]);
    expect([signUp.status, joined.status].sort()).toEqual([201, 409]);
    expect(await membershipsOf(customer.user._id)).toBe(1);
  });

  it('lets one invitation accepted twice at once make one membership', async () => {
    const org = await signUpOrganisation(t, await registerCustomer(t));
    const customer = await registerCustomer(t);
    const invitation = (await invite(org._id, world.staff, customer.user.email).expect(201)).body
      .invitation as { _id: string };
    const code = await invitationCode(t, invitation._id);
    const answers = await Promise.all([1, 2, 3].map(() => accept(invitation._id, customer, code)));
    expect(answers.some((a) => a.status === 201)).toBe(true);
    for (const a of answers) expect([201, 404]).toContain(a.status);
    const people = (await read(org._id)).people.filter((p) => p.accountId === customer.user._id);
    expect(people).toHaveLength(1);
  });

  it('answers five invitations of one address at once alike, and keeps one invitation', async () => {
    const org = await signUpOrganisation(t, await registerCustomer(t));
    const invited = await registerCustomer(t);
    const answers = await Promise.all(
      ['buyer', 'approver', 'buyer', 'approver', 'buyer'].map((role) =>
        invite(org._id, world.staff, invited.user.email, role),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect((await read(org._id)).invitations.map((i) => i.email)).toEqual([invited.user.email]);
  });

  it('keeps an approver when two approvers make each other buyers, or one removes the other, at once', async () => {
    for (const second of ['demote', 'remove'] as const) {
      const a = await registerCustomer(t);
      const org = await signUpOrganisation(t, a);
      const b = await registerCustomer(t);
      await addPerson(t, org._id, a, b, 'approver');
      await Promise.all([
        t
          .http()
          .patch(`/api/organisations/${org._id}/people/${b.user._id}`)
          .set(as(a))
          .send({ role: 'buyer' }),
        second === 'demote'
          ? t
              .http()
              .patch(`/api/organisations/${org._id}/people/${a.user._id}`)
              .set(as(b))
              .send({ role: 'buyer' })
          : t.http().delete(`/api/organisations/${org._id}/people/${a.user._id}`).set(as(b)),
      ]);
      const approvers = (await read(org._id)).people.filter((p) => p.role === 'approver');
      expect(approvers.length).toBeGreaterThanOrEqual(1);
    }
  });

  it('refuses a registered KRA PIN in other spellings, and never registers a second', async () => {
    const pin = 'P051234567X';
    await t
      .http()
      .post('/api/organisations')
      .set(as(world.staff))
      .send(organisationBody({ kraPin: pin }))
      .expect(201);
    const spellings = [
      'p051234567x',
      `  ${pin}\t`,
      'P 051234567 X',
      'Ｐ０５１２３４５６７Ｘ',
      'P051234567X\u200b',
      'p051234567ｘ',
    ];
    for (const kraPin of spellings) {
      const res = await t
        .http()
        .post('/api/organisations')
        .set(as(world.staff))
        .send(organisationBody({ kraPin }));
      expect([400, 409]).toContain(res.status);
    }
    const other = await signUpOrganisation(t, await registerCustomer(t));
    for (const kraPin of spellings) {
      const res = await t
        .http()
        .patch(`/api/organisations/${other._id}`)
        .set(as(world.staff))
        .send({ kraPin });
      expect([400, 409]).toContain(res.status);
    }
    expect((await read(other._id)).kraPin).toBe(other.kraPin);
    const stored = await db()
      .collection('organisations')
      .find({ kraPin: { $regex: '051234567' } })
      .toArray();
    expect(stored.map((o) => o.kraPin)).toEqual([pin]);
  });

  it('refuses status, terms, people or a price list slipped into a sign-up or a change, with 400', async () => {
    const customer = await registerCustomer(t);
    const extras = [
      { status: 'approved' },
      { terms: { paymentDays: 180, creditLimit: 1_000_000, onAccount: true } },
      { members: [{ accountId: world.staff.user._id, role: 'approver' }] },
      { priceList: { discountPercent: 90, prices: [] } },
      { statusReason: 'x' },
    ];
    for (const extra of extras) {
      const res = await t
        .http()
        .post('/api/organisations')
        .set(as(customer))
        .send({ ...organisationBody(), ...extra });
      expect(res.status).toBe(400);
    }
    expect(await membershipsOf(customer.user._id)).toBe(0);
    const org = await signUpOrganisation(t, customer);
    for (const by of [customer, world.staff])
      for (const extra of extras) {
        const res = await t.http().patch(`/api/organisations/${org._id}`).set(as(by)).send(extra);
        expect(res.status).toBe(400);
      }
    const after = await read(org._id);
    expect(after.status).toBe('pending');
    expect(after.terms).toEqual(org.terms);
    expect(after.priceList.discountPercent).toBe(0);
    expect(after.people.map((p) => p.accountId)).toEqual([customer.user._id]);
  });

  it('lets nobody but the invited account accept, nor anyone late, in any spelling of the address', async () => {
    const org = await signUpOrganisation(t, await registerCustomer(t));
    const invited = await registerCustomer(t);
    const stranger = await registerCustomer(t);
    const spelled = `  ${invited.user.email.toUpperCase()} `;
    const invitation = (await invite(org._id, world.staff, spelled).expect(201)).body
      .invitation as { _id: string };
    // The e-mail's code does not open it to another account, nor to staff.
    const code = await invitationCode(t, invitation._id);
    expect((await accept(invitation._id, stranger, code)).status).toBe(404);
    expect((await accept(invitation._id, world.staff, code)).status).toBe(403);
    await db()
      .collection('organisation_invitations')
      .updateOne(
        { email: invited.user.email },
        { $set: { expiresAt: new Date(Date.now() - 1000) } },
      );
    expect((await accept(invitation._id, invited, code)).status).toBe(404);
    expect((await read(org._id)).people.map((p) => p.accountId)).not.toContain(invited.user._id);
    expect(await membershipsOf(stranger.user._id)).toBe(0);
  });

  it('answers a person removed with 404 on every route of the organisation, and changes nothing', async () => {
    const approver = await registerCustomer(t);
    const org = await signUpOrganisation(t, approver);
    const gone = await registerCustomer(t);
    await addPerson(t, org._id, approver, gone, 'approver');
    await t
      .http()
      .delete(`/api/organisations/${org._id}/people/${gone.user._id}`)
      .set(as(approver))
      .expect(200);
    const at = `/api/organisations/${org._id}`;
    await t.http().get(at).set(as(gone)).expect(404);
    await t
      .http()
      .patch(at)
      .set(as(gone))
      .send({ billingContact: { name: 'X', phone: '0700000000', email: 'x@example.com' } })
      .expect(404);
    await invite(org._id, gone, 'someone@example.com').expect(404);
    await t
      .http()
      .patch(`${at}/people/${approver.user._id}`)
      .set(as(gone))
      .send({ role: 'buyer' })
      .expect(404);
    await t.http().delete(`${at}/people/${approver.user._id}`).set(as(gone)).expect(404);
    const after = await read(org._id);
    expect(after.people.map((p) => [p.accountId, p.role])).toEqual([
      [approver.user._id, 'approver'],
    ]);
    expect(after.invitations).toEqual([]);
  });

  it('keeps the audit trail and its CSV to admins, and the orders CSV to the shop, whatever the query', async () => {
    const customer = await registerCustomer(t);
    for (const path of ['/api/audit-logs', '/api/audit-logs/export', '/api/audit-logs/filters']) {
      await t.http().get(path).set(as(customer)).expect(403);
      await t.http().get(path).set(as(world.staff)).expect(403);
    }
    await t.http().get('/api/orders/export.csv').set(as(customer)).expect(403);
    const widened = [
      '/api/audit-logs?limit=1e9',
      '/api/audit-logs?limit=0x7fffffff',
      '/api/audit-logs?limit=101',
      '/api/audit-logs?limit=-1',
      '/api/audit-logs?limit=10&limit=20',
      '/api/audit-logs?page=0',
      '/api/audit-logs?from=1970-01-01',
      '/api/audit-logs?to=2026-02-30',
      '/api/audit-logs?from=2026-01-01T00:00:00Z',
      '/api/audit-logs/export?limit=100000',
      '/api/audit-logs/export?skip=0',
      '/api/orders/export.csv?limit=100000',
      '/api/orders/export.csv?from=0000-01-01',
      '/api/orders/export.csv?to=2026-13-01',
    ];
    for (const path of widened) {
      const res = await t.http().get(path).set(as(world.admin));
      expect([path, res.status]).toEqual([path, 400]);
    }
    const page = await t.http().get('/api/audit-logs?limit=%2050%20').set(as(world.admin));
    expect(page.status === 400 || (page.status === 200 && page.body.length <= 50)).toBe(true);
  });
});
