import { HttpException, Injectable, Logger } from '@nestjs/common';
import { OrderFromQuotationService } from '../orders/order-from-quotation.service';
import { OrganisationsService } from '../organisations/organisations.service';
import { orderRequestOf } from './quotation-order-request';
import type { QuotationRecord } from './quotation-record';
import { QuotationsRepository } from './quotations.repository';

/** How long an acceptance may run before its claim counts as left by a crash. */
export const CLAIM_STALE_MS = 60_000;

/**
 * Settles a claim left by a crash (`accepting` for over a minute), before the quotation is read or
 * accepted. The orders make one order per quotation whoever asks, so the claim's own request is
 * asked again: the order made before the crash comes back (or, when the crash came before it was
 * made, it is made now, as the acceptor asked) and the quotation is accepted with it; a refusal of
 * the orders (the stock or the credit no longer there) gives the claim back: `sent` again. Any
 * other failure leaves the claim for the next read.
 */
@Injectable()
export class QuotationClaims {
  private readonly logger = new Logger(QuotationClaims.name);

  constructor(
    private readonly quotations: QuotationsRepository,
    private readonly orgs: OrganisationsService,
    private readonly orders: OrderFromQuotationService,
  ) {}

  async settle(q: QuotationRecord, now = new Date()): Promise<QuotationRecord> {
    const claim = q.acceptance;
    if (q.status !== 'accepting' || !claim) return q;
    if (now.getTime() - new Date(claim.acceptedAt).getTime() < CLAIM_STALE_MS) return q;
    const org = await this.orgs.findRecord(q.organisationId);
    let settled: QuotationRecord | null = null;
    try {
      if (!org) throw new Error('the organisation is gone');
      const order = await this.orders.place(orderRequestOf(q, org, claim));
      settled = await this.quotations.markAccepted(
        q._id,
        claim.acceptedAt,
        order._id,
        order.purchaseNumber,
      );
      this.logger.warn(
        `${q.number}: a claim left at ${claim.acceptedAt} has order ${order.purchaseNumber}`,
      );
    } catch (error) {
      if (!(error instanceof HttpException) && org) {
        this.logger.error(
          `${q.number}: a claim left at ${claim.acceptedAt} stays: ${String(error)}`,
        );
        return q;
      }
      settled = await this.quotations.release(q._id, claim.acceptedAt);
      this.logger.warn(`${q.number}: a claim left at ${claim.acceptedAt} was given back`);
    }
    return settled ?? (await this.quotations.findById(q._id)) ?? q;
  }
}
