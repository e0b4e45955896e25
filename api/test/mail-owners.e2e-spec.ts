/**
 * Each e-mail and text message records, when it is sent, whom it was sent for (issue 39): a reset,
 * the account being reset; an order's message, the order and its account. The mail log keeps no
 * text of a message that opens an account, and a guest's typed name never greets anyone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { MailLogRepository } from '../src/mail/mail-log.repository';
import { migrateMailLogSecrets } from '../src/mail/migrations/mail-log-secrets.migration';
import { SmsOutboxRepository } from '../src/sms/sms-outbox.repository';
import { bearer, registerCustomer, uniqueEmail } from './support/identity';
import { decoded, outbox } from './support/mail';
import { guest, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createSmsTestApp, type SmsTestApp } from './support/sms';
import { waitFor } from './support/wait';

const RESET_SUBJECT = 'Reset your Seedling Propagation Centre password';
const PITCH = 'M-Pesa reversal pending, call 0700 123 456 now';

describe('mail and texts: each records whom it was sent for', () => {
  let s: SmsTestApp;
  let world: ShopWorld;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-mail-owners-'));
    s = await createSmsTestApp('mail_owners', { DATA_DIR: dataDir });
    world = await createShopWorld(s.t);
  }, 60_000);
  afterAll(async () => {
    await s.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const db = () => s.t.app.get<Connection>(getConnectionToken()).db!;
  const mailLog = () => db().collection('mail_log');

  /** The outbox's messages to this address, once `count` have arrived. */
  const mailsTo = (address: string, count = 1) =>
    waitFor(
      async () => outbox(dataDir).filter((m) => m.includes(`To: ${address}`)),
      (list) => list.length >= count,
      10_000,
    );

  it("a reset of an address typed in someone's order is the reset account's, and no record holds its link", async () => {
    const customer = await registerCustomer(s.t);
    const adminEmail = world.admin.user.email;
    const before = (await mailsTo(adminEmail, 0)).length;
    const placed = await placeOrder(s.t, [{ _id: world.productId, quantity: 1 }], {
      token: customer.accessToken,
      guestInfo: guest({ email: adminEmail }),
    }).expect(201);
    const orderId: string = placed.body.order._id;

    await s.t.http().post('/api/auth/forgot/password').send({ email: adminEmail }).expect(200);
    const mails = await mailsTo(adminEmail, before + 2);
    const reset = mails.map(decoded).find((m) => m.includes(RESET_SUBJECT));
    const code = /resetPassword\/([\w-]+)/.exec(reset ?? '')?.[1];
    expect(code).toBeDefined();

    const resets = await waitFor(
      () => mailLog().find({ subject: RESET_SUBJECT }).toArray(),
      (list) => list.length > 0,
      10_000,
    );
    expect(resets).toHaveLength(1);
    const record = resets[0]!;
    expect(record).toMatchObject({
      to: adminEmail,
      template: 'password-reset',
      accountId: world.admin.user._id,
      orderId: null,
    });
    expect(record.text).toBeUndefined();
    expect(record.accountId).not.toBe(customer.user._id);
    // No record of the log holds the code or the reset page, whoever it was for.
    const everything = JSON.stringify(await mailLog().find().toArray());
    expect(everything).not.toContain(code);
    expect(everything).not.toContain('resetPassword');

    // The order's confirmation to the typed address is the customer's order's, not the admin's.
    const confirmation = await mailLog().findOne({ orderId });
    expect(confirmation).toMatchObject({
      to: adminEmail,
      template: 'order-confirmation',
      accountId: customer.user._id,
    });

    // What the privacy module reads: the customer's messages hold no reset; the admin's, its subject only.
    const repo = s.t.app.get(MailLogRepository);
    const theirs = await repo.forAccount(customer.user._id);
    expect(theirs.map((m) => m.template)).not.toContain('password-reset');
    expect(theirs.map((m) => m.orderId)).toContain(orderId);
    expect(JSON.stringify(theirs)).not.toContain(code);
    const admins = await repo.forAccount(world.admin.user._id);
    expect(admins).toEqual([
      expect.objectContaining({ subject: RESET_SUBJECT, template: 'password-reset' }),
    ]);
    expect(admins[0]).not.toHaveProperty('text');
    expect((await repo.forOrders([orderId])).map((m) => m.template)).toEqual([
      'order-confirmation',
    ]);

    // Erasing the customer (account, orders, own address) leaves the admin's reset alone.
    await repo.eraseFor({
      accountId: customer.user._id,
      orderIds: [orderId],
      emails: [customer.user.email],
    });
    expect(await mailLog().countDocuments({ orderId })).toBe(0);
    expect(await mailLog().countDocuments({ accountId: customer.user._id })).toBe(0);
    expect(await mailLog().countDocuments({ _id: record._id })).toBe(1);
  });

  it("greets a guest's order without the name typed with it, in the e-mail and the text", async () => {
    const details = guest({ fullName: PITCH, email: uniqueEmail('stranger') });
    const placed = await placeOrder(s.t, [{ _id: world.productId, quantity: 1 }], {
      guestInfo: details,
    }).expect(201);
    const [mail] = await mailsTo(details.email);
    const body = decoded(mail!);
    expect(body).toContain(`Your order ${placed.body.order.purchaseNumber}`);
    expect(body).toMatch(/^Hello,$/m);
    for (const words of [PITCH, 'M-Pesa reversal', '0700 123 456'])
      expect(body).not.toContain(words);

    const [sms] = await s.messagesTo(`+254${details.phoneNumber.slice(1)}`, 1);
    expect(sms!.message).not.toContain('reversal');
    expect(sms!.message).not.toContain('0700 123 456');
  });

  it("records the shop's copy of a contact message about the account that sent it signed in, and a stranger's for nobody", async () => {
    const customer = await registerCustomer(s.t);
    const sender = uniqueEmail('writer');
    const stranger = uniqueEmail('stranger');
    await s.t
      .http()
      .post('/api/contact')
      .set(bearer(customer.accessToken))
      .send({ name: 'Njoroge', email: sender, subject: 'Avocados', message: 'Ten please' })
      .expect(201);
    await s.t
      .http()
      .post('/api/contact')
      .send({ name: 'Someone', email: stranger, subject: 'Mangoes', message: 'Five please' })
      .expect(201);
    const records = await waitFor(
      () =>
        mailLog()
          .find({ $or: [{ to: { $in: [sender, stranger] } }, { about: customer.user._id }] })
          .toArray(),
      (list) => list.length >= 3,
      10_000,
    );
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          to: s.t.config.shopContacts.email.toLowerCase(),
          template: 'contact-copy',
          accountId: null,
          about: customer.user._id,
        }),
        expect.objectContaining({
          to: sender,
          template: 'contact-received',
          accountId: customer.user._id,
        }),
        // An address typed on the public page proves nobody: recorded for nobody.
        expect.objectContaining({ to: stranger, template: 'contact-received', accountId: null }),
      ]),
    );
    // The account's erasure takes its copy and its reply; the stranger's stay for their period.
    expect(
      await s.t.app.get(MailLogRepository).eraseFor({ accountId: customer.user._id }),
    ).toBeGreaterThanOrEqual(2);
    expect(await mailLog().countDocuments({ to: stranger })).toBe(1);
  });

  it("records a text for the order's account (none for a guest) and erases it by order", async () => {
    const customer = await registerCustomer(s.t);
    const mine = await placeOrder(s.t, [{ _id: world.productId, quantity: 1 }], {
      token: customer.accessToken,
      guestInfo: guest(),
    }).expect(201);
    const guests = await placeOrder(s.t, [{ _id: world.productId, quantity: 1 }], {
      guestInfo: guest(),
    }).expect(201);
    const ids = [mine.body.order._id as string, guests.body.order._id as string];
    const outboxRepo = s.t.app.get(SmsOutboxRepository);
    const texts = await waitFor(
      () => outboxRepo.forOrders(ids),
      (list) => list.length >= 2,
      10_000,
    );
    expect(texts.map((m) => [m.orderId, m.accountId])).toEqual(
      expect.arrayContaining([
        [ids[0], customer.user._id],
        [ids[1], null],
      ]),
    );
    expect(await outboxRepo.eraseFor({ orderIds: [ids[0]!] })).toBe(1);
    expect((await outboxRepo.forOrders(ids)).map((m) => m.orderId)).toEqual([ids[1]]);
  });

  it('the migration removes the text of old records of a reset or another message with a link, once', async () => {
    const sentAt = new Date();
    const old = [
      {
        to: 'old.reset@example.co.ke',
        subject: RESET_SUBJECT,
        text: 'Hello,\n\nhttp://shop.example/authenticate/resetPassword/oldcode123',
        sentAt,
      },
      {
        to: 'old.paid@example.co.ke',
        subject: 'Payment received for your order SPC-OLD-1',
        text: 'Download your receipt (PDF):\nhttp://api.example/receipt?sig=abc',
        sentAt,
      },
      {
        to: 'old.contact@example.co.ke',
        subject: 'We received your message',
        text: 'Hello,\n\nThank you for writing.',
        sentAt,
      },
    ];
    await mailLog().insertMany(old.map((r) => ({ ...r })));
    expect(await migrateMailLogSecrets(db())).toEqual({ stripped: 2 });
    const after = await mailLog()
      .find({ to: { $in: old.map((r) => r.to) } })
      .toArray();
    const textOf = (to: string) => after.find((r) => r.to === to)?.text;
    expect(textOf('old.reset@example.co.ke')).toBeUndefined();
    expect(textOf('old.paid@example.co.ke')).toBeUndefined();
    expect(textOf('old.contact@example.co.ke')).toBe('Hello,\n\nThank you for writing.');
    expect(JSON.stringify(await mailLog().find().toArray())).not.toContain('oldcode123');
    // Old records stay without an account: no export shows them.
    expect(after.every((r) => r.accountId === undefined)).toBe(true);
    expect(await migrateMailLogSecrets(db())).toEqual({ stripped: 0 });
  });
});
