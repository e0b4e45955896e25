import { randomInt } from 'node:crypto';
import { Global, Inject, Injectable, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { addDays, shopDay, startOfShopDay } from './shop-clock';
import { isDuplicateKeyError } from './mongo-errors';
import { personalKeys, type PersonalKey } from './personal-key';

/**
 * Every limit of the API ("at most N per key") is claimed here, in the same database step as what
 * it limits, never by counting first and acting after: a burst of requests that all count the same
 * number would all pass. Two kinds:
 *
 * - `QuotaService.take`: at most `limit` a window (an hour, a shop day, ten minutes…). One counter
 *   document per limit, key and window; the claim is one conditional `$inc` (`n < limit`) with
 *   upsert on the counter's unique `_id`, so the database hands out exactly `limit` units whatever
 *   the concurrency or the number of API instances. The counter names the key by its keyed hash
 *   (personal-key.ts), never in clear.
 * - `holdSlots`: at most `limit` documents holding a key at once (open unpaid orders). The holder
 *   carries slot names `<key>#<n>` (n ≤ limit) under a unique index whose partial filter says when
 *   a document holds; inserting the holder claims its slots, and the holder's own state change
 *   (paid, confirmed, cancelled) frees them in the same write. The caller gives keys already
 *   hashed.
 */

/** A limit on how often something happens for one key. */
export interface WindowLimit {
  /** Names the limit in its counters, e.g. `sms-recipient`. */
  name: string;
  limit: number;
  /** `day`: the shop's calendar day (Africa/Nairobi); a number: fixed windows of that many ms. */
  per: 'day' | number;
}

export interface QuotaClaim {
  limit: WindowLimit;
  /** Whom the limit counts (a canonical phone, e-mail, network, account…). */
  key: string;
}

/** What `take` answers: the units it took (to give back), or the claim that had no room left. */
export type QuotaAnswer =
  | { granted: true; ticket: string[] }
  | { granted: false; refused: QuotaClaim; retryAfterSeconds: number };

interface CounterDoc {
  _id: string;
  n: number;
  expiresAt: Date;
}

export const QUOTA_COLLECTION = 'quotas';

function windowOf(per: WindowLimit['per'], now: Date): { id: string; end: Date } {
  if (per === 'day') {
    const day = shopDay(now);
    return { id: day, end: startOfShopDay(addDays(day, 1)) };
  }
  const index = Math.floor(now.getTime() / per);
  return { id: String(index), end: new Date((index + 1) * per) };
}

@Injectable()
export class QuotaService implements OnModuleInit {
  private readonly logger = new Logger('Quota');
  private readonly personalKey: PersonalKey;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.personalKey = personalKeys(config);
  }

  async onModuleInit(): Promise<void> {
    // Only tidies up past windows (their ids name the window, so a late removal changes no count).
    await this.counters()
      .createIndex({ expiresAt: 1 }, { expireAfterSeconds: 3600 })
      .catch((e: Error) => this.logger.warn(`Could not index the quota counters: ${e.message}`));
  }

  /**
   * Takes one unit of every claim, all or none: when one has no room left, the units already taken
   * are given back and the answer names it, with the seconds until its window ends.
   */
  async take(claims: QuotaClaim[], now = new Date()): Promise<QuotaAnswer> {
    const ticket: string[] = [];
    for (const claim of claims) {
      const window = windowOf(claim.limit.per, now);
      const id = this.counterId(claim.limit, claim.key, window.id);
      if (await this.takeOne(id, claim.limit.limit, window.end)) {
        ticket.push(id);
        continue;
      }
      await this.giveBack(ticket);
      const retryAfterSeconds = Math.max(
        1,
        Math.ceil((window.end.getTime() - now.getTime()) / 1000),
      );
      return { granted: false, refused: claim, retryAfterSeconds };
    }
    return { granted: true, ticket };
  }

  /** Gives back the units of a ticket: what they allowed did not happen after all. */
  async giveBack(ticket: string[]): Promise<void> {
    for (const id of ticket)
      await this.counters().updateOne({ _id: id, n: { $gt: 0 } }, { $inc: { n: -1 } });
  }

  /** How many units of this key's current window are taken (for tests and reports, never to decide). */
  async used(limit: WindowLimit, key: string, now = new Date()): Promise<number> {
    const doc = await this.counters().findOne({
      _id: this.counterId(limit, key, windowOf(limit.per, now).id),
    });
    return doc?.n ?? 0;
  }

  /** `<limit>:<keyed hash of the key>:<window>`: whom the counter counts is not in clear. */
  private counterId(limit: WindowLimit, key: string, window: string): string {
    return `${limit.name}:${this.personalKey(key)}:${window}`;
  }

  private async takeOne(id: string, limit: number, expiresAt: Date): Promise<boolean> {
    try {
      const res = await this.counters().updateOne(
        { _id: id, n: { $lt: limit } },
        { $inc: { n: 1 }, $setOnInsert: { expiresAt } },
        { upsert: true },
      );
      return res.modifiedCount + res.upsertedCount === 1;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    // The counter exists: it was full (the filter missed, so the upsert collided with it), or
    // another request created it a moment ago. Without upsert the filter alone decides.
    const res = await this.counters().updateOne({ _id: id, n: { $lt: limit } }, { $inc: { n: 1 } });
    return res.modifiedCount === 1;
  }

  private counters(): mongo.Collection<CounterDoc> {
    return this.connection.db!.collection<CounterDoc>(QUOTA_COLLECTION);
  }
}

@Global()
@Module({ providers: [QuotaService], exports: [QuotaService] })
export class QuotaModule {}

// Held slots ---------------------------------------------------------------------------------

/** One key a holder counts against: at most `limit` slots held at once, `count` of them by this holder. */
export interface HoldDimension {
  key: string;
  limit: number;
  /** Slots this holder takes (default 1), e.g. one per 100 units of stock. */
  count?: number;
}

export type HoldAnswer<T> = { held: true; value: T } | { held: false; refused: HoldDimension };

/** How often a holder is tried again when another took one of the chosen slots meanwhile. */
const HOLD_ATTEMPTS = 12;

/** The slot names of one key, as the holders carry them. */
export const slotName = (key: string, n: number) => `${key}#${n}`;
export const slotPrefix = (key: string) => `${key}#`;

/**
 * Inserts a holder with free slots of every dimension. `taken` lists the slot names live holders of
 * these keys carry; `insert` writes the holder with the chosen names and must fail with a duplicate
 * key error on the slots' unique index when one is taken. Slots are chosen at random, so concurrent
 * holders seldom pick the same: the first try without reading (most keys hold few slots), each
 * next one among the slots a fresh read shows free. A dimension without enough free slots refuses,
 * and nothing is written.
 */
export async function holdSlots<T>(
  dimensions: HoldDimension[],
  taken: (keys: string[]) => Promise<string[]>,
  insert: (slots: string[]) => Promise<T>,
  isSlotCollision: (error: unknown) => boolean,
): Promise<HoldAnswer<T>> {
  for (let attempt = 1; ; attempt++) {
    const held = new Set(attempt === 1 ? [] : await taken(dimensions.map((d) => d.key)));
    const slots: string[] = [];
    for (const dimension of dimensions) {
      const chosen = pickFree(dimension, held);
      if (!chosen) return { held: false, refused: dimension };
      slots.push(...chosen);
    }
    try {
      return { held: true, value: await insert(slots) };
    } catch (error) {
      if (!isSlotCollision(error) || attempt >= HOLD_ATTEMPTS) throw error;
    }
  }
}

/** `count` slot names of the dimension that no live holder carries, at random; null if too few. */
function pickFree(dimension: HoldDimension, held: Set<string>): string[] | null {
  const count = dimension.count ?? 1;
  let takenCount = 0;
  const prefix = slotPrefix(dimension.key);
  for (const name of held) if (name.startsWith(prefix)) takenCount++;
  if (dimension.limit - takenCount < count) return null;
  const chosen = new Set<string>();
  // Random probing while free slots are plentiful; a walk through all of them when they are scarce.
  if (dimension.limit - takenCount >= 2 * count) {
    while (chosen.size < count) {
      const name = slotName(dimension.key, 1 + randomInt(dimension.limit));
      if (!held.has(name)) chosen.add(name);
    }
    return [...chosen];
  }
  const free: string[] = [];
  for (let n = 1; n <= dimension.limit; n++) {
    const name = slotName(dimension.key, n);
    if (!held.has(name)) free.push(name);
  }
  for (let i = free.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [free[i], free[j]] = [free[j]!, free[i]!];
  }
  return free.slice(0, count);
}
