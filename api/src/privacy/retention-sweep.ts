import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { ANONYMOUS_NAME, Anonymiser, SETTLED_STATUSES } from './anonymiser';
import { PrivacySettingsService } from './privacy-settings.service';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

/**
 * Orders past the tax retention period lose their contacts (name, phone, e-mail, address), as an
 * erasure does: their figures stay, so the sales reports of those years do not change. Runs at
 * start-up and once a day; a settled order only (an order that old and still open is staff's to
 * settle first).
 */
@Injectable()
export class RetentionSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly settings: PrivacySettingsService,
    private readonly anonymiser: Anonymiser,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), DAY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Answers how many orders lost their contacts. */
  async sweep(now = new Date()): Promise<number> {
    try {
      const { taxRetentionYears } = await this.settings.get();
      const before = new Date(now);
      before.setUTCFullYear(before.getUTCFullYear() - taxRetentionYears);
      let done = 0;
      for (;;) {
        const orders = await this.connection
          .db!.collection('orders')
          .find({
            orderDate: { $lt: before },
            orderStatus: { $in: SETTLED_STATUSES },
            'guestInfo.fullName': { $ne: ANONYMOUS_NAME },
          })
          .limit(BATCH)
          .toArray();
        if (!orders.length) break;
        await this.anonymiser.anonymiseOrders(orders);
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
