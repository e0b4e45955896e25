/**
 * A customer of an organisation erased, as an outside tester checks it: after they delete their
 * account, the database, the audit trail's CSV and its filter of people name them nowhere, whatever
 * they did in the organisation or others did about them (roles, removals, the shop's reasons).
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import {
  bearer,
  registerCustomer,
  STRONG_PASSWORD,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { addPerson, signUpOrganisation } from './support/organisations';
import { needles, newPerson, personHits } from './support/personal-data';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

describe('an organisation’s person erased', () => {
  let t: TestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    t = await createTestApp({ name: 'org_erasure_attack', env: UNTHROTTLED });
    world = await createShopWorld(t);
  });
  afterAll(() => t.close());

  const as = (s: Session) => bearer(s.accessToken);
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;

  it('is named nowhere: not in the organisations, the trail, its CSV or its people', async () => {
    const p = newPerson('Njeri');
    const c = await registerCustomer(t, { fullName: p.name, email: p.email, phoneNumber: p.phone });
    const org = await signUpOrganisation(t, c, {
      name: 'Othaya Dairy Farmers Co-operative',
      kind: 'cooperative',
      billingContact: { name: p.name, phone: p.spaced, email: p.email.toUpperCase() },
    });
    const colleague = await registerCustomer(t, { fullName: 'Kamande Mwangi' });
    await addPerson(t, org._id, c, colleague, 'approver');
    await t
      .http()
      .post(`/api/organisations/${org._id}/invitations`)
      .set(as(c))
      .send({ email: 'accounts@othaya-dairy.example', role: 'buyer' })
      .expect(201);
    // They invite someone; the shop declines it, its reason naming them; the colleague makes them a
    // buyer and back.
    await t
      .http()
      .post(`/api/organisations/${org._id}/decline`)
      .set(as(world.staff))
      .send({ reason: `${p.name} (${p.phone}) could not show the society's certificate` })
      .expect(201);
    for (const role of ['buyer', 'approver'])
      await t
        .http()
        .patch(`/api/organisations/${org._id}/people/${c.user._id}`)
        .set(as(colleague))
        .send({ role })
        .expect(200);
    await t
      .http()
      .post('/api/users/profile/delete')
      .set(as(c))
      .send({ password: STRONG_PASSWORD })
      .expect(200);

    expect(await personHits(db(), p)).toEqual([]);
    const csv = await t.http().get('/api/audit-logs/export').set(as(world.admin)).expect(200);
    for (const needle of needles(p)) expect(csv.text.toLowerCase()).not.toContain(needle);
    const people = await db()
      .collection('audit_people')
      .find({ _id: c.user._id as never })
      .toArray();
    expect(people).toEqual([]);
    const after = (
      await t.http().get(`/api/organisations/${org._id}`).set(as(world.admin)).expect(200)
    ).body.organisation as { statusReason: string };
    expect(after.statusReason).toBe(
      "Deleted customer (Deleted customer) could not show the society's certificate",
    );
  });
});
