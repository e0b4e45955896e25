/**
 * Customers' data under Kenya's Data Protection Act (issue 31): the privacy notice, the download of
 * one's data, the deletion of an account, guests' requests proved by an SMS code, marketing
 * consent withdrawn by a STOP reply, and pruning by the periods the shop sets.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { freePort, withDatabaseName } from '../../tools/db/launcher';
import { RetentionSweep } from '../src/privacy/retention-sweep';
import { shopDay } from '../src/common/shop-clock';
import { ApiProcess, assertBuilt, PRODUCTION_ENV } from './support/api-process';
import { bearer, registerCustomer, signIn, signInAdmin, type Session } from './support/identity';
import { createCategory, createProduct, guest, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createSmsTestApp, smsInboundUrl, type SmsTestApp } from './support/sms';
import { serverUri, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';

type Customer = Session & { password: string };

describe('privacy: notice, my data, deletion, guest requests, consent', () => {
  let s: SmsTestApp;
  let world: ShopWorld;
  let base: string;

  beforeAll(async () => {
    s = await createSmsTestApp('privacy');
    const port = await freePort();
    await s.t.app.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    s.sim.setInboundUrl(smsInboundUrl(base));
    world = await createShopWorld(s.t);
  }, 60_000);
  afterAll(() => s.close());

  const http = () => s.t.http();
  const db = () => s.t.app.get<Connection>(getConnectionToken()).db!;
  const staff = () => bearer(world.staff.accessToken);
  const admin = () => bearer(world.admin.accessToken);

  /** A customer of their own (unique phone and e-mail), signed in. */
  async function customer(): Promise<Customer & { phone: string }> {
    const phone = guest().phoneNumber;
    const c = await registerCustomer(s.t, { phoneNumber: phone });
    return { ...c, phone };
  }

  async function order(c: Customer | null, details = guest()) {
    const res = await placeOrder(s.t, [{ _id: world.productId, quantity: 1 }], {
      token: c?.accessToken,
      guestInfo: details,
    }).expect(201);
    return res.body.order as {
      _id: string;
      purchaseNumber: string;
      totalAmount: number;
      guestInfo: { phoneNumber: string; email: string };
    };
  }

  async function pay(o: { _id: string; totalAmount: number }, code: string) {
    await http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(staff())
      .send({
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: o.totalAmount,
          transactionCode: code,
          timePaid: new Date().toISOString(),
        },
      })
      .expect(200);
  }

  async function complete(o: { _id: string; totalAmount: number }, code: string) {
    await pay(o, code);
    await http().patch(`/api/orders/inTransit/${o._id}`).set(staff()).expect(200);
    await http()
      .patch('/api/orders/confirm-delivery')
      .set(staff())
      .send({ orderId: o._id })
      .expect(200);
    await http().patch(`/api/orders/complete-order/${o._id}`).set(staff()).expect(200);
  }

  const receipt = () => `S${randomBytes(5).toString('hex').toUpperCase().slice(0, 9)}`;
  const msisdn = (phone: string) => `+254${phone.slice(1)}`;

  describe('the privacy notice', () => {
    it('names the controller, the periods and the rights; the admin edits it, the law bounds it', async () => {
      const res = await http().get('/api/privacy/notice').expect(200);
      const notice = res.body.notice;
      expect(notice.controller).toEqual({
        name: 'Seedling Propagation Centre',
        ...s.t.config.shopContacts,
      });
      expect(notice.retention.taxRetentionYears).toBe(5);
      expect(notice.text).toContain('5 years (Tax Procedures Act, 2015)');
      expect(notice.text).toContain("Africa's Talking");
      expect(notice.text).toContain('delete your account');
      expect(notice.text).not.toContain('{');

      await http()
        .put('/api/admin/privacy/settings')
        .set(staff())
        .send({ noticeText: 'x' })
        .expect(403);
      const tooShort = await http()
        .put('/api/admin/privacy/settings')
        .set(admin())
        .send({ taxRetentionYears: 3, noticeText: 'Changed' })
        .expect(400);
      expect(JSON.stringify(tooShort.body)).toContain('at least 5 years');
      expect((await http().get('/api/privacy/notice').expect(200)).body.notice.text).toBe(
        notice.text,
      );

      // The longest notice fits whatever its characters: 20,000 seedlings (U+1F331), sent as JSON
      // escapes, 12 bytes each (240 KB, over the API-wide 64 KB).
      const longest = '\u{1F331}'.repeat(20_000);
      await http()
        .put('/api/admin/privacy/settings')
        .set(admin())
        .set('content-type', 'application/json')
        .send(JSON.stringify({ noticeText: longest }).replace(/\u{1F331}/gu, '\\ud83c\\udf31'))
        .expect(200);
      expect((await http().get('/api/privacy/notice').expect(200)).body.notice.text).toBe(longest);
      await http()
        .put('/api/admin/privacy/settings')
        .set(admin())
        .send({ noticeText: 'We keep texts {smsOutboxDays} days.', smsOutboxDays: 30 })
        .expect(200);
      const edited = (await http().get('/api/privacy/notice').expect(200)).body.notice;
      expect(edited.text).toBe('We keep texts 30 days.');
      const ttl = (await db().collection('sms_outbox').indexes()).find(
        (i) => i.name === 'retention_createdAt',
      );
      expect(ttl?.expireAfterSeconds).toBe(30 * 86_400);
      const mailTtl = (await db().collection('mail_log').indexes()).find(
        (i) => i.name === 'retention_sentAt',
      );
      expect(mailTtl?.expireAfterSeconds).toBe(180 * 86_400);
      const contactTtl = (await db().collection('contact_messages').indexes()).find(
        (i) => i.name === 'retention_createdAt',
      );
      expect(contactTtl?.expireAfterSeconds).toBe(365 * 86_400);
    });
  });

  describe('download my data', () => {
    it('holds every kind of record of the customer, and none of another customer', async () => {
      const me = await customer();
      const other = await customer();
      await http()
        .patch('/api/users/profile/consents')
        .set(bearer(me.accessToken))
        .send({ marketingSms: true })
        .expect(200);
      const mine = await order(me, guest({ phoneNumber: me.phone }));
      const code = receipt();
      await pay(mine, code);
      const refunded = await order(me, guest({ phoneNumber: me.phone }));
      await pay(refunded, receipt());
      await http()
        .patch(`/api/orders/cancel/${refunded._id}`)
        .set(staff())
        .send({
          refund: { method: 'Mpesa', amount: refunded.totalAmount, reference: 'RFD1234567' },
        })
        .expect(200);
      const theirs = await order(other, guest({ phoneNumber: other.phone }));
      await s.messagesTo(msisdn(me.phone), 1);

      const res = await http()
        .get('/api/users/profile/data-export')
        .set(bearer(me.accessToken))
        .expect(200);
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      expect(res.headers['cache-control']).toBe('private, no-store');
      const file = JSON.parse(res.text);
      expect(file.summary[0]).toContain('everything the shop keeps about you');
      expect(file.account.email).toBe(me.user.email);
      expect(file.deliveryDetails.phoneNumber).toBe(me.phone);
      expect(file.orders.map((o: { purchaseNumber: string }) => o.purchaseNumber).sort()).toEqual(
        [mine.purchaseNumber, refunded.purchaseNumber].sort(),
      );
      expect(file.payments).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ purchaseNumber: mine.purchaseNumber, transactionCode: code }),
        ]),
      );
      expect(file.refunds).toEqual([
        expect.objectContaining({
          purchaseNumber: refunded.purchaseNumber,
          reference: 'RFD1234567',
        }),
      ]);
      expect(file.smsMessages.length).toBeGreaterThan(0);
      expect(file.smsMessages[0].to).toBe(msisdn(me.phone));
      const myAddresses = [me.user.email, mine.guestInfo.email, refunded.guestInfo.email];
      expect(file.emails.length).toBeGreaterThan(0);
      expect(file.emails.every((e: { to: string }) => myAddresses.includes(e.to))).toBe(true);
      expect(file.consents.granted).toBe(true);
      expect(file.consents.history).toEqual([
        expect.objectContaining({ granted: true, source: 'profile' }),
      ]);
      // No staff member's name, no internal key (issue 39): who recorded the payment or the
      // refund is the shop's, the search and hold keys and receipt keys are the shop's internals.
      for (const internal of [
        world.staff.user.fullName,
        world.staff.user.email,
        'completedByName',
        'refundedByName',
        'requestedByName',
        'contactKeys',
        'holdSlots',
        'receiptKey',
        'moneyCredits',
      ])
        expect(res.text).not.toContain(internal);
      for (const foreign of [
        theirs.purchaseNumber,
        theirs.guestInfo.email,
        other.user.email,
        other.phone,
        other.user._id,
      ])
        expect(res.text).not.toContain(foreign);

      // Audited, and limited to three a day.
      const audit = await http()
        .get('/api/audit-logs?action=privacy.export')
        .set(admin())
        .expect(200);
      expect(JSON.stringify(audit.body)).toContain(me.user._id);
      await http().get('/api/users/profile/data-export').set(bearer(me.accessToken)).expect(200);
      await http().get('/api/users/profile/data-export').set(bearer(me.accessToken)).expect(200);
      const fourth = await http()
        .get('/api/users/profile/data-export')
        .set(bearer(me.accessToken))
        .expect(429);
      expect(fourth.body.message).toContain('3 times a day');
      await http().get('/api/users/profile/data-export').expect(401);
    });
  });

  describe('delete my account', () => {
    it('anonymises the customer, keeps the orders whole, frees the e-mail; sales totals unchanged', async () => {
      const me = await customer();
      const o = await order(me, guest({ phoneNumber: me.phone, email: me.user.email }));
      const today = shopDay(new Date());

      // Wrong password: refused, nothing changes.
      await http()
        .post('/api/users/profile/delete')
        .set(bearer(me.accessToken))
        .send({ password: 'Wrong#Pass123' })
        .expect(401);
      // An open order: refused until it is settled.
      const open = await http()
        .post('/api/users/profile/delete')
        .set(bearer(me.accessToken))
        .send({ password: me.password })
        .expect(409);
      expect(open.body.message).toContain(o.purchaseNumber);
      await signIn(s.t, me.user.email, me.password);

      await complete(o, receipt());
      const summary = () =>
        http()
          .get('/api/sales-summary/report')
          .query({ from: today, to: today })
          .set(admin())
          .expect(200)
          .then((r) => r.body.totals);
      const totalSales = () =>
        http()
          .get('/api/sales-summary')
          .set(admin())
          .expect(200)
          .then((r) => r.body.totalSales);
      const before = [await summary(), await totalSales()];

      await http()
        .post('/api/users/profile/delete')
        .set(bearer(me.accessToken))
        .send({ password: me.password })
        .expect(200);

      // Sign-in with the old address fails; the old tokens no longer work.
      await http()
        .post('/api/auth/login')
        .send({ email: me.user.email, password: me.password })
        .expect(401);
      await http().get('/api/users/profile').set(bearer(me.accessToken)).expect(401);

      // The order stays, whole, without the contacts.
      const kept = (await http().get(`/api/orders/${o._id}`).set(staff()).expect(200)).body.order;
      expect(kept.totalAmount).toBe(o.totalAmount);
      expect(kept.orderStatus).toBe('Completed');
      expect(kept.guestInfo).toMatchObject({
        fullName: 'Deleted customer',
        phoneNumber: '',
        email: '',
        streetAddress: '',
      });
      const closed = await db().collection('users').findOne({ email: me.user.email });
      expect(closed).toBeNull();
      expect(await db().collection('mail_log').countDocuments({ to: me.user.email })).toBe(0);
      expect(await db().collection('sms_outbox').countDocuments({ orderId: o._id })).toBe(0);
      expect([await summary(), await totalSales()]).toEqual(before);

      // The old e-mail registers as a new, empty account.
      const again = await registerCustomer(s.t, { email: me.user.email });
      expect(again.user._id).not.toBe(me.user._id);
      const orders = await http()
        .get('/api/orders/user')
        .set(bearer(again.accessToken))
        .expect(200);
      expect(JSON.stringify(orders.body)).not.toContain(o.purchaseNumber);
      const fresh = await http()
        .get('/api/users/profile/data-export')
        .set(bearer(again.accessToken))
        .expect(200);
      expect(JSON.parse(fresh.text).orders).toEqual([]);
    });

    it('is for customers: a staff member is refused', async () => {
      const res = await http()
        .post('/api/users/profile/delete')
        .set(staff())
        .send({ password: world.staff.password })
        .expect(403);
      expect(res.body.message).toContain('closed by the admin');
    });
  });

  describe('the tax retention period', () => {
    it('takes the contacts off settled orders older than it, keeping their figures', async () => {
      const old = await order(null);
      const recent = await order(null);
      await complete(old, receipt());
      await complete(recent, receipt());
      const years = (n: number) => {
        const d = new Date();
        d.setUTCFullYear(d.getUTCFullYear() - n);
        return d;
      };
      const orders = db().collection('orders');
      await orders.updateOne(
        { _id: new Types.ObjectId(old._id) },
        { $set: { orderDate: years(6) } },
      );
      await orders.updateOne(
        { _id: new Types.ObjectId(recent._id) },
        { $set: { orderDate: years(4) } },
      );
      expect(await s.t.app.get(RetentionSweep).sweep()).toBeGreaterThanOrEqual(1);
      const swept = (await http().get(`/api/orders/${old._id}`).set(staff()).expect(200)).body
        .order;
      expect(swept.guestInfo).toMatchObject({
        fullName: 'Deleted customer',
        phoneNumber: '',
        email: '',
      });
      expect(swept.totalAmount).toBe(old.totalAmount);
      const kept = (await http().get(`/api/orders/${recent._id}`).set(staff()).expect(200)).body
        .order;
      expect(kept.guestInfo.phoneNumber).toBe(recent.guestInfo.phoneNumber);
    });
  });

  describe("a guest's request", () => {
    async function ask(kind: 'export' | 'erasure') {
      const details = guest();
      const o = await order(null, details);
      const res = await http()
        .post('/api/privacy/requests')
        .send({ purchaseNumber: o.purchaseNumber, phoneNumber: details.phoneNumber, kind })
        .expect(201);
      const sms = await s.messagesTo(msisdn(details.phoneNumber), 2);
      const text = sms.map((m) => m.message).find((m) => m.includes('data request'))!;
      return {
        o,
        details,
        requestId: res.body.requestId as string,
        code: /is (\d{6})/.exec(text)![1]!,
      };
    }

    it('needs the SMS code, then waits in the queue with its due date and is answered once', async () => {
      const { o, details, requestId, code } = await ask('export');
      // Another phone: answered alike (privacy-guards.e2e-spec.ts), and no code is sent to it.
      await http()
        .post('/api/privacy/requests')
        .send({ purchaseNumber: o.purchaseNumber, phoneNumber: '0799000111', kind: 'export' })
        .expect(201);

      const wrong = code === '000000' ? '111111' : '000000';
      const refused = await http()
        .post(`/api/privacy/requests/${requestId}/confirm`)
        .send({ code: wrong })
        .expect(400);
      expect(refused.body.message).toBe('The code is not correct');
      const queue = async () =>
        (await http().get('/api/admin/data-requests').set(admin()).expect(200)).body.requests as {
          _id: string;
          status: string;
          dueAt: string;
        }[];
      expect((await queue()).map((r) => r._id)).not.toContain(requestId);
      await http().post(`/api/admin/data-requests/${requestId}/export`).set(admin()).expect(409);

      const confirmed = await http()
        .post(`/api/privacy/requests/${requestId}/confirm`)
        .send({ code })
        .expect(200);
      expect(confirmed.body.request.status).toBe('open');
      const listed = (await queue()).find((r) => r._id === requestId)!;
      const days = (Date.parse(listed.dueAt) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);
      await http().get('/api/admin/data-requests').set(staff()).expect(403);

      const answer = await http()
        .post(`/api/admin/data-requests/${requestId}/export`)
        .set(admin())
        .expect(200);
      const file = JSON.parse(answer.text);
      expect(file.orders.map((x: { purchaseNumber: string }) => x.purchaseNumber)).toEqual([
        o.purchaseNumber,
      ]);
      expect(file.orders[0].guestInfo.phoneNumber).toBe(details.phoneNumber);
      expect((await queue()).find((r) => r._id === requestId)!.status).toBe('answered');
      await http().post(`/api/admin/data-requests/${requestId}/export`).set(admin()).expect(409);
    });

    it("erasure anonymises the guest's orders once they are settled", async () => {
      const { o, requestId, code } = await ask('erasure');
      const before = await http()
        .get('/api/orders')
        .query({ search: o.guestInfo.phoneNumber })
        .set(staff())
        .expect(200);
      expect(before.body.orders.map((x: { _id: string }) => x._id)).toContain(o._id);
      await http().post(`/api/privacy/requests/${requestId}/confirm`).send({ code }).expect(200);
      const open = await http()
        .post(`/api/admin/data-requests/${requestId}/erase`)
        .set(admin())
        .expect(409);
      expect(open.body.message).toContain(o.purchaseNumber);
      await complete(o, receipt());
      const done = await http()
        .post(`/api/admin/data-requests/${requestId}/erase`)
        .set(admin())
        .expect(200);
      expect(done.body.request).toMatchObject({
        status: 'answered',
        answer: 'anonymised',
        phone: '',
      });
      const kept = (await http().get(`/api/orders/${o._id}`).set(staff()).expect(200)).body.order;
      expect(kept.guestInfo).toMatchObject({ fullName: 'Deleted customer', phoneNumber: '' });
      // The back office's search no longer finds the order by the erased phone or e-mail.
      for (const search of [o.guestInfo.phoneNumber, o.guestInfo.email]) {
        const found = await http().get('/api/orders').query({ search }).set(staff()).expect(200);
        expect(found.body.orders.map((x: { _id: string }) => x._id)).not.toContain(o._id);
      }
      expect(kept.totalAmount).toBe(o.totalAmount);
    });
  });

  describe('marketing consent', () => {
    it('is off by default, recorded with time and source, and a STOP reply withdraws it', async () => {
      const me = await customer();
      const initial = await http()
        .get('/api/users/profile/consents')
        .set(bearer(me.accessToken))
        .expect(200);
      expect(initial.body.marketingSms).toEqual({
        granted: false,
        at: null,
        source: null,
        history: [],
      });
      await http()
        .patch('/api/users/profile/consents')
        .set(bearer(me.accessToken))
        .send({ marketingSms: 'yes' })
        .expect(400);
      await http()
        .patch('/api/users/profile/consents')
        .set(bearer(me.accessToken))
        .send({ marketingSms: true })
        .expect(200);

      // Someone else's STOP changes nothing of this customer's.
      expect(await s.sim.reply('+254799123456', 'STOP')).toBe(200);
      // A reply that is not STOP changes nothing either.
      expect(await s.sim.reply(msisdn(me.phone), 'Thank you!')).toBe(200);
      let consent = (
        await http().get('/api/users/profile/consents').set(bearer(me.accessToken)).expect(200)
      ).body.marketingSms;
      expect(consent.granted).toBe(true);

      expect(await s.sim.reply(msisdn(me.phone), ' stop ')).toBe(200);
      consent = (
        await http().get('/api/users/profile/consents').set(bearer(me.accessToken)).expect(200)
      ).body.marketingSms;
      expect(consent).toMatchObject({ granted: false, source: 'sms-stop' });
      expect(consent.history.map((h: { granted: boolean; source: string }) => h)).toEqual([
        expect.objectContaining({ granted: true, source: 'profile' }),
        expect.objectContaining({ granted: false, source: 'sms-stop' }),
      ]);
      expect(Date.parse(consent.at)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('a STOP from the number the profile has now withdraws it too (the phone changed since)', async () => {
      const me = await customer();
      await http()
        .patch('/api/users/profile/consents')
        .set(bearer(me.accessToken))
        .send({ marketingSms: true })
        .expect(200);
      const newPhone = guest().phoneNumber;
      await http()
        .patch('/api/users/profile')
        .set(bearer(me.accessToken))
        .send({ fullName: 'Wanjiku Kamau', phoneNumber: newPhone })
        .expect(200);
      expect(await s.sim.reply(msisdn(newPhone), 'STOP')).toBe(200);
      const consent = (
        await http().get('/api/users/profile/consents').set(bearer(me.accessToken)).expect(200)
      ).body.marketingSms;
      expect(consent).toMatchObject({ granted: false, source: 'sms-stop' });
    });

    it('takes form fields on the inbound callback only', async () => {
      const inbound = new URL(smsInboundUrl(base)).pathname;
      await http()
        .post(inbound)
        .type('form')
        .send({ from: '+254700000001', text: 'STOP' })
        .expect(200);
      await http().post(inbound).type('form').send({ text: 'STOP' }).expect(400);
      // A sender of blanks alone is no sender; a blank reply is taken and ignored.
      await http().post(inbound).send({ from: '\f', text: 'STOP' }).expect(400);
      await http()
        .post(inbound)
        .send({ from: '+254700000001', text: '' })
        .expect(200, /"received":true/);
      await http()
        .post('/api/contact')
        .type('form')
        .send({ name: 'x', email: 'x@example.co.ke', message: 'hello' })
        .expect(415);
    });
  });
});

describe('logs keep no phone number or e-mail address', () => {
  let api: ApiProcess;
  let dataDir: string;

  beforeAll(async () => {
    assertBuilt();
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-privacy-logs-'));
    api = new ApiProcess('privacy_logs', await freePort(), {
      ...PRODUCTION_ENV,
      MONGODB_URI: withDatabaseName(
        serverUri(),
        `e2e_privacy_logs_${randomBytes(3).toString('hex')}`,
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

  it('a signed-in order, its e-mails and a search by phone log neither', async () => {
    const app = api as unknown as TestApp;
    const adminSession = await signInAdmin(app);
    const category = await createCategory(app, adminSession.accessToken);
    const product = await createProduct(app, adminSession.accessToken, category._id, {
      productQuantity: 10,
    });
    const details = guest();
    const me = await registerCustomer(app, {
      phoneNumber: details.phoneNumber,
      email: details.email,
    });
    await placeOrder(app, [{ _id: product._id, quantity: 1 }], {
      token: me.accessToken,
      guestInfo: details,
    }).expect(201);
    await api
      .http()
      .get('/api/orders')
      .query({ search: details.phoneNumber })
      .set(bearer(adminSession.accessToken))
      .expect(200);
    await api
      .http()
      .get('/api/orders')
      .query({ search: details.email })
      .set(bearer(adminSession.accessToken))
      .expect(200);
    // The order's e-mails are written (and logged) after the answer.
    await waitFor(
      async () => (await readdir(path.join(dataDir, 'outbox')).catch(() => [])).length,
      (n) => n >= 2,
      10_000,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(api.stdout).toContain('"url":"/api/orders"');
    expect(api.stdout).toContain('search=[personal]');
    const local = details.phoneNumber.slice(1);
    for (const personal of [details.email, local, details.email.split('@')[0]!])
      expect(api.stdout).not.toContain(personal);
  });
});
