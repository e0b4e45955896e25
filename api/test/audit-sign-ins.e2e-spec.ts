/**
 * The trail's screen hides customers' sign-ins by a mark each entry carries (`customerSignIn`, set
 * as it is written), so its page and count read an index of the rest; entries written before the
 * mark existed get it from the migration, once.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { migrateAuditSignIns } from '../src/audit/migrations/audit-sign-ins.migration';
import {
  bearer,
  registerCustomer,
  signInAdmin,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

interface Entry {
  _id: string;
  action: string;
  performedBy: { role: string };
}

describe("customers' sign-ins marked on the trail", () => {
  let t: TestApp;
  let admin: Session;
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const ids = async (query: string) => {
    const res = await t
      .http()
      .get(`/api/audit-logs?limit=100&${query}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    return {
      ids: (res.body as Entry[]).map((e) => e._id),
      total: Number(res.headers['x-total-count']),
    };
  };

  beforeAll(async () => {
    t = await createTestApp({ name: 'audit_sign_ins', env: UNTHROTTLED });
    admin = await signInAdmin(t);
  });
  afterAll(() => t.close());

  it("marks a customer's sign-in as it is written, and no one else's", async () => {
    const customer = await registerCustomer(t, { fullName: 'Wanjiru Kamau' });
    const logins = await db()
      .collection('audit_logs')
      .find({ action: 'auth.login' }, { projection: { 'performedBy.id': 1, customerSignIn: 1 } })
      .toArray();
    const mine = logins.filter((l) => l.performedBy.id === customer.user._id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((l) => l.customerSignIn === true)).toBe(true);
    expect(
      logins.filter((l) => l.performedBy.id !== customer.user._id).map((l) => l.customerSignIn),
    ).toEqual(expect.arrayContaining([false]));
    expect(
      await db()
        .collection('audit_logs')
        .countDocuments({ customerSignIn: { $exists: false } }),
    ).toBe(0);
  });

  it('gives the entries written before the mark their value, once, and the screen then hides the right ones', async () => {
    const at = new Date(Date.now() - 60_000);
    const old = [
      {
        _id: new Types.ObjectId(),
        action: 'auth.login',
        message: 'Achieng Otieno signed in',
        performedBy: { id: 'old-customer', fullName: 'Achieng Otieno', role: 'customer' },
        timestamp: at,
      },
      {
        _id: new Types.ObjectId(),
        action: 'auth.login',
        message: 'Grace Njeri signed in',
        performedBy: { id: 'old-clerk', fullName: 'Grace Njeri', role: 'staff' },
        timestamp: at,
      },
      {
        _id: new Types.ObjectId(),
        action: 'order.cancel',
        message: 'Achieng Otieno cancelled order SPD-1',
        performedBy: { id: 'old-customer', fullName: 'Achieng Otieno', role: 'customer' },
        timestamp: at,
      },
    ];
    await db().collection('audit_logs').insertMany(old);
    const [customerSignIn, clerkSignIn, cancel] = old.map((e) => String(e._id));

    expect(await migrateAuditSignIns(db())).toEqual({ signIns: 1, others: 2 });
    const hidden = await ids('hideCustomerSignIns=true');
    expect(hidden.ids).toEqual(expect.arrayContaining([clerkSignIn, cancel]));
    expect(hidden.ids).not.toContain(customerSignIn);
    const all = await ids('hideCustomerSignIns=false');
    expect(all.ids).toEqual(expect.arrayContaining([customerSignIn, clerkSignIn, cancel]));
    expect(hidden.total).toBe(
      all.total - (await db().collection('audit_logs').countDocuments({ customerSignIn: true })),
    );

    // A second run (or one beside running instances) changes nothing.
    expect(await migrateAuditSignIns(db())).toEqual({ signIns: 0, others: 0 });
  });
});
