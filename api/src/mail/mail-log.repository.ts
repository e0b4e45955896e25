import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Types, type Connection, type mongo } from 'mongoose';
import { canonicalEmail } from '../common/identifiers';
import { MAIL_LOG_COLLECTION, type MailLogRecord, type MailTemplate } from './mail-log';

/** One e-mail as a person's data export shows it. */
export interface SentMail {
  to: string;
  subject: string;
  template: MailTemplate | null;
  orderId: string | null;
  /** Absent for a message that carried a secret (its text was never kept). */
  text?: string;
  sentAt: Date;
}

/** Whose records to erase: an account's, its orders', and every message to or about its addresses. */
export interface MailLogPerson {
  accountId?: string | null;
  orderIds?: readonly string[];
  emails?: readonly string[];
}

/**
 * The `mail_log` collection: each e-mail sent, with whom it was sent for (MailLogRecord). The one
 * place that reads or writes it; its retention is a TTL index on `sentAt` (privacy settings).
 */
@Injectable()
export class MailLogRepository implements OnModuleInit {
  private readonly logger = new Logger(MailLogRepository.name);

  constructor(@InjectConnection() private readonly connection: Connection) {}

  async onModuleInit(): Promise<void> {
    for (const key of ['accountId', 'orderId', 'to', 'about'])
      await this.log()
        .createIndex({ [key]: 1 })
        .catch((e: Error) =>
          this.logger.warn(`Could not index the mail log by ${key}: ${e.message}`),
        );
  }

  /** Records a message sent; answers its record's id. */
  async record(entry: MailLogRecord): Promise<string> {
    const { insertedId } = await this.log().insertOne(entry);
    return String(insertedId);
  }

  /** Deletes one record (the message's owner was erased while it was being sent). */
  async remove(id: string): Promise<void> {
    await this.log().deleteOne({ _id: new Types.ObjectId(id) } as mongo.Filter<MailLogRecord>);
  }

  /** The messages recorded for this account (its resets, its orders' messages), oldest first. */
  forAccount(accountId: string): Promise<SentMail[]> {
    return this.find({ accountId });
  }

  /** The messages recorded for these orders, oldest first. */
  forOrders(orderIds: readonly string[]): Promise<SentMail[]> {
    if (!orderIds.length) return Promise.resolve([]);
    return this.find({ orderId: { $in: [...orderIds] } });
  }

  /**
   * Deletes the person's records: those recorded for the account or its orders, and every message
   * to one of the addresses or about it (the shop's copy of their contact message). Answers how many.
   */
  async eraseFor(person: MailLogPerson): Promise<number> {
    const emails = [...new Set((person.emails ?? []).map(canonicalEmail).filter(Boolean))];
    const or: mongo.Filter<MailLogRecord>[] = [];
    // For the account, and the shop's copies about it (a message sent while signed in).
    if (person.accountId) or.push({ accountId: person.accountId }, { about: person.accountId });
    if (person.orderIds?.length) or.push({ orderId: { $in: [...person.orderIds] } });
    if (emails.length) or.push({ to: { $in: emails } }, { about: { $in: emails } });
    if (!or.length) return 0;
    const { deletedCount } = await this.log().deleteMany({ $or: or });
    return deletedCount;
  }

  private async find(filter: mongo.Filter<MailLogRecord>): Promise<SentMail[]> {
    const records = await this.log().find(filter).sort({ sentAt: 1 }).toArray();
    return records.map((r) => ({
      to: r.to,
      subject: r.subject,
      template: r.template ?? null,
      orderId: r.orderId ?? null,
      ...(typeof r.text === 'string' ? { text: r.text } : {}),
      sentAt: r.sentAt,
    }));
  }

  private log(): mongo.Collection<MailLogRecord> {
    return this.connection.db!.collection<MailLogRecord>(MAIL_LOG_COLLECTION);
  }
}
