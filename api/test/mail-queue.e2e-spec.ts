/**
 * E-mails go through a queue in the database (`mail_outbox`), one record per event under a unique
 * key: the record keeps which message it is and what it is about, never its text when that opens an
 * account, nor any link with a token; the text is made when the message is sent. A message queued
 * before a crash is sent once by whichever instance starts next. The .eml files of development
 * stay the transport, written right after the action.
 */
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import mongoose, { type Connection } from 'mongoose';
import { withDatabaseName } from '../../tools/db/launcher';
import { MailQueue } from '../src/mail/mail-queue.service';
import { OrderBookings } from '../src/bookings/booking-orders';
import { OrderMails } from '../src/orders/order-mails';
import { bearer, registerCustomer, UNTHROTTLED } from './support/identity';
import { decoded, outbox } from './support/mail';
import { guest, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, serverUri, type TestApp } from './support/test-app';
import { sleep, waitFor } from './support/wait';

/** Every document of every collection whose JSON contains `needle`, as `collection: text`. */
async function documentsHolding(db: Connection['db'], needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const { name } of await db!.listCollections().toArray())
    for await (const doc of db!.collection(name).find({})) {
      const text = JSON.stringify(doc);
      if (text.includes(needle)) found.push(`${name}: ${text.slice(0, 300)}`);
    }
  return found;
}

describe('the mail queue', () => {
  let t: TestApp;
  let dataDir: string;
  let world: ShopWorld;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-mail-queue-'));
    t = await createTestApp({ name: 'mail_queue', env: { ...UNTHROTTLED, DATA_DIR: dataDir } });
    world = await createShopWorld(t);
  });
  /** The instance was stopped (a crash): the one started after it cleans up. */
  let crashed = false;
  afterAll(async () => {
    if (!crashed) await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const queue = () => db().collection('mail_outbox');

  it("keeps a reset e-mail's template and account, never its code or link", async () => {
    const c = await registerCustomer(t);
    await t.http().post('/api/auth/forgot/password').send({ email: c.user.email }).expect(200);
    const mail = await waitFor(
      async () =>
        outbox(dataDir)
          .map(decoded)
          .find((m) => m.includes(`To: ${c.user.email}`)),
      (m) => m !== undefined,
      10_000,
      100,
    );
    const link = /(http\S+resetPassword\/([\w-]+))/.exec(mail!)!;
    const [, url, code] = link;
    expect(code!.length).toBeGreaterThan(20);

    // The file is written by the transport a moment before the record is marked sent.
    const records = await waitFor(
      () => queue().find({ accountId: c.user._id }).toArray(),
      (list) => list.every((r) => r.status === 'sent'),
      10_000,
      100,
    );
    expect(records).toEqual([
      expect.objectContaining({
        template: 'password-reset',
        accountId: c.user._id,
        to: c.user.email,
        status: 'sent',
      }),
    ]);
    // Nowhere in the database: not the queue, not the mail log, not any other copy.
    expect(await documentsHolding(db(), code!)).toEqual([]);
    expect(await documentsHolding(db(), url!)).toEqual([]);
    expect(await documentsHolding(db(), 'resetPassword/')).toEqual([]);
  });

  it('does not send a reset whose first attempt failed once the password has been changed meanwhile', async () => {
    const c = await registerCustomer(t);
    const mailsTo = () =>
      outbox(dataDir)
        .map(decoded)
        .filter((m) => m.includes(`To: ${c.user.email}`));
    // The transport refuses (the outbox folder cannot be made): the e-mail waits for a retry.
    const folder = path.join(dataDir, 'outbox');
    const kept = `${folder}.kept`;
    await rename(folder, kept).catch(() => undefined);
    await writeFile(folder, 'not a folder');
    try {
      await t.http().post('/api/auth/forgot/password').send({ email: c.user.email }).expect(200);
      const failed = await waitFor(
        () => queue().findOne({ accountId: c.user._id, template: 'password-reset' }),
        (r) => (r?.attempts as number) >= 1,
        10_000,
        100,
      );
      expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    } finally {
      await rm(folder, { force: true });
      await rename(kept, folder).catch(() => undefined);
    }
    // Meanwhile the customer changes the password: a reset asked for before must not arrive
    // after it with a working link.
    const changed = await t
      .http()
      .post('/api/auth/change/password')
      .set(bearer(c.accessToken))
      .send({ currentPassword: c.password, newPassword: 'Changed#Seedling26' })
      .expect(200);
    // The retry falls due (the clock an hour on).
    await t.app.get(MailQueue).drain(new Date(Date.now() + 60 * 60_000));
    expect(mailsTo()).toEqual([]);
    expect(
      await queue().findOne({ accountId: c.user._id, template: 'password-reset' }),
    ).toMatchObject({ status: 'skipped' });
    // The customer's data export says so, with no link in it.
    const file = await t
      .http()
      .get('/api/users/profile/data-export')
      .set(bearer(changed.body.data.accessToken))
      .expect(200);
    expect(file.body.emailsNotSent).toEqual([
      expect.objectContaining({ template: 'password-reset', status: 'skipped' }),
    ]);
    expect(file.text).not.toContain('resetPassword/');
  });

  it('sends a message an instance held when it died once its hold lapses, once', async () => {
    const placed = await placeOrder(t, [{ _id: world.productId, quantity: 1 }], {
      guestInfo: guest(),
    }).expect(201);
    const order = placed.body.order as { _id: string; purchaseNumber: string };
    const subject = `Subject: Your order ${order.purchaseNumber}`;
    const sent = () => outbox(dataDir).filter((m) => m.includes(subject)).length;
    await waitFor(
      async () => sent(),
      (n) => n === 1,
      10_000,
      100,
    );
    // Taken by an instance that died while sending it (its hold runs 1.5 s more).
    await queue().updateOne({ _id: `order:${order._id}:confirmation` } as object, {
      $set: { status: 'pending', sentAt: null, leaseUntil: new Date(Date.now() + 1500) },
    });
    const mail = t.app.get(MailQueue);
    expect(await mail.drain()).toBe(0);
    await sleep(1600);
    // Two drains at once (and the scheduler's own, every 10 s, which may come first): sent once.
    const drained = await Promise.all([mail.drain(), mail.drain()]);
    await waitFor(
      async () => sent(),
      (n) => n >= 2,
      15_000,
      100,
    );
    await sleep(500);
    expect({ byTheseDrains: drained.filter((n) => n === 1).length <= 1, sent: sent() }).toEqual({
      byTheseDrains: true,
      sent: 2,
    });
  });

  it('sends an e-mail queued before a crash once, though two instances start together', async () => {
    const placed = await placeOrder(t, [{ _id: world.productId, quantity: 1 }], {
      guestInfo: guest(),
    }).expect(201);
    const order = placed.body.order as {
      _id: string;
      purchaseNumber: string;
      guestInfo: { email: string };
    };
    const subject = `Subject: Your order ${order.purchaseNumber}`;
    await waitFor(
      async () => outbox(dataDir).filter((m) => m.includes(subject)).length,
      (n) => n === 1,
      10_000,
      100,
    );
    // The instance stops (a crash) after the order was placed and before its e-mail left: the
    // message is queued, not sent.
    await t.app.close();
    crashed = true;
    const direct = await mongoose
      .createConnection(withDatabaseName(serverUri(), t.databaseName))
      .asPromise();
    const records = direct.db!.collection('mail_outbox');
    const now = new Date();
    await records.replaceOne(
      { _id: `order:${order._id}:confirmation` } as object,
      {
        template: 'order-confirmation',
        to: order.guestInfo.email,
        accountId: null,
        orderId: order._id,
        about: null,
        ref: null,
        params: {},
        status: 'pending',
        attempts: 0,
        nextTryAt: now,
        leaseUntil: now,
        lastError: '',
        createdAt: now,
        sentAt: null,
      },
      { upsert: true },
    );

    const afterCrash = await mkdtemp(path.join(tmpdir(), 'spc-mail-queue-restart-'));
    const env = { ...UNTHROTTLED, DATA_DIR: afterCrash };
    const [b, c] = await Promise.all([
      createTestApp({ name: 'mail_queue', env, databaseName: t.databaseName }),
      createTestApp({ name: 'mail_queue', env, databaseName: t.databaseName }),
    ]);
    try {
      const sent = () =>
        outbox(afterCrash)
          .map(decoded)
          .filter((m) => m.includes(subject));
      await waitFor(
        async () => sent().length,
        (n) => n > 0,
        10_000,
        100,
      );
      await sleep(1500);
      expect(sent()).toHaveLength(1);
      expect(sent()[0]).toContain(`To: ${order.guestInfo.email}`);
      expect(sent()[0]).toContain(`Thank you for your order ${order.purchaseNumber}`);
      expect(await records.findOne({ _id: `order:${order._id}:confirmation` } as object)).toEqual(
        expect.objectContaining({ status: 'sent', attempts: 1 }),
      );

      // The same event queued at once by both instances, five times each: one e-mail.
      const again = (await b.app.get(OrderBookings).find(order._id))!;
      await records.deleteOne({ _id: `order:${order._id}:confirmation` } as object);
      const outcomes = await Promise.all(
        [b, c, b, c, b, c, b, c, b, c].map((x) =>
          x.app.get(OrderMails).send('confirmation', again),
        ),
      );
      expect(outcomes.filter((o) => o !== 'duplicate')).toHaveLength(1);
      await waitFor(
        async () => sent().length,
        (n) => n > 1,
        10_000,
        100,
      );
      await sleep(1000);
      expect(sent()).toHaveLength(2);
    } finally {
      await direct.close();
      await c.app.close();
      await b.close();
      await rm(afterCrash, { recursive: true, force: true });
    }
  });
});
