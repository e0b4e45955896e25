import { Inject, Injectable, Logger } from '@nestjs/common';
import { ClaimsService } from '../common/claims';
import type { WindowLimit } from '../common/quota';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { MailService } from '../mail/mail.service';
import { shopDay } from '../reports/shop-time';
import { UsersService } from './users.service';

/**
 * Tells the shop when a daily budget (text messages, M-Pesa prompts) runs out: one e-mail per budget
 * and shop day to every active staff member and admin, whichever API instance sees it first (a
 * once-only claim), and a warning in the log.
 */
@Injectable()
export class BudgetAlerts {
  private readonly logger = new Logger('BudgetAlerts');

  constructor(
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly claims: ClaimsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
      const alert = {
        subject: `${what.subject} for ${day}`,
        template: 'budget-alert',
        for: { shop: true },
      } as const;
      const text = [
        'Hello,',
        '',
        `${what.subject}: all ${budget.limit} of ${day} are used.`,
        what.consequence,
        '',
        `If this is the shop's real trade, raise ${what.setting}. If not, someone may be abusing the`,
        'checkout: the back office shows the day’s orders.',
        '',
        this.config.backofficeUrl,
      ].join('\n');
      let told = 0;
      for (const to of await this.users.staffEmails())
        if (await this.mail.send({ ...alert, to, text })) told += 1;
      return told;
    } catch (error) {
      this.logger.error(`Could not tell the shop a budget ran out: ${(error as Error).message}`);
      return 0;
    }
  }
}
