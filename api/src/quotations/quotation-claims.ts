import { HttpException, Injectable, Logger } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { OrderFromQuotationService } from '../orders/order-from-quotation.service';
import { SHOP_ACTOR } from '../orders/shop-actor';
import { OrganisationsService } from '../organisations/organisations.service';
import { orderRequestOf } from './quotation-order-request';
import { quotationTarget } from './quotation-rules';
import type { AcceptanceRecord, QuotationRecord } from './quotation-record';
import { QuotationsRepository } from './quotations.repository';

/** Who accepted, as the trail names them: a customer's name stays out of the shop's own entries. */
const by = (claim: AcceptanceRecord) =>
  claim.byShop ? `by ${claim.acceptedByName}` : 'by its approver';

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
    private readonly audit: AuditService,
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
      if (settled)
        await this.audit.record(
          SHOP_ACTOR,
          'quotation.accept',
          `Quotation ${q.number} accepted ${by(claim)} (LPO ${claim.lpoNumber}), left unfinished by a stop of the API, was finished: order ${order.purchaseNumber}`,
          quotationTarget(q),
        );
    } catch (error) {
      if (!(error instanceof HttpException) && org) {
        this.logger.error(
          `${q.number}: a claim left at ${claim.acceptedAt} stays: ${String(error)}`,
        );
        return q;
      }
      settled = await this.quotations.release(q._id, claim.acceptedAt);
      if (settled)
        await this.audit.record(
          SHOP_ACTOR,
          'quotation.accept-undone',
          `The acceptance of quotation ${q.number} ${by(claim)} (LPO ${claim.lpoNumber}), left unfinished by a stop of the API, was given back: ${error instanceof Error ? error.message : String(error)}`,
          quotationTarget(q),
        );
    }
    return settled ?? (await this.quotations.findById(q._id)) ?? q;
  }
}
