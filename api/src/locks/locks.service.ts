import { randomUUID } from 'node:crypto';
import {
  Injectable,
  Logger,
  ServiceUnavailableException,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, FilterQuery, Model, mongo, UpdateQuery } from 'mongoose';
import sift from 'sift';

const LOCK_TTL_MS = 10_000;
const ACQUIRE_TIMEOUT_MS = 10_000;

interface LockDoc {
  _id: string;
  owner: string;
  expiresAt: Date;
}

interface ClaimDoc {
  _id: string;
  createdAt: Date;
}

const isDuplicate = (error: unknown) => (error as { code?: number })?.code === 11000;

/**
 * Coordination that holds across API instances, built only on what every MongoDB-compatible server
 * does atomically: inserting a document whose `_id` is taken fails.
 *
 * - `claimOnce(key)`: true for the first caller only (a refresh token's use, a reset code's use).
 * - `withLock(key, fn)`: runs `fn` while no other caller holds `key`. MongoDB applies a conditional
 *   update (`{ productQuantity: { $gte: n } }` with `$inc`) atomically, so there the lock is skipped.
 *   FerretDB v1 does not: it reads, changes and writes a document in separate steps, so concurrent
 *   updates are lost or all pass their condition (200 concurrent decrements of 50 all "succeed").
 *   On FerretDB every stock and order-state change therefore runs under a lock document.
 */
@Injectable()
export class LocksService implements OnApplicationBootstrap {
  private readonly logger = new Logger(LocksService.name);
  private serialise = true;

  constructor(@InjectConnection() private readonly connection: Connection) {}

  async onApplicationBootstrap(): Promise<void> {
    const info = await this.connection
      .db!.admin()
      .command({ buildInfo: 1 })
      .catch(() => ({}) as Record<string, unknown>);
    const ferret = (info as { ferretdbVersion?: string }).ferretdbVersion;
    this.serialise = !!ferret || !(info as { version?: string }).version;
    if (ferret) {
      this.logger.log(
        `The database is FerretDB ${ferret}: stock and order changes run under lock documents, as its conditional updates are not atomic`,
      );
    }
  }

  /**
   * Applies `update` to the document `id` only if it matches `condition`; true when it did.
   * On MongoDB that is one conditional update, atomic by itself. On FerretDB the caller must hold
   * the document's lock (`withLock`): the document is read by `_id`, matched here (with sift, the
   * matcher mongoose uses) and written by `_id`. FerretDB v1 on SQLite answers a filter that is
   * only `{ _id }` from a direct lookup, but scans and decodes every document of the collection for
   * any other filter: at 10,000 products a conditional update takes about 270 ms, a read and a
   * write by `_id` about 110 ms (`npx tsx tools/db/probe.ts`).
   */
  async updateIf<T>(
    model: Model<T>,
    id: string,
    condition: FilterQuery<T>,
    update: UpdateQuery<T>,
  ): Promise<boolean> {
    if (!this.serialise) {
      const res = await model.updateOne({ _id: id, ...condition } as FilterQuery<T>, update);
      return res.modifiedCount === 1;
    }
    const fields = Object.keys(condition).map((field) => `+${field}`);
    const doc = await model.findById(id).select(fields.join(' ')).lean();
    if (!doc || !sift(condition as object)(doc)) return false;
    const res = await model.updateOne({ _id: id } as FilterQuery<T>, update);
    return res.modifiedCount === 1;
  }

  /** True for the first caller with this key; false for every later one. */
  async claimOnce(key: string): Promise<boolean> {
    try {
      await this.claims().insertOne({ _id: key, createdAt: new Date() });
      return true;
    } catch (error) {
      if (isDuplicate(error)) return false;
      throw error;
    }
  }

  async withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if (!this.serialise) return fn();
    const owner = randomUUID();
    await this.acquire(key, owner);
    try {
      return await fn();
    } finally {
      await this.locks()
        .deleteOne({ _id: key, owner })
        .catch((e: Error) => this.logger.warn(`Could not release lock ${key}: ${e.message}`));
    }
  }

  private async acquire(key: string, owner: string): Promise<void> {
    const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.locks().insertOne({
          _id: key,
          owner,
          expiresAt: new Date(Date.now() + LOCK_TTL_MS),
        });
        return;
      } catch (error) {
        if (!isDuplicate(error)) throw error;
      }
      // A holder that died leaves its lock; once it is past its time, it is taken away.
      await this.locks().deleteOne({ _id: key, expiresAt: { $lt: new Date() } });
      if (Date.now() > deadline) {
        throw new ServiceUnavailableException(
          'The shop is busy right now. Please try again in a moment.',
        );
      }
      const backoff = Math.min(25, 1 + attempt) + Math.random() * 5;
      await new Promise((r) => setTimeout(r, backoff));
    }
  }

  private locks(): mongo.Collection<LockDoc> {
    return this.connection.db!.collection<LockDoc>('locks');
  }

  private claims(): mongo.Collection<ClaimDoc> {
    return this.connection.db!.collection<ClaimDoc>('claims');
  }
}
