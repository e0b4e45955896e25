import type { Role } from '@spc/shared-contracts';
import type { QuotationOrderRequest } from '../orders/order-from-quotation.service';
import type { OrganisationRecord } from '../organisations/organisation-record';
import { latestVersion, type AcceptanceRecord, type QuotationRecord } from './quotation-record';

/**
 * The customer account the order is placed for: the approver accepting; on the shop's accept,
 * the buyer who asked (while they still buy for it), else the organisation's first approver.
 */
function buyerOf(q: QuotationRecord, org: OrganisationRecord, claim: AcceptanceRecord): string {
  if (!claim.byShop && claim.acceptedById) return claim.acceptedById;
  const asker = org.members.find((m) => m.accountId === q.requestedById);
  if (!q.requestedByShop && asker) return asker.accountId;
  return org.members.find((m) => m.role === 'approver')?.accountId ?? '';
}

/**
 * What the orders are asked to place for a claimed quotation: its latest version's lines at the
 * prices agreed, delivered to the version's site (else the request's) for the organisation's
 * delivery contact. The same request for the same claim, whoever asks (the accept, or the
 * settling of a claim a crash left): the orders make one order per quotation.
 */
export function orderRequestOf(
  q: QuotationRecord,
  org: OrganisationRecord,
  claim: AcceptanceRecord,
): QuotationOrderRequest {
  const version = latestVersion(q)!;
  const site = version.delivery ?? q.request.delivery;
  return {
    quotationId: q._id,
    version: version.version,
    organisationId: q.organisationId,
    actor: {
      id: claim.acceptedById ?? '',
      role: claim.acceptedByRole as Role,
      fullName: claim.acceptedByName,
    },
    buyerAccountId: buyerOf(q, org, claim),
    lines: version.lines.map((l) => ({
      productId: l.productId,
      unitId: l.unitId,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      batchId: l.batchId,
    })),
    delivery: {
      fullName: org.deliveryContact.name,
      phoneNumber: org.deliveryContact.phone,
      email: org.deliveryContact.email,
      county: site?.county ?? '',
      subCounty: site?.subCounty ?? null,
      streetAddress: site?.streetAddress ?? '',
    },
    deliveryFee: version.deliveryFee,
    lpoNumber: claim.lpoNumber,
    onAccount: claim.onAccount,
  };
}
