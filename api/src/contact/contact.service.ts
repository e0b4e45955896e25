import { Inject, Injectable, NotFoundException, type OnModuleInit } from '@nestjs/common';
import { CONTACT_MESSAGES, CONTACT_PAGE_SIZE } from '@spc/shared-contracts';
import { canonicalEmail, clientNetwork } from '../common/identifiers';
import { pageRequest, totalPages } from '../common/pagination';
import { QuotaService, type WindowLimit } from '../common/quota';
import type { Principal } from '../common/principal';
import { TooManyRequestsException } from '../common/rate-limit';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { QueuedMail } from '../mail/mail-outbox.repository';
import { MailQueue, type MailContent } from '../mail/mail-queue.service';
import { customerText } from '../mail/mail-text';
import { ContactRepository } from './contact.repository';
import type {
  ContactMessageDto,
  ContactMessageListData,
  ContactMessageListQueryDto,
  ContactMessageViewDto,
} from './dto/contact.dto';

const HOUR_MS = 3_600_000;

/** What a shopper typed, quoted line by line so no line of it becomes a link in the shop's mail. */
const quoted = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => `> ${customerText(line, 1000)}`)
    .join('\n');

/**
 * The contact page's messages: stored for the back office, e-mailed to the shop's address and
 * confirmed to the shopper by e-mail (both queued once per message, their text made from the
 * stored message when sent: an erased message is not mailed). At most RATE_LIMIT_CONTACT_PER_HOUR a clock hour from one
 * client network (an IPv4 address, an IPv6 /64) and for one e-mail address, claimed before the
 * message is stored (QuotaService), so a burst cannot pass the limit on any number of instances.
 */
@Injectable()
export class ContactService implements OnModuleInit {
  constructor(
    private readonly repo: ContactRepository,
    private readonly mail: MailQueue,
    private readonly quota: QuotaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.mail.register('contact-copy', (m) => this.withMessage(m, (x) => this.shopCopy(x)));
    this.mail.register('contact-received', (m) => this.withMessage(m, () => this.received()));
  }

  /** `accountId`: the account signed in when it was sent (its export and erasure find it). */
  async send(
    dto: ContactMessageDto,
    clientAddress: string,
    accountId: string | null = null,
  ): Promise<{ _id: string }> {
    const email = canonicalEmail(dto.email);
    const perHour: WindowLimit = {
      name: 'contact',
      limit: this.config.contactPerHour,
      per: HOUR_MS,
    };
    const answer = await this.quota.take([
      { limit: perHour, key: `net:${clientNetwork(clientAddress)}` },
      { limit: perHour, key: `email:${email}` },
    ]);
    if (!answer.granted)
      throw new TooManyRequestsException(CONTACT_MESSAGES.tooMany, answer.retryAfterSeconds);

    const stored = await this.repo.create({ ...dto, email, clientAddress, accountId });
    await this.mailShop(stored, accountId);
    await this.mailShopper(stored, accountId);
    return { _id: stored._id };
  }

  async list(query: ContactMessageListQueryDto): Promise<ContactMessageListData> {
    const { page, limit, skip } = pageRequest(query, CONTACT_PAGE_SIZE);
    const read = query.status === 'read' ? true : query.status === 'unread' ? false : undefined;
    const { items, total, unread } = await this.repo.page(read, skip, limit);
    return {
      messages: items,
      totalMessages: total,
      unread,
      totalPages: totalPages(total, limit),
      page,
    };
  }

  async markRead(actor: Principal, id: string, read: boolean): Promise<ContactMessageViewDto> {
    const updated = await this.repo.setRead(id, read, actor.fullName, new Date());
    if (!updated) throw new NotFoundException('No message with this id');
    return updated;
  }

  private async mailShop(m: ContactMessageViewDto, accountId: string | null): Promise<void> {
    await this.mail.send({
      key: `contact:${m._id}:shop`,
      template: 'contact-copy',
      to: this.config.shopContacts.email,
      // The shop's copy, about the sender's account when signed in: erasing it erases the copy;
      // no export shows it. An address typed on a public page proves nobody, so it keys nothing.
      for: { shop: true, ...(accountId ? { about: accountId } : {}) },
      ref: m._id,
    });
  }

  /** The confirmation to the address the sender typed (see `received`). */
  private async mailShopper(m: ContactMessageViewDto, accountId: string | null): Promise<void> {
    await this.mail.send({
      key: `contact:${m._id}:received`,
      template: 'contact-received',
      to: m.email,
      // Sent to an address nobody verified: for the account signed in when it was sent, else for
      // nobody, so no export shows it because the address was typed.
      for: { accountId },
      ref: m._id,
    });
  }

  /** A contact e-mail's text, from the stored message it is about; none once it is erased. */
  private async withMessage(
    queued: QueuedMail,
    build: (m: ContactMessageViewDto) => MailContent,
  ): Promise<MailContent | { gone: string }> {
    const m = queued.ref ? await this.repo.findById(queued.ref) : null;
    // An erased message's e-mails go with it.
    return m ? build(m) : { gone: 'the message is gone' };
  }

  private shopCopy(m: ContactMessageViewDto): MailContent {
    return {
      subject: `Contact form: ${customerText(m.subject, 100)}`,
      text: [
        `A message from the contact page of the shop, received ${m.createdAt}.`,
        '',
        `From: "${customerText(m.name, 100)}" (${customerText(m.email, 254)})`,
        `Subject: "${customerText(m.subject, 150)}"`,
        '',
        quoted(m.message),
        '',
        `Read it in the back office, under Messages: ${this.config.backofficeUrl}`,
      ].join('\n'),
    };
  }

  /**
   * The confirmation to the address the sender typed, which nobody has verified: it quotes nothing
   * they wrote (not their name, not their subject), so a stranger cannot send their own words (a
   * pitch, a phone number) to any address under the shop's name.
   */
  private received(): MailContent {
    return {
      subject: 'We received your message',
      text: [
        'Hello,',
        '',
        'Thank you for writing to the Seedling Propagation Centre through our website. We received',
        'your message and will reply to this address soon.',
        '',
        `For a quicker answer, call us on ${this.config.shopContacts.phone} or WhatsApp us on +${this.config.shopContacts.whatsapp}.`,
        '',
        'If you did not write to us, someone typed your address by mistake: there is nothing to do.',
        '',
        'Seedling Propagation Centre, Kiambu',
      ].join('\n'),
    };
  }
}
