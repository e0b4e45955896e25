/**
 * What the privacy routes cost and what they tell (issue 39): the account deletion's password check
 * is limited and locks like sign-in; the gateway's incoming-messages callback needs its secret and
 * tells nobody who had consented.
 */
import { freePort } from '../../tools/db/launcher';
import { bearer, registerCustomer } from './support/identity';
import { guest } from './support/shop';
import { createSmsTestApp, smsInboundUrl, type SmsTestApp } from './support/sms';

const INBOUND_PER_MINUTE = 3;
const msisdn = (phone: string) => `+254${phone.slice(1)}`;

describe('privacy guards: limits, the inbound secret', () => {
  let s: SmsTestApp;
  let base: string;
  let network = 0;

  beforeAll(async () => {
    s = await createSmsTestApp('privacy_guards', {
      TRUST_PROXY: 'true',
      // Deleting an account checks a password as changing it does, under the sign-in lockout.
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '5',
      LOGIN_LOCKOUT_AFTER_FAILURES: '5',
      LOGIN_LOCKOUT_BASE_SECONDS: '60',
      RATE_LIMIT_SMS_INBOUND_PER_MINUTE: String(INBOUND_PER_MINUTE),
    });
    const port = await freePort();
    await s.t.app.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    s.sim.setInboundUrl(smsInboundUrl(base));
  }, 60_000);
  afterAll(() => s.close());

  const http = () => s.t.http();
  /** A client network of its own for each caller, so that one test's limits never reach another's. */
  const newNetwork = () => `10.39.${Math.floor(++network / 250)}.${(network % 250) + 1}`;

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

  describe("the SMS gateway's incoming messages", () => {
    async function consenting(granted: boolean) {
      const phone = guest().phoneNumber;
      const c = await registerCustomer(s.t, { phoneNumber: phone });
      if (granted)
        await http()
          .patch('/api/users/profile/consents')
          .set(bearer(c.accessToken))
          .send({ marketingSms: true })
          .expect(200);
      return { ...c, phone };
    }
    const consentOf = async (c: { accessToken: string }) =>
      (await http().get('/api/users/profile/consents').set(bearer(c.accessToken)).expect(200)).body
        .marketingSms as { granted: boolean; history: unknown[] };
    const post = (route: string, from: string) =>
      http()
        .post(route)
        .set('X-Forwarded-For', newNetwork())
        .type('form')
        .send({ from, to: '20880', text: 'STOP' });

    it('needs the secret in its path: without it nothing is withdrawn', async () => {
      const subscriber = await consenting(true);
      // The old address, without the secret, is no route any more.
      await http()
        .post('/api/sms/inbound')
        .send({ from: msisdn(subscriber.phone), text: 'STOP' })
        .expect(404);
      await post(
        '/api/sms/inbound/not-the-token-0123456789abcdef',
        msisdn(subscriber.phone),
      ).expect(404);
      expect((await consentOf(subscriber)).granted).toBe(true);
    });

    it('answers the same whether or not the number had consented, and withdraws the consent', async () => {
      const subscriber = await consenting(true);
      const other = await consenting(false);
      const route = new URL(smsInboundUrl(base)).pathname;
      const forOther = await post(route, msisdn(other.phone)).expect(200);
      const forSubscriber = await post(route, msisdn(subscriber.phone)).expect(200);
      const forNobody = await post(route, msisdn(guest().phoneNumber)).expect(200);
      expect(forSubscriber.body).toEqual(forOther.body);
      expect(forNobody.body).toEqual(forOther.body);
      expect(forSubscriber.body).toEqual({
        success: true,
        message: 'Reply received',
        received: true,
      });
      expect(await consentOf(subscriber)).toMatchObject({ granted: false, source: 'sms-stop' });
      expect(await consentOf(other)).toMatchObject({ granted: false, history: [] });
      // The simulator posts replies to the route with its secret, as the gateway does.
      const again = await consenting(true);
      expect(await s.sim.reply(msisdn(again.phone), 'STOP')).toBe(200);
      expect((await consentOf(again)).granted).toBe(false);
    });

    it('is limited per client network', async () => {
      const from = newNetwork();
      const statuses: number[] = [];
      // Three a minute: even across the end of a minute at most six of ten get through.
      for (let i = 0; i < 10; i++)
        statuses.push(
          (
            await http()
              .post('/api/sms/inbound/not-the-token-0123456789abcdef')
              .set('X-Forwarded-For', from)
              .send({ from: '+254700000001', text: 'hello' })
          ).status,
        );
      expect(statuses.slice(0, INBOUND_PER_MINUTE)).toEqual(Array(INBOUND_PER_MINUTE).fill(404));
      expect(statuses.filter((st) => st === 429).length).toBeGreaterThanOrEqual(4);
    });
  });
});
