import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Scheduler } from '../common/scheduler/scheduler';
import { OrdersPersonalData } from '../orders/orders-personal-data';
import { Erasure } from './erasure';
import { PrivacySettingsService } from './privacy-settings.service';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

/**
 * Orders past the tax retention period lose their contacts (name, phone, e-mail, address) through
 * the same erasure as a person's (every owner: payments, messages, the trail, the ledgers): their figures stay, so the sales reports of those years do not change. Runs at
 * start-up and once a day; a settled order only (an order that old and still open is staff's to
 * settle first).
 */
@Injectable()
export class RetentionSweep implements OnModuleInit {
  private readonly logger = new Logger('Retention');

  constructor(
    private readonly settings: PrivacySettingsService,
    private readonly orders: OrdersPersonalData,
    private readonly erasure: Erasure,
    private readonly scheduler: Scheduler,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'privacy.retention',
      everyMs: DAY_MS,
      runsOn: 'one',
      atStart: true,
      run: (now) => this.sweep(now),
    });
  }

  /** Answers how many orders lost their contacts. */
  async sweep(now = new Date()): Promise<number> {
    try {
      const { taxRetentionYears } = await this.settings.get();
      const before = new Date(now);
      before.setUTCFullYear(before.getUTCFullYear() - taxRetentionYears);
      let done = 0;
      for (;;) {
        const orders = await this.orders.pastRetention(before, BATCH);
        if (!orders.length) break;
        await this.erasure.erase(this.erasure.subjectOfOrders(orders), 'retention');
        done += orders.length;
      }
      if (done)
        this.logger.log(
          `${done} order(s) older than ${taxRetentionYears} years lost their contacts`,
        );
      return done;
    } catch (error) {
      this.logger.warn(`The retention sweep failed: ${(error as Error).message}`);
      return 0;
    }
  }
}
