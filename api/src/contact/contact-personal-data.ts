import { Injectable } from '@nestjs/common';
import {
  OwnsPersonalData,
  type DataSubject,
  type ErasureReason,
  type PersonalDataOwner,
} from '../common/personal-data';
import { ContactRepository } from './contact.repository';

/**
 * Messages from the contact page: the sender's name, the e-mail they typed and their text, and the
 * account signed in when it was sent. Exported and erased by that account only: the page is public,
 * so an address typed there proves nothing about who sent it, and an export or erasure by address
 * would reach anyone's messages through whoever signs up with it. A guest's message goes with its
 * own period.
 */
@Injectable()
@OwnsPersonalData()
export class ContactPersonalData implements PersonalDataOwner {
  readonly collections = {
    contact_messages: "the sender's name, typed e-mail, network address and message",
  };

  constructor(private readonly messages: ContactRepository) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    if (!subject.accountId) return { contactMessages: [] };
    const messages = await this.messages.ofAccount(subject.accountId);
    return {
      contactMessages: messages.map((m) => ({
        name: m.name,
        email: m.email,
        subject: m.subject,
        message: m.message,
        createdAt: m.createdAt,
      })),
    };
  }

  async erase(subject: DataSubject, reason: ErasureReason): Promise<void> {
    // Those sent while signed in, and those from an address proven theirs; never by an address
    // merely typed (anyone may type anyone's). Not for the retention sweep of an old order: the
    // messages have their own period.
    if (reason !== 'retention')
      await this.messages.forget(subject.accountId, subject.proven.emails);
  }
}
