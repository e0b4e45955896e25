import { ConflictException, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import { QUOTATION_MESSAGES } from '@spc/shared-contracts';
import { OnDomainEvent } from '../common/events/domain-events';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrganisationsService } from '../organisations/organisations.service';
import { CreditLimitUseRepository } from './credit-limit-use.repository';
import type { OrderEvent } from './order-events';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';

type QuotationOrder = Pick<OrderRecord, '_id' | 'quotation'>;

/**
 * An organisation's credit limit (set by admins on its terms) over its orders from quotations:
 * what they owe at once is the unpaid totals of those not cancelled (invoices, a later issue, will
 * add "invoiced and unpaid" to it). Each order claims its total when it is placed, atomically
 * against the limit, and gives it back once when it is paid, cancelled or expired, or when its
 * placement is undone.
 */
@Injectable()
export class OrderCreditLimit {
  constructor(
    private readonly use: CreditLimitUseRepository,
    private readonly organisations: OrganisationsService,
    private readonly orders: OrdersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Refuses (409 CREDIT_LIMIT) an order of `amount` the credit left now does not cover. */
  async check(organisationId: string, amount: number): Promise<void> {
    const limit = await this.limitOf(organisationId);
    const { used } = await this.use.read(organisationId);
    if (used + amount > limit) await this.refuseUnlessFreed(organisationId, amount, limit);
  }

  /** The order's total claimed on its organisation's credit, or 409 CREDIT_LIMIT. */
  async claim(order: OrderRecord, organisationId: string): Promise<void> {
    const limit = await this.limitOf(organisationId);
    const answer = await this.use.claim(organisationId, order._id, order.totalAmount, limit);
    if (answer.claimed) return;
    await this.refuseUnlessFreed(organisationId, order.totalAmount, limit);
    const again = await this.use.claim(organisationId, order._id, order.totalAmount, limit);
    if (!again.claimed) throw refusal(limit, limit - again.used);
  }

  /** The order's claim given back (none: nothing changes), once however often asked. */
  async release(order: QuotationOrder): Promise<void> {
    if (order.quotation) await this.use.release(order.quotation.organisationId, order._id);
  }

  /** Paid: the order no longer owes anything against the limit. */
  @OnDomainEvent('order.paid')
  async onPaid(event: OrderEvent): Promise<void> {
    await this.release(event.order);
  }

  private async limitOf(organisationId: string): Promise<number> {
    const limit = await this.organisations.creditLimitOf(organisationId);
    if (limit === null)
      throw new ForbiddenException({ message: QUOTATION_MESSAGES.notBuyer, code: 'FORBIDDEN' });
    return limit;
  }

  /**
   * Before refusing: claims left by orders paid, cancelled or gone (a crash between the order's
   * change and its release; a placement that died before its order was written) are given back,
   * those older than a placement may take. Refuses if the credit left is still short.
   */
  private async refuseUnlessFreed(organisationId: string, amount: number, limit: number) {
    const before = Date.now() - this.config.orders.reconcileAfterMs;
    for (const claim of (await this.use.read(organisationId)).orders) {
      if (claim.at.getTime() > before) continue;
      const order = await this.orders.findAnyById(claim.orderId);
      if (!order || order.paymentStatus === 'Paid' || order.orderStatus === 'Cancelled')
        await this.use.release(organisationId, claim.orderId);
    }
    const { used } = await this.use.read(organisationId);
    if (used + amount > limit) throw refusal(limit, limit - used);
  }
}

function refusal(limit: number, available: number): ConflictException {
  return new ConflictException({
    message: QUOTATION_MESSAGES.creditLimit(limit, Math.max(0, available)),
    code: 'CREDIT_LIMIT',
  });
}
