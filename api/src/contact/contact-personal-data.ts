import { Injectable } from '@nestjs/common';
import {
  OwnsPersonalData,
  type DataSubject,
  type ErasureReason,
  type PersonalDataOwner,
} from '../common/personal-data';
import { ContactRepository } from './contact.repository';

/**
 * Messages from the contact page: the sender's name, the e-mail they typed and their text. Not
 * exported: the page is public, so an address typed there proves nothing about who sent it, and an
 * export by address would hand anyone's messages to whoever signs up with it. Erased: the messages
 * sent with the person's own address are deleted (they are also pruned after their period).
 */
@Injectable()
@OwnsPersonalData()
export class ContactPersonalData implements PersonalDataOwner {
  readonly collections = {
    contact_messages: "the sender's name, typed e-mail, network address and message",
  };

  constructor(private readonly messages: ContactRepository) {}

  async erase(subject: DataSubject, reason: ErasureReason): Promise<void> {
    // Their own address only (anyone may type anyone's on an order); not for the retention sweep
    // of an old order (the messages have their own period).
    if (reason !== 'retention') await this.messages.forgetSenders(subject.proven.emails);
  }
}
