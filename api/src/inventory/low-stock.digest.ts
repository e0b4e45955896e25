import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ClaimsService } from '../common/claims';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { MailService } from '../mail/mail.service';
import { shopDayAndHour } from '../reports/shop-time';
import { UsersService } from '../users/users.service';
import { StockService, type LowStockItem } from './stock.service';

/** How often an instance looks whether today's digest is due. */
const CHECK_EVERY_MS = 5 * 60 * 1000;

/**
 * The daily e-mail to staff (and admins) listing the products low or out of stock. From the
 * configured hour of each shop day, every instance looks every few minutes; when something is low,
 * the first to claim the day (a once-only claim in the database, so two API instances never both
 * send) sends it. Nothing low: no e-mail, and a later look that day may still send one.
 */
@Injectable()
export class LowStockDigest implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LowStockDigest');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly stock: StockService,
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly claims: ClaimsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sendIfDue().catch((e: Error) =>
        this.logger.error(`Low-stock digest failed: ${e.message}`),
      );
    }, CHECK_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Sends the day's digest if it is due, something is low and no instance sent it yet; answers how
   * many people it went to (0 when not sent).
   */
  async sendIfDue(now = new Date()): Promise<number> {
    const { day, hour } = shopDayAndHour(now);
    if (hour < this.config.stock.digestHour) return 0;
    const { products, lowCount, outCount } = await this.stock.lowStock();
    if (!products.length) return 0;
    if (!(await this.claims.claimOnce(`low-stock-digest:${day}`))) return 0;
    const recipients = await this.users.staffEmails();
    const digest = {
      subject: `Low stock on ${day}: ${outCount} out of stock, ${lowCount} low`,
      text: digestText(products, this.config.backofficeUrl),
      template: 'low-stock-digest',
      for: { shop: true },
    } as const;
    let sent = 0;
    for (const to of recipients) if (await this.mail.send({ ...digest, to })) sent += 1;
    this.logger.log(`Sent the low-stock digest of ${day} to ${sent} people`);
    return sent;
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
