import { Injectable } from '@nestjs/common';
import { organisationUnitPrice, ownPriceOf, type PriceList } from '@spc/shared-contracts';
import type { Principal } from '../common/principal';
import { OrganisationsService } from '../organisations/organisations.service';
import type { PricedLine } from './order-lines';

/**
 * An organisation's price list in its buyers' carts (issue 42): a customer who is one of the people
 * of an approved organisation pays its prices when signed in, the rest of the shop's rules (caps,
 * deposits) unchanged. The storefront shows the same prices with the same `organisationUnitPrice`.
 */
@Injectable()
export class OrderOrganisationPrices {
  constructor(private readonly organisations: OrganisationsService) {}

  /** The price list the signed-in customer buys at, or null (a guest, staff, no approved one). */
  async listFor(actor: Principal | undefined): Promise<PriceList | null> {
    if (actor?.role !== 'customer') return null;
    const membership = await this.organisations.approvedMembership(actor.id);
    return membership?.organisation.priceList ?? null;
  }

  /**
   * The lines at the list's prices: its own price for a product and unit (the tier no longer
   * names it), else the shop's price for the quantity less its discount.
   */
  static apply(lines: PricedLine[], list: PriceList): PricedLine[] {
    return lines.map((line) => {
      const unitPrice = organisationUnitPrice(list, line.productId, line.unitId, line.unitPrice);
      if (unitPrice === line.unitPrice) return line;
      const own = ownPriceOf(list, line.productId, line.unitId) !== null;
      return {
        ...line,
        unitPrice,
        lineTotal: unitPrice * line.quantity,
        tier: own ? null : line.tier,
      };
    });
  }
}
