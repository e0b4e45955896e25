import { Injectable, NotFoundException } from '@nestjs/common';
import {
  ORGANISATION_MESSAGES as OM,
  type OrganisationRole,
  type OrganisationView,
} from '@spc/shared-contracts';
import { CatalogService } from '../catalog/catalog.service';
import type { Principal } from '../common/principal';
import { UsersService } from '../users/users.service';
import { OrganisationInvitationsRepository } from './organisation-invitations.repository';
import { memberOf, type OrganisationRecord } from './organisation-record';
import { OrganisationsRepository } from './organisations.repository';

/** Who is looking at an organisation: the shop (staff, admins), or one of its people. */
export type Standing = { shop: true } | { shop: false; role: OrganisationRole };

export const isShop = (actor: Principal) => actor.role === 'admin' || actor.role === 'staff';

/**
 * Reading organisations for a caller: the shop reads every one; a customer only their own, and
 * any other id answers 404 as if it did not exist (nothing says another organisation is there).
 * The view joins what stays elsewhere: people's names from their accounts, products' names.
 */
@Injectable()
export class OrganisationViews {
  constructor(
    private readonly orgs: OrganisationsRepository,
    private readonly invitations: OrganisationInvitationsRepository,
    private readonly users: UsersService,
    private readonly catalog: CatalogService,
  ) {}

  /** The organisation and the caller's standing in it; 404 when they may not see it. */
  async load(
    actor: Principal,
    id: string,
  ): Promise<{ org: OrganisationRecord; standing: Standing }> {
    const org = await this.orgs.findById(id);
    const standing = org ? standingOf(actor, org) : null;
    if (!org || !standing) throw new NotFoundException(OM.noOrganisation);
    return { org, standing };
  }

  /** The organisation as `standing` sees it: invitations only for its approvers and the shop. */
  async view(org: OrganisationRecord, standing: Standing): Promise<OrganisationView> {
    const seesInvitations = standing.shop || standing.role === 'approver';
    const productIds = [...new Set(org.priceList.prices.map((p) => p.productId))];
    const [accounts, products, invitations] = await Promise.all([
      this.users.findManyByIds(org.members.map((m) => m.accountId)),
      this.catalog.findForOrder(productIds),
      seesInvitations ? this.invitations.ofOrganisation(org._id, new Date()) : [],
    ]);
    const accountById = new Map(accounts.map((a) => [a._id, a]));
    const productById = new Map(products.map((p) => [p._id.toLowerCase(), p]));
    return {
      _id: org._id,
      name: org.name,
      kraPin: org.kraPin,
      kind: org.kind,
      status: org.status,
      statusReason: org.statusReason,
      billingContact: org.billingContact,
      deliveryContact: org.deliveryContact,
      terms: org.terms,
      priceList: {
        discountPercent: org.priceList.discountPercent,
        prices: org.priceList.prices.map((p) => {
          const product = productById.get(p.productId);
          const unit = product?.units.find((u) => u._id.toLowerCase() === p.unitId);
          return { ...p, productName: product?.productName ?? null, unitName: unit?.name ?? null };
        }),
      },
      // A person whose account is gone (closed a moment ago) is left out until the erasure takes
      // them out of the organisation too.
      people: org.members.flatMap((m) => {
        const account = accountById.get(m.accountId);
        return account ? [{ ...m, fullName: account.fullName, email: account.email }] : [];
      }),
      invitations: invitations.map((i) => ({
        _id: i._id,
        email: i.email,
        role: i.role,
        invitedAt: i.invitedAt,
        expiresAt: i.expiresAt,
      })),
      createdAt: org.createdAt,
      updatedAt: org.updatedAt,
    };
  }

  /** Loaded and viewed by the caller. */
  async get(actor: Principal, id: string): Promise<OrganisationView> {
    const { org, standing } = await this.load(actor, id);
    return this.view(org, standing);
  }
}

/** The shop, or the person's role in it; null when a customer is not one of its people. */
export function standingOf(actor: Principal, org: OrganisationRecord): Standing | null {
  if (isShop(actor)) return { shop: true };
  const member = memberOf(org, actor.id);
  return member ? { shop: false, role: member.role } : null;
}
