import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { isDuplicateKeyError } from '../mongo-errors';

export const SCHEDULER_LEASES_COLLECTION = 'scheduler_leases';

/** One sweep's lease: which instance runs it, and until when unless renewed. */
export interface SweepLease {
  /** The sweep's name. */
  _id: string;
  holder: string;
  expiresAt: Date;
}

/**
 * The leases of one-instance sweeps (`scheduler_leases`, one document per sweep): an instance runs
 * such a sweep only while it holds its lease, so of several API instances one runs it at a time,
 * and the lease of an instance that died lapses by itself.
 */
@Injectable()
export class SweepLeases {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /**
   * Takes (or renews) the lease of `sweep` for `holder` for `forMs` from `now`: true when it is
   * the holder's. One conditional upsert: it matches only a lease that is free, lapsed or already
   * the holder's; a lease held by another matches nothing, and the upsert's insert of a second
   * document under the same name is refused by the `_id` index.
   */
  async take(sweep: string, holder: string, forMs: number, now = new Date()): Promise<boolean> {
    try {
      const lease = await this.leases().findOneAndUpdate(
        { _id: sweep, $or: [{ holder }, { expiresAt: { $lte: now } }] },
        { $set: { holder, expiresAt: new Date(now.getTime() + forMs) } },
        { upsert: true, returnDocument: 'after' },
      );
      return lease?.holder === holder;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Lets go of every lease `holder` has (an instance shutting down): another takes them at once. */
  async releaseAll(holder: string): Promise<void> {
    await this.leases().updateMany({ holder }, { $set: { expiresAt: new Date(0) } });
  }

  private leases(): mongo.Collection<SweepLease> {
    return this.connection.db!.collection<SweepLease>(SCHEDULER_LEASES_COLLECTION);
  }
}
