import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
} from '@nestjs/common';
import {
  formatMoney,
  QUOTATION_LIMITS as L,
  QUOTATION_MESSAGES as QM,
  type QuotationView,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { OrderLpoScans } from '../orders/order-lpo-scans';
import { pageRequest, totalPages } from '../common/pagination';
import type { Principal } from '../common/principal';
import { QuotaService } from '../common/quota';
import { TooManyRequestsException } from '../common/rate-limit';
import { addDays, shopDay } from '../common/shop-clock';
import { OrganisationsService } from '../organisations/organisations.service';
import type { OrganisationRecord } from '../organisations/organisation-record';
import type {
  CreateQuotationDto,
  QuotationDeliveryDto,
  QuotationDraftDto,
  QuotationListQueryDto,
} from './dto/quotation-input.dto';
import type { QuotationListData } from './dto/quotation-view.dto';
import { isShop, QuotationAccess } from './quotation-access';
import { QuotationClaims } from './quotation-claims';
import { QuotationLines } from './quotation-lines';
import { QuotationMail } from './quotation-mail';
import { totalOf, type VersionRecord } from './quotation-record';
import { illegal, quotationTarget, requireFrom, storedFrom } from './quotation-rules';
import { quotationSummary, quotationView } from './quotation-views';
import { QuotationsRepository } from './quotations.repository';

const PAGE = 20;
const today = () => shopDay(new Date());

function deliveryOf(d: QuotationDeliveryDto | undefined) {
  if (!d) return null;
  if (d.date < today())
    throw new BadRequestException({
      message: 'The delivery date cannot be before today',
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'delivery.date', messages: ['The delivery date cannot be before today'] }],
    });
  return {
    siteName: d.siteName,
    county: d.county,
    subCounty: d.subCounty ?? null,
    streetAddress: d.streetAddress,
    date: d.date,
  };
}

/**
 * Quotations (issue 42): a request (a buyer of an approved organisation, or staff for one), the
 * lists, the staff's draft and its sending as the next version. Every step is audited; a customer
 * reads only their organisation's (`QuotationAccess`).
 */
@Injectable()
export class QuotationsService {
  constructor(
    private readonly quotations: QuotationsRepository,
    private readonly access: QuotationAccess,
    private readonly claims: QuotationClaims,
    private readonly lines: QuotationLines,
    private readonly orgs: OrganisationsService,
    private readonly quota: QuotaService,
    private readonly audit: AuditService,
    private readonly mail: QuotationMail,
    private readonly lpoScans: OrderLpoScans,
  ) {}

  /** The approved organisation a request is for: the customer's own, or the one staff name. */
  private async organisationFor(
    actor: Principal,
    organisationId?: string,
  ): Promise<OrganisationRecord> {
    if (!isShop(actor)) {
      const member = await this.orgs.approvedMembership(actor.id);
      if (!member || (organisationId && organisationId !== member.organisation._id))
        throw new ForbiddenException(QM.notBuyer);
      return member.organisation;
    }
    const fail = (message: string) =>
      new BadRequestException({
        message,
        code: 'VALIDATION_FAILED',
        errors: [{ field: 'organisationId', messages: [message] }],
      });
    if (!organisationId) throw fail('Name the organisation the quotation is for (organisationId)');
    const org = await this.orgs.findRecord(organisationId);
    if (!org || org.status !== 'approved')
      throw fail('Quotations are for approved organisations: no approved organisation has this id');
    return org;
  }

  async create(actor: Principal, dto: CreateQuotationDto): Promise<QuotationView> {
    const org = await this.organisationFor(actor, dto.organisationId);
    const lines = dto.lines.map((l) => ({
      productId: l.productId.toLowerCase(),
      unitId: l.unitId.toLowerCase(),
      quantity: l.quantity,
      batchId: l.batchId?.toLowerCase() ?? null,
    }));
    await this.lines.resolve(lines, today());
    const delivery = deliveryOf(dto.delivery);
    if (!isShop(actor)) {
      const claim = await this.quota.take([
        {
          limit: { name: 'quotation-requests', limit: L.requestsPerDay, per: 'day' },
          key: `organisation:${org._id}`,
        },
      ]);
      if (!claim.granted)
        throw new TooManyRequestsException(QM.tooManyRequests, claim.retryAfterSeconds);
    }
    const q = await this.quotations.insert({
      organisationId: org._id,
      organisationName: org.name,
      lines,
      note: dto.note ?? '',
      delivery,
      requestedById: actor.id,
      requestedByName: actor.fullName,
      requestedByShop: isShop(actor),
    });
    await this.audit.record(
      actor,
      'quotation.request',
      `${actor.fullName} asked for quotation ${q.number} for ${org.name}: ${lines.length} line${lines.length === 1 ? '' : 's'}`,
      quotationTarget(q),
    );
    return quotationView(q, isShop(actor), today());
  }

  async list(actor: Principal, query: QuotationListQueryDto): Promise<QuotationListData> {
    const { page, limit, skip } = pageRequest(query, PAGE);
    const standing = await this.access.standing(actor);
    const empty = { quotations: [], totalQuotations: 0, totalPages: 0, page };
    if (!standing) return empty;
    const organisationId = standing.shop ? query.organisationId : standing.organisationId!;
    if (!standing.shop && query.organisationId && query.organisationId !== organisationId)
      return empty;
    const day = today();
    const { items, total } = await this.quotations.page(
      { status: query.status, organisationId, search: query.search || undefined },
      day,
      skip,
      limit,
    );
    const settled = await Promise.all(items.map((q) => this.claims.settle(q)));
    return {
      quotations: settled.map((q) => quotationSummary(q, day)),
      totalQuotations: total,
      totalPages: totalPages(total, limit),
      page,
    };
  }

  countAwaitingShop(): Promise<number> {
    return this.quotations.countAwaitingShop();
  }

  async get(actor: Principal, id: string): Promise<QuotationView> {
    const { q, standing } = await this.access.load(actor, id);
    const lpoScan = await this.lpoScans.aboutOrder(q.acceptance?.orderId);
    return quotationView(q, standing.shop, today(), lpoScan);
  }

  /** Staff price the quotation: the draft that `send` makes the next version. */
  async saveDraft(actor: Principal, id: string, dto: QuotationDraftDto): Promise<QuotationView> {
    const { q } = await this.access.load(actor, id);
    const day = today();
    requireFrom('send', quotationView(q, true, day).status);
    if (dto.validUntil < day || dto.validUntil > addDays(day, L.validityDaysMax))
      throw new BadRequestException({
        message: QM.validUntil,
        code: 'VALIDATION_FAILED',
        errors: [{ field: 'validUntil', messages: [QM.validUntil] }],
      });
    const org = await this.orgs.findRecord(q.organisationId);
    const priceList =
      org?.status === 'approved' ? org.priceList : { discountPercent: 0, prices: [] };
    const lines = await this.lines.price(
      dto.lines.map((l) => ({
        productId: l.productId.toLowerCase(),
        unitId: l.unitId.toLowerCase(),
        quantity: l.quantity,
        batchId: l.batchId?.toLowerCase() ?? null,
        unitPrice: l.unitPrice,
      })),
      priceList,
      day,
    );
    const draft: VersionRecord = {
      version: 0,
      lines,
      delivery: deliveryOf(dto.delivery),
      deliveryFee: dto.deliveryFee,
      validUntil: dto.validUntil,
      note: dto.note ?? '',
      sentAt: null,
      sentBy: null,
    };
    const saved = await this.quotations.saveDraft(id, storedFrom('send'), draft);
    if (!saved) throw illegal('send');
    await this.audit.record(
      actor,
      'quotation.draft',
      `${actor.fullName} priced quotation ${q.number} for ${q.organisationName}: ${formatMoney(totalOf(draft))}, valid until ${draft.validUntil}`,
      quotationTarget(q),
    );
    return quotationView(saved, true, day);
  }

  /** The draft becomes the next version; its requester and approvers are e-mailed. */
  async send(actor: Principal, id: string): Promise<QuotationView> {
    const { q } = await this.access.load(actor, id);
    const day = today();
    requireFrom('send', quotationView(q, true, day).status);
    if (!q.draft) throw new ConflictException({ message: QM.noDraft, code: 'ILLEGAL_TRANSITION' });
    if (q.versions.length >= L.versions)
      throw new ConflictException({
        message: `A quotation can be sent in at most ${L.versions} versions: write a new one`,
        code: 'ILLEGAL_TRANSITION',
      });
    if (q.draft.validUntil < day)
      throw new BadRequestException({
        message: QM.validUntil,
        code: 'VALIDATION_FAILED',
        errors: [{ field: 'validUntil', messages: [QM.validUntil] }],
      });
    const n = q.versions.length;
    const version: VersionRecord = {
      ...q.draft,
      version: n + 1,
      sentAt: new Date().toISOString(),
      sentBy: actor.fullName,
    };
    const sent = await this.quotations.send(id, storedFrom('send'), n, version);
    if (!sent) throw illegal('send');
    await this.audit.record(
      actor,
      'quotation.send',
      `${actor.fullName} sent version ${version.version} of quotation ${q.number} to ${q.organisationName}: ${formatMoney(totalOf(version))}, valid until ${version.validUntil}`,
      quotationTarget(q),
    );
    this.mail.notify(sent, version.version);
    return quotationView(sent, true, day);
  }
}
