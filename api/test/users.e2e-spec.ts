import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
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

async function png(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2f6b2f' } })
    .png()
    .toBuffer();
}

describe('users and profiles', () => {
  let t: TestApp;
  let admin: Session;

  beforeAll(async () => {
    const uploads = mkdtempSync(path.join(os.tmpdir(), 'spc-uploads-'));
    t = await createTestApp({ name: 'users', env: { ...UNTHROTTLED, UPLOADS_DIR: uploads } });
    admin = await signInAdmin(t);
  });
  afterAll(() => t.close());

  describe('GET /api/users', () => {
    it('lists customers only, newest first, 10 a page, with totals', async () => {
      for (let i = 0; i < 11; i++)
        await t
          .http()
          .post('/api/auth/register')
          .send({
            fullName: `Listed Customer ${i}`,
            email: uniqueEmail(`listed${i}`),
            phoneNumber: '0711000111',
            password: 'Seedling#2026',
          })
          .expect(201);
      await createStaff(t, admin.accessToken);
      const page1 = await t.http().get('/api/users').set(bearer(admin.accessToken)).expect(200);
      expect(page1.body.users).toHaveLength(10);
      expect(page1.body.users.every((u: { role: string }) => u.role === 'customer')).toBe(true);
      expect(page1.body.totalUsers).toBeGreaterThanOrEqual(11);
      expect(page1.body.totalPages).toBe(Math.ceil(page1.body.totalUsers / 10));
      expect(page1.body.users[0].fullName).toBe('Listed Customer 10');
      const page2 = await t
        .http()
        .get('/api/users?page=2')
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(page2.body.users[0]._id).not.toBe(page1.body.users[0]._id);
    });

    it('searches by name or e-mail as literal text', async () => {
      await registerCustomer(t, { fullName: 'Zawadi (Mama) Njeri' });
      const byName = await t
        .http()
        .get('/api/users')
        .query({ search: '(mama)' })
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(byName.body.users.map((u: { fullName: string }) => u.fullName)).toEqual([
        'Zawadi (Mama) Njeri',
      ]);
      const regex = await t
        .http()
        .get('/api/users')
        .query({ search: '.*' })
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(regex.body.totalUsers).toBe(0);
    });

    it('refuses bad paging with 400', async () => {
      await t.http().get('/api/users?page=0').set(bearer(admin.accessToken)).expect(400);
      await t.http().get('/api/users?limit=101').set(bearer(admin.accessToken)).expect(400);
      await t.http().get('/api/users?page[$gt]=1').set(bearer(admin.accessToken)).expect(400);
    });
  });

  describe('GET /api/user/:id', () => {
    it('lets a customer read only their own record, and admin anyone', async () => {
      const a = await registerCustomer(t);
      const b = await registerCustomer(t);
      const own = await t
        .http()
        .get(`/api/user/${a.user._id}`)
        .set(bearer(a.accessToken))
        .expect(200);
      expect(own.body.user.email).toBe(a.user.email);
      await t.http().get(`/api/user/${b.user._id}`).set(bearer(a.accessToken)).expect(403);
      await t.http().get(`/api/user/${b.user._id}`).set(bearer(admin.accessToken)).expect(200);
    });

    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      const res = await t
        .http()
        .get('/api/user/not-an-id')
        .set(bearer(admin.accessToken))
        .expect(400);
      expect(res.body.message).toBe('"not-an-id" is not a valid id');
      await t
        .http()
        .get(`/api/user/${'a'.repeat(24)}`)
        .set(bearer(admin.accessToken))
        .expect(404);
    });
  });

  describe('PATCH /api/user/update/:id', () => {
    it('lets a customer change their own name, phone, county and street address', async () => {
      const c = await registerCustomer(t);
      const res = await t
        .http()
        .patch(`/api/user/update/${c.user._id}`)
        .set(bearer(c.accessToken))
        .send({
          _id: c.user._id,
          updatedUser: {
            fullName: 'Wanjiku K.',
            phoneNumber: '+254722333444',
            county: 'Kiambu',
            streetAddress: 'Thika Road, Ruiru',
          },
        })
        .expect(200);
      expect(res.body.user).toMatchObject({
        fullName: 'Wanjiku K.',
        phoneNumber: '+254722333444',
        county: 'Kiambu',
        streetAddress: 'Thika Road, Ruiru',
        role: 'customer',
      });
    });

    it('refuses a customer changing their e-mail, role, or someone else', async () => {
      const c = await registerCustomer(t);
      const other = await registerCustomer(t);
      const email = await t
        .http()
        .patch(`/api/user/update/${c.user._id}`)
        .set(bearer(c.accessToken))
        .send({ _id: c.user._id, updatedUser: { email: uniqueEmail() } })
        .expect(403);
      expect(email.body.message).toBe(
        'You can change only your own name, phone number, county and street address',
      );
      const role = await t
        .http()
        .patch(`/api/user/update/${c.user._id}`)
        .set(bearer(c.accessToken))
        .send({ _id: c.user._id, updatedUser: { role: 'admin' } })
        .expect(400);
      expect(role.body.message).toBe('property role should not exist');
      expect(role.body.errors).toEqual([
        { field: 'updatedUser.role', messages: ['property role should not exist'] },
      ]);
      await t
        .http()
        .patch(`/api/user/update/${other.user._id}`)
        .set(bearer(c.accessToken))
        .send({ _id: other.user._id, updatedUser: { fullName: 'Hacked' } })
        .expect(403);
      await t
        .http()
        .patch(`/api/user/update/${c.user._id}`)
        .set(bearer(c.accessToken))
        .send({ _id: other.user._id, updatedUser: { fullName: 'X' } })
        .expect(400);
      const after = await t
        .http()
        .get(`/api/user/${other.user._id}`)
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(after.body.user.fullName).toBe('Wanjiku Kamau');
    });

    it('lets admin edit a customer, with the back office 10-character phone rule and unique e-mail', async () => {
      const c = await registerCustomer(t);
      const taken = await registerCustomer(t);
      const email = uniqueEmail('edited');
      const res = await t
        .http()
        .patch(`/api/user/update/${c.user._id}`)
        .set(bearer(admin.accessToken))
        .send({
          _id: c.user._id,
          updatedUser: { fullName: 'Edited Name', email, phoneNumber: '0799000111' },
        })
        .expect(200);
      expect(res.body).toMatchObject({
        success: true,
        message: 'User updated successfully',
        user: { fullName: 'Edited Name', email, phoneNumber: '0799000111' },
      });
      const phone = await t
        .http()
        .patch(`/api/user/update/${c.user._id}`)
        .set(bearer(admin.accessToken))
        .send({ _id: c.user._id, updatedUser: { phoneNumber: '+254799000111' } })
        .expect(400);
      expect(phone.body.message).toBe('Invalid phone number format');
      await t
        .http()
        .patch(`/api/user/update/${c.user._id}`)
        .set(bearer(admin.accessToken))
        .send({ _id: c.user._id, updatedUser: { email: taken.user.email } })
        .expect(409);
      const log = await t
        .http()
        .get('/api/audit-logs?action=user.update')
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(log.body[0]).toMatchObject({
        action: 'user.update',
        performedBy: { role: 'admin' },
        target: { id: c.user._id },
      });
    });
  });

  describe('soft delete, restore and delete', () => {
    it('deactivates a customer (sign-in 403, live token 403), restores and deletes', async () => {
      const c = await registerCustomer(t);
      const off = await t
        .http()
        .patch(`/api/user/softDelete/${c.user._id}`)
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(off.body).toMatchObject({
        message: 'User deactivated successfully',
        user: { isActive: false },
      });
      const login = await t
        .http()
        .post('/api/auth/login')
        .send({ email: c.user.email, password: c.password })
        .expect(403);
      expect(login.body.message).toBe(
        'Your account has been deactivated. Please contact the shop.',
      );
      expect(login.body.code).toBe('ACCOUNT_DEACTIVATED');
      await t.http().get('/api/users/profile').set(bearer(c.accessToken)).expect(403);
      await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: c.refreshToken })
        .expect(403);
      await t
        .http()
        .patch(`/api/user/restore/${c.user._id}`)
        .set(bearer(admin.accessToken))
        .expect(200);
      await signIn(t, c.user.email, c.password);
      await t
        .http()
        .delete(`/api/user/delete/${c.user._id}`)
        .set(bearer(admin.accessToken))
        .expect(200);
      await t.http().get(`/api/user/${c.user._id}`).set(bearer(admin.accessToken)).expect(404);
    });

    it('does not let the user endpoints touch staff or the admin', async () => {
      const staff = await createStaff(t, admin.accessToken);
      await t
        .http()
        .patch(`/api/user/softDelete/${staff.user._id}`)
        .set(bearer(admin.accessToken))
        .expect(404);
      await t
        .http()
        .delete(`/api/user/delete/${admin.user._id}`)
        .set(bearer(admin.accessToken))
        .expect(404);
    });
  });

  describe('own profile', () => {
    it('reads and updates the profile of any signed-in role', async () => {
      const c = await registerCustomer(t);
      const me = await t.http().get('/api/users/profile').set(bearer(c.accessToken)).expect(200);
      expect(me.body.user).toMatchObject({ _id: c.user._id, role: 'customer' });
      const res = await t
        .http()
        .patch('/api/users/profile')
        .set(bearer(c.accessToken))
        .send({
          fullName: 'New Name',
          phoneNumber: '0700111222',
          county: 'Nakuru',
          streetAddress: 'Njoro',
        })
        .expect(200);
      expect(res.body.user).toMatchObject({
        fullName: 'New Name',
        phoneNumber: '0700111222',
        county: 'Nakuru',
        streetAddress: 'Njoro',
      });
      const missing = await t
        .http()
        .patch('/api/users/profile')
        .set(bearer(c.accessToken))
        .send({ fullName: '', phoneNumber: '' })
        .expect(400);
      expect(missing.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'fullName', messages: expect.arrayContaining(['Full Name is required']) },
          { field: 'phoneNumber', messages: expect.arrayContaining(['Phone Number is required']) },
        ]),
      );
      const staff = await createStaff(t, admin.accessToken);
      await t
        .http()
        .patch('/api/users/profile')
        .set(bearer(staff.accessToken))
        .send({ fullName: 'Staff Renamed', phoneNumber: '0711222333' })
        .expect(200);
    });

    it('lets admin update the admin profile; nobody else may', async () => {
      const res = await t
        .http()
        .patch('/api/admin/profile')
        .set(bearer(admin.accessToken))
        .send({ fullName: 'Shop Owner', phoneNumber: '0711999888' })
        .expect(200);
      expect(res.body.user).toMatchObject({ fullName: 'Shop Owner', role: 'admin' });
      const c = await registerCustomer(t);
      await t
        .http()
        .patch('/api/admin/profile')
        .set(bearer(c.accessToken))
        .send({ fullName: 'X' })
        .expect(403);
    });
  });

  describe('profile picture', () => {
    it('stores a PNG re-encoded as WebP and serves it with long-lived caching', async () => {
      const c = await registerCustomer(t);
      const res = await t
        .http()
        .patch('/api/users/profile-picture')
        .set(bearer(c.accessToken))
        .attach('profilePicture', await png(800, 600), 'me.png')
        .expect(200);
      const url: string = res.body.user.profilePicture;
      expect(url).toMatch(/^\/api\/uploads\/profiles\/[0-9a-f]{24}\/[0-9a-f]{16}-256\.webp$/);
      const served = await t.http().get(url).expect(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toContain('immutable');
      const meta = await sharp(served.body as Buffer).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 256 });
    });

    it('judges the file by its content: a text file named .png is 415, a JPEG named .txt is fine', async () => {
      const c = await registerCustomer(t);
      const fake = await t
        .http()
        .patch('/api/users/profile-picture')
        .set(bearer(c.accessToken))
        .attach('profilePicture', Buffer.from('<script>alert(1)</script>'), {
          filename: 'evil.png',
          contentType: 'image/png',
        })
        .expect(415);
      expect(fake.body.message).toBe('Only JPEG, PNG or WebP images are accepted');
      const jpeg = await sharp({
        create: { width: 40, height: 40, channels: 3, background: '#aa0000' },
      })
        .jpeg()
        .toBuffer();
      await t
        .http()
        .patch('/api/users/profile-picture')
        .set(bearer(c.accessToken))
        .attach('profilePicture', jpeg, { filename: 'photo.txt', contentType: 'text/plain' })
        .expect(200);
    });

    it('refuses a file over 5 MB with 413 and changes nothing', async () => {
      const c = await registerCustomer(t);
      const big = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024 + 10)]);
      const res = await t
        .http()
        .patch('/api/users/profile-picture')
        .set(bearer(c.accessToken))
        .attach('profilePicture', big, 'big.png')
        .expect(413);
      expect(res.body.message).toBe('Images must be at most 5 MB');
      const me = await t.http().get('/api/users/profile').set(bearer(c.accessToken)).expect(200);
      expect(me.body.user.profilePicture).toBe('');
    });

    it('refuses a JSON body and a form without a file', async () => {
      const c = await registerCustomer(t);
      await t
        .http()
        .patch('/api/users/profile-picture')
        .set(bearer(c.accessToken))
        .send({ profilePicture: 'x' })
        .expect(415);
      await t
        .http()
        .patch('/api/users/profile-picture')
        .set(bearer(c.accessToken))
        .field('note', 'no file')
        .expect(400);
    });

    it('removes the picture and its files', async () => {
      const c = await registerCustomer(t);
      const set = await t
        .http()
        .patch('/api/users/profile-picture')
        .set(bearer(c.accessToken))
        .attach('profilePicture', await png(), 'me.png')
        .expect(200);
      const res = await t
        .http()
        .delete('/api/users/profile-picture')
        .set(bearer(c.accessToken))
        .expect(200);
      expect(res.body.user.profilePicture).toBe('');
      await t.http().get(set.body.user.profilePicture).expect(404);
    });
  });
});
