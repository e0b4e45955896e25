/**
 * The audit trail's filters (the people and the activities an owner picks from) come from the
 * trail's directory, written as entries are recorded, not from grouping years of entries: every
 * action and author with an entry is listed once, two API instances writing at once included; a
 * person is named as their latest entry names them; an erased customer leaves it; and the entries
 * written before the directory existed are brought in by the migration, idempotently.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { migrateAuditDirectory } from '../src/audit/migrations/audit-directory.migration';
import { createCategory } from './support/factories';
import {
  bearer,
  createStaff,
  registerCustomer,
  signIn,
  signInAdmin,
  STRONG_PASSWORD,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

interface Filters {
  people: { id: string; fullName: string; role: string }[];
  actions: string[];
}

describe("the audit trail's filters: its directory of actions and people", () => {
  let a: TestApp;
  let b: TestApp;
  let admin: Session;

  const db = () => a.app.get<Connection>(getConnectionToken()).db!;
  const filters = async (t: TestApp = a): Promise<Filters> =>
    (await t.http().get('/api/audit-logs/filters').set(bearer(admin.accessToken)).expect(200))
      .body as Filters;
  const once = (values: string[]) => values.length === new Set(values).size;

  beforeAll(async () => {
    a = await createTestApp({ name: 'audit_directory', env: UNTHROTTLED });
    // A second API instance on the same database.
    b = await createTestApp({
      name: 'audit_directory',
      env: UNTHROTTLED,
      databaseName: a.databaseName,
    });
    admin = await signInAdmin(a);
  });
  afterAll(async () => {
    await b?.app.close();
    await a?.close();
  });

  it('lists each action and person once, written by two instances at once', async () => {
    const grace = await createStaff(a, admin.accessToken, { fullName: 'Grace Njeri' });
    const otieno = await createStaff(a, admin.accessToken, { fullName: 'Otieno Ouma' });
    // Both instances record the same new people and a new action at the same moment.
    await Promise.all(
      [a, b, a, b].flatMap((t, i) => [
        signIn(t, grace.user.email, grace.password),
        signIn(t, otieno.user.email, otieno.password),
        createCategory(t, (i % 2 ? otieno : grace).accessToken, { name: `Trees ${i}` }),
      ]),
    );
    for (const t of [a, b]) {
      const { people, actions } = await filters(t);
      expect(actions).toEqual(expect.arrayContaining(['auth.login', 'category.create']));
      expect(once(actions)).toBe(true);
      expect([...actions].sort()).toEqual(actions);
      expect(people).toEqual(
        expect.arrayContaining([
          { id: grace.user._id, fullName: 'Grace Njeri', role: 'staff' },
          { id: otieno.user._id, fullName: 'Otieno Ouma', role: 'staff' },
          { id: admin.user._id, fullName: admin.user.fullName, role: 'admin' },
        ]),
      );
      expect(once(people.map((p) => p.id))).toBe(true);
    }
    // One row a person, one a code, however many instances wrote them.
    const rows = db().collection<{ _id: string }>('audit_people');
    expect(await rows.countDocuments({ _id: grace.user._id })).toBe(1);
    expect(await db().collection('audit_actions').countDocuments({})).toBe(
      (await filters()).actions.length,
    );
  });

  it('names a person as their latest entry does', async () => {
    const peter = await createStaff(a, admin.accessToken, { fullName: 'Peter Mwangi' });
    await b
      .http()
      .patch(`/api/staff/update/${peter.user._id}`)
      .set(bearer(admin.accessToken))
      .send({ _id: peter.user._id, updatedStaff: { fullName: 'Peter Kamau' } })
      .expect(200);
    // Signed in before the change, known to instance a by the old name: the entry says the new.
    await createCategory(a, peter.accessToken, { name: 'Herbs' });
    const named = (await filters(b)).people.filter((p) => p.id === peter.user._id);
    expect(named).toEqual([{ id: peter.user._id, fullName: 'Peter Kamau', role: 'staff' }]);
  });

  it("lists a customer's sign-in, not the customer: customers are reached through the role filter", async () => {
    const customer = await registerCustomer(a, { fullName: 'Achieng Otieno' });
    await signIn(b, customer.user.email, STRONG_PASSWORD);
    const { people, actions } = await filters(b);
    expect(actions).toContain('auth.login');
    expect(people.some((p) => p.id === customer.user._id)).toBe(false);
    expect(people.some((p) => p.role === 'customer')).toBe(false);
  });

  it('forgets a customer who deletes their account', async () => {
    const customer = await registerCustomer(a, { fullName: 'Wairimu Zqdirectory' });
    await signIn(b, customer.user.email, STRONG_PASSWORD);
    const rows = db().collection<{ _id: string; fullName: string }>('audit_people');
    expect(await rows.findOne({ _id: customer.user._id })).toMatchObject({
      fullName: 'Wairimu Zqdirectory',
    });
    await a
      .http()
      .post('/api/users/profile/delete')
      .set(bearer(customer.accessToken))
      .send({ password: STRONG_PASSWORD })
      .expect(200);
    // Their own last entry ("A customer deleted their account", by "Deleted customer") included.
    expect(await rows.findOne({ _id: customer.user._id })).toBeNull();
    expect(await rows.countDocuments({ fullName: /Zqdirectory/ })).toBe(0);
  });

  describe('the migration of the entries written before', () => {
    const at = (iso: string) => new Date(iso);
    const entry = (action: string, id: string, fullName: string, role: string, when: string) => ({
      action,
      message: `${fullName} did ${action}`,
      performedBy: { id, fullName, role },
      timestamp: at(when),
    });

    it('lists every action and author of the older entries, as their latest entry names them', async () => {
      await db()
        .collection('audit_logs')
        .insertMany([
          entry('stock.loss', 'old-clerk', 'Jane Wanjiru', 'staff', '2024-03-01T08:00:00Z'),
          entry('stock.loss', 'old-clerk', 'Jane Kariuki', 'staff', '2024-06-01T08:00:00Z'),
          entry('product.delete', 'old-clerk', 'Jane Wanjiru', 'staff', '2024-04-01T08:00:00Z'),
          entry('order.payment', 'mpesa', 'M-Pesa', 'system', '2024-05-01T08:00:00Z'),
          // An erased customer's entries say "Deleted customer": not listed again.
          entry('auth.login', 'gone', 'Deleted customer', 'customer', '2024-05-02T08:00:00Z'),
        ]);
      const before = await filters();
      expect(before.actions).not.toContain('stock.loss');

      const first = await migrateAuditDirectory(db());
      expect(first).toMatchObject({ actions: 3, people: 2 });
      const { people, actions } = await filters(b);
      expect(actions).toEqual(
        expect.arrayContaining(['stock.loss', 'product.delete', 'order.payment']),
      );
      expect(once(actions)).toBe(true);
      expect(people).toEqual(
        expect.arrayContaining([
          { id: 'old-clerk', fullName: 'Jane Kariuki', role: 'staff' },
          { id: 'mpesa', fullName: 'M-Pesa', role: 'system' },
        ]),
      );
      expect(
        await db()
          .collection('audit_people')
          .findOne({ _id: 'gone' as never }),
      ).toBeNull();
      // What the API wrote since it kept the directory stays as it is.
      expect(people).toEqual(expect.arrayContaining(before.people));

      // Again, and twice at once: nothing more, nothing renamed.
      const again = await Promise.all([migrateAuditDirectory(db()), migrateAuditDirectory(db())]);
      expect(again.map((r) => [r.actions, r.people])).toEqual([
        [0, 0],
        [0, 0],
      ]);
      expect(await filters()).toMatchObject({ people, actions });
    });

    it('names an older author by their latest entry, not by the last one it reads', async () => {
      const mary = await createStaff(a, admin.accessToken, { fullName: 'Mary Achieng' });
      // An entry from before the directory, older than Mary's sign-in, under an older name.
      await db()
        .collection('audit_logs')
        .insertOne(entry('auth.login', mary.user._id, 'Mary Old', 'staff', '2024-01-01T08:00:00Z'));
      await migrateAuditDirectory(db());
      const named = (await filters()).people.filter((p) => p.id === mary.user._id);
      expect(named).toEqual([{ id: mary.user._id, fullName: 'Mary Achieng', role: 'staff' }]);
    });
  });
});
