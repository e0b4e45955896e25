import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { canonicalEmail } from '../common/identifiers';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { leaseDue } from '../common/outbox-lease';
import type { MailTemplate } from './mail-log';

export const MAIL_OUTBOX_COLLECTION = 'mail_outbox';

/**
 * `pending`: due a (re)try at `nextTryAt`; `sending`: one attempt (`sender`) is making it and
 * handing it to the mail server, under its lease, renewed while it runs; `sent`: the transport
 * took it; `failed`: given up (also one whose sender stopped while sending it: it may have left,
 * and it is not sent again); `skipped`: not sent (what it was about is gone, or a later message of
 * its kind replaced it).
 */
export type QueuedMailStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';

/** Values a message's text is made from that name nobody and open nothing (a day, a budget). */
export type MailParams = Record<string, string | number | boolean | null>;

/**
 * One e-mail the shop is to send, or sent: which message, to whom, and what it is about. Never
 * its text: that is made when it is sent, from the records it refers to, so a reset's link (made
 * then) is never stored.
 */
export interface QueuedMail {
  /** The event it is sent for (`order:<id>:confirmation`): each event is mailed at most once. */
  _id: string;
  template: MailTemplate;
  /** The address, folded to lower case. */
  to: string;
  /** The account it is for (an order's account, the account reset); null for a guest or the shop. */
  accountId: string | null;
  orderId: string | null;
  /** A shop message about a person: the account it concerns (their contact message's copy). */
  about: string | null;
  /** Another record it is about (a contact message), by id. */
  ref: string | null;
  params: MailParams;
  status: QueuedMailStatus;
  attempts: number;
  nextTryAt: Date;
  /** Another attempt may only start after this (the instance sending it holds it until then). */
  leaseUntil: Date;
  /** The attempt that marked it `sending` (a random id): only that attempt records its end. */
  sender?: string | null;
  lastError: string;
  createdAt: Date;
  sentAt: Date | null;
}

/** Whose queued e-mails to erase: an account's, its orders', every one to or about its addresses. */
export interface QueuedMailPerson {
  accountId?: string | null;
  orderIds?: readonly string[];
  emails?: readonly string[];
}

/**
 * The `mail_outbox` collection: the e-mail queue and what became of each message. The one place
 * that reads or writes it; pruned by a TTL index on `createdAt` (the mail log's period).
 */
@Injectable()
export class MailOutboxRepository implements OnModuleInit {
  private readonly logger = new Logger(MailOutboxRepository.name);

  constructor(@InjectConnection() private readonly connection: Connection) {}

  async onModuleInit(): Promise<void> {
    const indexes: mongo.IndexSpecification[] = [
      { status: 1, nextTryAt: 1 },
      // The sweep for sends whose sender stopped: `sending` with a lapsed lease.
      { status: 1, leaseUntil: 1 },
      { accountId: 1 },
      { orderId: 1 },
      { to: 1 },
      { about: 1 },
      { ref: 1 },
    ];
    for (const index of indexes)
      await this.outbox()
        .createIndex(index)
        .catch((e: Error) => this.logger.warn(`Could not index the mail queue: ${e.message}`));
  }

  /** Queues a message; false when its event already has one (it is never sent twice). */
  async insertOnce(record: QueuedMail): Promise<boolean> {
    try {
      await this.outbox().insertOne(record);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /**
   * Takes one message due now for `leaseMs` (`id`: that one only), or null. The conditional update
   * lets exactly one API instance have it, so two instances never send it at once.
   */
  lease(now: Date, leaseMs: number, id?: string): Promise<QueuedMail | null> {
    return leaseDue(this.outbox(), now, leaseMs, id);
  }

  /**
   * Marks the message `sending` by the attempt `sender`, while it is still pending under the lease
   * that ended at `leaseUntil` (no one leased it since, and it was not sent, skipped or erased
   * meanwhile), for `leaseMs` from `now`. Answers the new lease's end, or null (not this attempt's
   * to send). From then on no instance leases it again: only this attempt makes and sends it.
   */
  async markSending(
    id: string,
    leaseUntil: Date,
    sender: string,
    now: Date,
    leaseMs: number,
  ): Promise<Date | null> {
    const until = new Date(now.getTime() + leaseMs);
    const res = await this.outbox().updateOne(
      { _id: id, status: 'pending', leaseUntil },
      { $set: { status: 'sending', sender, leaseUntil: until } },
    );
    return res.modifiedCount === 1 ? until : null;
  }

  /** Lengthens the lease of a message `sender` is still sending; false when it is not any more. */
  async renewSending(id: string, sender: string, until: Date): Promise<boolean> {
    const res = await this.outbox().updateOne(
      { _id: id, status: 'sending', sender },
      { $set: { leaseUntil: until } },
    );
    return res.matchedCount === 1;
  }

  /**
   * Messages marked `sending` whose lease lapsed by `now`: their sender stopped (a crash) or was
   * cut off from the database longer than the lease, maybe after the mail server took the message.
   * Each is given up (`failed`, with `why`), never sent again; answers them as they were.
   */
  async giveUpLapsedSends(now: Date, why: string): Promise<QueuedMail[]> {
    const lapsed = await this.outbox()
      .find({ status: 'sending', leaseUntil: { $lte: now } })
      .limit(100)
      .toArray();
    const givenUp: QueuedMail[] = [];
    for (const mail of lapsed) {
      const res = await this.outbox().updateOne(
        { _id: mail._id, status: 'sending', sender: mail.sender, leaseUntil: mail.leaseUntil },
        { $set: { status: 'failed', lastError: why, leaseUntil: now }, $inc: { attempts: 1 } },
      );
      if (res.modifiedCount === 1) givenUp.push(mail);
    }
    return givenUp;
  }

  /**
   * Sent (whatever was decided of it meanwhile: it has left). False when the record is gone: an
   * erasure deleted it while it was being sent.
   */
  async markSent(id: string, at: Date): Promise<boolean> {
    const res = await this.outbox().updateOne(
      { _id: id },
      { $set: { status: 'sent', sentAt: at, leaseUntil: at }, $inc: { attempts: 1 } },
    );
    return res.matchedCount === 1;
  }

  /** Deletes one message (what it was for has been erased: nothing is kept of it). */
  async remove(id: string): Promise<void> {
    await this.outbox().deleteOne({ _id: id });
  }

  /**
   * A failed attempt of `sender`, which had it `sending` and knows it did not leave: due again at
   * `nextTryAt`, or given up (`failed`) when null. Nothing when the attempt no longer has it.
   */
  async markFailed(
    id: string,
    sender: string,
    at: Date,
    error: string,
    nextTryAt: Date | null,
  ): Promise<void> {
    await this.outbox().updateOne(
      { _id: id, status: 'sending', sender },
      {
        $set: {
          lastError: error.slice(0, 500),
          leaseUntil: at,
          ...(nextTryAt ? { status: 'pending', nextTryAt } : { status: 'failed' }),
        },
        $inc: { attempts: 1 },
      },
    );
  }

  /** Not to be sent, and why (`sender`: the attempt that had it `sending`). */
  async markSkipped(id: string, sender: string, at: Date, why: string): Promise<void> {
    await this.outbox().updateOne(
      { _id: id, status: 'sending', sender },
      { $set: { status: 'skipped', lastError: why, leaseUntil: at } },
    );
  }

  /**
   * Messages of this template for this account queued before `before` and still waiting: skipped,
   * with why. Never a later one: of messages queued at once, each skipping the others, none would
   * be sent.
   */
  async skipEarlier(
    template: MailTemplate,
    accountId: string,
    before: Date,
    why: string,
  ): Promise<number> {
    const res = await this.outbox().updateMany(
      { accountId, template, status: 'pending', createdAt: { $lt: before } },
      { $set: { status: 'skipped', lastError: why } },
    );
    return res.modifiedCount;
  }

  /** The messages queued for this account and not sent (yet), oldest first. */
  unsentForAccount(accountId: string): Promise<QueuedMail[]> {
    return this.unsent({ accountId });
  }

  /** The messages queued for these orders and not sent (yet), oldest first. */
  unsentForOrders(orderIds: readonly string[]): Promise<QueuedMail[]> {
    if (!orderIds.length) return Promise.resolve([]);
    return this.unsent({ orderId: { $in: [...orderIds] } });
  }

  /**
   * Deletes the person's messages: those queued for the account or its orders, and every one to
   * or about one of the addresses (the shop's copy of their contact message). Answers how many.
   */
  async eraseFor(person: QueuedMailPerson): Promise<number> {
    const emails = [...new Set((person.emails ?? []).map(canonicalEmail).filter(Boolean))];
    const or: mongo.Filter<QueuedMail>[] = [];
    if (person.accountId) or.push({ accountId: person.accountId }, { about: person.accountId });
    if (person.orderIds?.length) or.push({ orderId: { $in: [...person.orderIds] } });
    if (emails.length) or.push({ to: { $in: emails } }, { about: { $in: emails } });
    if (!or.length) return 0;
    const { deletedCount } = await this.outbox().deleteMany({ $or: or });
    return deletedCount;
  }

  private unsent(filter: mongo.Filter<QueuedMail>): Promise<QueuedMail[]> {
    return this.outbox()
      .find({ ...filter, status: { $ne: 'sent' } })
      .sort({ createdAt: 1 })
      .toArray();
  }

  private outbox(): mongo.Collection<QueuedMail> {
    return this.connection.db!.collection<QueuedMail>(MAIL_OUTBOX_COLLECTION);
  }
}
