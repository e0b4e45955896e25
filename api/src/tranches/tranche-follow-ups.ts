import { Injectable, Logger } from '@nestjs/common';
import { OnDomainEvent } from '../common/events/domain-events';
import type { OrderEvent } from '../orders/order-events';
import { SmsService } from '../sms/sms.service';
import type { TrancheEvent } from './tranche-events';
import { trancheSmsText } from './tranche-sms-text';
import { TranchesService } from './tranches.service';

/**
 * What follows a tranche's step, and what an order's steps mean for its tranches: the site
 * contact's text when a load leaves (sent without holding the step's answer up); a cancelled or
 * closed order's planned tranches called off; a deleted order's tranches forgotten.
 */
@Injectable()
export class TrancheFollowUps {
  private readonly logger = new Logger(TrancheFollowUps.name);

  constructor(
    private readonly sms: SmsService,
    private readonly tranches: TranchesService,
  ) {}

  @OnDomainEvent('tranche.*')
  ofTranche(event: TrancheEvent): void {
    if (!event.sms) return;
    const t = event.tranche;
    void this.sms.notifyContact({
      id: `tranche:${event.orderId}:T${t.number}:${event.sms}`,
      orderId: event.orderId,
      accountId: event.accountId,
      purchaseNumber: event.purchaseNumber,
      event: event.sms,
      phone: t.site.contact.phone,
      message: trancheSmsText(
        event.sms,
        {
          purchaseNumber: event.purchaseNumber,
          number: t.number,
          date: t.date,
          seedlings: event.seedlings,
        },
        this.sms.smsLinks().shopPhone,
      ),
    });
  }

  @OnDomainEvent('order.cancelled')
  cancelled(event: OrderEvent): Promise<void> {
    return this.tranches.cancelPlannedOf(event.order._id);
  }

  @OnDomainEvent('order.expired')
  expired(event: OrderEvent): Promise<void> {
    return this.tranches.cancelPlannedOf(event.order._id);
  }

  @OnDomainEvent('order.accountClosed')
  closed(event: OrderEvent): Promise<void> {
    return this.tranches.cancelPlannedOf(event.order._id);
  }

  @OnDomainEvent('order.deleted')
  async deleted(event: OrderEvent): Promise<void> {
    await this.tranches.forget(event.order._id).catch((error: Error) => {
      this.logger.error(
        `The tranches of deleted order ${event.order.purchaseNumber} were not removed: ${error.message}`,
      );
    });
  }
}
