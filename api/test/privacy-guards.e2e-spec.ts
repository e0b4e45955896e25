/**
 * What the privacy routes cost and what they tell (issue 39): the account deletion's password check
 * is limited and locks like sign-in.
 */
import { bearer, registerCustomer } from './support/identity';
import { guest } from './support/shop';
import { createSmsTestApp, type SmsTestApp } from './support/sms';

describe('privacy guards: limits', () => {
  let s: SmsTestApp;

  beforeAll(async () => {
    s = await createSmsTestApp('privacy_guards', {
      // Deleting an account checks a password as changing it does, under the sign-in lockout.
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '5',
      LOGIN_LOCKOUT_AFTER_FAILURES: '5',
      LOGIN_LOCKOUT_BASE_SECONDS: '60',
    });
  }, 60_000);
  afterAll(() => s.close());

  const http = () => s.t.http();

  describe('deleting one’s account', () => {
    it('limits wrong passwords like changing one: 30 tries are refused early, and the lock holds even for the right one', async () => {
      const me = await registerCustomer(s.t, { phoneNumber: guest().phoneNumber });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const res = await http()
          .post('/api/users/profile/delete')
          .set(bearer(me.accessToken))
          .send({ password: `Wrong#Guess${i}x` });
        statuses.push(res.status);
      }
      const firstRefusal = statuses.indexOf(429);
      expect(firstRefusal).toBeGreaterThan(0);
      expect(firstRefusal).toBeLessThanOrEqual(5);
      expect(statuses.slice(0, firstRefusal).every((st) => st === 401)).toBe(true);
      expect(statuses.slice(firstRefusal).every((st) => st === 429)).toBe(true);

      // The right password, now: refused as well, and the account is still there.
      const right = await http()
        .post('/api/users/profile/delete')
        .set(bearer(me.accessToken))
        .send({ password: me.password })
        .expect(429);
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      await http().get('/api/users/profile').set(bearer(me.accessToken)).expect(200);
      // The wrong passwords locked the account as at sign-in: the right one is refused there too.
      const login = await http()
        .post('/api/auth/login')
        .send({ email: me.user.email, password: me.password })
        .expect(429);
      expect(login.body.message).toMatch(/^Too many wrong passwords for this account/);
    }, 120_000);
  });
});
