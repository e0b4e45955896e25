/**
 * What the shop's text messages may cost (issue 26): a shop day's budget per number, per customer
 * who causes them (an account, else the client network that placed the order) and in all, each
 * claimed before a message is recorded to be sent, so a burst of orders naming strangers cannot
 * send more; when the day's total runs out, the shop is told once.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { SmsRecord } from '../src/sms/sms-outbox.repository';
import { bearer, registerCustomer, signInAdmin } from './support/identity';
import { createCategory, createProduct, DELIVERY } from './support/shop';
import { createSmsTestApp, type SmsTestApp } from './support/sms';
import { waitFor } from './support/wait';

const BURST = 40;
let phoneSeq = Math.floor(Math.random() * 80_000_000);
const newPhone = () => `07${10_000_000 + phoneSeq++}`;
const msisdn = (phone: string) => `+254${phone.slice(1)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function shop(s: SmsTestApp) {
  const admin = await signInAdmin(s.t);
  const category = await createCategory(s.t, admin.accessToken);
  return (await createProduct(s.t, admin.accessToken, category._id, { productQuantity: 100_000 }))
    ._id;
}

/** The outbox records of these orders' events, once every one of them has its record. */
async function records(s: SmsTestApp, purchaseNumbers: string[], perOrder = 1) {
  const outbox = s.t.app.get<Connection>(getConnectionToken()).collection<SmsRecord>('sms_outbox');
  const all = await waitFor(
    () => outbox.find({ purchaseNumber: { $in: purchaseNumbers } }).toArray(),
    (list) => list.length >= purchaseNumbers.length * perOrder,
    10_000,
  );
  // Wait for the sends under way, then read what the gateway got.
  await waitFor(
    () => outbox.countDocuments({ purchaseNumber: { $in: purchaseNumbers }, status: 'pending' }),
    (n) => n === 0,
    10_000,
  );
  await sleep(200);
  return all;
}

describe('SMS budgets per number and per customer', () => {
  let s: SmsTestApp;
  let productId: string;

  beforeAll(async () => {
    s = await createSmsTestApp('smsbudget', {
      TRUST_PROXY: 'true',
      SMS_PER_RECIPIENT_PER_DAY: '3',
      SMS_PER_SENDER_PER_DAY: '5',
    });
    productId = await shop(s);
  });
  afterAll(() => s.close());

  function order(from: string, phone: string, token?: string) {
    const req = s.t.http().post('/api/orders').set('X-Forwarded-For', from);
    return (token ? req.set(bearer(token)) : req)
      .send({
        guestInfo: { ...DELIVERY, phoneNumber: phone },
        products: [{ _id: productId, quantity: 1 }],
      })
      .expect(201);
  }

  it(`texts one number at most 3 times a day when ${BURST} orders from ${BURST} addresses name it at once`, async () => {
    const phone = newPhone();
    const spellings = [phone, msisdn(phone), `${phone.slice(0, 4)} ${phone.slice(4)}`];
    const placed = await Promise.all(
      Array.from({ length: BURST }, (_, i) => order(`10.7.0.${i + 1}`, spellings[i % 3]!)),
    );
    const recorded = await records(
      s,
      placed.map((r) => r.body.order.purchaseNumber),
    );
    expect(s.sim.outbox.filter((m) => m.to === msisdn(phone))).toHaveLength(3);
    const skipped = recorded.filter((r) => r.status === 'skipped');
    expect(skipped).toHaveLength(BURST - 3);
    expect(skipped[0]!.lastError).toBe('too many text messages to this number today');
  });

  it(`texts at most 5 strangers a day for one address when it places ${BURST} orders at once`, async () => {
    const phones = Array.from({ length: BURST }, newPhone);
    const placed = await Promise.all(phones.map((p) => order('10.8.0.1', p)));
    const recorded = await records(
      s,
      placed.map((r) => r.body.order.purchaseNumber),
    );
    expect(s.sim.outbox.filter((m) => phones.map(msisdn).includes(m.to))).toHaveLength(5);
    expect(recorded.filter((r) => r.status === 'skipped')[0]!.lastError).toBe(
      'too many text messages caused by this customer today',
    );
  });

  it('counts the texts a signed-in customer causes by placing and cancelling, whatever the address', async () => {
    const customer = await registerCustomer(s.t);
    const phones = Array.from({ length: 4 }, newPhone);
    const placed = await Promise.all(
      phones.map((p, i) => order(`10.9.0.${i + 1}`, p, customer.accessToken)),
    );
    await Promise.all(
      placed.map((r) =>
        s.t
          .http()
          .patch(`/api/orders/cancel/${r.body.order._id}`)
          .set(bearer(customer.accessToken))
          .expect(200),
      ),
    );
    await records(
      s,
      placed.map((r) => r.body.order.purchaseNumber),
      2,
    );
    // 4 "placed" and 4 "cancelled" messages asked for; the account may cause 5.
    expect(s.sim.outbox.filter((m) => phones.map(msisdn).includes(m.to))).toHaveLength(5);
  });
});

describe("SMS over the shop's day budget", () => {
  const BUDGET = 4;
  let s: SmsTestApp;
  let dataDir: string;
  let productId: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spc-sms-budget-'));
    s = await createSmsTestApp('smsday', {
      TRUST_PROXY: 'true',
      SMS_PER_DAY: String(BUDGET),
      DATA_DIR: dataDir,
    });
    productId = await shop(s);
  });
  afterAll(async () => {
    await s.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(`sends ${BUDGET} texts when ${BURST} shoppers order at once, and tells the shop once`, async () => {
    const phones = Array.from({ length: BURST }, newPhone);
    const placed = await Promise.all(
      phones.map((phone, i) =>
        s.t
          .http()
          .post('/api/orders')
          .set('X-Forwarded-For', `10.10.0.${i + 1}`)
          .send({
            guestInfo: { ...DELIVERY, phoneNumber: phone },
            products: [{ _id: productId, quantity: 1 }],
          })
          .expect(201),
      ),
    );
    const recorded = await records(
      s,
      placed.map((r) => r.body.order.purchaseNumber),
    );
    expect(s.sim.outbox).toHaveLength(BUDGET);
    expect(recorded.filter((r) => r.status === 'skipped')[0]!.lastError).toBe(
      "the shop's text messages for today are used up",
    );
    const alerts = (await readdir(path.join(dataDir, 'outbox'))).filter((f) =>
      f.includes('text-messages-used-up'),
    );
    // Only the admin works at this shop: one e-mail, however many messages were refused.
    expect(alerts).toHaveLength(1);
    const mail = await readFile(path.join(dataDir, 'outbox', alerts[0]!), 'utf8');
    expect(mail).toContain(`To: ${s.t.config.admin.email}`);
    expect(mail).toContain('SMS_PER_DAY');
  });
});
