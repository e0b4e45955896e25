/**
 * An outside tester's attacks on "personal data has owners" (issue 39). Each test is one attack,
 * written as what a customer, a guest, the shop's staff or the admin would see. A test that fails
 * is a hole; one that passes is an attack that held.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { startSmsSimulator, type SmsSimulator } from '../../tools/sms/simulator';
import { MpesaRefundsService } from '../src/payments/c2b/mpesa-refunds.service';
import { RetentionSweep } from '../src/privacy/retention-sweep';
import { bearer, registerCustomer, STRONG_PASSWORD, type Session } from './support/identity';
import { decoded, outbox } from './support/mail';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { DELIVERY, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { SMS_TEST_SETTINGS } from './support/sms';
import { needles, newPerson, personHits, type Person } from './support/personal-data';
import { waitFor } from './support/wait';

interface Order {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
}

type Customer = Session & { password: string };

const PITCH = 'M-Pesa reversal pending, call 0700 123 456 now';

describe('privacy attacks: export, erasure, keys', () => {
  let m: MpesaTestApp;
  let sms: SmsSimulator;
  let world: ShopWorld;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-privacy-attack-'));
    sms = await startSmsSimulator({
      username: SMS_TEST_SETTINGS.AT_USERNAME,
      apiKey: SMS_TEST_SETTINGS.AT_API_KEY,
    });
    m = await createMpesaTestApp('pattack', {
      ...SMS_TEST_SETTINGS,
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: sms.url,
      SMS_RETRY_INTERVAL_MS: '200',
      DATA_DIR: dataDir,
    });
    world = await createShopWorld(m.t, { product: { price: 300, quantity: 100_000 } });
    await waitFor(
      async () => m.sim.c2b.registrations.length,
      (n) => n > 0,
      10_000,
      100,
    );
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
  const asDaraja = (phone: string) => `254${phone.slice(1)}`;
  const msisdn = (phone: string) => `+254${phone.slice(1)}`;

  const hits = (p: Person) => personHits(db(), p);

  function customerOf(p: Person): Promise<Customer> {
    return registerCustomer(m.t, { fullName: p.name, email: p.email, phoneNumber: p.phone });
  }

  async function order(
    details: { fullName: string; phoneNumber: string; email: string },
    c: Session | null,
  ): Promise<Order> {
    const res = await placeOrder(m.t, [{ _id: world.productId, quantity: 1 }], {
      token: c?.accessToken,
      guestInfo: { ...DELIVERY, ...details },
    }).expect(201);
    return res.body.order as Order;
  }

  const detailsOf = (p: Person, phone = p.spaced) => ({
    fullName: p.name,
    phoneNumber: phone,
    email: p.email,
  });

  async function staffOrder(id: string) {
    return (await http().get(`/api/orders/${id}`).set(staff()).expect(200)).body.order as {
      paymentStatus: string;
      orderStatus: string;
      guestInfo: { fullName: string; phoneNumber: string; email: string; streetAddress: string };
    };
  }

  async function cancel(o: Order, by: Record<string, string> = staff()) {
    await http().patch(`/api/orders/cancel/${o._id}`).set(by).send({}).expect(200);
  }

  async function payAndComplete(p: Person, o: Order): Promise<void> {
    await m.sim.payBill({
      account: o.purchaseNumber,
      amount: o.totalAmount,
      phone: asDaraja(p.phone),
    });
    await waitFor(
      () => staffOrder(o._id),
      (x) => x.paymentStatus === 'Paid',
      15_000,
      150,
    );
    await http().patch(`/api/orders/inTransit/${o._id}`).set(staff()).expect(200);
    await http()
      .patch('/api/orders/confirm-delivery')
      .set(staff())
      .send({ orderId: o._id })
      .expect(200);
    await http().patch(`/api/orders/complete-order/${o._id}`).set(staff()).expect(200);
  }

  /** A guest's request with the SMS code, confirmed: answers its id. */
  async function guestRequest(
    o: Order,
    phone: string,
    kind: 'export' | 'erasure',
  ): Promise<string> {
    const res = await http()
      .post('/api/privacy/requests')
      .send({ purchaseNumber: o.purchaseNumber, phoneNumber: phone, kind })
      .expect(201);
    const texts = await waitFor(
      async () =>
        sms.outbox.filter(
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

  async function guestErasure(o: Order, phone: string): Promise<void> {
    const id = await guestRequest(o, phone, 'erasure');
    await http().post(`/api/admin/data-requests/${id}/erase`).set(admin()).expect(200);
  }

  async function deleteAccount(c: Customer) {
    await http()
      .post('/api/users/profile/delete')
      .set(bearer(c.accessToken))
      .send({ password: c.password })
      .expect(200);
  }

  async function exportOf(c: Customer) {
    const res = await http()
      .get('/api/users/profile/data-export')
      .set(bearer(c.accessToken))
      .expect(200);
    return JSON.parse(res.text) as {
      emails: { to: string; template: string; orderId: string | null }[];
      orders: { purchaseNumber: string }[];
    };
  }

  async function contactMessages(): Promise<string> {
    const res = await http().get('/api/contact-messages?limit=100').set(staff()).expect(200);
    return JSON.stringify(res.body);
  }

  async function writeToShop(p: Person, words: string) {
    await http()
      .post('/api/contact')
      .send({ name: p.name, email: p.email, subject: 'Grafted mangoes', message: words })
      .expect(201);
  }

  /** Waits until the mail log recorded a message of this order (orders are mailed after the answer). */
  const mailed = (orderId: string) =>
    waitFor(
      () => db().collection('mail_log').countDocuments({ orderId }),
      (n) => n > 0,
      10_000,
      100,
    );

  async function trail(query: string): Promise<string> {
    const res = await http().get(`/api/audit-logs?limit=100&${query}`).set(admin()).expect(200);
    return JSON.stringify(res.body);
  }

  // ---------------------------------------------------------------------------------------------
  // Erasure abuse: one person's erasure reaches another person's records.
  // ---------------------------------------------------------------------------------------------

  it("a customer who typed another customer's e-mail on their own order, then deleted their account, does not erase that customer's mails or messages to the shop", async () => {
    const victim = newPerson('Atieno');
    const v = await customerOf(victim);
    const words = `Victim's question ${randomBytes(3).toString('hex')}`;
    await writeToShop(victim, words);
    const vo = await order(detailsOf(victim), v);
    await mailed(vo._id);
    const before = await exportOf(v);
    expect(before.emails.map((e) => e.template)).toContain('order-confirmation');
    expect(await contactMessages()).toContain(words);

    // The attacker: any shopper with an account, typing the victim's e-mail on their own order.
    const attacker = await registerCustomer(m.t);
    const ao = await order(
      { fullName: 'Mallory Otieno', phoneNumber: '0711000222', email: victim.email.toUpperCase() },
      attacker,
    );
    await mailed(ao._id);
    await cancel(ao, bearer(attacker.accessToken));
    await deleteAccount(attacker);

    // The victim's messages to the shop are still in the shop's inbox, and their export still
    // holds the e-mails sent for them.
    const after = await exportOf(v);
    expect({
      messageInShopInbox: (await contactMessages()).includes(words),
      victimsEmails: after.emails,
    }).toEqual({ messageInShopInbox: true, victimsEmails: before.emails });
  });

  it("a guest who typed someone's e-mail on their order, then had their data erased, does not erase that person's mails or messages", async () => {
    const victim = newPerson('Atieno');
    const v = await customerOf(victim);
    const words = `Another question ${randomBytes(3).toString('hex')}`;
    await writeToShop(victim, words);
    const vo = await order(detailsOf(victim), v);
    await mailed(vo._id);
    const before = await exportOf(v);
    expect(before.emails.length).toBeGreaterThan(0);
    expect(await contactMessages()).toContain(words);

    const g = newPerson('Atieno');
    const go = await order({ fullName: g.name, phoneNumber: g.phone, email: victim.email }, null);
    await mailed(go._id);
    await cancel(go);
    await guestErasure(go, g.phone);

    const after = await exportOf(v);
    expect({
      messageInShopInbox: (await contactMessages()).includes(words),
      victimsEmails: after.emails,
    }).toEqual({ messageInShopInbox: true, victimsEmails: before.emails });
  });

  it("a customer who typed a guest's phone on their own order, then deleted their account, does not defeat that guest's erasure request", async () => {
    const w = newPerson('Atieno');
    const wo = await order(detailsOf(w, w.phone), null);
    const requestId = await guestRequest(wo, w.phone, 'erasure');
    await cancel(wo);

    const attacker = await registerCustomer(m.t);
    const ao = await order(
      { fullName: 'Mallory Kamau', phoneNumber: w.spaced, email: 'mallory.k@example.co.ke' },
      attacker,
    );
    await cancel(ao, bearer(attacker.accessToken));
    await deleteAccount(attacker);

    // Answering the guest's request still erases the guest.
    const done = await http()
      .post(`/api/admin/data-requests/${requestId}/erase`)
      .set(admin())
      .expect(200);
    expect(done.body.request.answer).toBe('anonymised');
    const kept = await staffOrder(wo._id);
    expect(kept.guestInfo).toMatchObject({ fullName: 'Deleted customer', phoneNumber: '' });
  });

  it("a customer who typed a clerk's name as their own does not erase the clerk from the trail of their order", async () => {
    const clerk = world.staff.user.fullName;
    const c = await registerCustomer(m.t);
    const p = newPerson('Atieno');
    const o = await order({ fullName: clerk, phoneNumber: p.phone, email: p.email }, c);
    await payAndComplete(p, o);
    const byClerk = async () =>
      (
        (await http().get(`/api/audit-logs?limit=100&user=${world.staff.user._id}`).set(admin()))
          .body as { message: string; target?: { id: string } }[]
      )
        .filter((e) => e.target?.id === o._id)
        .map((e) => e.message);
    const before = await byClerk();
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((msg) => msg.startsWith(clerk))).toBe(true);

    await deleteAccount(c);
    // The trail still says which clerk moved the order in transit, delivered and completed it.
    expect(await byClerk()).toEqual(before);
  });

  // ---------------------------------------------------------------------------------------------
  // Erasure completeness: after the erasure, the person is still named somewhere.
  // ---------------------------------------------------------------------------------------------

  it("a clerk who exported orders found by the customer's phone and e-mail: the trail names the customer no more after they delete their account", async () => {
    const p = newPerson('Atieno');
    const c = await customerOf(p);
    const o = await order(detailsOf(p), c);
    for (const search of [p.spaced, p.email, p.surname])
      await http().get('/api/orders/export.csv').query({ search }).set(staff()).expect(200);
    await cancel(o, bearer(c.accessToken));
    await deleteAccount(c);

    const exports = (await trail('action=orders.export')).toLowerCase();
    for (const word of needles(p)) expect(exports).not.toContain(word);
  });

  it('a customer who changed their name in the profile before deleting the account: the trail keeps neither name', async () => {
    const p = newPerson('Atieno');
    const c = await customerOf(p); // signs in: "<name> signed in"
    await http()
      .patch('/api/users/profile')
      .set(bearer(c.accessToken))
      .send({ fullName: 'Renamed Kiprono', phoneNumber: p.phone })
      .expect(200);
    await deleteAccount(c);
    const theirs = (await trail(`user=${c.user._id}`)).toLowerCase();
    expect(theirs).not.toContain(p.surname.toLowerCase());
  });

  it('a customer whose e-mail the admin corrected, then deleted by the admin: the trail keeps neither address', async () => {
    const p = newPerson('Atieno');
    const c = await customerOf(p); // signs in with the first address: the entry's label
    const corrected = `fixed.${randomBytes(3).toString('hex')}@example.co.ke`;
    await http()
      .patch(`/api/user/update/${c.user._id}`)
      .set(admin())
      .send({ _id: c.user._id, updatedUser: { email: corrected } })
      .expect(200);
    await http().delete(`/api/user/delete/${c.user._id}`).set(admin()).expect(200);
    const theirs = (await trail(`user=${c.user._id}`)).toLowerCase();
    expect(theirs).not.toContain(p.email.toLowerCase());
    const csv = await http()
      .get(`/api/audit-logs/export?user=${c.user._id}`)
      .set(admin())
      .expect(200);
    expect(csv.text.toLowerCase()).not.toContain(p.email.toLowerCase());
  });

  it("a guest's order the admin deleted: its texts do not outlive the guest's erasure", async () => {
    const p = newPerson('Atieno');
    const first = await order(detailsOf(p), null);
    await waitFor(
      async () => sms.outbox.filter((x) => x.to === msisdn(p.phone)).length,
      (n) => n > 0,
      10_000,
      100,
    );
    await http().delete(`/api/orders/delete/${first._id}`).set(admin()).expect(200);
    const second = await order(detailsOf(p), null);
    await cancel(second);
    await guestErasure(second, p.phone);
    expect(await hits(p)).toEqual([]);
  });

  /**
   * A guest who paid an order pays again by paybill, typing their phone as the account (as many
   * do): it waits in the inbox; then they are erased. Answers the person and the stray payment.
   */
  async function strayPaybillThenErased() {
    const p = newPerson('Atieno');
    const o = await order(detailsOf(p), null);
    await payAndComplete(p, o);
    const stray = await m.sim.payBill({
      account: p.phone,
      amount: 250,
      phone: asDaraja(p.phone),
      validate: false,
      firstName: p.surname,
    } as never);
    await waitFor(
      async () => (await http().get('/api/payments/mpesa/inbox').set(staff()).expect(200)).text,
      (text) => text.includes(stray.transId),
      15_000,
      200,
    );
    await guestErasure(o, p.phone);
    return { p, stray };
  }

  it("a paybill payment from the guest's phone that waited in the inbox: the number and name go once it is given back", async () => {
    const { p, stray } = await strayPaybillThenErased();
    // The shop gives the money back; M-Pesa confirms it was sent.
    await http()
      .post(`/api/payments/mpesa/c2b/${stray.transId}/refund`)
      .set(staff())
      .send({})
      .expect((res) => expect([200, 201]).toContain(res.status));
    await waitFor(
      () =>
        db()
          .collection('mpesa_refunds')
          .findOne({ _id: `payment:${stray.transId}` as never }),
      (r) => r?.status === 'sent',
      20_000,
      200,
    );
    // The transfer is recorded sent a moment before its payer is forgotten everywhere.
    expect(
      await waitFor(
        () => hits(p),
        (h) => h.length === 0,
        10_000,
        200,
      ),
    ).toEqual([]);
  });

  it('a crash between a refund sent and its erased payer forgotten: the refunds sweep forgets the number', async () => {
    const { p, stray } = await strayPaybillThenErased();
    // What the erasure left to forget once the money is back: the payment, the ledger's entries.
    const payment = await db()
      .collection('mpesa_c2b_payments')
      .findOne({ _id: stray.transId as never });
    expect(payment?.forgetPayer).toBe(true);
    const entries = await db().collection('money_entries').find({ forgetPayer: true }).toArray();
    await http()
      .post(`/api/payments/mpesa/c2b/${stray.transId}/refund`)
      .set(staff())
      .send({})
      .expect((res) => expect([200, 201]).toContain(res.status));
    const refundId = `payment:${stray.transId}`;
    await waitFor(
      () => hits(p),
      (h) => h.length === 0,
      20_000,
      200,
    );
    // The crash: the transfer was recorded sent, and the API stopped before forgetting anything.
    // (The number is put back by these writes; the running API's own sweep may forget it again at
    // any moment, so the writes are what is checked, not a search just after them.)
    const restored = await db()
      .collection('mpesa_c2b_payments')
      .updateOne(
        { _id: stray.transId as never },
        {
          $set: {
            phone: payment!.phone,
            payerName: payment!.payerName,
            account: payment!.account,
            forgetPayer: true,
          },
        },
      );
    expect(restored.modifiedCount).toBe(1);
    for (const e of entries)
      expect(
        (
          await db()
            .collection('money_entries')
            .updateOne({ _id: e._id }, { $set: { payer: e.payer, forgetPayer: true } })
        ).modifiedCount,
      ).toBe(1);
    expect(entries.length).toBeGreaterThan(0);
    // The next sweep (any instance, after a restart) finishes it.
    await m.t.app.get(MpesaRefundsService).sweep();
    expect(await hits(p)).toEqual([]);
    expect(
      (
        await db()
          .collection('mpesa_refunds')
          .findOne({ _id: refundId as never })
      )?.status,
    ).toBe('sent');
  });

  // ---------------------------------------------------------------------------------------------
  // Mail to an unverified address.
  // ---------------------------------------------------------------------------------------------

  it("a stranger with an account cannot put their words into the shop's mail to any address", async () => {
    const stranger = await registerCustomer(m.t, { fullName: 'Plain Name' });
    const target = `target.${randomBytes(3).toString('hex')}@example.co.ke`;
    const o = await order({ fullName: PITCH, phoneNumber: '0711000333', email: target }, stranger);
    const mails = await waitFor(
      async () => outbox(dataDir).filter((x) => x.includes(`To: ${target}`)),
      (l) => l.length > 0,
      10_000,
    );
    const body = decoded(mails[0]!);
    expect(body).toContain(o.purchaseNumber);
    for (const words of [PITCH, 'M-Pesa reversal', '0700 123 456'])
      expect(body).not.toContain(words);
  });

  // ---------------------------------------------------------------------------------------------
  // Oracles: public routes that tell a stranger about a person.
  // ---------------------------------------------------------------------------------------------

  it("the guest form answers a stranger's phone guess for a purchase number the same, right or wrong", async () => {
    const p = newPerson('Atieno');
    const o = await order(detailsOf(p), null);
    const ask = (phoneNumber: string) =>
      http()
        .post('/api/privacy/requests')
        .send({ purchaseNumber: o.purchaseNumber, phoneNumber, kind: 'export' });
    const wrong = await ask('0799000123');
    const right = await ask(p.phone);
    expect(wrong.status).toBe(right.status);
  });

  it('the public inbound SMS route does not tell who agreed to offers', async () => {
    const p = newPerson('Atieno');
    const c = await customerOf(p);
    await http()
      .patch('/api/users/profile/consents')
      .set(bearer(c.accessToken))
      .send({ marketingSms: true })
      .expect(200);
    const stranger = await http()
      .post('/api/sms/inbound')
      .send({ from: '+254799000124', text: 'STOP' });
    const subscriber = await http()
      .post('/api/sms/inbound')
      .send({ from: msisdn(p.phone), text: 'STOP' });
    expect(subscriber.status).toBe(stranger.status);
    expect(subscriber.text).toBe(stranger.text);
  });

  // ---------------------------------------------------------------------------------------------
  // Attacks that should hold.
  // ---------------------------------------------------------------------------------------------

  it('two deletions of one account at once (own and admin) answer without a server error and erase it', async () => {
    const p = newPerson('Atieno');
    const c = await customerOf(p);
    const o = await order(detailsOf(p), c);
    await cancel(o, bearer(c.accessToken));
    const [own, byAdmin, again] = await Promise.all([
      http()
        .post('/api/users/profile/delete')
        .set(bearer(c.accessToken))
        .send({ password: c.password }),
      http().delete(`/api/user/delete/${c.user._id}`).set(admin()),
      http()
        .post('/api/users/profile/delete')
        .set(bearer(c.accessToken))
        .send({ password: c.password }),
    ]);
    const statuses = [own.status, byAdmin.status, again.status];
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses).toContain(200);
    expect(await hits(p)).toEqual([]);
  });

  it("the admin's delete is refused while a booking or an unpaid order is open", async () => {
    const p = newPerson('Atieno');
    const c = await customerOf(p);
    const batch = await http()
      .post('/api/batches')
      .set(staff())
      .send({
        productId: world.productId,
        sownOn: new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10),
        readyOn: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
        started: 100,
      })
      .expect(201);
    const booked = await placeOrder(
      m.t,
      [{ _id: world.productId, quantity: 2, batchId: batch.body.batch._id } as never],
      { token: c.accessToken, guestInfo: { ...DELIVERY, ...detailsOf(p) } },
    ).expect(201);
    const refused = await http().delete(`/api/user/delete/${c.user._id}`).set(admin()).expect(409);
    expect(refused.body.message).toContain(booked.body.order.purchaseNumber);
    await http()
      .post('/api/users/profile/delete')
      .set(bearer(c.accessToken))
      .send({ password: STRONG_PASSWORD })
      .expect(409);
    await cancel(booked.body.order as Order, bearer(c.accessToken));
    const pending = await order(detailsOf(p), c);
    await http().delete(`/api/user/delete/${c.user._id}`).set(admin()).expect(409);
    await cancel(pending, bearer(c.accessToken));
    await http().delete(`/api/user/delete/${c.user._id}`).set(admin()).expect(200);
    expect(await hits(p)).toEqual([]);
  });

  it("the takeover path: an order naming the admin's e-mail, a reset of it, then the customer's or the guest's export: no link, no code, no mail of the admin's", async () => {
    const adminEmail = world.admin.user.email;
    const attacker = await registerCustomer(m.t);
    const ao = await order(
      { fullName: 'Mallory Njeri', phoneNumber: '0711000444', email: adminEmail },
      attacker,
    );
    const g = newPerson('Atieno');
    const go = await order({ fullName: g.name, phoneNumber: g.phone, email: adminEmail }, null);
    await mailed(ao._id);
    await mailed(go._id);
    const resetsBefore = outbox(dataDir).filter((x) => x.includes(`To: ${adminEmail}`)).length;
    await http().post('/api/auth/forgot/password').send({ email: adminEmail }).expect(200);
    const mails = await waitFor(
      async () =>
        outbox(dataDir)
          .filter((x) => x.includes(`To: ${adminEmail}`))
          .map(decoded),
      (l) => l.length > resetsBefore && l.some((x) => x.includes('resetPassword/')),
      10_000,
    );
    const code = /resetPassword\/([\w-]+)/.exec(
      mails.find((x) => x.includes('resetPassword/'))!,
    )![1]!;

    const mine = await http()
      .get('/api/users/profile/data-export')
      .set(bearer(attacker.accessToken))
      .expect(200);
    const requestId = await guestRequest(go, g.phone, 'export');
    const theirs = await http()
      .post(`/api/admin/data-requests/${requestId}/export`)
      .set(admin())
      .expect(200);
    for (const file of [mine.text, theirs.text]) {
      expect(file).not.toContain(code);
      expect(file).not.toContain('resetPassword');
      expect(file).not.toContain('password-reset');
      expect(file).not.toContain(world.admin.user._id);
    }
  });

  it('a refund by M-Pesa still to be sent keeps the number through the erasure, and loses it once sent', async () => {
    const p = newPerson('Atieno');
    const o = await order(detailsOf(p), null);
    await m.sim.payBill({
      account: o.purchaseNumber,
      amount: o.totalAmount,
      phone: asDaraja(p.phone),
    });
    await waitFor(
      () => staffOrder(o._id),
      (x) => x.paymentStatus === 'Paid',
      15_000,
      150,
    );
    m.sim.setResultScenario('reversal', ['failed']);
    await http()
      .patch(`/api/orders/cancel/${o._id}`)
      .set(staff())
      .send({ refund: { method: 'Mpesa', amount: o.totalAmount, send: true } })
      .expect(200);
    const refundOf = async () =>
      (
        (await http().get(`/api/payments/mpesa/orders/${o._id}`).set(staff()).expect(200)).body
          .refunds as { id: string; status: string }[]
      )[0];
    const failed = await waitFor(refundOf, (r) => r?.status === 'failed', 20_000, 200);
    expect(failed?.status).toBe('failed');
    await guestErasure(o, p.phone);
    await http()
      .post(`/api/payments/mpesa/refunds/${encodeURIComponent(failed!.id)}/retry`)
      .set(staff())
      .expect(200);
    await waitFor(refundOf, (r) => r?.status === 'sent', 20_000, 200);
    // The refund reads sent a moment before the ledger forgets the number (the writes that follow
    // M-Pesa's result): wait for those, then nothing may hold it.
    expect(
      await waitFor(
        () => hits(p),
        (h) => h.length === 0,
        10_000,
        200,
      ),
    ).toEqual([]);
  });

  it('no limit counter, claim, idempotency owner or hold slot holds a phone or e-mail in clear', async () => {
    const p = newPerson('Atieno');
    const o = await order(detailsOf(p), null);
    await placeOrder(m.t, [{ _id: world.productId, quantity: 1 }], {
      guestInfo: { ...DELIVERY, ...detailsOf(p, p.phone) },
      key: `attack-${randomBytes(4).toString('hex')}`,
    }).expect(201);
    await writeToShop(p, 'Counters');
    await customerOf(p);
    for (let i = 0; i < 4; i++)
      await http().post('/api/auth/login').send({ email: p.email, password: 'Wrong#Pass123' });
    await guestRequest(o, p.phone, 'export');
    const clear = (await hits(p)).filter((h) =>
      /^(quotas|rate_limits|claims|order_idempotency):/.test(h),
    );
    expect(clear).toEqual([]);
    const slots = JSON.stringify(
      await db()
        .collection('orders')
        .find({ 'guestInfo.email': p.email })
        .project({ holdSlots: 1 })
        .toArray(),
    ).toLowerCase();
    for (const word of needles(p)) expect(slots).not.toContain(word);
  });

  // ---------------------------------------------------------------------------------------------
  // Retention (last: it sweeps every settled order of the database into the future).
  // ---------------------------------------------------------------------------------------------

  it("the retention sweep of a person's old order does not delete the message they wrote to the shop yesterday", async () => {
    const p = newPerson('Atieno');
    const o = await order(detailsOf(p), null);
    await payAndComplete(p, o);
    const words = `Fresh question ${randomBytes(3).toString('hex')}`;
    await writeToShop(p, words);
    expect(await contactMessages()).toContain(words);
    // Their order is six years old (past the tax period); the message is today's.
    const sixYearsAgo = new Date();
    sixYearsAgo.setUTCFullYear(sixYearsAgo.getUTCFullYear() - 6);
    await db()
      .collection('orders')
      .updateOne({ _id: new Types.ObjectId(o._id) }, { $set: { orderDate: sixYearsAgo } });
    await m.t.app.get(RetentionSweep).sweep();
    expect((await staffOrder(o._id)).guestInfo.phoneNumber).toBe('');
    expect(await contactMessages()).toContain(words);
  });

  it('a guest who typed "Deleted customer" as their name still loses their contacts at the end of the tax period', async () => {
    const p = newPerson('Atieno');
    const o = await order(
      { fullName: 'Deleted customer', phoneNumber: p.spaced, email: p.email },
      null,
    );
    await payAndComplete(p, o);
    const future = new Date();
    future.setUTCFullYear(future.getUTCFullYear() + 8);
    await m.t.app.get(RetentionSweep).sweep(future);
    const kept = await staffOrder(o._id);
    expect(kept.guestInfo).toMatchObject({ phoneNumber: '', email: '', streetAddress: '' });
  });
});
