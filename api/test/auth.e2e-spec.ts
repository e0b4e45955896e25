import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import { JwtService } from '@nestjs/jwt';
import type { Connection } from 'mongoose';
import { PASSWORD_RULE_MESSAGE } from '@spc/shared-contracts';
import { loadConfig } from '../src/config/app-config';
import {
  bearer,
  registerCustomer,
  signIn,
  signInAdmin,
  STRONG_PASSWORD,
  UNTHROTTLED,
  uniqueEmail,
  type Session,
} from './support/identity';
import { decoded, outbox } from './support/mail';
import { createTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';
import { earlyInAWindow } from './support/rate-window';

describe('auth', () => {
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'spc-auth-'));
    t = await createTestApp({ name: 'auth', env: { ...UNTHROTTLED, DATA_DIR: dataDir } });
  });
  afterAll(() => t.close());

  const db = () => t.app.get<Connection>(getConnectionToken()).db!;

  function emailsTo(address: string): string[] {
    const outbox = path.join(dataDir, 'outbox');
    const files = existsSync(outbox) ? readdirSync(outbox).sort() : [];
    return files
      .map((f) => readFileSync(path.join(outbox, f), 'utf8'))
      .filter((m) => m.includes(`To: ${address}`));
  }

  /** The newest e-mail to an address, waited for (account e-mails leave after the answer). */
  async function latestEmailTo(address: string, after = 0): Promise<string> {
    const texts = await waitFor(
      async () => emailsTo(address),
      (m) => m.length > after,
      10_000,
      25,
    );
    return texts[texts.length - 1]!;
  }

  function resetCodeFrom(eml: string): string {
    const unfolded = eml.replace(/=\r?\n/g, '');
    const match = unfolded.match(/\/authenticate\/resetPassword\/([A-Za-z0-9_-]+)/);
    if (!match) throw new Error('no reset link in the e-mail');
    return match[1]!;
  }

  describe('register', () => {
    it('creates a customer, lower-casing the e-mail and never answering the password', async () => {
      const email = uniqueEmail('New.Customer').replace('new', 'NEW');
      const res = await t
        .http()
        .post('/api/auth/register')
        .send({
          fullName: ' Achieng Otieno ',
          email,
          phoneNumber: '0722000111',
          password: STRONG_PASSWORD,
        })
        .expect(201);
      expect(res.body).toMatchObject({
        success: true,
        message: 'Account created successfully. Please sign in.',
        user: {
          fullName: 'Achieng Otieno',
          email: email.toLowerCase(),
          phoneNumber: '0722000111',
          role: 'customer',
          isActive: true,
        },
      });
      expect(JSON.stringify(res.body)).not.toMatch(/password/i);
    });

    it('is also reachable as POST /api/user', async () => {
      const res = await t
        .http()
        .post('/api/user')
        .send({
          fullName: 'Kip Chirchir',
          email: uniqueEmail(),
          phoneNumber: '0733000111',
          password: STRONG_PASSWORD,
        })
        .expect(201);
      expect(res.body.user.role).toBe('customer');
    });

    it('answers a sign-up for a taken address exactly as for a new one, and tells its owner by e-mail', async () => {
      const email = uniqueEmail('dup');
      const body = { fullName: 'A B', email, phoneNumber: '0711000111', password: STRONG_PASSWORD };
      const first = await t.http().post('/api/auth/register').send(body).expect(201);
      const again = await t
        .http()
        .post('/api/auth/register')
        .send({ ...body, email: email.toUpperCase(), password: 'Other#Pass42' })
        .expect(201);
      // The same shape and message; only the id and times differ, as between two new accounts.
      const shape = (b: { user: Record<string, unknown> }) => ({
        ...b,
        user: { ...b.user, _id: 'id', createdAt: 'at', updatedAt: 'at' },
      });
      expect(shape(again.body)).toEqual(shape(first.body));
      expect(again.body.user._id).not.toBe(first.body.user._id);
      // No second account, nothing changed: the first password still signs in, the second does not.
      await signIn(t, email, STRONG_PASSWORD);
      await t.http().post('/api/auth/login').send({ email, password: 'Other#Pass42' }).expect(401);
      const notice = await latestEmailTo(email);
      expect(notice).toContain('Subject: You already have a Seedling Propagation Centre account');
      expect(notice.replace(/=\r?\n/g, '')).toContain(
        `${t.config.storefrontUrl}/authenticate/forgotPassword`,
      );
    });

    it.each(['abcdef', 'abc123', 'abc@@@', 'ab1@', 'abc12@ with space'])(
      'refuses the weak or invalid password %p with the rule',
      async (password) => {
        const res = await t
          .http()
          .post('/api/auth/register')
          .send({ fullName: 'A B', email: uniqueEmail(), phoneNumber: '0711000111', password })
          .expect(400);
        expect(res.body.message).toBe(PASSWORD_RULE_MESSAGE);
      },
    );

    it('refuses a phone number longer than 13 characters and a malformed e-mail with the spec messages', async () => {
      const phone = await t
        .http()
        .post('/api/auth/register')
        .send({
          fullName: 'A B',
          email: uniqueEmail(),
          phoneNumber: '+2547123456789',
          password: STRONG_PASSWORD,
        })
        .expect(400);
      expect(phone.body.message).toBe('Invalid phone number format');
      const email = await t
        .http()
        .post('/api/auth/register')
        .send({
          fullName: 'A B',
          email: 'not-an-email',
          phoneNumber: '0711000111',
          password: STRONG_PASSWORD,
        })
        .expect(400);
      expect(email.body.message).toBe('Invalid email format');
    });

    it('refuses a role in the body: nobody picks their own role', async () => {
      const res = await t
        .http()
        .post('/api/auth/register')
        .send({
          fullName: 'A B',
          email: uniqueEmail(),
          phoneNumber: '0711000111',
          password: STRONG_PASSWORD,
          role: 'admin',
        })
        .expect(400);
      expect(res.body.message).toBe('property role should not exist');
    });

    it.each(['fullName', 'email', 'phoneNumber', 'password'])(
      'refuses an operator object in %s',
      async (field) => {
        const body: Record<string, unknown> = {
          fullName: 'A B',
          email: uniqueEmail(),
          phoneNumber: '0711000111',
          password: STRONG_PASSWORD,
        };
        body[field] = { $ne: null };
        const res = await t.http().post('/api/auth/register').send(body).expect(400);
        expect(res.body.success).toBe(false);
      },
    );
  });

  describe('login', () => {
    it('answers the user, an access token and a refresh token', async () => {
      const customer = await registerCustomer(t);
      const res = await t
        .http()
        .post('/api/auth/login')
        .send({ email: customer.user.email.toUpperCase(), password: STRONG_PASSWORD })
        .expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.user).toMatchObject({ email: customer.user.email, role: 'customer' });
      expect(res.body.data.accessToken).toMatch(/^ey/);
      expect(res.body.data.refreshToken).toEqual(expect.any(String));
      expect(JSON.stringify(res.body)).not.toMatch(/passwordHash/);
      const claims = t.app.get(JwtService).decode(res.body.data.accessToken);
      expect(claims).toMatchObject({
        sub: customer.user._id,
        role: 'customer',
        fullName: 'Wanjiku Kamau',
      });
      expect(claims.exp - claims.iat).toBe(15 * 60);
    });

    it('answers 401 with one message for a wrong password and for an unknown e-mail', async () => {
      const customer = await registerCustomer(t);
      const wrong = await t
        .http()
        .post('/api/auth/login')
        .send({ email: customer.user.email, password: 'Wrong#123' })
        .expect(401);
      const unknown = await t
        .http()
        .post('/api/auth/login')
        .send({ email: uniqueEmail('nobody'), password: 'Wrong#123' })
        .expect(401);
      expect(wrong.body).toEqual({
        success: false,
        message: 'Invalid email or password',
        statusCode: 401,
        code: 'INVALID_CREDENTIALS',
      });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('refuses an operator object as the e-mail or password', async () => {
      await t
        .http()
        .post('/api/auth/login')
        .send({ email: { $ne: null }, password: 'x' })
        .expect(400);
      await t
        .http()
        .post('/api/auth/login')
        .send({ email: 'a@b.co', password: { $gt: '' } })
        .expect(400);
    });

    it('records every sign-in in the audit trail', async () => {
      const customer = await registerCustomer(t);
      const admin = await signInAdmin(t);
      const res = await t
        .http()
        .get('/api/audit-logs?action=auth.login&limit=100')
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(
        res.body.some(
          (e: { performedBy: { id: string } }) => e.performedBy.id === customer.user._id,
        ),
      ).toBe(true);
    });
  });

  describe('access tokens', () => {
    it('are required on protected routes: none, malformed, forged and expired tokens get 401', async () => {
      await t.http().get('/api/users/profile').expect(401);
      await t.http().get('/api/users/profile').set('Authorization', 'Bearer not-a-jwt').expect(401);
      const forged = new JwtService({ secret: 'x'.repeat(40) }).sign({
        sub: '0'.repeat(24),
        role: 'admin',
        fullName: 'Mallory',
      });
      await t.http().get('/api/users').set(bearer(forged)).expect(401);
      const customer = await registerCustomer(t);
      const expired = t.app
        .get(JwtService)
        .sign({ sub: customer.user._id, role: 'customer', fullName: 'x' }, { expiresIn: -10 });
      const res = await t.http().get('/api/users/profile').set(bearer(expired)).expect(401);
      expect(res.body.message).toBe('Your session has expired. Please sign in again.');
    });

    it('grant nothing through the old isAdmin / isAdminOrStaff headers', async () => {
      const customer = await registerCustomer(t);
      await t
        .http()
        .get('/api/users')
        .set(bearer(customer.accessToken))
        .set('isAdmin', 'true')
        .set('isAdminOrStaff', 'true')
        .expect(403);
      await t.http().get('/api/users').set('isAdmin', 'true').expect(401);
    });

    it('stop working when the account is deleted', async () => {
      const customer = await registerCustomer(t);
      const admin = await signInAdmin(t);
      await t
        .http()
        .delete(`/api/user/delete/${customer.user._id}`)
        .set(bearer(admin.accessToken))
        .expect(200);
      await t.http().get('/api/users/profile').set(bearer(customer.accessToken)).expect(401);
    });
  });

  describe('refresh', () => {
    it('rotates: a new pair each time, and the old refresh token stops working', async () => {
      const customer = await registerCustomer(t);
      const first = await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: customer.refreshToken })
        .expect(200);
      expect(first.body.data.user.email).toBe(customer.user.email);
      expect(first.body.data.refreshToken).not.toBe(customer.refreshToken);
      await t.http().get('/api/users/profile').set(bearer(first.body.data.accessToken)).expect(200);
      const second = await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: first.body.data.refreshToken })
        .expect(200);
      expect(second.body.data.refreshToken).not.toBe(first.body.data.refreshToken);
    });

    it('revokes the whole family when a rotated token is used again', async () => {
      const customer = await registerCustomer(t);
      const rotated = await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: customer.refreshToken })
        .expect(200);
      const reuse = await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: customer.refreshToken })
        .expect(401);
      expect(reuse.body.message).toMatch(/used twice/);
      // The thief's (or owner's) newest token is dead too.
      await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: rotated.body.data.refreshToken })
        .expect(401);
      // Another sign-in is a separate family and still works.
      const again = await signIn(t, customer.user.email, customer.password);
      await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: again.refreshToken })
        .expect(200);
    });

    it('lets only one of many concurrent uses of a refresh token through', async () => {
      const customer = await registerCustomer(t);
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          t.http().post('/api/auth/refreshToken').send({ refreshToken: customer.refreshToken }),
        ),
      );
      expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
      expect(results.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(7);
    });

    it('ends the session when one refresh token is used twice at once, the new token it minted too', async () => {
      const customer = await registerCustomer(t);
      for (let round = 0; round < 10; round++) {
        const session = await signIn(t, customer.user.email, customer.password);
        const race = await Promise.all(
          [0, 1].map(() =>
            t.http().post('/api/auth/refreshToken').send({ refreshToken: session.refreshToken }),
          ),
        );
        expect(race.map((r) => r.status).sort()).toEqual([200, 401]);
        const winner = race.find((r) => r.status === 200)!;
        // Whichever use came second, the pair the first one got belongs to an ended session.
        await t
          .http()
          .post('/api/auth/refreshToken')
          .send({ refreshToken: winner.body.data.refreshToken })
          .expect(401);
        await t
          .http()
          .post('/api/auth/refreshToken')
          .send({ refreshToken: session.refreshToken })
          .expect(401);
      }
    });

    it('keeps sessions signed in before families had a record working, under the same reuse rule', async () => {
      const customer = await registerCustomer(t);
      const refresh = (refreshToken: string) =>
        t.http().post('/api/auth/refreshToken').send({ refreshToken });
      /** A session as the API stored it before: a token without a generation, no family record. */
      const asBefore = async (session: { refreshToken: string }) => {
        const tokens = db().collection('refresh_tokens');
        const { familyId } = (await tokens.findOne(
          { userId: customer.user._id, usedAt: null },
          {
            sort: { createdAt: -1 },
          },
        ))!;
        await tokens.updateMany({ familyId }, { $unset: { generation: '' } });
        await db().collection('refresh_families').deleteOne({ _id: familyId });
        return session.refreshToken;
      };

      const old = await asBefore(customer);
      const rotated = await refresh(old).expect(200);
      await refresh(rotated.body.data.refreshToken).expect(200);
      const reuse = await refresh(old).expect(401);
      expect(reuse.body.message).toMatch(/used twice/);

      // Two uses at once of a token from before: one pair, and the session ends with it.
      const racing = await asBefore(await signIn(t, customer.user.email, customer.password));
      const race = await Promise.all([refresh(racing), refresh(racing)]);
      expect(race.map((r) => r.status).sort()).toEqual([200, 401]);
      await refresh(race.find((r) => r.status === 200)!.body.data.refreshToken).expect(401);

      // A password change ends a session from before that was never used.
      const unused = await asBefore(await signIn(t, customer.user.email, customer.password));
      await t
        .http()
        .post('/api/auth/change/password')
        .set(bearer(customer.accessToken))
        .send({ currentPassword: customer.password, newPassword: 'Another#Seedling9' })
        .expect(200);
      await refresh(unused).expect(401);
    });

    it('refuses an unknown or expired refresh token with 401', async () => {
      await t.http().post('/api/auth/refreshToken').send({ refreshToken: 'made-up' }).expect(401);
      const customer = await registerCustomer(t);
      await db()
        .collection('refresh_tokens')
        .updateMany(
          { userId: customer.user._id },
          { $set: { expiresAt: new Date(Date.now() - 1000) } },
        );
      const res = await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: customer.refreshToken })
        .expect(401);
      expect(res.body.message).toBe('Your session has expired. Please sign in again.');
    });

    it('refuses a body without a string token', async () => {
      await t.http().post('/api/auth/refreshToken').send({}).expect(400);
      await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: { $ne: null } })
        .expect(400);
    });
  });

  describe('logout', () => {
    it('revokes the refresh token', async () => {
      const customer = await registerCustomer(t);
      await t
        .http()
        .post('/api/auth/logout')
        .set(bearer(customer.accessToken))
        .send({ refreshToken: customer.refreshToken })
        .expect(200, { success: true, message: 'Signed out successfully' });
      await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: customer.refreshToken })
        .expect(401);
    });

    it("cannot end someone else's session", async () => {
      const victim = await registerCustomer(t);
      const other = await registerCustomer(t);
      await t
        .http()
        .post('/api/auth/logout')
        .set(bearer(other.accessToken))
        .send({ refreshToken: victim.refreshToken })
        .expect(200);
      await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: victim.refreshToken })
        .expect(200);
    });
  });

  describe('forgot and reset password', () => {
    const message =
      'If an account exists for this e-mail, we have sent it a link to reset the password. The link is valid for one hour.';

    it('answers the same for known and unknown e-mails, and mails a storefront link to the known one', async () => {
      const customer = await registerCustomer(t);
      const known = await t
        .http()
        .post('/api/auth/forgot/password')
        .send({ email: customer.user.email })
        .expect(200);
      const unknown = await t
        .http()
        .post('/api/auth/forgot/password')
        .send({ email: uniqueEmail('ghost') })
        .expect(200);
      expect(known.body).toEqual({ success: true, message });
      expect(unknown.body).toEqual(known.body);
      const eml = await latestEmailTo(customer.user.email);
      expect(eml.replace(/=\r?\n/g, '')).toContain(
        `${t.config.storefrontUrl}/authenticate/resetPassword/`,
      );
    });

    it('resets with the code once: the new password works, the old does not, and old sessions end', async () => {
      const customer = await registerCustomer(t);
      await t
        .http()
        .post('/api/auth/forgot/password')
        .send({ email: customer.user.email })
        .expect(200);
      const code = resetCodeFrom(await latestEmailTo(customer.user.email));
      await t
        .http()
        .post('/api/auth/reset/password')
        .send({ code, password: 'Fresh#Start9' })
        .expect(200);
      await t
        .http()
        .post('/api/auth/login')
        .send({ email: customer.user.email, password: customer.password })
        .expect(401);
      await signIn(t, customer.user.email, 'Fresh#Start9');
      await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: customer.refreshToken })
        .expect(401);
      const again = await t
        .http()
        .post('/api/auth/reset/password')
        .send({ code, password: 'Another#Go9' })
        .expect(400);
      expect(again.body.message).toBe(
        'This reset link is not valid or has expired. Please ask for a new one.',
      );
    });

    it('refuses an expired code', async () => {
      const customer = await registerCustomer(t);
      await t
        .http()
        .post('/api/auth/forgot/password')
        .send({ email: customer.user.email })
        .expect(200);
      const code = resetCodeFrom(await latestEmailTo(customer.user.email));
      await db()
        .collection('password_resets')
        .updateMany(
          { userId: customer.user._id },
          { $set: { expiresAt: new Date(Date.now() - 1000) } },
        );
      await t
        .http()
        .post('/api/auth/reset/password')
        .send({ code, password: 'Fresh#Start9' })
        .expect(400);
      await signIn(t, customer.user.email, customer.password);
    });

    it('applies the password rule to the new password', async () => {
      const res = await t
        .http()
        .post('/api/auth/reset/password')
        .send({ code: 'whatever', password: 'weak' })
        .expect(400);
      expect(res.body.message).toBe(PASSWORD_RULE_MESSAGE);
    });
  });

  describe('change password', () => {
    it('refuses a wrong current password and a weak new one', async () => {
      const customer = await registerCustomer(t);
      const wrong = await t
        .http()
        .post('/api/auth/change/password')
        .set(bearer(customer.accessToken))
        .send({ currentPassword: 'Nope#1234', newPassword: 'Better#2027' })
        .expect(400);
      expect(wrong.body.message).toBe('Your current password is not correct');
      const weak = await t
        .http()
        .post('/api/auth/change/password')
        .set(bearer(customer.accessToken))
        .send({ currentPassword: customer.password, newPassword: 'weakpass' })
        .expect(400);
      expect(weak.body.message).toBe(PASSWORD_RULE_MESSAGE);
      await t
        .http()
        .post('/api/auth/change/password')
        .send({ currentPassword: customer.password, newPassword: 'Better#2027' })
        .expect(401);
    });

    it('changes it, ends other sessions and gives the caller a new pair', async () => {
      const customer = await registerCustomer(t);
      const res = await t
        .http()
        .post('/api/auth/change/password')
        .set(bearer(customer.accessToken))
        .send({ currentPassword: customer.password, newPassword: 'Better#2027' })
        .expect(200);
      expect(res.body.message).toBe('Password changed successfully');
      await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: customer.refreshToken })
        .expect(401);
      await t
        .http()
        .post('/api/auth/refreshToken')
        .send({ refreshToken: res.body.data.refreshToken })
        .expect(200);
      await signIn(t, customer.user.email, 'Better#2027');
    });
  });
});

describe('auth rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ name: 'ratelimit', env: { RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it.each([
    ['/api/auth/login', { email: 'someone@example.co.ke', password: 'Wrong#123' }],
    ['/api/auth/forgot/password', { email: 'someone@example.co.ke' }],
    ['/api/auth/reset/password', { code: 'x', password: 'Fresh#Start9' }],
    [
      '/api/auth/register',
      { fullName: 'A', email: 'bad', phoneNumber: '0711000111', password: 'x' },
    ],
  ])('answers 429 on %s after the limit, with a message', async (route, body) => {
    for (let i = 0; i < 3; i++) {
      const res = await t.http().post(route).send(body);
      expect(res.status).not.toBe(429);
    }
    const limited = await t.http().post(route).send(body).expect(429);
    expect(limited.body).toEqual({
      success: false,
      message: 'Too many attempts. Please wait a minute and try again.',
      statusCode: 429,
      code: 'RATE_LIMITED',
    });
  });
});

describe('forgot-password with a slow mail server', () => {
  let t: TestApp;
  let smtp: Server;
  let customerEmail: string;

  beforeAll(async () => {
    // A mail server that takes 1.5 s to say anything, then hangs up: as slow as a real one can be.
    smtp = createServer((socket) => {
      const timer = setTimeout(() => socket.destroy(), 1500);
      socket.on('close', () => clearTimeout(timer));
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    const port = (smtp.address() as AddressInfo).port;
    t = await createTestApp({
      name: 'authslow',
      env: { ...UNTHROTTLED, SMTP_URL: `smtp://127.0.0.1:${port}` },
    });
    customerEmail = (await registerCustomer(t)).user.email;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => smtp.close(r));
  });

  it('answers a known address as soon as an unknown one: the link is made and mailed after the answer', async () => {
    const time = async (email: string) => {
      const started = performance.now();
      const res = await t.http().post('/api/auth/forgot/password').send({ email }).expect(200);
      expect(res.body.message).toBe(
        'If an account exists for this e-mail, we have sent it a link to reset the password. The link is valid for one hour.',
      );
      return performance.now() - started;
    };
    // The quickest of three each, taken in turn, so a busy moment of the machine counts for neither.
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(customerEmail));
      unknown.push(await time(uniqueEmail('ghost')));
    }
    expect(Math.min(...known)).toBeLessThan(1000);
    expect(Math.min(...known)).toBeLessThan(Math.min(...unknown) * 3 + 100);
  });
});

describe('change password: guesses limited per account and per address', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      name: 'auth_change_limits',
      env: {
        TRUST_PROXY: 'true',
        RATE_LIMIT_AUTH_PER_MINUTE: '6',
        RATE_LIMIT_ACCOUNT_PER_MINUTE: '4',
      },
    });
  });
  afterAll(() => t.close());

  function changePassword(token: string, address: string) {
    return t
      .http()
      .post('/api/auth/change/password')
      .set(bearer(token))
      .set('X-Forwarded-For', address)
      .send({ currentPassword: 'Wrong#2026x', newPassword: 'Other#2026x' });
  }

  async function customer(address: string): Promise<Session> {
    const email = uniqueEmail('flood');
    await t
      .http()
      .post('/api/auth/register')
      .set('X-Forwarded-For', address)
      .send({ fullName: 'Flood', email, phoneNumber: '0722123456', password: STRONG_PASSWORD })
      .expect(201);
    const res = await t
      .http()
      .post('/api/auth/login')
      .set('X-Forwarded-For', address)
      .send({ email, password: STRONG_PASSWORD })
      .expect(200);
    return res.body.data as Session;
  }

  /** A test that counts to a limit starts early in its minute (a busy CI machine hashes slowly). */
  const earlyInAMinute = () => earlyInAWindow(60_000, 45_000);

  it('limits wrong current-password guesses per account, whatever the address, with Retry-After', async () => {
    await earlyInAMinute();
    const c = await customer('10.4.0.1');
    const statuses: number[] = [];
    let limited: { headers: Record<string, string>; body: { message: string } } | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await changePassword(c.accessToken, `10.4.1.${i}`);
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429, 429, 429]);
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited!.body.message).toBe('Too many attempts. Please wait a minute and try again.');
  }, 150_000);

  it('limits change-password calls per address too', async () => {
    await earlyInAMinute();
    const a = await customer('10.4.2.1');
    const b = await customer('10.4.2.2');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await changePassword(i % 2 ? a.accessToken : b.accessToken, '10.4.3.1')).status,
      );
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429]);
  }, 150_000);
});

describe('reset and change password: earlier links and tokens end', () => {
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-auth-reset-'));
    t = await createTestApp({
      name: 'auth_reset_ends',
      env: { ...UNTHROTTLED, DATA_DIR: dataDir },
    });
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function resetCode(email: string): Promise<string> {
    const before = outbox(dataDir).length;
    await t.http().post('/api/auth/forgot/password').send({ email }).expect(200);
    const mails = await waitFor(
      async () => outbox(dataDir),
      (m) => m.length > before,
      // The mail queue's sweep writes it; on a machine at a load of 20 that took over 10 s.
      60_000,
    );
    return /resetPassword\/([\w-]+)/.exec(decoded(mails[mails.length - 1]!))![1]!;
  }

  it('voids an earlier reset link when a new one is issued', async () => {
    const c = await registerCustomer(t);
    const first = await resetCode(c.user.email);
    const second = await resetCode(c.user.email);
    await t
      .http()
      .post('/api/auth/reset/password')
      .send({ code: first, password: 'First#2026x' })
      .expect(400);
    await t
      .http()
      .post('/api/auth/reset/password')
      .send({ code: second, password: 'Second#2026x' })
      .expect(200);
  });

  it('ends access tokens, refresh tokens and reset links issued before a reset', async () => {
    const c = await registerCustomer(t);
    const code = await resetCode(c.user.email);
    await t.http().get('/api/users/profile').set(bearer(c.accessToken)).expect(200);
    await t
      .http()
      .post('/api/auth/reset/password')
      .send({ code, password: 'Reset#2026x' })
      .expect(200);
    await t.http().get('/api/users/profile').set(bearer(c.accessToken)).expect(401);
    await t
      .http()
      .post('/api/auth/refreshToken')
      .send({ refreshToken: c.refreshToken })
      .expect(401);
    const fresh = await signIn(t, c.user.email, 'Reset#2026x');
    await t.http().get('/api/users/profile').set(bearer(fresh.accessToken)).expect(200);
  });

  it('ends earlier access tokens and reset links on a password change, keeping the new session', async () => {
    const c = await registerCustomer(t);
    const other = await signIn(t, c.user.email, STRONG_PASSWORD);
    const code = await resetCode(c.user.email);
    const changed = await t
      .http()
      .post('/api/auth/change/password')
      .set(bearer(c.accessToken))
      .send({ currentPassword: STRONG_PASSWORD, newPassword: 'Changed#2026x' })
      .expect(200);
    await t.http().get('/api/users/profile').set(bearer(other.accessToken)).expect(401);
    await t.http().get('/api/users/profile').set(bearer(c.accessToken)).expect(401);
    await t.http().get('/api/users/profile').set(bearer(changed.body.data.accessToken)).expect(200);
    await t
      .http()
      .post('/api/auth/reset/password')
      .send({ code, password: 'Stolen#2026x' })
      .expect(400);
  });
});

describe('login lockout, Retry-After, the refresh secret and tokens without exp', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      name: 'auth_lockout',
      env: {
        ...UNTHROTTLED,
        LOGIN_LOCKOUT_AFTER_FAILURES: '3',
        LOGIN_LOCKOUT_BASE_SECONDS: '60',
      },
    });
  });
  afterAll(() => t.close());

  it('locks an account after repeated wrong passwords, with Retry-After, even for the right one', async () => {
    const c = await registerCustomer(t);
    for (let i = 0; i < 3; i++)
      await t
        .http()
        .post('/api/auth/login')
        .send({ email: c.user.email, password: 'Wrong#2026x' })
        .expect(401);
    const locked = await t
      .http()
      .post('/api/auth/login')
      .send({ email: c.user.email, password: STRONG_PASSWORD })
      .expect(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(50);
    expect(locked.body.message).toMatch(
      /^Too many wrong passwords for this account\. Please wait (1 minute|\d+ seconds) and try again, or reset your password\.$/,
    );
  });

  it('answers every rate-limit 429 with Retry-After', async () => {
    const limited = await createTestApp({
      name: 'auth_retry_after',
      env: { RATE_LIMIT_AUTH_PER_MINUTE: '2' },
    });
    try {
      // Five sign-ins at 2 a minute: even if a minute's window ends between two of them, at
      // most four get through (two per window), so at least one is limited.
      const answers = [];
      for (let i = 0; i < 5; i++) {
        answers.push(
          await limited
            .http()
            .post('/api/auth/login')
            .send({ email: uniqueEmail(), password: 'Wrong#2026x' }),
        );
      }
      const statuses = answers.map((a) => a.status);
      expect(statuses.slice(0, 2)).toEqual([401, 401]);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const answer of refused)
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('needs no JWT_REFRESH_SECRET in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      MONGODB_URI: 'mongodb://127.0.0.1:9/spc',
      JWT_SECRET: '4e8a2c6f0b9d3e7a1c5f8b2d6e0a4c9f3b7d1e5a',
      ADMIN_EMAIL: 'owner@example.co.ke',
      ADMIN_PASSWORD: 'Owner#2026xy',
      STOREFRONT_URL: 'https://shop.example',
      BACKOFFICE_URL: 'https://admin.example',
      SHOP_PHONE: '+254 712 000 333',
      SHOP_EMAIL: 'shop@example.co.ke',
      BUSINESS_WHATSAPP: '254712000333',
    });
    expect(config.jwt).toEqual({ accessSecret: '4e8a2c6f0b9d3e7a1c5f8b2d6e0a4c9f3b7d1e5a' });
  });

  it('refuses an access token without exp', async () => {
    const c = await registerCustomer(t);
    const jwt = new JwtService({ secret: t.config.jwt.accessSecret });
    const forever = await jwt.signAsync({ sub: c.user._id, role: 'customer', fullName: 'X' });
    await t.http().get('/api/users/profile').set(bearer(forever)).expect(401);
  });
});
