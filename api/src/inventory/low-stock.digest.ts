import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ClaimsService } from '../common/claims';
import { personalKeys, type PersonalKey } from '../common/personal-key';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { QueuedMail } from '../mail/mail-outbox.repository';
import { MailQueue, type MailContent } from '../mail/mail-queue.service';
import { shopDayAndHour } from '../common/shop-clock';
import { UsersService } from '../users/users.service';
import { StockService, type LowStockItem } from './stock.service';

/** How often the scheduler looks whether today's digest is due. */
const CHECK_EVERY_MS = 5 * 60 * 1000;

/**
 * The daily e-mail to staff (and admins) listing the products low or out of stock. From the
 * configured hour of each shop day, the scheduler looks every few minutes (on one instance at a
 * time); when something is low, the first to claim the day (a once-only claim in the database, so
 * two API instances never both send) queues it, one message per person under the day's key. Its list is made when each message
 * is sent. Nothing low: no e-mail, and a later look that day may still send one.
 */
@Injectable()
export class LowStockDigest implements OnModuleInit {
  private readonly logger = new Logger('LowStockDigest');
  private readonly personalKey: PersonalKey;

  constructor(
    private readonly stock: StockService,
    private readonly users: UsersService,
    private readonly mail: MailQueue,
    private readonly claims: ClaimsService,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.personalKey = personalKeys(config);
  }

  onModuleInit(): void {
    this.mail.register('low-stock-digest', (m) => this.digest(m));
    this.scheduler.declare({
      name: 'stock.low-stock-digest',
      everyMs: CHECK_EVERY_MS,
      runsOn: 'one',
      run: (now) => this.sendIfDue(now),
    });
  }

  /**
   * Sends the day's digest if it is due, something is low and no instance sent it yet; answers how
   * many people it went to (0 when not sent).
   */
  async sendIfDue(now = new Date()): Promise<number> {
    const { day, hour } = shopDayAndHour(now);
    if (hour < this.config.stock.digestHour) return 0;
    const { products } = await this.stock.lowStock();
    if (!products.length) return 0;
    if (!(await this.claims.claimOnce(`low-stock-digest:${day}`))) return 0;
    let sent = 0;
    for (const to of await this.users.staffEmails()) {
      const outcome = await this.mail.send({
        // The address keyed by its hash: the queue's keys name nobody.
        key: `low-stock-digest:${day}:${this.personalKey(`email:${to.toLowerCase()}`)}`,
        template: 'low-stock-digest',
        to,
        for: { shop: true },
        params: { day },
      });
      if (outcome === 'sent') sent += 1;
    }
    this.logger.log(`Sent the low-stock digest of ${day} to ${sent} people`);
    return sent;
  }

  /** The digest as it is sent: what is low then (nothing: not sent). */
  private async digest(queued: QueuedMail): Promise<MailContent | { skip: string }> {
    const { products, lowCount, outCount } = await this.stock.lowStock();
    if (!products.length) return { skip: 'nothing is low any more' };
    return {
      subject: `Low stock on ${String(queued.params.day)}: ${outCount} out of stock, ${lowCount} low`,
      text: digestText(products, this.config.backofficeUrl),
    };
  }
}

export function digestText(products: LowStockItem[], backofficeUrl: string): string {
  const line = (p: LowStockItem) =>
    `- ${p.productName}: ${p.productQuantity} left${p.inUnits ? ` (${p.inUnits})` : ''} (low at ${p.threshold} or fewer)\n` +
    `  ${backofficeUrl}/manage/products/${p._id}/stock`;
  const out = products.filter((p) => p.level === 'out');
  const low = products.filter((p) => p.level === 'low');
  return [
    'Good morning,',
    '',
    'These seedlings need attention today.',
    ...(out.length ? ['', `Out of stock (${out.length}):`, ...out.map(line)] : []),
    ...(low.length ? ['', `Low (${low.length}):`, ...low.map(line)] : []),
    '',
    'Record a count or restock in the back office.',
  ].join('\n');
}
