import { Injectable } from '@nestjs/common';
import {
  OwnsPersonalData,
  type DataSubject,
  type ErasureReason,
  type PersonalDataOwner,
} from '../common/personal-data';
import { MailLogRepository } from './mail-log.repository';

/**
 * The mail log: each e-mail sent, to which address, for which account or order (never the text of
 * a message that opens an account). Exported: the messages recorded, when sent, for the account (or
 * a guest's orders), never one found because its address was typed somewhere. Erased: deleted.
 */
@Injectable()
@OwnsPersonalData()
export class MailPersonalData implements PersonalDataOwner {
  readonly collections = {
    mail_log: 'each e-mail sent: address, subject, template, the account or order it was for',
  };

  constructor(private readonly log: MailLogRepository) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    const mails = subject.accountId
      ? await this.log.forAccount(subject.accountId)
      : await this.log.forOrders(subject.orderIds);
    return { emails: mails };
  }

  async erase(subject: DataSubject, reason: ErasureReason): Promise<void> {
    await this.log.eraseFor({
      accountId: subject.accountId,
      orderIds: subject.orderIds,
      // Their own address (the shop's copies of their contact messages too), never one typed on
      // an order: anyone may type anyone's. The retention sweep forgets only the old orders'.
      emails: reason === 'retention' ? [] : subject.proven.emails,
    });
  }
}
