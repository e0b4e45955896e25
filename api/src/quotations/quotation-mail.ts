import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { formatMoney } from '@spc/shared-contracts';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { QueuedMail } from '../mail/mail-outbox.repository';
import { MailQueue, type MailContent } from '../mail/mail-queue.service';
import { customerText } from '../mail/mail-text';
import { OrganisationsService } from '../organisations/organisations.service';
import { UsersService } from '../users/users.service';
import { totalOf, type QuotationRecord } from './quotation-record';
import { QuotationsRepository } from './quotations.repository';

/** Where the organisation's people read a quotation in the shop: its area, `?quotation=<id>`. */
export const QUOTATIONS_PAGE_PATH = '/user/organisation';

/**
 * The e-mail that a version was sent: to the person who asked (a customer) and to the
 * organisation's approvers, each queued for their account (its export shows it, its erasure takes
 * it). The text is made when it is sent, from the quotation as it is then; what the organisation's
 * people typed (its name) is quoted so that no part of it becomes a link.
 */
@Injectable()
export class QuotationMail implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(QuotationMail.name);
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly mail: MailQueue,
    private readonly quotations: QuotationsRepository,
    private readonly orgs: OrganisationsService,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.mail.register('quotation-sent', (m) => this.build(m));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Mails version `version` to its people after the answer (a slow mail server does not hold the
   * clerk's send); an instance stopping waits for it.
   */
  notify(q: QuotationRecord, version: number): void {
    const run = this.sent(q, version)
      .catch((error: unknown) =>
        this.logger.error(`${q.number} v${version}: not mailed: ${String(error)}`),
      )
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  async sent(q: QuotationRecord, version: number): Promise<void> {
    const org = await this.orgs.findRecord(q.organisationId);
    const ids = new Set(
      (org?.members ?? []).filter((m) => m.role === 'approver').map((m) => m.accountId),
    );
    if (!q.requestedByShop && q.requestedById) ids.add(q.requestedById);
    const people = await this.users.findManyByIds([...ids]);
    for (const person of people)
      await this.mail.send({
        key: `quotation:${q._id}:v${version}:${person._id}`,
        template: 'quotation-sent',
        to: person.email,
        for: { accountId: person._id },
        ref: q._id,
        params: { version },
      });
  }

  async build(queued: QueuedMail): Promise<MailContent | { gone: string }> {
    const q = queued.ref ? await this.quotations.findById(queued.ref) : null;
    const version = q?.versions.find((v) => v.version === queued.params.version);
    if (!q || !version) return { gone: 'the quotation is gone' };
    if (!queued.accountId || (await this.users.isClosed(queued.accountId)))
      return { gone: 'the account is closed' };
    const member = await this.orgs.membership(queued.accountId);
    if (member?.organisation._id !== q.organisationId)
      return { gone: 'the person no longer buys for the organisation' };
    const name = customerText(q.organisationName, 120);
    const revised = version.version > 1;
    return {
      subject: `${revised ? 'Revised quotation' : 'Quotation'} ${q.number} for ${customerText(q.organisationName, 60)}`,
      text: [
        'Hello,',
        '',
        `The Seedling Propagation Centre sent ${revised ? `version ${version.version} of ` : ''}quotation`,
        `${q.number} for "${name}": ${version.lines.length} line${version.lines.length === 1 ? '' : 's'},`,
        `${formatMoney(totalOf(version))} in total, valid until ${version.validUntil}.`,
        '',
        `To read it, ask questions, download it as a PDF or accept it with your LPO number, sign in`,
        `and open ${this.config.storefrontUrl}${QUOTATIONS_PAGE_PATH}?quotation=${q._id}`,
        '',
        'An approver of the organisation accepts it; the shop holds no stock for it until then.',
        '',
        'Seedling Propagation Centre, Kiambu',
      ].join('\n'),
    };
  }
}
