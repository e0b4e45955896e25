import { Injectable } from '@nestjs/common';
import {
  ANONYMOUS_NAME,
  OwnsPersonalData,
  scrubText,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { QuotationsRepository } from './quotations.repository';

/**
 * A quotation is its organisation's procurement record; the people in it are customers: who asked
 * (their account and name), who wrote in its thread, and the approver who accepted. A person's
 * export holds the quotations they asked for and what they wrote. Their erasure takes their
 * account and name out of all of them ("Deleted customer"); the thread's texts stay (they are the
 * terms the organisation and the shop agreed on, and the other side's replies answer them) but
 * lose the person's names, phones and e-mails, as the shop's texts elsewhere do. The LPO number
 * and the versions (the shop's prices) name nobody.
 */
@Injectable()
@OwnsPersonalData()
export class QuotationsPersonalData implements PersonalDataOwner {
  readonly collections = {
    quotations:
      "who asked for a quotation (account and name), the message thread's authors and texts, and the approver who accepted it",
    quotation_counters: '',
  };

  constructor(private readonly quotations: QuotationsRepository) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    if (!subject.accountId) return { quotations: [] };
    const id = subject.accountId;
    const mine = await this.quotations.ofPerson(id);
    return {
      quotations: mine.map((q) => ({
        number: q.number,
        organisation: q.organisationName,
        youAskedForIt: q.requestedById === id,
        requestNote: q.requestedById === id ? q.request.note : undefined,
        youAcceptedIt: q.acceptance?.acceptedById === id,
        yourMessages: q.messages
          .filter((m) => m.authorId === id)
          .map((m) => ({ text: m.text, at: m.at })),
        createdAt: q.createdAt,
      })),
    };
  }

  async erase(subject: DataSubject): Promise<void> {
    if (!subject.accountId) return;
    await this.quotations.forget(subject.accountId, ANONYMOUS_NAME, (text) =>
      scrubText(text, subject),
    );
  }
}
