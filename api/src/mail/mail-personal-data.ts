import { Injectable } from '@nestjs/common';
import {
  OwnsPersonalData,
  type DataSubject,
  type ErasureReason,
  type PersonalDataOwner,
} from '../common/personal-data';
import { MailLogRepository } from './mail-log.repository';
import { MailOutboxRepository } from './mail-outbox.repository';

/**
 * The mail log: each e-mail sent, to which address, for which account or order (never the text of
 * a message that opens an account); and the mail queue: each e-mail to send, to which address,
 * which message and what about (never its text). Exported: the messages recorded, when sent, for
 * the account (or a guest's orders), and those still waiting or not sent, never one found because
 * its address was typed somewhere. Erased: deleted, from both.
 */
@Injectable()
@OwnsPersonalData()
export class MailPersonalData implements PersonalDataOwner {
  readonly collections = {
    mail_log: 'each e-mail sent: address, subject, template, the account or order it was for',
    mail_outbox:
      'each e-mail to send or sent: address, template, the account, order or message it is about',
  };

  constructor(
    private readonly log: MailLogRepository,
    private readonly queue: MailOutboxRepository,
  ) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    const [mails, unsent] = subject.accountId
      ? await Promise.all([
          this.log.forAccount(subject.accountId),
          this.queue.unsentForAccount(subject.accountId),
        ])
      : await Promise.all([
          this.log.forOrders(subject.orderIds),
          this.queue.unsentForOrders(subject.orderIds),
        ]);
    return {
      emails: mails,
      emailsNotSent: unsent.map((m) => ({
        to: m.to,
        template: m.template,
        orderId: m.orderId,
        status: m.status,
        queuedAt: m.createdAt,
      })),
    };
  }

  async erase(subject: DataSubject, reason: ErasureReason): Promise<void> {
    const person = {
      accountId: subject.accountId,
      orderIds: subject.orderIds,
      // Their own address (the shop's copies of their contact messages too), never one typed on
      // an order: anyone may type anyone's. The retention sweep forgets only the old orders'.
      emails: reason === 'retention' ? [] : subject.proven.emails,
    };
    // The queue first: a message sent meanwhile finds its record gone and takes back its log
    // record (see MailQueue), or was recorded before this erases the log.
    await this.queue.eraseFor(person);
    await this.log.eraseFor(person);
  }
}
