/**
 * What the privacy routes cost and what they tell (issue 39): the account deletion's password check
 * is limited and locks like sign-in; a guest's codes count against the SMS budgets and the guest
 * form answers a right and a wrong phone alike; the gateway's incoming-messages callback needs its
 * secret and tells nobody who had consented; the privacy settings and each step of a guest's
 * request are in the audit trail, named as what they are and without the phone; the start-up line
 * does not print the admin's e-mail.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import { PURCHASE_NUMBER } from '@spc/shared-contracts';
import type { Connection } from 'mongoose';
import { freePort, withDatabaseName } from '../../tools/db/launcher';
import { QuotaService } from '../src/common/quota';
import { ApiProcess, assertBuilt, PRODUCTION_ENV } from './support/api-process';
import { bearer, registerCustomer, signIn } from './support/identity';
import { guest, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createSmsTestApp, smsInboundUrl, type SmsTestApp } from './support/sms';
import { serverUri } from './support/test-app';
import { sleep, waitFor } from './support/wait';

/** Texts a number may get a shop day here: an order's text and three codes fit, no more. */
const PER_RECIPIENT = 4;
const INBOUND_PER_MINUTE = 3;
const msisdn = (phone: string) => `+254${phone.slice(1)}`;
/** The ways a phone may be written, none of which an audit entry may hold. */
const spellings = (phone: string) => [phone, msisdn(phone), msisdn(phone).slice(1), phone.slice(1)];
/** A well-formed purchase number that is (almost surely) nobody's order. */
const purchaseNumberLike = () =>
  `${PURCHASE_NUMBER.prefix}${Array.from(randomBytes(PURCHASE_NUMBER.length), (b) => PURCHASE_NUMBER.alphabet[b % PURCHASE_NUMBER.alphabet.length]).join('')}`;

describe('privacy guards: limits, alike answers, the inbound secret, the audit trail', () => {
  let s: SmsTestApp;
  let world: ShopWorld;
  let base: string;
  let network = 0;

  beforeAll(async () => {
    s = await createSmsTestApp('privacy_guards', {
      TRUST_PROXY: 'true',
      // Deleting an account checks a password as changing it does, under the sign-in lockout.
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '5',
      LOGIN_LOCKOUT_AFTER_FAILURES: '5',
      LOGIN_LOCKOUT_BASE_SECONDS: '60',
      SMS_PER_RECIPIENT_PER_DAY: String(PER_RECIPIENT),
      RATE_LIMIT_SMS_INBOUND_PER_MINUTE: String(INBOUND_PER_MINUTE),
    });
    const port = await freePort();
    await s.t.app.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    s.sim.setInboundUrl(smsInboundUrl(base));
    world = await createShopWorld(s.t);
  }, 60_000);
  afterAll(() => s.close());

  const http = () => s.t.http();
  const db = () => s.t.app.get<Connection>(getConnectionToken()).db!;
  const admin = () => bearer(world.admin.accessToken);
  /** A client network of its own for each caller, so that one test's limits never reach another's. */
  const newNetwork = () => `10.39.${Math.floor(++network / 250)}.${(network % 250) + 1}`;

  /** A guest order; answers once its "placed" text has reached the phone (and used its budget). */
  async function guestOrder(details = guest()) {
    const res = await placeOrder(s.t, [{ _id: world.productId, quantity: 1 }], {
      guestInfo: details,
    }).expect(201);
    await s.messagesTo(msisdn(details.phoneNumber), 1);
    return { ...(res.body.order as { _id: string; purchaseNumber: string }), details };
  }

  function ask(from: string, purchaseNumber: string, phoneNumber: string) {
    return http()
      .post('/api/privacy/requests')
      .set('X-Forwarded-For', from)
      .send({ purchaseNumber, phoneNumber, kind: 'export' });
  }

  /** The codes texted to this phone (+254…), newest last. */
  const codesTo = (phone: string) =>
    s.sim.outbox
      .filter((m) => m.to === phone && m.message.includes('data request'))
      .map((m) => /is (\d{6})/.exec(m.message)![1]!);

  /** A day's count of a limit for a key (counters name the key by its keyed hash). */
  const quotaUsed = (name: string, key: string) =>
    s.t.app.get(QuotaService).used({ name, limit: 0, per: 'day' }, key);

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

  describe('a guest’s codes and the SMS budgets', () => {
    it('count against the texts a number may get a day: the codes stop there, and the counters show each claim', async () => {
      // Two orders' texts, then codes until the number's budget (4 a day) is spent.
      const details = guest();
      const first = await guestOrder(details);
      await placeOrder(s.t, [{ _id: world.productId, quantity: 1 }], {
        guestInfo: details,
      }).expect(201);
      const to = msisdn(details.phoneNumber);
      await s.messagesTo(to, 2);
      const from = newNetwork();

      await ask(from, first.purchaseNumber, details.phoneNumber).expect(201);
      await ask(from, first.purchaseNumber, details.phoneNumber).expect(201);
      await s.messagesTo(to, 4);
      // The phone may still ask for a third code today; the number may get no more texts.
      const refused = await ask(from, first.purchaseNumber, details.phoneNumber).expect(429);
      expect(refused.body.message).toBe(
        'Too many codes for this phone today. Please try again tomorrow.',
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      await sleep(500);
      expect(codesTo(to)).toHaveLength(2);

      expect(await quotaUsed('sms-recipient', to)).toBe(PER_RECIPIENT);
      expect(await quotaUsed('sms-sender', `net:${from}`)).toBe(2);
      // The refused request gave back the phone's code it had taken.
      expect(await quotaUsed('data-request-code', `phone:${to}`)).toBe(2);

      // The code is kept nowhere: not in the outbox, not in the request (only its hash).
      const codes = codesTo(to);
      const requests = await db().collection('data_requests').find({ phone: to }).toArray();
      expect(requests).toHaveLength(2);
      for (const code of codes) {
        expect(
          await db()
            .collection('sms_outbox')
            .countDocuments({ message: { $regex: code } }),
        ).toBe(0);
        expect(JSON.stringify(requests)).not.toContain(code);
      }
    });
  });

  describe('the guest form', () => {
    it('answers a right and a wrong phone alike, and texts the code only to the right one', async () => {
      const order = await guestOrder();
      const right = order.details.phoneNumber;
      const wrong = guest().phoneNumber;
      const [rightFrom, wrongFrom] = [newNetwork(), newNetwork()];

      // Three codes a phone a day, then 429: on the same request for both.
      const rights = [];
      const wrongs = [];
      for (let i = 0; i < 4; i++) {
        rights.push(await ask(rightFrom, order.purchaseNumber, right));
        wrongs.push(await ask(wrongFrom, order.purchaseNumber, wrong));
      }
      expect(rights.map((r) => r.status)).toEqual([201, 201, 201, 429]);
      expect(wrongs.map((r) => r.status)).toEqual(rights.map((r) => r.status));
      const shape = (body: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(body).map(([k, v]) => [
            k,
            ['requestId', 'codeExpiresAt', 'retryAfterSeconds'].includes(k) ? typeof v : v,
          ]),
        );
      for (let i = 0; i < 4; i++) expect(shape(wrongs[i]!.body)).toEqual(shape(rights[i]!.body));
      expect(rights[0]!.body).toMatchObject({
        success: true,
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        codeExpiresAt: expect.any(String),
      });
      expect(wrongs[3]!.body.message).toBe(rights[3]!.body.message);
      // A purchase number that is no order: the same answer again.
      const noOrder = await ask(newNetwork(), purchaseNumberLike(), guest().phoneNumber).expect(
        201,
      );
      expect(shape(noOrder.body)).toEqual(shape(rights[0]!.body));

      // Only the right phone got codes.
      await s.messagesTo(msisdn(right), 4);
      await sleep(500);
      expect(codesTo(msisdn(right))).toHaveLength(3);
      expect(s.sim.outbox.filter((m) => m.to === msisdn(wrong))).toHaveLength(0);

      // Confirming: wrong codes fail alike, five times, then the request is spent alike.
      const code = codesTo(msisdn(right))[2]!;
      const wrongCode = code === '000000' ? '111111' : '000000';
      const confirmAll = async (requestId: string) => {
        const out = [];
        for (let i = 0; i < 6; i++) {
          const res = await http()
            .post(`/api/privacy/requests/${requestId}/confirm`)
            .send({ code: wrongCode });
          out.push([res.status, res.body.message]);
        }
        return out;
      };
      const realTries = await confirmAll(rights[2]!.body.requestId);
      expect(realTries.slice(0, 5)).toEqual(Array(5).fill([400, 'The code is not correct']));
      expect(realTries[5]![0]).toBe(410);
      expect(await confirmAll(wrongs[2]!.body.requestId)).toEqual(realTries);
      // The request of a wrong phone keeps neither the phone typed nor the order's number.
      const fake = await db()
        .collection('data_requests')
        .findOne({ _id: wrongs[0]!.body.requestId as never });
      expect(fake).toMatchObject({ phone: '', purchaseNumber: '', status: 'unconfirmed' });
    });
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

  describe('the audit trail', () => {
    it('records a change of the notice or the periods, naming what changed', async () => {
      await http()
        .put('/api/admin/privacy/settings')
        .set(admin())
        .send({ smsOutboxDays: 30, noticeText: 'We keep texts {smsOutboxDays} days.' })
        .expect(200);
      // Saved again unchanged: nothing new to record.
      await http()
        .put('/api/admin/privacy/settings')
        .set(admin())
        .send({ smsOutboxDays: 30 })
        .expect(200);
      const res = await http()
        .get('/api/audit-logs')
        .query({ action: 'privacy.settings.update' })
        .set(admin())
        .expect(200);
      const entries = JSON.stringify(res.body);
      expect(res.headers['x-total-count']).toBe('1');
      expect(entries).toContain('texts sent kept 180 → 30 days');
      expect(entries).toContain("the notice's text");
      expect(entries).toContain(world.admin.user._id);
      expect(entries).not.toContain('We keep texts');
    });

    it("records each step of a guest's request as a data request, never with the phone", async () => {
      const order = await guestOrder();
      const phone = order.details.phoneNumber;
      const asked = await ask(newNetwork(), order.purchaseNumber, phone).expect(201);
      const requestId = asked.body.requestId as string;
      await s.messagesTo(msisdn(phone), 2);
      const code = codesTo(msisdn(phone))[0]!;
      await http().post(`/api/privacy/requests/${requestId}/confirm`).send({ code }).expect(200);
      await http().post(`/api/admin/data-requests/${requestId}/export`).set(admin()).expect(200);

      // The asking is recorded once its code went out, after the answer.
      const steps = ['privacy.request.create', 'privacy.request.confirm', 'privacy.request.export'];
      const entries = await waitFor(
        () =>
          db()
            .collection('audit_logs')
            .find({ action: { $in: steps } })
            .toArray(),
        (found) => found.filter((e) => e.target?.id === requestId).length >= 3,
        10_000,
      );
      const mine = entries.filter((e) => JSON.stringify(e).includes(requestId));
      expect(mine.map((e) => e.action).sort()).toEqual([
        'privacy.request.confirm',
        'privacy.request.create',
        'privacy.request.export',
      ]);
      for (const entry of mine)
        expect(entry.target).toEqual({
          type: 'data-request',
          id: requestId,
          label: order.purchaseNumber,
        });
      expect(entries.filter((e) => e.target?.type === 'order')).toEqual([]);
      const text = JSON.stringify(mine);
      for (const spelling of [...spellings(phone), code]) expect(text).not.toContain(spelling);
      // The back office reads them in words.
      const listed = await http()
        .get('/api/audit-logs')
        .query({ action: 'privacy.request.confirm' })
        .set(admin())
        .expect(200);
      expect(JSON.stringify(listed.body)).toContain(requestId);
    });
  });
});

describe('the start-up line names the admin without their e-mail', () => {
  let api: ApiProcess;
  let dataDir: string;

  beforeAll(async () => {
    assertBuilt();
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-privacy-guards-'));
    api = new ApiProcess('privacy_guards_startup', await freePort(), {
      ...PRODUCTION_ENV,
      MONGODB_URI: withDatabaseName(
        serverUri(),
        `e2e_privacy_guards_startup_${randomBytes(3).toString('hex')}`,
      ),
      DATA_DIR: dataDir,
      UPLOADS_DIR: path.join(dataDir, 'uploads'),
      LOG_LEVEL: 'info',
    });
    await api.ready();
  }, 90_000);
  afterAll(async () => {
    await api.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says the admin account was created, with the e-mail masked', async () => {
    const output = `${api.stdout}${api.stderr}`;
    expect(output).toContain('Created the admin account ***@seedlings.example');
    expect(output).not.toContain(PRODUCTION_ENV.ADMIN_EMAIL);
    // The admin signs in as ever.
    await signIn(
      api as unknown as Parameters<typeof signIn>[0],
      PRODUCTION_ENV.ADMIN_EMAIL,
      PRODUCTION_ENV.ADMIN_PASSWORD,
    );
  });
});
