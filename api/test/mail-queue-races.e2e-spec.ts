/**
 * The mail queue against an outside tester's races: resets asked for at once in several spellings
 * of one address, an account deleted while its e-mails are asked for or are with a slow mail
 * server, an order deleted while its confirmation is being sent. Each e-mail asked for still
 * arrives with one working link, and once an erasure or a delete has answered, no record of the
 * queue or the mail log names what it erased.
 */
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import {
  bearer,
  registerCustomer,
  signInAdmin,
  STRONG_PASSWORD,
  uniqueEmail,
  UNTHROTTLED,
} from './support/identity';
import { MailQueue } from '../src/mail/mail-queue.service';
import { OrderBookings } from '../src/bookings/booking-orders';
import { OrderMails } from '../src/orders/order-mails';
import { decoded, outbox } from './support/mail';
import { newPerson, personHits } from './support/personal-data';
import { guest, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { startSlowSmtp, type SlowSmtp } from './support/slow-smtp';
import { createTestApp, type TestApp } from './support/test-app';
import { sleep, waitFor } from './support/wait';

const dbOf = (t: TestApp) => t.app.get<Connection>(getConnectionToken()).db!;

describe('the mail queue, raced', () => {
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-mail-races-'));
    t = await createTestApp({ name: 'mail_races', env: { ...UNTHROTTLED, DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('sends a reset asked for at once in five spellings of the address, with one working link', async () => {
    const rounds: string[] = [];
    for (let round = 0; round < 6; round++) {
      const c = await registerCustomer(t);
      const email = c.user.email;
      const spellings = [
        email,
        ` ${email} `,
        email.toUpperCase(),
        `\t${email}`,
        email.replace(/^./, (x) => x.toUpperCase()),
      ];
      await Promise.all(
        spellings.map((s) =>
          t.http().post('/api/auth/forgot/password').send({ email: s }).expect(200),
        ),
      );
      // Each request is queued; wait until none is still on its way.
      await waitFor(
        () => dbOf(t).collection('mail_outbox').find({ accountId: c.user._id }).toArray(),
        (r) =>
          r.length === spellings.length &&
          r.every((m) => m.status !== 'pending' && m.status !== 'sending'),
        10_000,
        50,
      );
      const mails = outbox(dataDir)
        .map(decoded)
        .filter((m) => m.includes(`To: ${email}`));
      const live = await dbOf(t)
        .collection('password_resets')
        .countDocuments({ userId: c.user._id, usedAt: null, expiresAt: { $gt: new Date() } });
      rounds.push(`${mails.length} e-mail(s), ${live} live link(s)`);
      if (!mails.length) continue;
      // The latest e-mail's link works.
      const code = /resetPassword\/([\w-]+)/.exec(mails[mails.length - 1]!)![1]!;
      await t
        .http()
        .post('/api/auth/reset/password')
        .send({ code, password: 'Fresh#Start9' })
        .expect(200);
    }
    // Every round: at least one e-mail, and one link that works (the others were voided).
    expect(rounds).toEqual(
      rounds.map(() => expect.stringMatching(/^[1-5] e-mail\(s\), 1 live link\(s\)$/)),
    );
  }, 120_000);

  it("does not send an order's e-mail on retry to the address the order was corrected from", async () => {
    const world = await createShopWorld(t);
    const typo = guest();
    // The mail server is down (the outbox folder cannot be made): the confirmation waits.
    const folder = path.join(dataDir, 'outbox');
    const kept = `${folder}.kept`;
    await rename(folder, kept).catch(() => undefined);
    await writeFile(folder, 'not a folder');
    let order: { _id: string; purchaseNumber: string };
    try {
      const placed = await placeOrder(t, [{ _id: world.productId, quantity: 1 }], {
        guestInfo: typo,
      }).expect(201);
      order = placed.body.order;
      await waitFor(
        () => dbOf(t).collection('mail_outbox').findOne({ orderId: order._id }),
        (r) => (r?.attempts as number) >= 1,
        10_000,
        50,
      );
    } finally {
      await rm(folder, { force: true });
      await rename(kept, folder).catch(() => undefined);
    }
    // The customer mistyped someone else's address; the shop corrects it.
    const corrected = uniqueEmail('corrected');
    await t
      .http()
      .put(`/api/orders/update/${order._id}`)
      .set(bearer(world.staff.accessToken))
      .send({ guestInfo: { ...typo, email: corrected } })
      .expect(200);
    // The retry falls due.
    await t.app.get(MailQueue).drain(new Date(Date.now() + 60 * 60_000));
    const mails = outbox(dataDir).map(decoded);
    expect(mails.filter((m) => m.includes(`To: ${typo.email}`))).toEqual([]);
    expect(mails.filter((m) => m.includes(order.purchaseNumber))).toEqual(
      mails.filter((m) => m.includes(`To: ${corrected}`)),
    );
  });

  it('keeps nothing naming an account deleted while an event of its order, read before, is being mailed', async () => {
    const world = await createShopWorld(t);
    const p = newPerson();
    const c = await registerCustomer(t, {
      fullName: p.name,
      email: p.email,
      phoneNumber: p.phone,
    });
    const placed = await placeOrder(t, [{ _id: world.productId, quantity: 1 }], {
      token: c.accessToken,
      guestInfo: { ...guest(), fullName: p.name, email: p.email, phoneNumber: p.phone },
    }).expect(201);
    const id = (placed.body.order as { _id: string })._id;
    await t.http().patch(`/api/orders/cancel/${id}`).set(bearer(c.accessToken)).expect(200);
    // A step read the order (its e-mail to the customer's address) just before the deletion ran,
    // and queues its e-mail just after.
    const readBefore = (await t.app.get(OrderBookings).find(id))!;
    await dbOf(t).collection('mail_outbox').deleteMany({ orderId: id });
    await t
      .http()
      .post('/api/users/profile/delete')
      .set(bearer(c.accessToken))
      .send({ password: STRONG_PASSWORD })
      .expect(200);
    expect(await t.app.get(OrderMails).send('confirmation', readBefore)).not.toBe('sent');
    expect(await personHits(dbOf(t), p)).toEqual([]);
  });

  it('keeps nothing naming an account deleted while resets for it are asked for', async () => {
    for (let round = 0; round < 3; round++) {
      const p = newPerson();
      const c = await registerCustomer(t, {
        fullName: p.name,
        email: p.email,
        phoneNumber: p.phone,
      });
      let answered = 0;
      const deletion = t
        .http()
        .post('/api/users/profile/delete')
        .set(bearer(c.accessToken))
        .send({ password: STRONG_PASSWORD })
        .then((r) => (answered = r.status));
      // Sent now (`then`), one every few milliseconds until the deletion answers.
      const asks: Promise<number>[] = [];
      while (!answered) {
        asks.push(
          t
            .http()
            .post('/api/auth/forgot/password')
            .send({ email: p.email })
            .then((r) => r.status),
        );
        await sleep(5);
      }
      await deletion;
      expect(answered).toBe(200);
      expect(new Set(await Promise.all(asks))).toEqual(new Set([200]));
      // What those requests queued has been sent or dropped.
      await sleep(1500);
      expect(await personHits(dbOf(t), p)).toEqual([]);
    }
  }, 120_000);
});

describe('the mail queue with a slow mail server, raced', () => {
  let t: TestApp;
  let smtp: SlowSmtp;

  beforeAll(async () => {
    // Takes 2 s to accept each message.
    smtp = await startSlowSmtp(2000);
    t = await createTestApp({
      name: 'mail_races_slow',
      env: { ...UNTHROTTLED, SMTP_URL: smtp.url },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const sending = () =>
    waitFor(
      async () => smtp.holding(),
      (n) => n > 0,
      10_000,
      10,
    );
  const allSent = async () => {
    await waitFor(
      async () => smtp.holding(),
      (n) => n === 0,
      10_000,
      20,
    );
    await sleep(500);
  };

  it('keeps nothing naming an account deleted while its reset e-mail is with the mail server', async () => {
    const p = newPerson();
    const c = await registerCustomer(t, {
      fullName: p.name,
      email: p.email,
      phoneNumber: p.phone,
    });
    await t.http().post('/api/auth/forgot/password').send({ email: p.email }).expect(200);
    await sending();
    await t
      .http()
      .post('/api/users/profile/delete')
      .set(bearer(c.accessToken))
      .send({ password: STRONG_PASSWORD })
      .expect(200);
    await allSent();
    // The e-mail left (it was on its way), and no record of it stays.
    expect(smtp.received.map((m) => m.to)).toContainEqual([p.email]);
    expect(await personHits(dbOf(t), p)).toEqual([]);
  });

  it('keeps no e-mail of an order deleted while its confirmation is with the mail server', async () => {
    const world = await createShopWorld(t);
    const admin = await signInAdmin(t);
    const buyer = guest();
    const placed = await placeOrder(t, [{ _id: world.productId, quantity: 1 }], {
      guestInfo: buyer,
    }).expect(201);
    const order = placed.body.order as { _id: string };
    await sending();
    await t
      .http()
      .delete(`/api/orders/delete/${order._id}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    await allSent();
    const db = dbOf(t);
    expect(await db.collection('mail_outbox').find({ orderId: order._id }).toArray()).toEqual([]);
    expect(await db.collection('mail_log').find({ orderId: order._id }).toArray()).toEqual([]);
    expect(await db.collection('mail_log').find({ to: buyer.email }).toArray()).toEqual([]);
  });
});

describe('the mail queue when the mail server refuses a reset, quoting its link', () => {
  let t: TestApp;
  let smtp: SlowSmtp;

  beforeAll(async () => {
    // A spam filter that refuses a message with a link, quoting the line (as some do).
    smtp = await startSlowSmtp(0, (data) => {
      const line = data
        .replace(/=\r?\n/g, '')
        .split(/\r?\n/)
        .find((l) => l.includes('http'));
      return line ? `554 5.7.1 Message refused: ${line} is listed` : null;
    });
    t = await createTestApp({
      name: 'mail_races_refused',
      env: { ...UNTHROTTLED, SMTP_URL: smtp.url },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('keeps no working link in the queue or the logs', async () => {
    const said: string[] = [];
    const spies = (['log', 'warn', 'error'] as const).map((level) =>
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => {
        said.push(args.map(String).join(' '));
      }),
    );
    try {
      const c = await registerCustomer(t);
      await t.http().post('/api/auth/forgot/password').send({ email: c.user.email }).expect(200);
      const record = await waitFor(
        () => dbOf(t).collection('mail_outbox').findOne({ accountId: c.user._id }),
        (r) => (r?.attempts as number) >= 1,
        10_000,
        50,
      );
      // It was refused, and will be tried again.
      expect(record).toMatchObject({ status: 'pending', attempts: 1 });
      expect(record!.lastError).toContain('554');
      expect(record!.lastError).not.toContain('resetPassword/');
      // The refusal is logged a moment after its record is written (markFailed, then the
      // warning): CI once read the logs in between.
      await waitFor(
        async () => said.join('\n'),
        (text) => text.includes('554'),
        10_000,
        50,
      );
      expect(said.join('\n')).toContain('554');
      expect(said.filter((l) => l.includes('resetPassword/'))).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
