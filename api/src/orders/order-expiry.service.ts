import { HttpException, Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ORDER_STEPS } from './order-actions';
import { OrderRecoveryRepository } from './order-recovery.repository';
import { OrdersService } from './orders.service';
import { SHOP_ACTOR } from './shop-actor';

/**
 * Cancels orders still Pending and unpaid after UNPAID_ORDER_EXPIRY_HOURS, through the `expire`
 * step (stock returned, audited, the customer texted as for any cancellation): orders nobody means
 * to pay cannot hold stock for long. Staff confirm a real pay-on-delivery order by moving it on
 * from Pending, which keeps it.
 */
@Injectable()
export class OrderExpiry implements OnModuleInit {
  constructor(
    private readonly orders: OrderRecoveryRepository,
    private readonly runner: OrdersService,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const expiry = this.config.orders.unpaidExpiryMs;
    this.scheduler.declare({
      name: 'orders.expire-unpaid',
      // Checked a few times per expiry period (at most every 10 minutes, at least every second).
      everyMs: expiry && Math.min(10 * 60_000, Math.max(1000, Math.round(expiry / 4))),
      runsOn: 'one',
      run: (now) => this.expireUnpaid(now),
    });
  }

  /**
   * Safe on several instances (the step's change is conditional on the order still being Pending
   * and unpaid). Answers how many it cancelled.
   */
  async expireUnpaid(now = new Date()): Promise<number> {
    const expiry = this.config.orders.unpaidExpiryMs;
    if (!expiry) return 0;
    const hours = +(expiry / 3_600_000).toFixed(2);
    const stale = await this.orders.unpaidPendingBefore(new Date(now.getTime() - expiry));
    let expired = 0;
    for (const order of stale) {
      try {
        await this.runner.runOn(ORDER_STEPS.expire, SHOP_ACTOR, order, { hours });
        expired++;
      } catch (error) {
        // Paid, confirmed, cancelled or deleted meanwhile: it is no longer the loop's.
        if (!(error instanceof HttpException)) throw error;
      }
    }
    return expired;
  }
}
