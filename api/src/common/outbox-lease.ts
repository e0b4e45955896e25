import type { mongo } from 'mongoose';

/** What a durable outbox record carries for its sender's lease (SMS and e-mail alike). */
interface Leased {
  _id: string;
  status: string;
  nextTryAt: Date;
  leaseUntil: Date;
}

/**
 * Takes one pending message of `outbox` due now for `leaseMs` (`id`: that one only), or null. The
 * conditional update lets exactly one API instance have it, so two never send it at once.
 */
export function leaseDue<T extends Leased>(
  outbox: mongo.Collection<T>,
  now: Date,
  leaseMs: number,
  id?: string,
): Promise<T | null> {
  return outbox.findOneAndUpdate(
    {
      ...(id ? { _id: id } : {}),
      status: 'pending',
      nextTryAt: { $lte: now },
      leaseUntil: { $lte: now },
    } as mongo.Filter<T>,
    { $set: { leaseUntil: new Date(now.getTime() + leaseMs) } } as mongo.UpdateFilter<T>,
    { sort: { nextTryAt: 1 }, returnDocument: 'after' },
  ) as Promise<T | null>;
}
