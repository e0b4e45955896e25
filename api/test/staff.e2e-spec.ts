import { STAFF_PASSWORD_RULE_MESSAGE } from '@spc/shared-contracts';
import { TokensService } from '../src/auth/tokens.service';
import {
  bearer,
  createStaff,
  registerCustomer,
  signIn,
  signInAdmin,
  UNTHROTTLED,
  uniqueEmail,
  type Session,
} from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

describe('staff', () => {
  let t: TestApp;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp({ name: 'staff', env: UNTHROTTLED });
    admin = await signInAdmin(t);
  });
  afterAll(() => t.close());

  const asAdmin = (req: ReturnType<ReturnType<TestApp['http']>['get']>) =>
    req.set(bearer(admin.accessToken));

  it('creates a staff member who can then sign in as staff', async () => {
    const email = uniqueEmail('new.staff');
    const res = await asAdmin(t.http().post('/api/staff'))
      .send({ fullName: 'Mary Wambui', email, phoneNumber: '0712345678', password: 'Staff#123456' })
      .expect(201);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Staff member created successfully',
      staff: { email, role: 'staff', isActive: true },
    });
    const login = await t
      .http()
      .post('/api/auth/login')
      .send({ email, password: 'Staff#123456' })
      .expect(200);
    expect(login.body.data.user.role).toBe('staff');
  });

  it('validates the Add Staff form with the spec messages', async () => {
    const res = await asAdmin(t.http().post('/api/staff'))
      .send({ fullName: '', email: '', phoneNumber: '', password: '' })
      .expect(400);
    const messages = (res.body.errors as { field: string; messages: string[] }[]).map((e) => [
      e.field,
      e.messages[0],
    ]);
    expect(messages).toEqual([
      ['fullName', 'FullName is required'],
      ['email', 'Email is required'],
      ['phoneNumber', 'Phone number is required'],
      ['password', 'Password is required'],
    ]);
    const phone = await asAdmin(t.http().post('/api/staff'))
      .send({
        fullName: 'A B',
        email: uniqueEmail(),
        phoneNumber: '07123456789',
        password: 'Staff#123456',
      })
      .expect(400);
    expect(phone.body.message).toBe('Invalid phone number format');
  });

  describe('passwords of staff and admin', () => {
    const SHORT = 'Staff#1234'; // follows the customer rule (6+), not the staff one (12+)

    it('asks 12 characters of a new staff member, and of a staff or admin password change', async () => {
      const added = await asAdmin(t.http().post('/api/staff'))
        .send({
          fullName: 'Short Pass',
          email: uniqueEmail(),
          phoneNumber: '0712345678',
          password: SHORT,
        })
        .expect(400);
      expect(added.body.message).toBe(STAFF_PASSWORD_RULE_MESSAGE);
      const staff = await createStaff(t, admin.accessToken);
      for (const who of [staff, admin]) {
        const current = who === admin ? t.config.admin.password : staff.password;
        const res = await t
          .http()
          .post('/api/auth/change/password')
          .set(bearer(who.accessToken))
          .send({ currentPassword: current, newPassword: SHORT })
          .expect(400);
        expect(res.body.message).toBe(STAFF_PASSWORD_RULE_MESSAGE);
      }
      // A customer keeps the spec's rule.
      const customer = await registerCustomer(t);
      await t
        .http()
        .post('/api/auth/change/password')
        .set(bearer(customer.accessToken))
        .send({ currentPassword: customer.password, newPassword: SHORT })
        .expect(200);
    });

    it('asks 12 characters of a staff reset, without using up the link', async () => {
      const staff = await createStaff(t, admin.accessToken);
      const code = await t.app.get(TokensService).createResetCode(staff.user._id);
      const short = await t
        .http()
        .post('/api/auth/reset/password')
        .send({ code, password: SHORT })
        .expect(400);
      expect(short.body.message).toBe(STAFF_PASSWORD_RULE_MESSAGE);
      await t
        .http()
        .post('/api/auth/reset/password')
        .send({ code, password: 'Longer#Pass2026' })
        .expect(200);
      await signIn(t, staff.user.email, 'Longer#Pass2026');
    });
  });

  it('refuses a duplicate e-mail with 409', async () => {
    const staff = await createStaff(t, admin.accessToken);
    await asAdmin(t.http().post('/api/staff'))
      .send({
        fullName: 'Dup',
        email: staff.user.email,
        phoneNumber: '0712345678',
        password: 'Staff#123456',
      })
      .expect(409);
  });

  it('lists active and inactive staff separately, with totals', async () => {
    const a = await createStaff(t, admin.accessToken, { fullName: 'Active Listed' });
    const b = await createStaff(t, admin.accessToken, { fullName: 'Inactive Listed' });
    await asAdmin(t.http().patch(`/api/staff/softDelete/${b.user._id}`)).expect(200);
    const active = await asAdmin(t.http().get('/api/staff')).expect(200);
    const inactive = await asAdmin(t.http().get('/api/staff/inactive')).expect(200);
    const ids = (list: { staff: { _id: string }[] }) => list.staff.map((s) => s._id);
    expect(ids(active.body)).toContain(a.user._id);
    expect(ids(active.body)).not.toContain(b.user._id);
    expect(ids(inactive.body)).toContain(b.user._id);
    expect(active.body).toMatchObject({
      success: true,
      totalStaff: expect.any(Number),
      totalPages: expect.any(Number),
    });
    const search = await asAdmin(
      t.http().get('/api/staff').query({ search: 'active listed' }),
    ).expect(200);
    expect(search.body.staff.map((s: { fullName: string }) => s.fullName)).toEqual([
      'Active Listed',
    ]);
  });

  it('gets and updates one staff member with { _id, updatedStaff }', async () => {
    const staff = await createStaff(t, admin.accessToken);
    const got = await asAdmin(t.http().get(`/api/staff/${staff.user._id}`)).expect(200);
    expect(got.body).toMatchObject({ success: true, staff: { _id: staff.user._id } });
    const res = await asAdmin(t.http().patch(`/api/staff/update/${staff.user._id}`))
      .send({
        _id: staff.user._id,
        updatedStaff: { fullName: 'Renamed Staff', phoneNumber: '0700000001' },
      })
      .expect(200);
    expect(res.body.staff).toMatchObject({
      fullName: 'Renamed Staff',
      phoneNumber: '0700000001',
      role: 'staff',
    });
    await asAdmin(t.http().patch(`/api/staff/update/${staff.user._id}`))
      .send({ _id: staff.user._id, updatedStaff: { role: 'admin' } })
      .expect(400);
    await asAdmin(t.http().get(`/api/staff/${admin.user._id}`)).expect(404);
  });

  it('deactivation locks the staff member out at once; restore lets them back; delete removes them', async () => {
    const staff = await createStaff(t, admin.accessToken);
    await asAdmin(t.http().patch(`/api/staff/softDelete/${staff.user._id}`)).expect(200);
    await t.http().get('/api/users/profile').set(bearer(staff.accessToken)).expect(403);
    await t
      .http()
      .post('/api/auth/login')
      .send({ email: staff.user.email, password: staff.password })
      .expect(403);
    const again = await asAdmin(t.http().patch(`/api/staff/softDelete/${staff.user._id}`)).expect(
      200,
    );
    expect(again.body.message).toBe('Staff member was already deactivated');
    await asAdmin(t.http().patch(`/api/staff/restore/${staff.user._id}`)).expect(200);
    await t.http().get('/api/users/profile').set(bearer(staff.accessToken)).expect(200);
    await asAdmin(t.http().delete(`/api/staff/delete/${staff.user._id}`)).expect(200);
    await asAdmin(t.http().get(`/api/staff/${staff.user._id}`)).expect(404);
  });

  it('keeps the admin from deactivating or deleting themselves', async () => {
    await asAdmin(t.http().patch(`/api/staff/softDelete/${admin.user._id}`)).expect(404);
  });

  it('writes every change to the audit trail, newest first, paged with X-Total-Count', async () => {
    const staff = await createStaff(t, admin.accessToken, { fullName: 'Audited Staff' });
    await asAdmin(t.http().patch(`/api/staff/softDelete/${staff.user._id}`)).expect(200);
    await asAdmin(t.http().patch(`/api/staff/restore/${staff.user._id}`)).expect(200);
    const res = await asAdmin(t.http().get('/api/audit-logs?limit=3')).expect(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((e: { action: string }) => e.action)).toEqual([
      'staff.restore',
      'staff.deactivate',
      'auth.login',
    ]);
    expect(res.body[0]).toMatchObject({
      message: `${admin.user.fullName} restored staff member Audited Staff (${staff.user.email})`,
      performedBy: { id: admin.user._id, fullName: admin.user.fullName, role: 'admin' },
      user: admin.user._id,
      target: { type: 'staff', id: staff.user._id },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const total = Number(res.headers['x-total-count']);
    expect(total).toBeGreaterThanOrEqual(5);
    const page2 = await asAdmin(t.http().get('/api/audit-logs?limit=3&page=2')).expect(200);
    expect(page2.body[0]._id).not.toBe(res.body[0]._id);
    const all = await asAdmin(t.http().get('/api/audit-logs')).expect(200);
    expect(all.body.length).toBe(Math.min(total, 50));
  });
});
