import { ConflictException, ForbiddenException, HttpException, Injectable } from '@nestjs/common';
import { formatMoney, QUOTATION_MESSAGES as QM, type QuotationView } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { Principal } from '../common/principal';
import { shopDay } from '../common/shop-clock';
import { OrderFromQuotationService } from '../orders/order-from-quotation.service';
import { OrganisationsService } from '../organisations/organisations.service';
import type { AcceptQuotationDto } from './dto/quotation-input.dto';
import { QuotationAccess } from './quotation-access';
import { orderRequestOf } from './quotation-order-request';
import {
  latestVersion,
  lpoKey,
  statusOn,
  totalOf,
  type AcceptanceRecord,
  type QuotationRecord,
} from './quotation-record';
import { illegal, quotationTarget, requireActor } from './quotation-rules';
import { quotationView } from './quotation-views';
import { QuotationsRepository } from './quotations.repository';

const refuse = (message: string) => new ConflictException({ message, code: 'ILLEGAL_TRANSITION' });

/** Why a sent quotation cannot be accepted as asked on `today` (null: it can). */
function refusal(q: QuotationRecord, version: number, today: string): ConflictException | null {
  const status = statusOn(q, today);
  if (status === 'expired') return refuse(QM.expired);
  if (q.status !== 'sent') return illegal('accept');
  if (version !== q.versions.length) return refuse(QM.notLatest);
  return null;
}

export interface Accepted {
  quotation: QuotationView;
  order: { _id: string; purchaseNumber: string; totalAmount: number };
}

/**
 * Accepting a quotation (its approver, or staff on the buyer's written word) with an LPO number:
 * the latest version, still valid. The quotation is claimed first (`sent → accepting`, one
 * conditional update), so two accepts at once make one order; the orders then place it (one order
 * per quotation, each line held by its own hold) and the quotation is marked accepted with it. A
 * refusal of the orders (409 SHORT, CREDIT_LIMIT, or any answer of theirs) gives the claim back and
 * stands; a claim left by a crash is settled on the next read (QuotationClaims).
 */
@Injectable()
export class QuotationAcceptanceService {
  constructor(
    private readonly quotations: QuotationsRepository,
    private readonly access: QuotationAccess,
    private readonly orgs: OrganisationsService,
    private readonly orders: OrderFromQuotationService,
    private readonly audit: AuditService,
  ) {}

  async accept(actor: Principal, id: string, dto: AcceptQuotationDto): Promise<Accepted> {
    const { q, standing } = await this.access.load(actor, id);
    requireActor('accept', actor, standing);
    const today = shopDay(new Date());
    const early = refusal(q, dto.version, today);
    if (early) throw early;
    const org = await this.orgs.findRecord(q.organisationId);
    if (!org || org.status !== 'approved') throw new ForbiddenException(QM.notBuyer);
    const lpoNumber = dto.lpoNumber.trim();
    const claim: AcceptanceRecord = {
      version: dto.version,
      lpoNumber,
      lpoKey: lpoKey(lpoNumber),
      acceptedAt: new Date().toISOString(),
      acceptedById: actor.id,
      acceptedByName: actor.fullName,
      acceptedByRole: actor.role,
      byShop: standing.shop,
      onAccount: org.terms.onAccount,
      orderId: null,
      purchaseNumber: null,
    };
    let claimed: QuotationRecord | null;
    try {
      claimed = await this.quotations.claim(id, today, claim);
    } catch (error) {
      if (isDuplicateKeyError(error))
        throw new ConflictException({ message: QM.lpoTaken, code: 'LPO_TAKEN' });
      throw error;
    }
    if (!claimed) {
      const now = await this.quotations.findById(id);
      throw (now && refusal(now, dto.version, today)) ?? illegal('accept');
    }
    const version = latestVersion(claimed)!;
    let order;
    try {
      order = await this.orders.place(orderRequestOf(claimed, org, claim));
    } catch (error) {
      // An answer of the orders (a refusal) changed nothing: the claim goes back. Anything else
      // may have made the order: the claim stays for QuotationClaims to settle.
      if (error instanceof HttpException) await this.quotations.release(id, claim.acceptedAt);
      throw error;
    }
    const accepted =
      (await this.quotations.markAccepted(id, claim.acceptedAt, order._id, order.purchaseNumber)) ??
      (await this.quotations.findById(id))!;
    await this.audit.record(
      actor,
      'quotation.accept',
      `${actor.fullName} accepted version ${version.version} of quotation ${claimed.number} for ${claimed.organisationName}${standing.shop ? " on the buyer's written word" : ''}, LPO ${lpoNumber}: order ${order.purchaseNumber}, ${formatMoney(totalOf(version))}`,
      quotationTarget(claimed),
    );
    return {
      quotation: quotationView(accepted, standing.shop, today),
      order: {
        _id: order._id,
        purchaseNumber: order.purchaseNumber,
        totalAmount: order.totalAmount,
      },
    };
  }
}
