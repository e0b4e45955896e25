/**
 * The mail queue's `sending` mark against an outside tester: an instance that dies after the mail
 * server took a message and before it recorded it sent leaves the message `sending`; once its lease
 * lapses no drain, on any instance, sends it again (it may have left), and a live one is left alone.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { registerCustomer, UNTHROTTLED } from './support/identity';
import { MailQueue } from '../src/mail/mail-queue.service';
import { newPerson } from './support/personal-data';
import { startSlowSmtp, type SlowSmtp } from './support/slow-smtp';
import { createTestApp, type TestApp } from './support/test-app';
import { sleep, waitFor } from './support/wait';

const dbOf = (t: TestApp) => t.app.get<Connection>(getConnectionToken()).db!;

describe('a message an instance was sending when it died, attacked', () => {
  let a: TestApp;
  let b: TestApp;
  let smtp: SlowSmtp;

  beforeAll(async () => {
    smtp = await startSlowSmtp(200);
    const env = { ...UNTHROTTLED, SMTP_URL: smtp.url };
    a = await createTestApp({ name: 'mail_lapse', env });
    b = await createTestApp({ name: 'mail_lapse', env, databaseName: a.databaseName });
  }, 90_000);
  afterAll(async () => {
    await b?.app.close();
    await a?.close();
    await smtp?.close();
  });

  it('gives up a reset left sending by a dead instance, on both instances, and sends it never again', async () => {
    const p = newPerson();
    const c = await registerCustomer(a, { fullName: p.name, email: p.email, phoneNumber: p.phone });
    await waitFor(
      async () => smtp.holding(),
      (n) => n === 0,
      10_000,
      20,
    );
    const queue = dbOf(a).collection('mail_outbox');
    const now = new Date();
    const record = (id: string, leaseUntil: Date) => ({
      _id: id,
      template: 'password-reset',
      to: p.email,
      accountId: c.user._id,
      orderId: null,
      about: null,
      ref: null,
      params: { tokenVersion: 0 },
      status: 'sending',
      sender: 'the-dead-instance',
      attempts: 0,
      nextTryAt: now,
      leaseUntil,
      lastError: '',
      createdAt: now,
      sentAt: null,
    });
    // One whose sender died (its lease lapsed), one still being sent by a live instance.
    await queue.insertMany([
      record(`reset:${c.user._id}:dead`, new Date(now.getTime() - 1000)),
      record(`reset:${c.user._id}:live`, new Date(now.getTime() + 60_000)),
    ] as never[]);
    const before = smtp.received.length;
    // Both instances' drains at once, then again, then one of much later.
    await Promise.all([a.app.get(MailQueue).drain(), b.app.get(MailQueue).drain()]);
    await Promise.all([a.app.get(MailQueue).drain(), b.app.get(MailQueue).drain()]);
    await b.app.get(MailQueue).drain(new Date(Date.now() + 10 * 60_000));
    await sleep(500);
    expect(smtp.received.slice(before).filter((m) => m.to.includes(p.email))).toHaveLength(0);
    const dead = await queue.findOne({ _id: `reset:${c.user._id}:dead` } as object);
    expect(dead).toMatchObject({ status: 'failed', attempts: 1 });
    expect(dead!.lastError).toMatch(/not sent again/);
    // The live one's lease lapsed only for the drain of 10 min later: given up too, not sent.
    const live = await queue.findOne({ _id: `reset:${c.user._id}:live` } as object);
    expect(live).toMatchObject({ status: 'failed' });
  }, 60_000);
});
