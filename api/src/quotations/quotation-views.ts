import type {
  QuotationAcceptanceView,
  ScanAbout,
  QuotationSummary,
  QuotationVersionView,
  QuotationView,
} from '@spc/shared-contracts';
import {
  latestVersion,
  lineTotal,
  statusOn,
  subtotalOf,
  totalOf,
  type QuotationRecord,
  type VersionRecord,
} from './quotation-record';

/**
 * How the organisation reads the shop's side (who sent a version, wrote a message, accepted on its
 * word): as the shop's, naming no member of its staff, as a customer's money list does.
 */
export const SHOP_AS_SEEN = 'The shop';

export function versionView(v: VersionRecord, shop = true): QuotationVersionView {
  return {
    version: v.version,
    lines: v.lines.map((l) => ({
      productId: l.productId,
      unitId: l.unitId,
      productName: l.productName,
      unitName: l.unitName,
      seedlings: l.seedlings,
      quantity: l.quantity,
      source: l.batchId ? { kind: 'batch', batchId: l.batchId } : { kind: 'stock' },
      readyDate: l.readyDate,
      shopUnitPrice: l.shopUnitPrice,
      unitPrice: l.unitPrice,
      lineTotal: lineTotal(l),
    })),
    delivery: v.delivery,
    deliveryFee: v.deliveryFee,
    subtotal: subtotalOf(v),
    total: totalOf(v),
    validUntil: v.validUntil,
    note: v.note,
    sentAt: v.sentAt,
    sentBy: shop || !v.sentBy ? v.sentBy : SHOP_AS_SEEN,
  };
}

/** The acceptance once it has its order (a claim in progress shows none), with its LPO's scan. */
function acceptanceView(
  q: QuotationRecord,
  shop: boolean,
  lpoScan: ScanAbout | null,
): QuotationAcceptanceView | null {
  const a = q.acceptance;
  if (q.status !== 'accepted' || !a?.orderId || !a.purchaseNumber) return null;
  return {
    version: a.version,
    lpoNumber: a.lpoNumber,
    acceptedAt: a.acceptedAt,
    acceptedBy: a.byShop && !shop ? SHOP_AS_SEEN : a.acceptedByName,
    byShop: a.byShop,
    orderId: a.orderId,
    purchaseNumber: a.purchaseNumber,
    lpoScan,
  };
}

/**
 * The quotation as the shop (`shop`: with the draft) or its organisation sees it on `today`; an
 * accepted one with what its order's scanned LPO is (`lpoScan`, read from the orders; none given:
 * none attached, as right after the acceptance).
 */
export function quotationView(
  q: QuotationRecord,
  shop: boolean,
  today: string,
  lpoScan: ScanAbout | null = null,
): QuotationView {
  return {
    _id: q._id,
    number: q.number,
    organisationId: q.organisationId,
    organisationName: q.organisationName,
    status: statusOn(q, today),
    request: q.request,
    requestedBy: q.requestedByName,
    versions: q.versions.map((v) => versionView(v, shop)),
    draft: shop && q.draft ? versionView(q.draft) : null,
    messages: q.messages.map((m) => ({
      _id: m._id,
      from: m.from,
      authorName: m.from === 'shop' && !shop ? SHOP_AS_SEEN : m.authorName,
      text: m.text,
      at: m.at,
    })),
    acceptance: acceptanceView(q, shop, lpoScan),
    createdAt: q.createdAt,
    updatedAt: q.updatedAt,
  };
}

export function quotationSummary(q: QuotationRecord, today: string): QuotationSummary {
  const latest = latestVersion(q);
  return {
    _id: q._id,
    number: q.number,
    organisationId: q.organisationId,
    organisationName: q.organisationName,
    status: statusOn(q, today),
    total: latest ? totalOf(latest) : null,
    validUntil: latest?.validUntil ?? null,
    versions: q.versions.length,
    createdAt: q.createdAt,
    updatedAt: q.updatedAt,
  };
}
