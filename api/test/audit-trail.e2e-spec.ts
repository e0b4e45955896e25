/**
 * The audit trail an owner can read: filters by person, role, activity and shop day, the switch
 * that hides customers' sign-ins, the paging headers, the CSV export (formula-safe, bounded) and who
 * may read any of it.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { createCategory, createProduct } from './support/factories';
import {
  bearer,
  createStaff,
  registerCustomer,
  signInAdmin,
  STRONG_PASSWORD,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { placeOrder } from './support/shop';
import { createTestApp, type TestApp } from './support/test-app';

interface Entry {
  _id: string;
  action: string;
  message: string;
  performedBy: { id: string; fullName: string; role: string };
  user: string;
  target?: { type: string; id: string; label?: string };
  timestamp: string;
}

/** A name a spreadsheet would run as a formula if the export wrote it as it is. */
const FORMULA_NAME = "=cmd|' /C calc'!A0";

describe('audit trail filters and export', () => {
  let t: TestApp;
  let admin: Session;
  let grace: Session;
  let formula: Session;
  let customer: Session;
  let fruits: { _id: string; name: string };

  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const get = (path: string, token = admin.accessToken) => t.http().get(path).set(bearer(token));
  const list = async (query: string) => {
    const res = await get(`/api/audit-logs?${query}`).expect(200);
    // A short trail is counted exactly.
    expect(res.headers['x-total-is-lower-bound']).toBe('false');
    return { entries: res.body as Entry[], total: Number(res.headers['x-total-count']) };
  };

  beforeAll(async () => {
    t = await createTestApp({ name: 'audit_trail', env: UNTHROTTLED });
    admin = await signInAdmin(t);
    grace = await createStaff(t, admin.accessToken, { fullName: 'Grace Njeri' });
    formula = await createStaff(t, admin.accessToken, { fullName: FORMULA_NAME });
    customer = await registerCustomer(t, { fullName: 'Achieng Otieno' });
    // A second sign-in of the customer: two customer sign-ins in all.
    await t
      .http()
      .post('/api/auth/login')
      .send({ email: customer.user.email, password: STRONG_PASSWORD })
      .expect(200);
    fruits = await createCategory(t, grace.accessToken, { name: 'Fruits' });
    await createCategory(t, formula.accessToken, { name: 'Herbs and spices' });
  });
  afterAll(() => t.close());

  it('answers the plain array, newest first, with the total in X-Total-Count', async () => {
    const { entries, total } = await list('');
    expect(Array.isArray(entries)).toBe(true);
    expect(total).toBe(entries.length);
    const times = entries.map((e) => e.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(entries[0]).toMatchObject({
      action: 'category.create',
      message: `${FORMULA_NAME} created category "Herbs and spices"`,
      performedBy: { id: formula.user._id, fullName: FORMULA_NAME, role: 'staff' },
    });
  });

  it('filters by person', async () => {
    const { entries, total } = await list(`user=${grace.user._id}`);
    expect(entries.map((e) => e.action)).toEqual(['category.create', 'auth.login']);
    expect(total).toBe(2);
    expect(entries.every((e) => e.performedBy.fullName === 'Grace Njeri')).toBe(true);
    expect(entries[0]!.target).toEqual({ type: 'category', id: fruits._id, label: 'Fruits' });
  });

  it('filters by role', async () => {
    const customers = await list('role=customer');
    expect(customers.entries.map((e) => [e.action, e.performedBy.fullName])).toEqual([
      ['auth.login', 'Achieng Otieno'],
      ['auth.login', 'Achieng Otieno'],
    ]);
    const staff = await list('role=staff');
    expect(new Set(staff.entries.map((e) => e.performedBy.role))).toEqual(new Set(['staff']));
    expect(staff.total).toBe(4);
  });

  it('filters by activity, and combines filters', async () => {
    const created = await list('action=category.create');
    expect(created.entries.map((e) => e.target?.label)).toEqual(['Herbs and spices', 'Fruits']);
    const both = await list(`action=category.create&user=${grace.user._id}`);
    expect(both.entries.map((e) => e.target?.label)).toEqual(['Fruits']);
    expect(both.total).toBe(1);
    const none = await list(`action=staff.create&role=customer`);
    expect(none).toEqual({ entries: [], total: 0 });
  });

  it("hides customers' sign-ins, and only those, when asked", async () => {
    const all = await list('limit=100');
    const hidden = await list('limit=100&hideCustomerSignIns=true');
    expect(hidden.total).toBe(all.total - 2);
    expect(
      hidden.entries.filter((e) => e.action === 'auth.login').map((e) => e.performedBy.role),
    ).toEqual(['staff', 'staff', 'admin']);
    // What else a customer does stays in the trail: here, cancelling their own order.
    const product = await createProduct(t, grace.accessToken, fruits._id, { productQuantity: 5 });
    const placed = await placeOrder(t, [{ _id: product._id, quantity: 1 }], {
      token: customer.accessToken,
    }).expect(201);
    await t
      .http()
      .patch(`/api/orders/cancel/${placed.body.order._id}`)
      .set(bearer(customer.accessToken))
      .expect(200);
    const mine = await list(`user=${customer.user._id}&hideCustomerSignIns=true`);
    expect(mine.entries.map((e) => e.action)).toEqual(['order.cancel']);
    const shown = await list(`user=${customer.user._id}&hideCustomerSignIns=false`);
    expect(shown.entries.map((e) => e.action)).toEqual([
      'order.cancel',
      'auth.login',
      'auth.login',
    ]);
  });

  it('pages a filtered trail with page and limit, the total counting every page', async () => {
    const whole = await list('role=staff&limit=100');
    expect(whole.total).toBe(5);
    const first = await list('role=staff&limit=3&page=1');
    const second = await list('role=staff&limit=3&page=2');
    expect(first.total).toBe(5);
    expect(second.total).toBe(5);
    expect(first.entries).toHaveLength(3);
    expect(second.entries).toHaveLength(2);
    expect([...first.entries, ...second.entries]).toEqual(whole.entries);
  });

  it("filters by the shop's days (Africa/Nairobi), both ends included", async () => {
    const herbs = (await list('action=category.create')).entries[0]!;
    const fruitsEntry = (await list('action=category.create')).entries[1]!;
    // 00:30 in Kiambu on 11 March is still 10 March in UTC; 23:59:59 is the day's last second.
    await db()
      .collection('audit_logs')
      .updateOne(
        { _id: new Types.ObjectId(fruitsEntry._id) },
        { $set: { timestamp: new Date('2026-03-10T21:30:00Z') } },
      );
    await db()
      .collection('audit_logs')
      .updateOne(
        { _id: new Types.ObjectId(herbs._id) },
        { $set: { timestamp: new Date('2026-03-11T20:59:59Z') } },
      );
    const day = await list('from=2026-03-11&to=2026-03-11');
    expect(day.entries.map((e) => e.target?.label)).toEqual(['Herbs and spices', 'Fruits']);
    expect((await list('to=2026-03-10')).total).toBe(0);
    expect((await list('from=2026-03-12&action=category.create')).total).toBe(0);
    expect((await list('from=2026-03-01&to=2026-03-31')).total).toBe(2);
  });

  it.each([
    ['from=2026-02-31', 'from must be a real day between 2000-01-01 and 2099-12-31'],
    ['to=yesterday', 'to must be a date as YYYY-MM-DD'],
    ['from=2026-11-23T10:00:00Z', 'from must be a date as YYYY-MM-DD'],
    ['role=guest', 'role must be one of: admin, staff, customer'],
    ['hideCustomerSignIns=yes', 'hideCustomerSignIns must be true or false'],
    ['user=$where', 'user must be the id of a person'],
    ['limit=0', 'limit must be 1 or more'],
  ])('refuses %s with a 400 that says why', async (query, message) => {
    const res = await get(`/api/audit-logs?${query}`).expect(400);
    expect(JSON.stringify(res.body)).toContain(message);
  });

  it('refuses a range that ends before it starts', async () => {
    const res = await get('/api/audit-logs?from=2026-03-12&to=2026-03-11').expect(400);
    expect(res.body.message).toBe('from must be on or before to');
    await get('/api/audit-logs/export?from=2026-03-12&to=2026-03-11').expect(400);
  });

  it('lists the people and activities the trail can be filtered on', async () => {
    const res = await get('/api/audit-logs/filters').expect(200);
    expect(res.body.success).toBe(true);
    const people = res.body.people as { id: string; fullName: string; role: string }[];
    expect(people).toEqual(
      expect.arrayContaining([
        { id: grace.user._id, fullName: 'Grace Njeri', role: 'staff' },
        { id: formula.user._id, fullName: FORMULA_NAME, role: 'staff' },
        { id: admin.user._id, fullName: admin.user.fullName, role: 'admin' },
      ]),
    );
    // Customers are many; they are reached through the role filter instead.
    expect(people.some((p) => p.role === 'customer')).toBe(false);
    expect(res.body.actions).toEqual(
      expect.arrayContaining(['auth.login', 'category.create', 'staff.create']),
    );
  });

  it('exports the filtered trail as CSV, activities in words, formulas neutralised', async () => {
    const res = await get(`/api/audit-logs/export?user=${formula.user._id}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.headers['x-total-count']).toBe('2');
    const [header, ...rows] = res.text.trimEnd().split('\n');
    expect(header).toBe('timestamp,user,role,activity,action,message,record_type,record');
    expect(rows).toHaveLength(2);
    const created = rows.find((r) => r.includes(',category.create,'));
    // The name starts with "=": written with a leading apostrophe, so it stays text.
    expect(created).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z,'=cmd\|' \/C calc'!A0,staff,Created category Herbs and spices,category\.create,"'=cmd\|' \/C calc'!A0 created category ""Herbs and spices""",category,Herbs and spices$/,
    );
    expect(res.text).not.toMatch(/(^|,)=cmd/m);
    expect(rows.find((r) => r.includes(',auth.login,'))).toContain(',Signed in,auth.login,');
  });

  it('exports with the same filters as the list, and no paging', async () => {
    const res = await get('/api/audit-logs/export?role=customer&hideCustomerSignIns=true');
    expect(res.status).toBe(200);
    const rows = res.text.trimEnd().split('\n').slice(1);
    expect(rows.some((r) => r.includes(',auth.login,'))).toBe(false);
    const paged = await get('/api/audit-logs/export?page=2').expect(400);
    expect(JSON.stringify(paged.body)).toContain('property page should not exist');
  });

  describe('who may read it', () => {
    const routes = ['/api/audit-logs', '/api/audit-logs/filters', '/api/audit-logs/export'];

    it.each(routes)('%s: admin only; staff and customers get 403, a guest 401', async (path) => {
      await get(path).expect(200);
      await get(path, grace.accessToken).expect(403);
      await get(path, customer.accessToken).expect(403);
      await t.http().get(path).expect(401);
    });
  });
});
