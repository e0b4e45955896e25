/**
 * Limit counters and hold slots name nobody (issue 39): the SMS budgets, the contact and sign-in
 * limits and the open-order caps count a phone, an e-mail or a client address by its keyed hash,
 * so a copy of the database holds none of them and there is nothing there to erase; the caps still
 * count one person however the phone is typed. The migration renames the slots of orders written
 * before, which keep counting, and deletes the counters keyed in clear.
 */
import { createHash, randomBytes } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { migratePersonalKeys } from '../src/privacy/migrations/personal-keys.migration';
import { personalKeys } from '../src/common/personal-key';
import { QUOTA_COLLECTION } from '../src/common/quota';
import { RATE_LIMIT_COLLECTION } from '../src/common/rate-limit.store';
import { uniqueEmail } from './support/identity';
import { DELIVERY } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { createSmsTestApp, type SmsTestApp } from './support/sms';

let seq = randomBytes(3).readUIntBE(0, 3);
/** A fresh Safaricom number as a shopper types it (07…) and its other spellings. */
function newPhone() {
  const national = `7${String(10_000_000 + (seq++ % 80_000_000)).slice(-8)}`;
  return {
    national,
    e164: `+254${national}`,
    spellings: [`0${national}`, `+254${national}`, `254${national}`, national],
  };
}
let hostSeq = randomBytes(1).readUInt8() % 200;
/** What owned a guest's Idempotency-Keys before: a plain SHA-256 of the phone and e-mail. */
const oldGuestOwner = (e164: string, email: string) =>
  createHash('sha256').update(`${e164}\n${email}`).digest('hex').slice(0, 32);
const newAddress = () => `10.39.${hostSeq++ % 250}.${1 + (seq % 250)}`;

describe('personal keys in limit counters and hold slots', () => {
  let s: SmsTestApp;
  let productId: string;
  const db = () => s.t.app.get<Connection>(getConnectionToken()).db! as unknown as Db;
  const personalKey = () => personalKeys(s.t.config);

  beforeAll(async () => {
    s = await createSmsTestApp('personal_keys', {
      TRUST_PROXY: 'true',
      ORDER_MAX_OPEN_UNPAID: '2',
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '3',
    });
    productId = (await createShopWorld(s.t, { product: { quantity: 100_000 } })).productId;
  }, 60_000);
  afterAll(() => s.close());

  function order(phoneNumber: string, email: string, from: string, key?: string) {
    const req = s.t.http().post('/api/orders').set('X-Forwarded-For', from);
    return (key ? req.set('Idempotency-Key', key) : req).send({
      guestInfo: { ...DELIVERY, phoneNumber, email },
      products: [{ _id: productId, quantity: 1 }],
    });
  }

  async function holdSlotsOf(purchaseNumber: string): Promise<string[]> {
    const doc = await db().collection('orders').findOne({ purchaseNumber });
    return (doc?.holdSlots as string[] | undefined) ?? [];
  }

  /** Every text of these collections' documents (and of the orders' slots) holding a needle. */
  async function findings(needles: string[]): Promise<string[]> {
    const texts: string[] = [];
    for (const name of [QUOTA_COLLECTION, RATE_LIMIT_COLLECTION, 'order_idempotency'])
      for (const doc of await db().collection(name).find().toArray())
        texts.push(`${name}: ${JSON.stringify(doc)}`);
    for (const doc of await db()
      .collection('orders')
      .find({ holdSlots: { $exists: true } })
      .toArray())
      texts.push(`orders.holdSlots: ${JSON.stringify(doc.holdSlots)}`);
    const lower = needles.map((n) => n.toLowerCase());
    return texts.filter((text) => lower.some((n) => text.toLowerCase().includes(n)));
  }

  describe('a shopper who orders, is texted, signs in and writes', () => {
    const phone = newPhone();
    const email = uniqueEmail('keys');
    const address = newAddress();
    const placed: string[] = [];

    it('is refused a third open unpaid order by the same phone or e-mail, however typed', async () => {
      for (const [i, typed] of [phone.spellings[0]!, phone.spellings[1]!].entries()) {
        const key = `checkout-${randomBytes(6).toString('hex')}`;
        const res = await order(typed, i ? email.toUpperCase() : email, address, key).expect(201);
        placed.push(res.body.order.purchaseNumber as string);
      }
      // The same phone typed two other ways, with e-mails of its own: the phone's cap refuses.
      for (const typed of [phone.spellings[2]!, phone.spellings[3]!])
        await order(typed, uniqueEmail('other'), newAddress()).expect(409);
      // The same e-mail with another phone: the e-mail's cap refuses.
      await order(newPhone().spellings[0]!, email.toUpperCase(), newAddress()).expect(409);

      const slots = await holdSlotsOf(placed[0]!);
      expect(slots.map((slot) => slot.replace(/:.*/, ''))).toEqual(['phone', 'email', 'net']);
      for (const slot of slots) expect(slot).toMatch(/^[a-z]+:[A-Za-z0-9_-]{22}#\d+$/);
    });

    it('leaves no phone, e-mail or address in any counter or slot', async () => {
      // The order texts claim the number's SMS budget.
      await s.messagesTo(phone.e164, placed.length);
      // Sign-in limits count the e-mail (3 a minute here, from any address) and the address.
      const statuses: number[] = [];
      while (!statuses.includes(429) && statuses.length < 8) {
        const from = statuses.length ? newAddress() : address;
        const typed = statuses.length % 2 ? email.toUpperCase() : email;
        const res = await s.t
          .http()
          .post('/api/auth/login')
          .set('X-Forwarded-For', from)
          .send({ email: typed, password: 'not-the-password' });
        statuses.push(res.status);
      }
      // Four tries, or a few more when a minute's window ended between them.
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses).toContain(429);
      // The contact form's hourly limit counts the e-mail and the address.
      await s.t
        .http()
        .post('/api/contact')
        .set('X-Forwarded-For', address)
        .send({ name: 'Jane', email, subject: 'Seedlings', message: 'Do you deliver?' })
        .expect(201);

      const counters = await db().collection(QUOTA_COLLECTION).find().toArray();
      expect(counters.map((c) => String(c._id).replace(/:.*/, ''))).toEqual(
        expect.arrayContaining(['sms-recipient', 'contact']),
      );
      expect(await db().collection(RATE_LIMIT_COLLECTION).countDocuments()).toBeGreaterThan(0);

      const local = email.slice(0, email.indexOf('@'));
      expect(await findings([...phone.spellings, email, local, address])).toEqual([]);
      // Nor an unkeyed digest anyone who knows the e-mail, the address or the phone could compute:
      // the rate limiter's default key of the route and whom it counts, a guest's key owner.
      const unkeyed = [`account-email:${email}`, `auth-ip:${address}`].map((tracker) =>
        createHash('sha256').update(`AuthController-login-${tracker}`).digest('hex'),
      );
      expect(await findings([...unkeyed, oldGuestOwner(phone.e164, email)])).toEqual([]);
    });
  });

  describe('the migration of orders and counters written before', () => {
    const clearSlots = (slots: string[], clearOf: Map<string, string>) =>
      slots.map((slot) => {
        const [key, n] = slot.split('#');
        return `${clearOf.get(key!)}#${n}`;
      });
    /** The clear key of each hashed key of this shopper, as the API wrote them before. */
    const clearKeys = (phone: string, email: string, address: string) =>
      new Map(
        [`phone:${phone}`, `email:${email}`, `net:${address}`].map((k) => [personalKey()(k), k]),
      );

    it('renames clear slots to the keyed hash, and the order still counts against the cap', async () => {
      const phone = newPhone();
      const email = uniqueEmail('before');
      const address = newAddress();
      const first = (await order(phone.spellings[0]!, email, address).expect(201)).body.order
        .purchaseNumber as string;
      const hashed = await holdSlotsOf(first);
      const clear = clearSlots(hashed, clearKeys(phone.e164, email, address));
      expect(clear[0]).toMatch(/^phone:\+254\d{9}#\d$/);
      await db()
        .collection('orders')
        .updateOne(
          { purchaseNumber: first },
          {
            $set: { holdSlots: clear },
          },
        );
      const day = '2026-01-15';
      // Not yet expired: the server's TTL pass removed one expiring now before the migration ran.
      const later = new Date(Date.now() + 3_600_000);
      await db()
        .collection<{ _id: string; n: number; expiresAt: Date }>(QUOTA_COLLECTION)
        .insertMany([
          { _id: `sms-recipient:${phone.e164}:${day}`, n: 1, expiresAt: later },
          { _id: `contact:email:${email}:123`, n: 1, expiresAt: later },
        ]);
      const oldRateLimit = `account:${createHash('sha256').update(email).digest('hex')}:456:1`;
      await db()
        .collection<{ _id: string; w: string; expiresAt: Date }>(RATE_LIMIT_COLLECTION)
        .insertOne({ _id: oldRateLimit, w: oldRateLimit.slice(0, -1), expiresAt: later });
      const counters = async () =>
        (await db().collection(QUOTA_COLLECTION).find().toArray()).map((c) => String(c._id));
      const hashedCounters = (await counters()).filter((id) => !/\+254|@/.test(id));

      const migrated = await migratePersonalKeys(db(), s.t.config);
      expect(migrated).toEqual({
        orders: 1,
        renumbered: 0,
        counters: 2,
        rateLimitSlots: 1,
        guestKeys: 0,
        guestKeysDeleted: 0,
      });
      expect(await holdSlotsOf(first)).toEqual(hashed);
      expect(await findings([...phone.spellings, email, address])).toEqual([]);
      // The counters the API keyed by hash are kept.
      expect(await counters()).toEqual(hashedCounters);

      // One slot left for this phone; the migrated order holds the other.
      await order(phone.spellings[3]!, uniqueEmail('other'), newAddress()).expect(201);
      await order(phone.spellings[1]!, uniqueEmail('other'), newAddress()).expect(409);

      expect(await migratePersonalKeys(db(), s.t.config)).toEqual({
        orders: 0,
        renumbered: 0,
        counters: 0,
        rateLimitSlots: 0,
        guestKeys: 0,
        guestKeysDeleted: 0,
      });
    });

    it('gives a renamed slot another number when an order placed since holds its name', async () => {
      const phone = newPhone();
      const email = uniqueEmail('meanwhile');
      const address = newAddress();
      const before = (await order(phone.spellings[0]!, email, address).expect(201)).body.order
        .purchaseNumber as string;
      const since = (await order(phone.spellings[1]!, email, address).expect(201)).body.order
        .purchaseNumber as string;
      // The older order written in clear with the very numbers the newer one holds.
      const sinceSlots = await holdSlotsOf(since);
      await db()
        .collection('orders')
        .updateOne(
          { purchaseNumber: before },
          { $set: { holdSlots: clearSlots(sinceSlots, clearKeys(phone.e164, email, address)) } },
        );

      const migrated = await migratePersonalKeys(db(), s.t.config);
      expect(migrated).toMatchObject({ orders: 1, renumbered: 3 });
      const beforeSlots = await holdSlotsOf(before);
      expect(beforeSlots.map((slot) => slot.split('#')[0])).toEqual(
        sinceSlots.map((slot) => slot.split('#')[0]),
      );
      expect(beforeSlots.filter((slot) => sinceSlots.includes(slot))).toEqual([]);
      // Both still count: the phone's cap of 2 is full.
      await order(phone.spellings[2]!, uniqueEmail('other'), newAddress()).expect(409);
    });

    it("moves a guest's Idempotency-Key to the keyed owner: a retry after the deploy finds its order", async () => {
      const phone = newPhone();
      const email = uniqueEmail('retry');
      const key = `checkout-${randomBytes(6).toString('hex')}`;
      const placed = (await order(phone.spellings[0]!, email, newAddress(), key).expect(201)).body
        .order as { _id: string };
      const keys = db().collection<{ key: string; orderId: string | null }>('order_idempotency');
      const old = `guest-${oldGuestOwner(phone.e164, email)}:${key}`;
      await keys.updateOne({ orderId: placed._id }, { $set: { key: old } });
      // A key whose order no longer gives its owner (the guest was erased): no retry can match it.
      const stray = `guest-${randomBytes(16).toString('hex')}:${key}`;
      await keys.insertOne({ key: stray, orderId: placed._id });

      expect(await migratePersonalKeys(db(), s.t.config)).toMatchObject({
        guestKeys: 1,
        guestKeysDeleted: 1,
      });
      expect(await keys.countDocuments({ key: { $in: [old, stray] } })).toBe(0);
      const retry = await order(phone.spellings[0]!, email, newAddress(), key).expect(200);
      expect(retry.body.order._id).toBe(placed._id);
      expect(await findings([oldGuestOwner(phone.e164, email), email])).toEqual([]);
    });
  });
});
