import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type {
  InvoiceSmsEvent,
  OrderSmsEvent,
  TillSmsEvent,
  TrancheSmsEvent,
} from '@spc/shared-contracts';
import type { Connection, mongo } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { leaseDue } from '../common/outbox-lease';

/** `pending`: due a (re)try at `nextTryAt`; `sent`: the gateway took it; `failed`: given up; `skipped`: not sent (the customer turned SMS off, or no mobile number). */
export type SmsStatus = 'pending' | 'sent' | 'failed' | 'skipped';

/** One order text message and everything that happened to it. */
export interface SmsRecord {
  /**
   * `order:<orderId>:<event>` (a tranche's: `tranche:<orderId>:T<n>:<event>…`): the key that lets
   * each event be sent at most once.
   */
  _id: string;
  orderId: string;
  /** The account the order is for (its `placedBy`); null for a guest's order. */
  accountId: string | null;
  purchaseNumber: string;
  /**
   * An order's event (to its customer), a tranche's (to its site's contact), or an invoice's
   * reminder (to its organisation's billing contact).
   */
  event: OrderSmsEvent | TrancheSmsEvent | InvoiceSmsEvent | TillSmsEvent;
  to: string;
  message: string;
  status: SmsStatus;
  attempts: number;
  nextTryAt: Date;
  /** Another attempt may only start after this (the instance trying it holds it until then). */
  leaseUntil: Date;
  lastError: string;
  gatewayId: string;
  gatewayStatus: string;
  createdAt: Date;
  sentAt: Date | null;
}

/** The `sms_outbox` collection: a durable queue and the record of every order text message. */
@Injectable()
export class SmsOutboxRepository implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async onModuleInit(): Promise<void> {
    await this.outbox()
      .createIndex({ status: 1, nextTryAt: 1 })
      .catch(() => undefined);
    await this.outbox()
      .createIndex({ orderId: 1 })
      .catch(() => undefined);
    await this.outbox()
      .createIndex({ accountId: 1 })
      .catch(() => undefined);
  }

  /** Records a new message; false when this order's event already has one (it is never sent twice). */
  async insertOnce(record: SmsRecord): Promise<boolean> {
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
   * lets exactly one API instance have it, so two instances never send it twice at once.
   */
  async lease(now: Date, leaseMs: number, id?: string): Promise<SmsRecord | null> {
    return leaseDue(this.outbox(), now, leaseMs, id);
  }

  async markSent(id: string, at: Date, gatewayId: string, gatewayStatus: string): Promise<void> {
    await this.outbox().updateOne(
      { _id: id },
      {
        $set: { status: 'sent', sentAt: at, gatewayId, gatewayStatus, leaseUntil: at },
        $inc: { attempts: 1 },
      },
    );
  }

  /** Records a failed attempt: due again at `nextTryAt`, or given up (`failed`) when null. */
  async markFailed(id: string, at: Date, error: string, nextTryAt: Date | null): Promise<void> {
    await this.outbox().updateOne(
      { _id: id },
      {
        $set: {
          lastError: error.slice(0, 500),
          leaseUntil: at,
          ...(nextTryAt ? { nextTryAt } : { status: 'failed' }),
        },
        $inc: { attempts: 1 },
      },
    );
  }

  findByOrder(orderId: string): Promise<SmsRecord[]> {
    return this.outbox().find({ orderId }).sort({ createdAt: 1 }).toArray();
  }

  /** Every message recorded for these orders, oldest first (a person's data export). */
  forOrders(orderIds: readonly string[]): Promise<SmsRecord[]> {
    if (!orderIds.length) return Promise.resolve([]);
    return this.outbox()
      .find({ orderId: { $in: [...orderIds] } })
      .sort({ createdAt: 1 })
      .toArray();
  }

  /** Deletes the messages of these orders and of this account; answers how many. */
  async eraseFor(person: {
    accountId?: string | null;
    orderIds?: readonly string[];
    /** Numbers (E.164) proven theirs: every text to them goes, an order deleted since too. */
    phones?: readonly string[];
  }): Promise<number> {
    const or: mongo.Filter<SmsRecord>[] = [];
    if (person.accountId) or.push({ accountId: person.accountId });
    if (person.orderIds?.length) or.push({ orderId: { $in: [...person.orderIds] } });
    if (person.phones?.length) or.push({ to: { $in: [...person.phones] } });
    if (!or.length) return 0;
    const { deletedCount } = await this.outbox().deleteMany({ $or: or });
    return deletedCount;
  }

  private outbox(): mongo.Collection<SmsRecord> {
    return this.connection.db!.collection<SmsRecord>('sms_outbox');
  }
}
