import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Connection, mongo } from 'mongoose';
import { isDuplicateKeyError } from './mongo-errors';
import type { PersonalKey } from './personal-key';

/**
 * One document per counted request: `_id` is `<limit>:<client key>:<window>:<n>`, the client key
 * (the route and the address or account it counts) as its keyed hash, never in clear.
 */
interface SlotDoc {
  _id: string;
  /** `<limit>:<client key>:<window>:`, to count a window's slots. */
  w: string;
  expiresAt: Date;
}

export const RATE_LIMIT_COLLECTION = 'rate_limits';
/** How often this instance forgets the slot numbers of past windows. */
const FORGET_EVERY_MS = 60_000;

/**
 * Rate-limit counters kept in the shared database, so that every API instance counts the same
 * requests. Fixed windows of `ttl` aligned on the clock: the n-th request of a client in a window
 * inserts the slot document `n`; inserting a document whose `_id` exists fails atomically, so two
 * instances can never both count the same slot. A request that finds slot `limit + 1` taken is
 * refused without writing. Each instance hands out slot numbers itself, so a client served by one
 * instance costs one insert per request, and once it knows a window is full, none.
 */
export class MongoThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  /** Per window of a client: the next slot number this instance will try. */
  private readonly windows = new Map<string, { next: number }>();
  private lastForget = 0;
  private indexed?: Promise<unknown>;

  constructor(
    private readonly connection: Connection,
    private readonly personalKey: PersonalKey,
    private readonly now: () => number = Date.now,
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): ReturnType<ThrottlerStorage['increment']> {
    this.indexed ??= this.ensureIndexes();
    const now = this.now();
    const window = Math.floor(now / ttl);
    const windowEnd = (window + 1) * ttl;
    const prefix = `${throttlerName}:${this.personalKey(key)}:${window}:`;
    this.maybeForget(now);

    // Slot numbers are handed out here before any await, so this instance's concurrent requests
    // never compete for one; only another instance's requests can take a number first.
    let window_ = this.windows.get(prefix);
    if (!window_) this.windows.set(prefix, (window_ = { next: 1 }));
    let n = window_.next++;
    while (n <= limit + 1) {
      if (await this.take(prefix, n, windowEnd)) break;
      // Taken by another instance: continue past every slot taken so far.
      window_.next = Math.max(window_.next, (await this.count(prefix)) + 1);
      n = window_.next++;
    }

    const timeToExpire = Math.max(1, Math.ceil((windowEnd - now) / 1000));
    const isBlocked = n > limit;
    return {
      totalHits: Math.min(n, limit + 1),
      timeToExpire,
      isBlocked,
      timeToBlockExpire: isBlocked ? timeToExpire : 0,
    };
  }

  private async take(prefix: string, n: number, windowEnd: number): Promise<boolean> {
    try {
      await this.slots().insertOne({
        _id: `${prefix}${n}`,
        w: prefix,
        expiresAt: new Date(windowEnd),
      });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  private count(prefix: string): Promise<number> {
    return this.slots().countDocuments({ w: prefix });
  }

  /** The database removes past windows' slots (TTL index); this instance forgets their numbers. */
  private maybeForget(now: number): void {
    if (now - this.lastForget < FORGET_EVERY_MS) return;
    this.lastForget = now;
    this.windows.clear();
  }

  private async ensureIndexes(): Promise<void> {
    await this.slots()
      .createIndex({ w: 1 })
      .catch((e: Error) =>
        this.logger.warn(`Could not index the rate-limit counters: ${e.message}`),
      );
    await this.slots()
      .createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 })
      .catch((e: Error) =>
        this.logger.warn(`Could not index the rate-limit counters: ${e.message}`),
      );
  }

  private slots(): mongo.Collection<SlotDoc> {
    return this.connection.db!.collection<SlotDoc>(RATE_LIMIT_COLLECTION);
  }
}
