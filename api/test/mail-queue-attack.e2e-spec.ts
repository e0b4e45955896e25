/**
 * The mail queue's per-recipient turn against an outside tester: a message whose lease lapsed
 * while another message to the same address was with a slow mail server is leased again by the
 * drain; once it has been sent, the drain's copy must not be sent again.
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

describe('the mail queue turn, attacked', () => {
  let t: TestApp;
  let smtp: SlowSmtp;

  beforeAll(async () => {
    // Takes 2 s to accept each message.
    smtp = await startSlowSmtp(2000);
    t = await createTestApp({
      name: 'mail_turn_attack',
      env: { ...UNTHROTTLED, SMTP_URL: smtp.url },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('sends a reset e-mail once when its lease lapsed while it was with a slow mail server and the drain leased it again', async () => {
    const p = newPerson();
    await registerCustomer(t, { fullName: p.name, email: p.email, phoneNumber: p.phone });
    await waitFor(
      async () => smtp.holding(),
      (n) => n === 0,
      10_000,
      20,
    );
    const before = smtp.received.length;
    const asked = t.http().post('/api/auth/forgot/password').send({ email: p.email });
    const answered = asked.then((r) => r.status);
    await waitFor(
      async () => smtp.holding(),
      (n) => n > 0,
      10_000,
      10,
    );
    // The drain of a while later (its lease of 5 min lapsed: the mail server was that slow) leases
    // the reset again; it waits its turn behind the send in hand on this instance.
    const drained = t.app.get(MailQueue).drain(new Date(Date.now() + 6 * 60_000));
    expect(await answered).toBe(200);
    await drained;
    await waitFor(
      async () => smtp.holding(),
      (n) => n === 0,
      15_000,
      20,
    );
    await sleep(500);
    const resets = smtp.received
      .slice(before)
      .filter((m) => m.to.includes(p.email) && /reset/i.test(m.data));
    // The shopper gets the reset e-mail once, and the queue shows it sent.
    expect(resets).toHaveLength(1);
    const queued = await dbOf(t)
      .collection('mail_outbox')
      .find({ to: p.email, template: 'password-reset' })
      .toArray();
    expect(queued.map((m) => m.status)).toEqual(['sent']);
  }, 60_000);
});

describe('the mail queue on two instances with a slow mail server, attacked', () => {
  let a: TestApp;
  let b: TestApp;
  let smtp: SlowSmtp;

  beforeAll(async () => {
    smtp = await startSlowSmtp(2000);
    const env = { ...UNTHROTTLED, SMTP_URL: smtp.url };
    a = await createTestApp({ name: 'mail_turn_two', env });
    b = await createTestApp({ name: 'mail_turn_two', env, databaseName: a.databaseName });
  }, 90_000);
  afterAll(async () => {
    await b?.app.close();
    await a?.close();
    await smtp?.close();
  });

  it("sends a reset e-mail once when its lease lapsed while it was with a slow mail server and the other instance's drain leased it", async () => {
    const p = newPerson();
    await registerCustomer(a, { fullName: p.name, email: p.email, phoneNumber: p.phone });
    await waitFor(
      async () => smtp.holding(),
      (n) => n === 0,
      10_000,
      20,
    );
    const before = smtp.received.length;
    const answered = a
      .http()
      .post('/api/auth/forgot/password')
      .send({ email: p.email })
      .then((r) => r.status);
    await waitFor(
      async () => smtp.holding(),
      (n) => n > 0,
      10_000,
      10,
    );
    // The other instance's drain of a while later (the lease of 5 min lapsed: the mail server was
    // that slow) leases the reset while instance a still has it with the mail server.
    const drained = b.app.get(MailQueue).drain(new Date(Date.now() + 6 * 60_000));
    expect(await answered).toBe(200);
    await drained;
    await waitFor(
      async () => smtp.holding(),
      (n) => n === 0,
      15_000,
      20,
    );
    await sleep(500);
    const resets = smtp.received
      .slice(before)
      .filter((m) => m.to.includes(p.email) && /reset/i.test(m.data));
    expect(resets).toHaveLength(1);
  }, 60_000);
});
