/**
 * The people of an organisation on the real database: invited by the e-mail of their customer
 * account and joining by accepting (the inviter hears the same for an address without an account,
 * and nobody can take up an invitation meant for another), their roles, the last approver who
 * stays, one organisation per customer, the audit trail, and their personal data exported and erased.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import {
  ORGANISATION_LIMITS,
  ORGANISATION_MESSAGES as OM,
  type OrganisationView,
} from '@spc/shared-contracts';
import {
  bearer,
  registerCustomer,
  STRONG_PASSWORD,
  uniqueEmail,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { decoded, outbox } from './support/mail';
import { addPerson, invitationCode, signUpOrganisation } from './support/organisations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import { sleep, waitFor } from './support/wait';

describe('the people of an organisation', () => {
  let t: TestApp;
  let world: ShopWorld;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spc-org-people-'));
    t = await createTestApp({ name: 'org_people', env: { ...UNTHROTTLED, DATA_DIR: dataDir } });
    world = await createShopWorld(t);
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const as = (s: Session) => bearer(s.accessToken);
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const mailsTo = (address: string) =>
    outbox(dataDir)
      .filter((m) => m.includes(`To: ${address}`))
      .map(decoded);
  const invite = (org: string, by: Session, email: string, role = 'buyer') =>
    t.http().post(`/api/organisations/${org}/invitations`).set(as(by)).send({ email, role });
  const read = async (org: string) =>
    (await t.http().get(`/api/organisations/${org}`).set(as(world.admin)).expect(200)).body
      .organisation as OrganisationView;
  const roles = async (org: string) =>
    Object.fromEntries((await read(org)).people.map((p) => [p.accountId, p.role]));
  const trail = async (action: string) =>
    (
      await t
        .http()
        .get(`/api/audit-logs?action=${action}&limit=100`)
        .set(as(world.admin))
        .expect(200)
    ).body as { message: string; target?: { id: string; label?: string } }[];

  it('invites a customer by the e-mail of their account; they are e-mailed and join by accepting', async () => {
    const approver = await registerCustomer(t);
    const org = await signUpOrganisation(t, approver, {
      name: 'Nyeri Tree Growers Co-operative',
      kind: 'cooperative',
    });
    const buyer = await registerCustomer(t, { fullName: 'Peter Maina' });
    const res = await invite(org._id, approver, `  ${buyer.user.email.toUpperCase()} `).expect(201);
    expect(res.body.message).toBe(OM.invitationSent(ORGANISATION_LIMITS.invitationDays));
    expect(res.body.invitation).toEqual(
      expect.objectContaining({ email: buyer.user.email, role: 'buyer' }),
    );
    const mail = await waitFor(
      async () => mailsTo(buyer.user.email),
      (l) => l.length > 0,
      10_000,
    );
    expect(mail[0]).toContain(
      'You were invited to buy for "Nyeri Tree Growers Co-operative" (Co-operative)',
    );
    expect(mail[0]).toMatch(/\/user\/organisation\?invitation=[0-9a-f]{24}&code=[\w-]{43}/);
    const code = await invitationCode(t, res.body.invitation._id);
    // Not yet one of its people: they have not said yes.
    expect(await roles(org._id)).toEqual({ [approver.user._id]: 'approver' });
    const mine = await t.http().get('/api/organisation-invitations').set(as(buyer)).expect(200);
    expect(mine.body.invitations).toEqual([
      expect.objectContaining({
        _id: res.body.invitation._id,
        role: 'buyer',
        organisation: { _id: org._id, name: org.name, kind: 'cooperative' },
      }),
    ]);
    // Without the e-mail's code, or with another, the invitation is not found: nothing changes.
    for (const body of [{}, { code: '' }, { code: code.slice(1) }, { code: `${code}x` }]) {
      const refused = await t
        .http()
        .post(`/api/organisation-invitations/${res.body.invitation._id}/accept`)
        .set(as(buyer))
        .send(body);
      expect([400, 404]).toContain(refused.status);
    }
    expect(await roles(org._id)).toEqual({ [approver.user._id]: 'approver' });
    const joined = await t
      .http()
      .post(`/api/organisation-invitations/${res.body.invitation._id}/accept`)
      .set(as(buyer))
      .send({ code })
      .expect(201);
    expect(joined.body.organisation.people).toContainEqual(
      expect.objectContaining({
        accountId: buyer.user._id,
        fullName: 'Peter Maina',
        role: 'buyer',
      }),
    );
    // A buyer sees the organisation, not its invitations; the invitation is used up.
    expect(joined.body.organisation.invitations).toEqual([]);
    await t
      .http()
      .post(`/api/organisation-invitations/${res.body.invitation._id}/accept`)
      .set(as(buyer))
      .send({ code })
      .expect(404);
    expect((await trail('organisation.invite')).some((e) => e.target?.id === org._id)).toBe(true);
    const joins = await trail('organisation.join');
    expect(joins.find((e) => e.target?.id === org._id)?.message).toBe(
      'Peter Maina joined Nyeri Tree Growers Co-operative as buyer',
    );
    expect(JSON.stringify(await trail('organisation.invite'))).not.toContain(buyer.user.email);
  });

  it('answers an address without a customer account exactly as one with, and mails nobody', async () => {
    const approver = await registerCustomer(t);
    const org = await signUpOrganisation(t, approver);
    const known = await registerCustomer(t);
    const unknown = uniqueEmail('nobody');
    const staffEmail = world.staff.user.email;
    const answers = [];
    for (const email of [known.user.email, unknown, staffEmail]) {
      const res = await invite(org._id, approver, email);
      answers.push({
        status: res.status,
        message: res.body.message,
        keys: Object.keys(res.body.invitation).sort(),
        email: res.body.invitation.email === email,
      });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    await waitFor(
      async () => mailsTo(known.user.email),
      (l) => l.length > 0,
      10_000,
    );
    await sleep(300);
    expect(mailsTo(unknown)).toEqual([]);
    expect(mailsTo(staffEmail).filter((m) => m.includes('invited'))).toEqual([]);
    // Whoever signs up with the address later cannot take the invitation up.
    const latecomer = await registerCustomer(t, { email: unknown });
    expect(
      (await t.http().get('/api/organisation-invitations').set(as(latecomer)).expect(200)).body
        .invitations,
    ).toEqual([]);
    const waiting = (await read(org._id)).invitations.find((i) => i.email === unknown)!;
    await t
      .http()
      .post(`/api/organisation-invitations/${waiting._id}/accept`)
      .set(as(latecomer))
      .send({ code: 'a'.repeat(43) })
      .expect(404);
    // Nor can another customer take up someone else's.
    const other = (await read(org._id)).invitations.find((i) => i.email === known.user.email)!;
    await t
      .http()
      .post(`/api/organisation-invitations/${other._id}/accept`)
      .set(as(latecomer))
      .send({ code: await invitationCode(t, other._id) })
      .expect(404);
    expect(Object.keys(await roles(org._id))).toEqual([approver.user._id]);
  });

  it('changes roles and removes people, and keeps the last approver', async () => {
    const first = await registerCustomer(t);
    const org = await signUpOrganisation(t, first);
    const second = await registerCustomer(t);
    const buyer = await registerCustomer(t);
    await addPerson(t, org._id, first, second, 'buyer');
    await addPerson(t, org._id, first, buyer, 'buyer');
    const role = (by: Session, who: Session, r: string) =>
      t
        .http()
        .patch(`/api/organisations/${org._id}/people/${who.user._id}`)
        .set(as(by))
        .send({ role: r });
    const remove = (by: Session, who: Session) =>
      t.http().delete(`/api/organisations/${org._id}/people/${who.user._id}`).set(as(by));

    // A buyer manages nobody.
    expect((await role(buyer, second, 'approver')).status).toBe(403);
    expect((await remove(buyer, second)).status).toBe(403);
    expect((await invite(org._id, buyer, uniqueEmail())).status).toBe(403);
    // The only approver can neither step down nor leave, nor be removed by the shop.
    for (const res of [
      await role(first, first, 'buyer'),
      await remove(first, first),
      await remove(world.staff, first),
    ]) {
      expect({ status: res.status, code: res.body.code, message: res.body.message }).toEqual({
        status: 409,
        code: 'LAST_APPROVER',
        message: OM.lastApprover,
      });
    }
    expect((await roles(org._id))[first.user._id]).toBe('approver');

    await role(first, second, 'approver').expect(200);
    const stepped = await role(first, first, 'buyer').expect(200);
    expect(stepped.body.organisation.people).toContainEqual(
      expect.objectContaining({ accountId: first.user._id, role: 'buyer' }),
    );
    const left = await remove(buyer, buyer).expect(200);
    expect(left.body).toEqual(
      expect.objectContaining({ message: 'You left the organisation', organisation: null }),
    );
    await t.http().get(`/api/organisations/${org._id}`).set(as(buyer)).expect(404);
    await remove(world.admin, first).expect(200);
    expect(await roles(org._id)).toEqual({ [second.user._id]: 'approver' });
    expect((await role(second, buyer, 'buyer')).status).toBe(404);
    const entries = await trail('organisation.role');
    expect(
      entries.some((e) => e.target?.id === second.user._id && /an approver of/.test(e.message)),
    ).toBe(true);
    expect((await trail('organisation.remove')).some((e) => e.target?.id === first.user._id)).toBe(
      true,
    );
  });

  it('lets one of two approvers removing each other at once succeed, never both', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await registerCustomer(t);
      const org = await signUpOrganisation(t, a);
      const b = await registerCustomer(t);
      await addPerson(t, org._id, a, b, 'approver');
      const [x, y] = await Promise.all([
        t.http().delete(`/api/organisations/${org._id}/people/${b.user._id}`).set(as(a)),
        t
          .http()
          .patch(`/api/organisations/${org._id}/people/${a.user._id}`)
          .set(as(b))
          .send({ role: 'buyer' }),
      ]);
      const statuses = [x.status, y.status].sort();
      expect(statuses[0]).toBe(200);
      const approvers = Object.values(await roles(org._id)).filter((r) => r === 'approver');
      expect(approvers).toHaveLength(1);
    }
  });

  it('keeps a customer in one organisation: a second acceptance is refused and changes nothing', async () => {
    const one = await signUpOrganisation(t, await registerCustomer(t));
    const twoApprover = await registerCustomer(t);
    const two = await signUpOrganisation(t, twoApprover);
    const person = await registerCustomer(t);
    await addPerson(t, one._id, world.staff, person, 'buyer');
    const res = await invite(two._id, twoApprover, person.user.email).expect(201);
    const code = await invitationCode(t, res.body.invitation._id);
    const refused = await t
      .http()
      .post(`/api/organisation-invitations/${res.body.invitation._id}/accept`)
      .set(as(person))
      .send({ code })
      .expect(409);
    expect(refused.body).toEqual(
      expect.objectContaining({ code: 'ALREADY_IN_ORGANISATION', message: OM.alreadyMember }),
    );
    expect(Object.keys(await roles(two._id))).toEqual([twoApprover.user._id]);
    // They may say no instead; an approver may withdraw one.
    await t
      .http()
      .post(`/api/organisation-invitations/${res.body.invitation._id}/decline`)
      .set(as(person))
      .send({ code })
      .expect(201);
    expect((await read(two._id)).invitations).toEqual([]);
    const again = await invite(two._id, twoApprover, uniqueEmail()).expect(201);
    await t
      .http()
      .delete(`/api/organisations/${two._id}/invitations/${again.body.invitation._id}`)
      .set(as(twoApprover))
      .expect(200);
    expect((await read(two._id)).invitations).toEqual([]);
  });

  it("exports a customer's membership, contacts and invitations, and erasing them takes them out", async () => {
    const person = await registerCustomer(t, {
      fullName: 'Esther Wanjiru',
      phoneNumber: '0722333444',
    });
    const org = await signUpOrganisation(t, person, {
      name: 'Ruiru Girls Secondary School',
      kind: 'school',
      billingContact: {
        name: 'Esther Wanjiru',
        phone: '0722 333 444',
        email: person.user.email.toUpperCase(),
      },
    });
    const colleague = await registerCustomer(t);
    await addPerson(t, org._id, person, colleague, 'approver');
    const elsewhere = await signUpOrganisation(t, await registerCustomer(t));
    await invite(elsewhere._id, world.staff, person.user.email, 'approver').expect(201);

    const exported = await t
      .http()
      .get('/api/users/profile/data-export')
      .set(as(person))
      .expect(200);
    const text = JSON.stringify(exported.body);
    expect(exported.body).toEqual(
      expect.objectContaining({
        organisations: [
          expect.objectContaining({
            organisation: 'Ruiru Girls Secondary School',
            role: 'approver',
            youAreItsContact: [expect.objectContaining({ for: 'billing', name: 'Esther Wanjiru' })],
          }),
        ],
        organisationInvitations: [
          expect.objectContaining({ organisation: elsewhere.name, role: 'approver' }),
        ],
      }),
    );
    expect(exported.body.summary).toContain(
      'You buy for: Ruiru Girls Secondary School (approver).',
    );
    expect(text).not.toContain(colleague.user.email);

    await t
      .http()
      .post('/api/users/profile/delete')
      .set(as(person))
      .send({ password: STRONG_PASSWORD })
      .expect(200);
    const after = await read(org._id);
    expect(after.people.map((p) => p.accountId)).toEqual([colleague.user._id]);
    expect(after.billingContact).toEqual({ name: 'Deleted customer', phone: '', email: '' });
    expect(after.deliveryContact).toEqual(org.deliveryContact);
    expect((await read(elsewhere._id)).invitations).toEqual([]);
    const raw = JSON.stringify(await db().collection('organisations').find({}).toArray());
    expect(raw).not.toContain(person.user._id);
    expect(raw).not.toContain('Esther');
    expect(
      JSON.stringify(await db().collection('organisation_invitations').find({}).toArray()),
    ).not.toContain(person.user.email);
  });

  it("leaves an organisation's contacts alone when someone erased only typed the same address", async () => {
    const approver = await registerCustomer(t);
    const contact = { name: 'Samuel Otieno', phone: '0711 222 333', email: uniqueEmail('samuel') };
    const org = await signUpOrganisation(t, approver, { deliveryContact: contact });
    // Another customer with that address as their own, not of this organisation, is erased.
    const namesake = await registerCustomer(t, { email: contact.email, phoneNumber: '0711222333' });
    await t
      .http()
      .post('/api/users/profile/delete')
      .set(as(namesake))
      .send({ password: STRONG_PASSWORD })
      .expect(200);
    expect((await read(org._id)).deliveryContact).toEqual(contact);
  });
});
