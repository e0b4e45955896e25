/**
 * The contact page's form reaches the shop: stored for the back office's Messages list, e-mailed to
 * the shop's address (an .eml file in the outbox) and confirmed to the sender; rate limited per
 * client address and per e-mail; the Messages routes are for admin and staff only.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CONTACT_MESSAGES } from '@spc/shared-contracts';
import {
  bearer,
  createStaff,
  registerCustomer,
  signInAdmin,
  uniqueEmail,
  type Session,
} from './support/identity';
import { RATE_LIMITED_MESSAGE } from '../src/common/rate-limit';
import { createTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';

const SHOP_EMAIL = 'shop-inbox@seedlings.example';

function decoded(eml: string): string {
  return eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

async function outbox(dataDir: string): Promise<string[]> {
  const dir = path.join(dataDir, 'outbox');
  const files = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(
    files.sort().map(async (f) => decoded(await readFile(path.join(dir, f), 'utf8'))),
  );
}

describe('Contact form and Messages', () => {
  let t: TestApp;
  let dataDir: string;
  let admin: Session;
  let staff: Session;
  let customer: Session;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spc-contact-'));
    t = await createTestApp({
      name: 'contact',
      env: {
        DATA_DIR: dataDir,
        SHOP_EMAIL,
        RATE_LIMIT_CONTACT_PER_HOUR: '3',
        // Each request comes from the address the test names.
        TRUST_PROXY: 'true',
      },
    });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken);
    customer = await registerCustomer(t);
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const from = (ip: string) => t.http().post('/api/contact').set('X-Forwarded-For', ip);
  const message = (overrides: Record<string, unknown> = {}) => ({
    name: 'Njeri Wambui',
    email: uniqueEmail('njeri'),
    subject: 'Avocado seedlings for 2 acres',
    message: 'Do you deliver 400 Hass seedlings to Murang’a?\nSee http://evil.example/x',
    ...overrides,
  });

  it('stores the message, e-mails it to the shop and confirms it to the sender', async () => {
    const body = message();
    const res = await from('10.1.0.1').send(body).expect(201);
    expect(res.body).toMatchObject({ success: true, message: CONTACT_MESSAGES.sent });
    expect(res.body._id).toMatch(/^[0-9a-f]{24}$/);

    const list = await t
      .http()
      .get('/api/contact-messages')
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(list.body.messages[0]).toMatchObject({
      _id: res.body._id,
      name: body.name,
      email: body.email,
      subject: body.subject,
      message: body.message,
      read: false,
    });
    expect(list.body.unread).toBeGreaterThanOrEqual(1);

    const mails = await waitFor(
      () => outbox(dataDir),
      (m) =>
        m.some((x) => x.includes(`To: ${SHOP_EMAIL}`) && x.includes(body.subject)) &&
        m.some((x) => x.includes(`To: ${body.email}`)),
      10_000,
    );
    const toShop = mails.find((m) => m.includes(`To: ${SHOP_EMAIL}`) && m.includes(body.subject));
    expect(toShop).toBeDefined();
    expect(toShop).toContain('Subject: Contact form: Avocado seedlings for 2 acres');
    expect(toShop).toContain('> Do you deliver 400 Hass seedlings');
    // What a stranger typed never becomes a link in the shop's mail.
    expect(toShop).toContain('http[:]//evil[.]example/x');
    expect(toShop).not.toContain('http://evil.example');
    const toShopper = mails.find((m) => m.includes(`To: ${body.email}`));
    expect(toShopper).toContain('Subject: We received your message');
    expect(toShopper).toContain(t.config.shopContacts.phone);
  });

  it("sends the sender's address nothing they typed: a stranger's pitch cannot ride on the shop's name", async () => {
    const pitch = {
      name: 'Loans in 5 minutes call 0799111222',
      subject: 'Cheap fertiliser, WhatsApp +254 799 111 333',
      email: uniqueEmail('victim'),
    };
    await from('10.1.0.9').send(message(pitch)).expect(201);
    const mails = await waitFor(
      () => outbox(dataDir),
      (m) => m.some((x) => x.includes(`To: ${pitch.email}`)),
      10_000,
    );
    const toVictim = mails.find((m) => m.includes(`To: ${pitch.email}`))!;
    expect(toVictim).toContain('Subject: We received your message');
    for (const words of ['Loans', '0799111222', 'fertiliser', '799 111 333', 'Avocado'])
      expect(toVictim).not.toContain(words);
    // The shop still reads all of it.
    const toShop = mails.find((m) => m.includes(`To: ${SHOP_EMAIL}`) && m.includes('fertiliser'));
    expect(toShop).toContain('0799111222');
  });

  it('refuses a message with a field missing or an invalid e-mail, storing nothing', async () => {
    const before = (
      await t.http().get('/api/contact-messages').set(bearer(admin.accessToken)).expect(200)
    ).body.totalMessages as number;
    const missing = await from('10.1.0.2')
      .send({ name: ' ', email: '', subject: '', message: '' })
      .expect(400);
    const text = JSON.stringify(missing.body);
    for (const m of [
      CONTACT_MESSAGES.nameRequired,
      CONTACT_MESSAGES.emailRequired,
      CONTACT_MESSAGES.subjectRequired,
      CONTACT_MESSAGES.messageRequired,
    ])
      expect(text).toContain(m);
    const bad = await from('10.1.0.2')
      .send(message({ email: 'not-an-email' }))
      .expect(400);
    expect(JSON.stringify(bad.body)).toContain(CONTACT_MESSAGES.emailInvalid);
    const long = await from('10.1.0.2')
      .send(message({ message: 'x'.repeat(5001) }))
      .expect(400);
    expect(JSON.stringify(long.body)).toContain('message must be at most 5000 characters');
    const after = (
      await t.http().get('/api/contact-messages').set(bearer(admin.accessToken)).expect(200)
    ).body.totalMessages as number;
    expect(after).toBe(before);
  });

  it('limits messages an hour per client address and per e-mail address', async () => {
    for (let i = 0; i < 3; i++) await from('10.2.0.1').send(message()).expect(201);
    const tooMany = await from('10.2.0.1').send(message()).expect(429);
    expect(tooMany.body.message).toBe(CONTACT_MESSAGES.tooMany);
    expect(tooMany.headers['retry-after']).toBeDefined();
    // Another address is not held back by the first one's messages...
    await from('10.2.0.2').send(message()).expect(201);
    // ...but one e-mail address cannot send more by changing address.
    const email = uniqueEmail('many');
    for (let i = 0; i < 3; i++)
      await from(`10.3.0.${i + 1}`)
        .send(message({ email }))
        .expect(201);
    const again = await from('10.3.0.9')
      .send(message({ email: email.toUpperCase() }))
      .expect(429);
    expect(again.body.message).toBe(CONTACT_MESSAGES.tooMany);
  });

  async function storedCount(): Promise<number> {
    const res = await t
      .http()
      .get('/api/contact-messages')
      .set(bearer(staff.accessToken))
      .expect(200);
    return res.body.totalMessages as number;
  }

  /** Sends them all at once; answers how many were accepted and refused, and how many were stored. */
  async function burst(requests: ReturnType<typeof from>[]) {
    const before = await storedCount();
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    return {
      accepted: statuses.filter((s) => s === 201).length,
      refused: statuses.filter((s) => s === 429).length,
      stored: (await storedCount()) - before,
    };
  }

  it('accepts 3 of 40 messages sent at once from one address, storing only those', async () => {
    const result = await burst(Array.from({ length: 40 }, () => from('10.14.0.1').send(message())));
    expect(result).toEqual({ accepted: 3, refused: 37, stored: 3 });
  });

  it('accepts 3 of 40 messages for one e-mail sent at once from 40 addresses, in any case', async () => {
    const email = uniqueEmail('victim');
    const result = await burst(
      Array.from({ length: 40 }, (_, i) =>
        from(`10.15.0.${i + 1}`).send(message({ email: i % 2 ? email.toUpperCase() : email })),
      ),
    );
    expect(result).toEqual({ accepted: 3, refused: 37, stored: 3 });
  });

  it('counts the addresses of one IPv6 /64 as one client', async () => {
    const result = await burst(
      Array.from({ length: 40 }, (_, i) =>
        from(`2c0f:fe38:2401:9:${(i + 1).toString(16)}::7`).send(message()),
      ),
    );
    expect(result).toEqual({ accepted: 3, refused: 37, stored: 3 });
  });

  it('lists newest first, by page and by read state; staff mark a message read and unread', async () => {
    const first = await from('10.4.0.1')
      .send(message({ subject: 'Older one' }))
      .expect(201);
    const second = await from('10.4.0.2')
      .send(message({ subject: 'Newer one' }))
      .expect(201);
    const page1 = await t
      .http()
      .get('/api/contact-messages?limit=1&page=1')
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(page1.body.messages.map((m: { _id: string }) => m._id)).toEqual([second.body._id]);
    expect(page1.body.totalPages).toBe(page1.body.totalMessages);
    const page2 = await t
      .http()
      .get('/api/contact-messages?limit=1&page=2')
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(page2.body.messages[0]._id).toBe(first.body._id);

    const unreadBefore = page1.body.unread as number;
    const marked = await t
      .http()
      .patch(`/api/contact-messages/${first.body._id}/read`)
      .set(bearer(staff.accessToken))
      .send({ read: true })
      .expect(200);
    expect(marked.body.contactMessage).toMatchObject({ read: true, readByName: 'Peter Mwangi' });
    const read = await t
      .http()
      .get('/api/contact-messages?status=read')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(read.body.messages.map((m: { _id: string }) => m._id)).toContain(first.body._id);
    expect(read.body.unread).toBe(unreadBefore - 1);
    const unread = await t
      .http()
      .get('/api/contact-messages?status=unread')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(unread.body.messages.map((m: { _id: string }) => m._id)).not.toContain(first.body._id);

    await t
      .http()
      .patch(`/api/contact-messages/${first.body._id}/read`)
      .set(bearer(admin.accessToken))
      .send({ read: false })
      .expect(200);
    const bad = await t
      .http()
      .patch(`/api/contact-messages/${first.body._id}/read`)
      .set(bearer(admin.accessToken))
      .send({ read: 'yes' })
      .expect(400);
    expect(JSON.stringify(bad.body)).toContain('read must be true or false');
    await t
      .http()
      .patch('/api/contact-messages/665f1c2b9d3e4a0012345678/read')
      .set(bearer(admin.accessToken))
      .send({ read: true })
      .expect(404);
    await t
      .http()
      .get('/api/contact-messages?status=maybe')
      .set(bearer(admin.accessToken))
      .expect(400);
  });

  it('keeps the Messages routes to admin and staff', async () => {
    const id = (await from('10.5.0.1').send(message()).expect(201)).body._id as string;
    await t.http().get('/api/contact-messages').expect(401);
    await t.http().patch(`/api/contact-messages/${id}/read`).send({ read: true }).expect(401);
    await t.http().get('/api/contact-messages').set(bearer(customer.accessToken)).expect(403);
    await t
      .http()
      .patch(`/api/contact-messages/${id}/read`)
      .set(bearer(customer.accessToken))
      .send({ read: true })
      .expect(403);
    await t.http().get('/api/contact-messages').set(bearer(admin.accessToken)).expect(200);
    await t.http().get('/api/contact-messages').set(bearer(staff.accessToken)).expect(200);
  });

  it("answers the shop's contacts to anyone", async () => {
    const res = await t.http().get('/api/site/contacts').expect(200);
    expect(res.body.contacts).toEqual({
      phone: t.config.shopContacts.phone,
      whatsapp: t.config.shopContacts.whatsapp,
      email: SHOP_EMAIL,
    });
  });
});

describe('Contact form requests a minute', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      name: 'contactmin',
      env: {
        RATE_LIMIT_CONTACT_PER_MINUTE: '2',
        RATE_LIMIT_CONTACT_PER_HOUR: '100',
        TRUST_PROXY: 'true',
      },
    });
  });
  afterAll(() => t.close());

  const from = (ip: string) => t.http().post('/api/contact').set('X-Forwarded-For', ip);

  it('refuses requests past the minute limit of an address before reading the message', async () => {
    const body = { name: 'Otieno', email: uniqueEmail('o'), subject: 'Hi', message: 'Hello' };
    await from('10.6.0.1').send(body).expect(201);
    await from('10.6.0.1').send({}).expect(400);
    // Refused before the body is even validated: this one is not looked at.
    const refused = await from('10.6.0.1').send({}).expect(429);
    expect(refused.body.message).toBe(RATE_LIMITED_MESSAGE);
    expect(refused.headers['retry-after']).toBeDefined();
    await from('10.6.0.2').send(body).expect(201);
  });
});
