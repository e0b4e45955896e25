import { Injectable, NotFoundException } from '@nestjs/common';
import { QUOTATION_MESSAGES as QM, type OrganisationRole } from '@spc/shared-contracts';
import type { Principal } from '../common/principal';
import { OrganisationsService } from '../organisations/organisations.service';
import { QuotationClaims } from './quotation-claims';
import type { QuotationRecord } from './quotation-record';
import { QuotationsRepository } from './quotations.repository';

/** Who looks at a quotation: the shop, or one of its organisation's people (with their role). */
export type QuotationStanding = { shop: true } | { shop: false; role: OrganisationRole };

export const isShop = (actor: Principal) => actor.role === 'staff' || actor.role === 'admin';

/**
 * Loads a quotation for a caller: the shop reads every one; a customer only their organisation's,
 * and any other id answers 404 as a missing one does. A claim left by a crash is settled first.
 */
@Injectable()
export class QuotationAccess {
  constructor(
    private readonly quotations: QuotationsRepository,
    private readonly orgs: OrganisationsService,
    private readonly claims: QuotationClaims,
  ) {}

  async standing(
    actor: Principal,
  ): Promise<(QuotationStanding & { organisationId: string | null }) | null> {
    if (isShop(actor)) return { shop: true, organisationId: null };
    const member = await this.orgs.membership(actor.id);
    return member
      ? { shop: false, role: member.role, organisationId: member.organisation._id }
      : null;
  }

  async load(
    actor: Principal,
    id: string,
  ): Promise<{ q: QuotationRecord; standing: QuotationStanding }> {
    const [found, standing] = await Promise.all([
      this.quotations.findById(id),
      this.standing(actor),
    ]);
    if (!found || !standing || (!standing.shop && standing.organisationId !== found.organisationId))
      throw new NotFoundException(QM.noQuotation);
    const q = await this.claims.settle(found);
    return { q, standing: standing.shop ? { shop: true } : { shop: false, role: standing.role } };
  }
}
