/**
 * An outside tester's second round of attacks on "personal data has owners" (issue 39): what the
 * first round (privacy-attack.e2e-spec.ts) missed. Each test is one attack, written as what a
 * customer, a guest, an outsider or the shop's staff would see. A test that fails is a hole.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startSmsSimulator, type SmsSimulator } from '../../tools/sms/simulator';
import { freePort, withDatabaseName } from '../../tools/db/launcher';
import { ApiProcess, assertBuilt, PRODUCTION_ENV } from './support/api-process';
import { bearer, registerCustomer, signIn, type Session } from './support/identity';
import { newPerson, personHits, type Person } from './support/personal-data';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { DELIVERY, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { SMS_TEST_SETTINGS } from './support/sms';
import { serverUri } from './support/test-app';
import { sleep, waitFor } from './support/wait';

interface Order {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
}

type Customer = Session & { password: string };

const msisdn = (phone: string) => `+254${phone.slice(1)}`;

describe('privacy attacks, round 2', () => {
  let m: MpesaTestApp;
  let sms: SmsSimulator;
  let world: ShopWorld;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-privacy-attack-2-'));
    sms = await startSmsSimulator({
      username: SMS_TEST_SETTINGS.AT_USERNAME,
      apiKey: SMS_TEST_SETTINGS.AT_API_KEY,
    });
    m = await createMpesaTestApp('pattack2', {
      ...SMS_TEST_SETTINGS,
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: sms.url,
      SMS_RETRY_INTERVAL_MS: '200',
      DATA_DIR: dataDir,
    });
    world = await createShopWorld(m.t, { product: { price: 300, quantity: 100_000 } });
  }, 120_000);
  afterAll(async () => {
    await m.close();
    await sms.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const http = () => m.t.http();
  const staff = () => bearer(world.staff.accessToken);
  const admin = () => bearer(world.admin.accessToken);
  const db = () => m.t.app.get<Connection>(getConnectionToken()).db!;

  const hits = (p: Person) => personHits(db(), p);

  function customerOf(p: Person): Promise<Customer> {
    return registerCustomer(m.t, { fullName: p.name, email: p.email, phoneNumber: p.phone });
  }

  const detailsOf = (p: Person, phone = p.spaced) => ({
    fullName: p.name,
    phoneNumber: phone,
    email: p.email,
  });

  function placing(p: Person, c: Session | null) {
    return placeOrder(m.t, [{ _id: world.productId, quantity: 1 }], {
      token: c?.accessToken,
      guestInfo: { ...DELIVERY, ...detailsOf(p) },
    });
  }

  async function order(p: Person, c: Session | null): Promise<Order> {
    return (await placing(p, c).expect(201)).body.order as Order;
  }

  async function staffOrder(id: string) {
    return (await http().get(`/api/orders/${id}`).set(staff()).expect(200)).body.order as {
      orderStatus: string;
      guestInfo: { fullName: string; phoneNumber: string; email: string };
    };
  }

  async function cancel(o: Order, by: Record<string, string> = staff()) {
    await http().patch(`/api/orders/cancel/${o._id}`).set(by).send({}).expect(200);
  }

  async function contactMessages(): Promise<string> {
    const res = await http().get('/api/contact-messages?limit=100').set(staff()).expect(200);
    return JSON.stringify(res.body);
  }

  async function writeToShop(p: Person, words: string) {
    await http()
      .post('/api/contact')
      .send({ name: p.name, email: p.email, subject: 'Passion fruit seedlings', message: words })
      .expect(201);
  }

  const mailed = (orderId: string) =>
    waitFor(
      () => db().collection('mail_log').countDocuments({ orderId }),
      (n) => n > 0,
      10_000,
      100,
    );

  /** A guest's request with the SMS code, confirmed: answers its id. */
  async function guestRequest(
    o: Order,
    phone: string,
    kind: 'export' | 'erasure',
  ): Promise<string> {
    const before = sms.outbox.length;
    const res = await http()
      .post('/api/privacy/requests')
      .send({ purchaseNumber: o.purchaseNumber, phoneNumber: phone, kind })
      .expect(201);
    const texts = await waitFor(
      async () =>
        sms.outbox
          .slice(before)
          .filter(
            (x) =>
              x.to === msisdn(phone) &&
              x.message.includes(`data request about order ${o.purchaseNumber}`),
          ),
      (l) => l.length > 0,
      10_000,
      100,
    );
    const code = /is (\d{6})/.exec(texts.at(-1)!.message)![1]!;
    await http()
      .post(`/api/privacy/requests/${res.body.requestId}/confirm`)
      .send({ code })
      .expect(200);
    return res.body.requestId as string;
  }

  // ---------------------------------------------------------------------------------------------
  // The "proven" e-mail is no proof: sign-up never checks that the address is the person's.
  // ---------------------------------------------------------------------------------------------

  it("a stranger who signs up with a guest's e-mail and deletes the account does not erase the guest's messages to the shop or the e-mails of the guest's orders", async () => {
    const g = newPerson('Achieng');
    const words = `Guest's question ${randomBytes(3).toString('hex')}`;
    await writeToShop(g, words);
    const go = await order(g, null);
    await mailed(go._id);
    expect(await contactMessages()).toContain(words);

    // The attacker signs up with the guest's address (no one checks it is theirs), then deletes.
    const attacker = await registerCustomer(m.t, {
      fullName: 'Mallory Wafula',
      email: g.email,
      phoneNumber: '0711000555',
    });
    await http()
      .post('/api/users/profile/delete')
      .set(bearer(attacker.accessToken))
      .send({ password: attacker.password })
      .expect(200);

    // The guest asks for their data: the e-mails the shop sent about their order are in it, and
    // their message is still in the shop's inbox.
    const id = await guestRequest(go, g.phone, 'export');
    const file = JSON.parse(
      (await http().post(`/api/admin/data-requests/${id}/export`).set(admin()).expect(200)).text,
    ) as { emails: { orderId: string | null }[] };
    expect({
      messageInShopInbox: (await contactMessages()).includes(words),
      emailsOfTheGuestsOrder: file.emails.filter((e) => e.orderId === go._id).length > 0,
    }).toEqual({ messageInShopInbox: true, emailsOfTheGuestsOrder: true });
  });

  // ---------------------------------------------------------------------------------------------
  // Races: the customer, still signed in, places orders while their own deletion runs.
  // ---------------------------------------------------------------------------------------------

  /**
   * The customer, still signed in, places a burst of orders while their account is deleted (by
   * `deletion`), the burst starting at a fraction of how long a deletion takes; answers what names
   * them after a deletion that answered 200.
   */
  async function raceDeletion(
    deletion: (c: Customer) => PromiseLike<{ status: number }>,
  ): Promise<string[]> {
    const probe = await customerOf(newPerson('Achieng'));
    const started = Date.now();
    expect((await deletion(probe)).status).toBe(200);
    const took = Date.now() - started;

    const leaks: string[] = [];
    for (const fraction of [0.4, 0.55, 0.7, 0.8, 0.9, 1.0, 0.2, 0.6, 0.75, 0.85, 0.95]) {
      const p = newPerson('Achieng');
      const c = await customerOf(p);
      const offset = Math.round(took * fraction);
      const burst = [0, 15, 30, 45, 60, 90].map((ms) =>
        sleep(offset + ms).then(() => placing(p, c).then((r) => r)),
      );
      const [deleted, ...placed] = await Promise.all([deletion(c), ...burst]);
      if (deleted.status !== 200) continue;
      const survivors = placed.filter((r) => r.status === 201).map((r) => r.body.order as Order);
      for (const o of survivors) {
        const kept = await staffOrder(o._id);
        if (kept.guestInfo.fullName !== 'Deleted customer' || kept.orderStatus === 'Pending')
          leaks.push(
            `order ${o.purchaseNumber} (${kept.orderStatus}) of a deleted account: ${JSON.stringify(kept.guestInfo)}`,
          );
      }
      leaks.push(...(await hits(p)));
      if (leaks.length) break;
    }
    return leaks;
  }

  it('orders placed by the customer while their own deletion runs: once the deletion answered 200, no order or account names them and none is left open', async () => {
    const leaks = await raceDeletion((c) =>
      http()
        .post('/api/users/profile/delete')
        .set(bearer(c.accessToken))
        .send({ password: c.password })
        .then((r) => r),
    );
    expect(leaks).toEqual([]);
  }, 300_000);

  it("orders placed by the customer while the admin deletes them: once the admin's delete answered 200, no order or account names them and none is left open", async () => {
    const leaks = await raceDeletion((c) =>
      http()
        .delete(`/api/user/delete/${c.user._id}`)
        .set(admin())
        .then((r) => r),
    );
    expect(leaks).toEqual([]);
  }, 300_000);

  // ---------------------------------------------------------------------------------------------
  // The guest's confirm route: a wrong code answered with the request.
  // ---------------------------------------------------------------------------------------------

  it("a wrong code given for a guest's request already confirmed is refused, and the answer holds neither the guest's phone nor the admin's name", async () => {
    const p = newPerson('Achieng');
    const o = await order(p, null);
    const id = await guestRequest(o, p.phone, 'export');
    await http().post(`/api/admin/data-requests/${id}/export`).set(admin()).expect(200);
    const wrong = await http().post(`/api/privacy/requests/${id}/confirm`).send({ code: '000000' });
    expect({
      refused: wrong.status >= 400,
      holdsPhone: wrong.text.includes(msisdn(p.phone)),
      namesAdmin: wrong.text.includes(world.admin.user.fullName),
    }).toEqual({ refused: true, holdsPhone: false, namesAdmin: false });
  });

  // ---------------------------------------------------------------------------------------------
  // Attacks that should hold.
  // ---------------------------------------------------------------------------------------------

  it("an account created with a guest's e-mail: its export holds none of the guest's orders, mails or messages", async () => {
    const g = newPerson('Achieng');
    const words = `Private words ${randomBytes(3).toString('hex')}`;
    await writeToShop(g, words);
    const go = await order(g, null);
    await mailed(go._id);
    const taker = await registerCustomer(m.t, {
      fullName: 'Mallory Chebet',
      email: g.email,
      phoneNumber: g.phone,
    });
    const file = (
      await http().get('/api/users/profile/data-export').set(bearer(taker.accessToken)).expect(200)
    ).text;
    expect(file).not.toContain(go.purchaseNumber);
    expect(file).not.toContain(words);
    expect(file).not.toContain(go._id);
  });

  it('the order list search and the customers list find no erased customer by name, phone or e-mail', async () => {
    const p = newPerson('Achieng');
    const c = await customerOf(p);
    const o = await order(p, c);
    await cancel(o, bearer(c.accessToken));
    await http()
      .post('/api/users/profile/delete')
      .set(bearer(c.accessToken))
      .send({ password: c.password })
      .expect(200);
    for (const search of [p.surname, p.spaced, p.email, p.phone]) {
      const orders = await http().get('/api/orders').query({ search }).set(staff()).expect(200);
      expect(JSON.stringify(orders.body)).not.toContain(o.purchaseNumber);
      const users = await http().get('/api/users').query({ search }).set(admin()).expect(200);
      expect(JSON.stringify(users.body).toLowerCase()).not.toContain(p.surname.toLowerCase());
    }
    const movements = await http()
      .get(`/api/stock/products/${world.productId}/movements`)
      .set(staff())
      .expect(200);
    expect(JSON.stringify(movements.body).toLowerCase()).not.toContain(p.surname.toLowerCase());
  });

  it('two erasures of one guest at once answer without a server error and erase them', async () => {
    const p = newPerson('Achieng');
    const o = await order(p, null);
    await cancel(o);
    const first = await guestRequest(o, p.phone, 'erasure');
    const second = await guestRequest(o, p.phone, 'erasure');
    const answers = await Promise.all(
      [first, second].map((id) => http().post(`/api/admin/data-requests/${id}/erase`).set(admin())),
    );
    expect(answers.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
    expect(await hits(p)).toEqual([]);
  });
});

// -----------------------------------------------------------------------------------------------
// Logs: what the process writes to stdout while staff look a customer up.
// -----------------------------------------------------------------------------------------------

describe('privacy attacks, round 2: the logs', () => {
  let api: ApiProcess;
  let dataDir: string;

  beforeAll(async () => {
    assertBuilt();
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-privacy-attack-2-logs-'));
    api = new ApiProcess('privacy_attack_2_logs', await freePort(), {
      ...PRODUCTION_ENV,
      MONGODB_URI: withDatabaseName(
        serverUri(),
        `e2e_privacy_attack_2_logs_${randomBytes(3).toString('hex')}`,
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

  it("the access log keeps no customer's phone or name that staff typed into a search, as the shop writes them", async () => {
    const p = newPerson('Achieng');
    const adminSession = await signIn(
      api as unknown as Parameters<typeof signIn>[0],
      PRODUCTION_ENV.ADMIN_EMAIL,
      PRODUCTION_ENV.ADMIN_PASSWORD,
    );
    const as = bearer(adminSession.accessToken);
    // The phone as the back office shows it ("0781 354 880"), as M-Pesa writes it with blanks,
    // and the customer's name.
    for (const search of [p.spaced, `+254 ${p.spaced.slice(1)}`, p.name]) {
      await api.http().get('/api/orders').query({ search }).set(as).expect(200);
      await api.http().get('/api/users').query({ search }).set(as).expect(200);
    }
    await sleep(500);
    const output = `${api.stdout}${api.stderr}`;
    const read = output
      .replace(/%20|\+/g, ' ')
      .replace(/%2B/gi, '+')
      .toLowerCase();
    const found = [p.spaced, p.spaced.slice(1), p.surname.toLowerCase()].filter((w) =>
      read.includes(w),
    );
    expect(found).toEqual([]);
  }, 60_000);
});
