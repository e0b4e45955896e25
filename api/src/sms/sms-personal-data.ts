import { Injectable } from '@nestjs/common';
import {
  OwnsPersonalData,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { SmsOutboxRepository } from './sms-outbox.repository';

/**
 * The SMS outbox: each order text, its number and words. Exported: the texts of the person's
 * orders (without the queue's leases). Erased: deleted.
 */
@Injectable()
@OwnsPersonalData()
export class SmsPersonalData implements PersonalDataOwner {
  readonly collections = {
    sms_outbox: 'each order text: the number it went to, its words, the order and account',
  };

  constructor(private readonly outbox: SmsOutboxRepository) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    const texts = await this.outbox.forOrders(subject.orderIds);
    return {
      smsMessages: texts.map((t) => ({
        purchaseNumber: t.purchaseNumber,
        event: t.event,
        to: t.to,
        message: t.message,
        status: t.status,
        createdAt: t.createdAt,
        sentAt: t.sentAt,
      })),
    };
  }

  async erase(subject: DataSubject): Promise<void> {
    await this.outbox.eraseFor({
      accountId: subject.accountId,
      orderIds: subject.orderIds,
      phones: subject.proven.phones,
    });
  }
}
