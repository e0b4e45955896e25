import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  formatMoney,
  INVOICING_MODE_LABELS,
  ORGANISATION_MESSAGES as OM,
  ORGANISATION_RULES,
  ORGANISATION_STATUS_LABELS,
  type OrganisationAction,
  type OrganisationRole,
  type OrganisationView,
  type PriceList,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { CatalogService } from '../catalog/catalog.service';
import { canonicalEmail } from '../common/identifiers';
import { duplicateKeyField } from '../common/mongo-errors';
import { pageRequest, totalPages } from '../common/pagination';
import type { Principal } from '../common/principal';
import type {
  ContactDto,
  CreateOrganisationDto,
  OrganisationListData,
  OrganisationListQueryDto,
  UpdateOrganisationDto,
} from './dto/organisation.dto';
import type { OrganisationTermsDto, PriceListDto } from './dto/organisation-terms.dto';
import type { OrganisationRecord } from './organisation-record';
import { isShop, OrganisationViews } from './organisation-views';
import { OrganisationsRepository, type OrganisationChanges } from './organisations.repository';

const PAGE = 20;

/** 409s of a unique index: a KRA PIN taken (nothing said of whose), or the account in one already. */
export function organisationConflict(error: unknown): ConflictException | null {
  const field = duplicateKeyField(error);
  if (field === 'kraPin')
    return new ConflictException({ message: OM.kraPinTaken, code: 'KRA_PIN_TAKEN' });
  if (field === 'members.accountId')
    return new ConflictException({ message: OM.alreadyMember, code: 'ALREADY_IN_ORGANISATION' });
  return null;
}

const contact = (c: ContactDto) => ({
  name: c.name,
  phone: c.phone,
  email: canonicalEmail(c.email),
});
const target = (org: OrganisationRecord) => ({
  type: 'organisation',
  id: org._id,
  label: org.name,
});

/**
 * Business accounts: a customer's sign-up (they are its first approver) or staff creating one,
 * the shop's approval, its terms and price list (admins), and what the orders and quotations ask
 * of it (`approvedMembership`, `priceListOf`). Every change is audited; a customer reads only the
 * organisation they buy for (`OrganisationViews`).
 */
@Injectable()
export class OrganisationsService {
  constructor(
    private readonly orgs: OrganisationsRepository,
    private readonly views: OrganisationViews,
    private readonly catalog: CatalogService,
    private readonly audit: AuditService,
  ) {}

  /**
   * A customer's sign-up waits for the shop's approval, with them as its approver; one staff or an
   * admin create is approved at once (the shop has vetted it) and has no people until invited.
   */
  async create(actor: Principal, dto: CreateOrganisationDto): Promise<OrganisationView> {
    const byShop = isShop(actor);
    if (!byShop && (await this.orgs.findByMember(actor.id)))
      throw new ConflictException({ message: OM.alreadyMember, code: 'ALREADY_IN_ORGANISATION' });
    let org: OrganisationRecord;
    try {
      org = await this.orgs.insert(
        {
          name: dto.name,
          kraPin: dto.kraPin,
          kind: dto.kind,
          status: byShop ? 'approved' : 'pending',
          billingContact: contact(dto.billingContact),
          deliveryContact: contact(dto.deliveryContact),
          firstApprover: byShop ? undefined : actor.id,
        },
        new Date(),
      );
    } catch (error) {
      throw organisationConflict(error) ?? error;
    }
    await this.audit.record(
      actor,
      'organisation.create',
      byShop
        ? `${actor.fullName} registered ${org.name}, approved`
        : `${actor.fullName} signed up ${org.name} as its approver; awaiting approval`,
      target(org),
    );
    return this.views.view(org, byShop ? { shop: true } : { shop: false, role: 'approver' });
  }

  /** The organisation the customer buys for, whatever its status, and their role; nulls if none. */
  async mine(
    actor: Principal,
  ): Promise<{ organisation: OrganisationView | null; role: OrganisationRole | null }> {
    const org = await this.orgs.findByMember(actor.id);
    const role = org?.members.find((m) => m.accountId === actor.id)?.role ?? null;
    if (!org || !role) return { organisation: null, role: null };
    return { organisation: await this.views.view(org, { shop: false, role }), role };
  }

  get(actor: Principal, id: string): Promise<OrganisationView> {
    return this.views.get(actor, id);
  }

  async list(query: OrganisationListQueryDto): Promise<OrganisationListData> {
    const { page, limit, skip } = pageRequest(query, PAGE);
    const { items, total } = await this.orgs.page(
      { status: query.status, kind: query.kind, search: query.search || undefined },
      skip,
      limit,
    );
    return {
      organisations: items.map((o) => ({
        _id: o._id,
        name: o.name,
        kraPin: o.kraPin,
        kind: o.kind,
        status: o.status,
        people: o.members.length,
        createdAt: o.createdAt,
      })),
      totalOrganisations: total,
      totalPages: totalPages(total, limit),
      page,
    };
  }

  /**
   * Its approvers change the contacts; the shop changes anything. A buyer changes nothing. A field
   * left out or sent as null stays as it is, so an empty change answers the organisation as it is.
   */
  async update(
    actor: Principal,
    id: string,
    dto: UpdateOrganisationDto,
  ): Promise<OrganisationView> {
    const { org: current, standing } = await this.views.load(actor, id);
    if (!standing.shop) {
      if (standing.role !== 'approver')
        throw new ForbiddenException('Only an approver of the organisation can change it');
      if (dto.name != null || dto.kraPin != null || dto.kind != null)
        throw new ForbiddenException(
          'The name, KRA PIN and kind are changed by the shop: contact the shop to correct them',
        );
    }
    const changes: OrganisationChanges = {};
    if (dto.name != null) changes.name = dto.name;
    if (dto.kraPin != null) changes.kraPin = dto.kraPin;
    if (dto.kind != null) changes.kind = dto.kind;
    if (dto.billingContact) changes.billingContact = contact(dto.billingContact);
    if (dto.deliveryContact) changes.deliveryContact = contact(dto.deliveryContact);
    if (!Object.keys(changes).length) return this.views.view(current, standing);
    let org: OrganisationRecord | null;
    try {
      org = await this.orgs.update(id, changes);
    } catch (error) {
      throw organisationConflict(error) ?? error;
    }
    if (!org) throw new NotFoundException(OM.noOrganisation);
    await this.audit.record(
      actor,
      'organisation.update',
      // The fields, not their values: contacts name people the trail must not keep.
      `${actor.fullName} changed ${Object.keys(changes).join(', ')} of ${org.name}`,
      target(org),
    );
    return this.views.view(org, standing);
  }

  /** Approve, suspend or decline, from the statuses `ORGANISATION_RULES` allows (else 409). */
  async act(
    actor: Principal,
    id: string,
    action: OrganisationAction,
    reason = '',
  ): Promise<OrganisationView> {
    const rule = ORGANISATION_RULES[action];
    const org = await this.orgs.changeStatus(
      id,
      rule.from,
      rule.to,
      action === 'approve' ? '' : reason,
    );
    if (!org) {
      if (!(await this.orgs.findById(id))) throw new NotFoundException(OM.noOrganisation);
      throw new ConflictException({ message: rule.refused, code: 'ILLEGAL_TRANSITION' });
    }
    await this.audit.record(
      actor,
      `organisation.${action}`,
      `${actor.fullName} set ${org.name} to ${ORGANISATION_STATUS_LABELS[rule.to]}${reason && action !== 'approve' ? `: ${reason}` : ''}`,
      target(org),
    );
    return this.views.view(org, { shop: true });
  }

  /** Sets the terms; `invoicing` left out keeps how the organisation is invoiced. */
  async setTerms(
    actor: Principal,
    id: string,
    dto: OrganisationTermsDto,
  ): Promise<OrganisationView> {
    const org = await this.orgs.setTerms(id, {
      paymentDays: dto.paymentDays,
      creditLimit: dto.creditLimit,
      onAccount: dto.onAccount,
      ...(dto.invoicing ? { invoicing: dto.invoicing } : {}),
    });
    if (!org) throw new NotFoundException(OM.noOrganisation);
    const terms = org.terms;
    await this.audit.record(
      actor,
      'organisation.terms',
      `${actor.fullName} set the terms of ${org.name}: ${terms.paymentDays} days, credit limit ${formatMoney(terms.creditLimit)}, ${terms.onAccount ? 'may' : 'may not'} order on account, ${INVOICING_MODE_LABELS[terms.invoicing].toLowerCase()}`,
      target(org),
    );
    return this.views.view(org, { shop: true });
  }

  /** Replaces the price list; every product and unit it names must exist (else 400, nothing set). */
  async setPriceList(actor: Principal, id: string, dto: PriceListDto): Promise<OrganisationView> {
    const prices = dto.prices.map((p) => ({
      productId: p.productId,
      unitId: p.unitId,
      price: p.price,
    }));
    const seen = new Set<string>();
    const errors: { field: string; messages: string[] }[] = [];
    const products = new Map(
      (await this.catalog.findForOrder([...new Set(prices.map((p) => p.productId))])).map((p) => [
        p._id.toLowerCase(),
        p,
      ]),
    );
    prices.forEach((p, i) => {
      const key = `${p.productId}:${p.unitId}`;
      const product = products.get(p.productId);
      const problem = seen.has(key)
        ? OM.priceListDuplicate
        : !product
          ? OM.unknownProduct(p.productId)
          : !product.units.some((u) => u._id.toLowerCase() === p.unitId)
            ? OM.unknownUnit(product.productName, p.unitId)
            : null;
      seen.add(key);
      if (problem) errors.push({ field: `prices.${i}`, messages: [problem] });
    });
    if (errors.length)
      throw new BadRequestException({
        message: errors[0]!.messages[0],
        code: 'VALIDATION_FAILED',
        errors,
      });
    const list: PriceList = { discountPercent: dto.discountPercent, prices };
    const org = await this.orgs.setPriceList(id, list);
    if (!org) throw new NotFoundException(OM.noOrganisation);
    await this.audit.record(
      actor,
      'organisation.price-list',
      `${actor.fullName} set the price list of ${org.name}: ${prices.length} price${prices.length === 1 ? '' : 's'}, ${list.discountPercent}% off elsewhere`,
      target(org),
    );
    return this.views.view(org, { shop: true });
  }

  /**
   * The approved organisation this customer buys for, and their role in it; null when they buy
   * for none, or theirs is not approved (pending, suspended, declined): then they are a shopper
   * like any other. What orders, carts and quotations ask.
   */
  async approvedMembership(
    accountId: string,
  ): Promise<{ organisation: OrganisationRecord; role: OrganisationRole } | null> {
    const org = await this.orgs.findByMember(accountId);
    const role = org?.members.find((m) => m.accountId === accountId)?.role;
    return org && role && org.status === 'approved' ? { organisation: org, role } : null;
  }

  /**
   * The organisation this account is one of the people of, whatever its status, and their role;
   * null when none. What the quotations read by (a suspended organisation still sees its own).
   */
  async membership(
    accountId: string,
  ): Promise<{ organisation: OrganisationRecord; role: OrganisationRole } | null> {
    const org = await this.orgs.findByMember(accountId);
    const role = org?.members.find((m) => m.accountId === accountId)?.role;
    return org && role ? { organisation: org, role } : null;
  }

  /** The organisation with this id, whatever its status; null when there is none. */
  findRecord(id: string): Promise<OrganisationRecord | null> {
    return this.orgs.findById(id);
  }

  /** The id of the organisation this account is one of the people of, whatever its status. */
  async organisationIdOf(accountId: string): Promise<string | null> {
    return (await this.orgs.findByMember(accountId))?._id ?? null;
  }

  /**
   * The credit limit (whole KES) of an approved organisation, which its orders from quotations
   * may owe at once; null when there is no such organisation or it is not approved.
   */
  async creditLimitOf(organisationId: string): Promise<number | null> {
    const org = await this.orgs.findById(organisationId);
    return org && org.status === 'approved' ? org.terms.creditLimit : null;
  }

  /**
   * The price list of an approved organisation (price it with `organisationUnitPrice` of
   * shared-contracts); null when there is no such organisation or it is not approved.
   */
  async priceListOf(organisationId: string): Promise<PriceList | null> {
    const org = await this.orgs.findById(organisationId);
    return org && org.status === 'approved' ? org.priceList : null;
  }

  /**
   * The name and KRA PIN an organisation's tax invoices carry (eTIMS signs its orders in its name);
   * null when there is no such organisation.
   */
  async taxBuyerOf(organisationId: string): Promise<{ name: string; kraPin: string } | null> {
    const org = await this.orgs.findById(organisationId);
    return org ? { name: org.name, kraPin: org.kraPin } : null;
  }
}
