import { createHash } from 'node:crypto';
import type { Db } from 'mongodb';
import { Types } from 'mongoose';
import type { AppConfig } from '../../config/app-config';
import { guestKeyOwner } from '../../orders/order-idempotency';
import { canonicalEmail, canonicalPhone } from '../../common/identifiers';
import { isDuplicateKeyError } from '../../common/mongo-errors';
import { escapeRegExp } from '../../common/pagination';
import { isPersonalKey, personalKeys, type PersonalKey } from '../../common/personal-key';
import { QUOTA_COLLECTION, slotName, slotPrefix } from '../../common/quota';
import { RATE_LIMIT_COLLECTION } from '../../common/rate-limit.store';

/** What the personal keys migration did. */
export interface PersonalKeysMigration {
  /** Orders whose open-order cap slots were renamed from the clear key to its keyed hash. */
  orders: number;
  /** Slots given another number: an order placed since took the one its new name had. */
  renumbered: number;
  /** Limit counters and rate-limit slots keyed in clear, deleted (those counts start again). */
  counters: number;
  rateLimitSlots: number;
  /** Guests' Idempotency-Keys renamed to the keyed owner, and those deleted (no longer theirs). */
  guestKeys: number;
  guestKeysDeleted: number;
}

const BATCH = 1000;
/** An order holding slots: the unique index on `holdSlots` covers these only. */
const HOLDING = { orderStatus: 'Pending', paymentStatus: 'Pending' };
/** Times one order's rename is tried again when orders placed meanwhile took its new names. */
const ATTEMPTS = 5;

/**
 * Limit counters and open-order cap slots written before issue 39 name a phone, an e-mail, an
 * account or a network in clear. This renames every order's slots (`phone:+254…#2`) to the keyed
 * hash the API now writes (`phone:<hash>#2`, personal-key.ts; the same secret, from JWT_SECRET), so
 * they still count against the caps, and deletes the counters and rate-limit slots keyed in clear:
 * they only count the current window, so those counts start again. A guest's Idempotency-Keys,
 * owned by a plain SHA-256 of their phone and e-mail, move to the keyed owner their order's contact
 * gives, so a retry across the deploy still finds its order. Idempotent: a hashed name is left as
 * it is, each rename is conditional on what it read, and a second run finds nothing.
 */
export async function migratePersonalKeys(
  db: Db,
  config: Pick<AppConfig, 'jwt'>,
): Promise<PersonalKeysMigration> {
  const personalKey = personalKeys(config);
  const result: PersonalKeysMigration = {
    orders: 0,
    renumbered: 0,
    counters: 0,
    rateLimitSlots: 0,
    guestKeys: 0,
    guestKeysDeleted: 0,
  };
  const orders = db.collection<{ _id: Types.ObjectId; holdSlots?: string[] }>('orders');
  const cursor = orders.find({ holdSlots: { $exists: true } }, { projection: { holdSlots: 1 } });
  for await (const order of cursor) {
    const slots = order.holdSlots ?? [];
    if (slots.every((s) => isPersonalKey(keyOf(s)))) continue;
    const renamed = await renameSlots(db, order._id, slots, personalKey);
    if (renamed.done) result.orders += 1;
    result.renumbered += renamed.renumbered;
  }

  Object.assign(result, await migrateGuestKeys(db, personalKey));
  result.counters = await deleteClear(
    db,
    QUOTA_COLLECTION,
    // `<limit>:<key>:<window>`
    (id) => id.slice(id.indexOf(':') + 1, id.lastIndexOf(':')),
  );
  result.rateLimitSlots = await deleteClear(
    db,
    RATE_LIMIT_COLLECTION,
    // `<limit>:<key>:<window>:<n>`
    (id) => id.slice(id.indexOf(':') + 1, id.lastIndexOf(':', id.lastIndexOf(':') - 1)),
  );
  return result;
}

/** `phone:+254712345678` of `phone:+254712345678#2`. */
function keyOf(slot: string): string {
  return slot.slice(0, slot.lastIndexOf('#'));
}

/**
 * Renames one order's slots, conditional on them being what was read. When an order holding
 * slots took one of the new names meanwhile (an API of this version ran before the migration),
 * the slot takes the lowest number no holding order carries: a slot above the cap counts against
 * it all the same, so the cap holds.
 */
async function renameSlots(
  db: Db,
  id: Types.ObjectId,
  read: string[],
  personalKey: PersonalKey,
): Promise<{ done: boolean; renumbered: number }> {
  const orders = db.collection<{ _id: Types.ObjectId; holdSlots?: string[] }>('orders');
  let slots = read.map((s) => {
    const key = keyOf(s);
    return isPersonalKey(key) ? s : `${personalKey(key)}${s.slice(key.length)}`;
  });
  let renumbered = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await orders.updateOne(
        { _id: id, holdSlots: read },
        { $set: { holdSlots: slots } },
      );
      return { done: res.modifiedCount === 1, renumbered };
    } catch (error) {
      if (!isDuplicateKeyError(error) || attempt >= ATTEMPTS) throw error;
    }
    const keys = [...new Set(slots.map(keyOf))];
    const held = await orders
      .find(
        {
          ...HOLDING,
          _id: { $ne: id },
          holdSlots: { $in: keys.map((k) => new RegExp(`^${escapeRegExp(slotPrefix(k))}`)) },
        },
        { projection: { holdSlots: 1 } },
      )
      .toArray();
    const taken = new Set(held.flatMap((o) => o.holdSlots ?? []));
    const mine = new Set<string>();
    slots = slots.map((slot) => {
      if (!taken.has(slot) && !mine.has(slot)) {
        mine.add(slot);
        return slot;
      }
      const key = keyOf(slot);
      let n = 1;
      while (taken.has(slotName(key, n)) || mine.has(slotName(key, n))) n++;
      renumbered += 1;
      mine.add(slotName(key, n));
      return slotName(key, n);
    });
  }
}

/** A guest's Idempotency-Key before: `guest-<32 hex>:<the client's key>`. */
const OLD_GUEST_KEY = /^guest-([0-9a-f]{32}):/;

/**
 * Renames the guests' Idempotency-Keys of placed orders whose contact still gives the old owner;
 * deletes those it no longer gives (erased, or edited: no retry can match them). A key without an
 * order yet is a placement under way or dead, left to its release and its day's expiry.
 */
async function migrateGuestKeys(
  db: Db,
  personalKey: PersonalKey,
): Promise<Pick<PersonalKeysMigration, 'guestKeys' | 'guestKeysDeleted'>> {
  const keys = db.collection<{ _id: Types.ObjectId; key: string; orderId: string | null }>(
    'order_idempotency',
  );
  const orders = db.collection<{ _id: Types.ObjectId; guestInfo?: Record<string, unknown> }>(
    'orders',
  );
  let guestKeys = 0;
  let guestKeysDeleted = 0;
  for await (const doc of keys.find({
    key: { $regex: OLD_GUEST_KEY.source },
    orderId: { $ne: null },
  })) {
    const oldOwner = OLD_GUEST_KEY.exec(doc.key)?.[1];
    if (!oldOwner || !doc.orderId || !Types.ObjectId.isValid(doc.orderId)) continue;
    const order = await orders.findOne(
      { _id: new Types.ObjectId(doc.orderId) },
      { projection: { guestInfo: 1 } },
    );
    const contact = {
      phoneNumber: String(order?.guestInfo?.phoneNumber ?? ''),
      email: String(order?.guestInfo?.email ?? ''),
    };
    const owner = createHash('sha256')
      .update(`${canonicalPhone(contact.phoneNumber)}\n${canonicalEmail(contact.email)}`)
      .digest('hex')
      .slice(0, 32);
    const renamed = `${guestKeyOwner(personalKey, contact)}${doc.key.slice(doc.key.indexOf(':'))}`;
    try {
      if (order && owner === oldOwner) {
        const res = await keys.updateOne(
          { _id: doc._id, key: doc.key },
          { $set: { key: renamed } },
        );
        guestKeys += res.modifiedCount;
        continue;
      }
    } catch (error) {
      // A retry since the new API started claimed the new name: that one answers now.
      if (!isDuplicateKeyError(error)) throw error;
    }
    guestKeysDeleted += (await keys.deleteOne({ _id: doc._id, key: doc.key })).deletedCount;
  }
  return { guestKeys, guestKeysDeleted };
}

/** Deletes the documents of a collection whose key (read from the `_id`) is not hashed. */
async function deleteClear(
  db: Db,
  collection: string,
  keyOfId: (id: string) => string,
): Promise<number> {
  const docs = db.collection<{ _id: string }>(collection);
  let deleted = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (!batch.length) return;
    deleted += (await docs.deleteMany({ _id: { $in: batch } })).deletedCount;
    batch = [];
  };
  for await (const doc of docs.find({}, { projection: { _id: 1 } })) {
    if (typeof doc._id === 'string' && isPersonalKey(keyOfId(doc._id))) continue;
    batch.push(doc._id);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return deleted;
}
