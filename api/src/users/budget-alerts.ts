import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ClaimsService } from '../common/claims';
import { personalKeys, type PersonalKey } from '../common/personal-key';
import type { WindowLimit } from '../common/quota';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { QueuedMail } from '../mail/mail-outbox.repository';
import { MailQueue, type MailContent } from '../mail/mail-queue.service';
import { shopDay } from '../common/shop-clock';
import { UsersService } from './users.service';

/**
 * Tells the shop when a daily budget (text messages, M-Pesa prompts) runs out: one e-mail per budget
 * and shop day to every active staff member and admin, whichever API instance sees it first (a
 * once-only claim), queued under the budget's and day's key, and a warning in the log.
 */
@Injectable()
export class BudgetAlerts implements OnModuleInit {
  private readonly logger = new Logger('BudgetAlerts');
  private readonly personalKey: PersonalKey;

  constructor(
    private readonly users: UsersService,
    private readonly mail: MailQueue,
    private readonly claims: ClaimsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.personalKey = personalKeys(config);
  }

  onModuleInit(): void {
    this.mail.register('budget-alert', async (m) => this.alert(m));
  }

  /** Never throws: what ran out is refused either way. Answers how many people were told. */
  async ranOut(
    budget: WindowLimit,
    what: { subject: string; consequence: string; setting: string },
    now = new Date(),
  ): Promise<number> {
    try {
      const day = shopDay(now);
      if (!(await this.claims.claimOnce(`budget-alert:${budget.name}:${day}`))) return 0;
      this.logger.warn(`${what.subject} (${budget.limit} on ${day})`);
      let told = 0;
      for (const to of await this.users.staffEmails()) {
        const outcome = await this.mail.send({
          key: `budget-alert:${budget.name}:${day}:${this.personalKey(`email:${to.toLowerCase()}`)}`,
          template: 'budget-alert',
          to,
          for: { shop: true },
          params: { ...what, day, limit: budget.limit },
        });
        if (outcome === 'sent') told += 1;
      }
      return told;
    } catch (error) {
      this.logger.error(`Could not tell the shop a budget ran out: ${(error as Error).message}`);
      return 0;
    }
  }

  /** The alert's words, from what ran out (the budget, its day and limit, what it means). */
  private alert(queued: QueuedMail): MailContent {
    const p = queued.params as {
      subject: string;
      consequence: string;
      setting: string;
      day: string;
      limit: number;
    };
    return {
      subject: `${p.subject} for ${p.day}`,
      text: [
        'Hello,',
        '',
        `${p.subject}: all ${p.limit} of ${p.day} are used.`,
        p.consequence,
        '',
        `If this is the shop's real trade, raise ${p.setting}. If not, someone may be abusing the`,
        'checkout: the back office shows the day’s orders.',
        '',
        this.config.backofficeUrl,
      ].join('\n'),
    };
  }
}
