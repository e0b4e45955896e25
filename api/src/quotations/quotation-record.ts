import type {
  QuotationDelivery,
  QuotationRequestLine,
  QuotationStatus,
} from '@spc/shared-contracts';
import type { Types } from 'mongoose';
import { lpoKeyOf } from '../orders/order-quotation-plan';
import type { Quotation, StoredQuotationStatus } from './schemas/quotation.schema';

export interface LineRecord {
  productId: string;
  unitId: string;
  productName: string;
  unitName: string;
  seedlings: number;
  quantity: number;
  batchId: string | null;
  readyDate: string | null;
  shopUnitPrice: number;
  unitPrice: number;
}

export interface VersionRecord {
  version: number;
  lines: LineRecord[];
  delivery: QuotationDelivery | null;
  deliveryFee: number;
  validUntil: string;
  note: string;
  sentAt: string | null;
  sentBy: string | null;
}

export interface MessageRecord {
  _id: string;
  from: 'organisation' | 'shop';
  authorId: string | null;
  authorName: string;
  text: string;
  at: string;
}

export interface AcceptanceRecord {
  version: number;
  lpoNumber: string;
  lpoKey: string;
  acceptedAt: string;
  acceptedById: string | null;
  acceptedByName: string;
  acceptedByRole: string;
  byShop: boolean;
  /** The organisation's terms at the acceptance let it order on account (issue 43). */
  onAccount: boolean;
  orderId: string | null;
  purchaseNumber: string | null;
}

/** A quotation as every reader of the repository gets it: plain, dates as ISO text. */
export interface QuotationRecord {
  _id: string;
  number: string;
  organisationId: string;
  organisationName: string;
  status: StoredQuotationStatus;
  validUntil: string | null;
  request: { lines: QuotationRequestLine[]; note: string; delivery: QuotationDelivery | null };
  requestedById: string | null;
  requestedByName: string;
  requestedByShop: boolean;
  draft: VersionRecord | null;
  versions: VersionRecord[];
  messages: MessageRecord[];
  acceptance: AcceptanceRecord | null;
  statusReason: string;
  createdAt: string;
  updatedAt: string;
}

export type LeanQuotation = Quotation & { _id: Types.ObjectId };

const iso = (d: Date | string) => new Date(d).toISOString();
const delivery = (d: QuotationDelivery | null | undefined): QuotationDelivery | null =>
  d
    ? {
        siteName: d.siteName,
        county: d.county,
        subCounty: d.subCounty ?? null,
        streetAddress: d.streetAddress,
        date: d.date,
      }
    : null;

function version(v: Quotation['versions'][number]): VersionRecord {
  return {
    version: v.version,
    lines: (v.lines ?? []).map((l) => ({
      productId: l.productId,
      unitId: l.unitId,
      productName: l.productName,
      unitName: l.unitName,
      seedlings: l.seedlings,
      quantity: l.quantity,
      batchId: l.batchId ?? null,
      readyDate: l.readyDate ?? null,
      shopUnitPrice: l.shopUnitPrice,
      unitPrice: l.unitPrice,
    })),
    delivery: delivery(v.delivery),
    deliveryFee: v.deliveryFee ?? 0,
    validUntil: v.validUntil,
    note: v.note ?? '',
    sentAt: v.sentAt ? iso(v.sentAt) : null,
    sentBy: v.sentBy ?? null,
  };
}

export function toRecord(doc: LeanQuotation): QuotationRecord {
  const a = doc.acceptance;
  return {
    _id: doc._id.toString(),
    number: doc.number,
    organisationId: doc.organisationId,
    organisationName: doc.organisationName,
    status: doc.status,
    validUntil: doc.validUntil ?? null,
    request: {
      lines: (doc.requestLines ?? []).map((l) => ({
        productId: l.productId,
        unitId: l.unitId,
        quantity: l.quantity,
        batchId: l.batchId ?? null,
      })),
      note: doc.requestNote ?? '',
      delivery: delivery(doc.requestDelivery),
    },
    requestedById: doc.requestedById ?? null,
    requestedByName: doc.requestedByName,
    requestedByShop: doc.requestedByShop,
    draft: doc.draft ? version(doc.draft) : null,
    versions: (doc.versions ?? []).map(version),
    messages: (doc.messages ?? []).map((m) => ({
      _id: m._id.toString(),
      from: m.from,
      authorId: m.authorId ?? null,
      authorName: m.authorName,
      text: m.text,
      at: iso(m.at),
    })),
    acceptance: a
      ? {
          version: a.version,
          lpoNumber: a.lpoNumber,
          lpoKey: a.lpoKey,
          acceptedAt: iso(a.acceptedAt),
          acceptedById: a.acceptedById ?? null,
          acceptedByName: a.acceptedByName,
          acceptedByRole: a.acceptedByRole ?? (a.byShop ? 'staff' : 'customer'),
          byShop: a.byShop,
          onAccount: a.onAccount === true,
          orderId: a.orderId ?? null,
          purchaseNumber: a.purchaseNumber ?? null,
        }
      : null,
    statusReason: doc.statusReason ?? '',
    createdAt: iso(doc.createdAt),
    updatedAt: iso(doc.updatedAt),
  };
}

/**
 * The status as everyone reads it on the shop's day `today`: a claim (`accepting`) reads as the
 * `sent` it was, and a sent one past its latest validity as `expired`.
 */
export function statusOn(
  q: Pick<QuotationRecord, 'status' | 'validUntil'>,
  today: string,
): QuotationStatus {
  if (q.status === 'sent' || q.status === 'accepting')
    return q.validUntil && q.validUntil < today ? 'expired' : 'sent';
  return q.status;
}

export const latestVersion = (q: QuotationRecord): VersionRecord | null =>
  q.versions[q.versions.length - 1] ?? null;

export const quotationNumber = (seq: number) => `QUO-${String(seq).padStart(6, '0')}`;

/** An LPO number as compared: the orders' one spelling of it (`lpoKeyOf`). */
export const lpoKey = lpoKeyOf;

export const lineTotal = (l: Pick<LineRecord, 'unitPrice' | 'quantity'>) =>
  l.unitPrice * l.quantity;
export const subtotalOf = (v: Pick<VersionRecord, 'lines'>) =>
  v.lines.reduce((sum, l) => sum + lineTotal(l), 0);
export const totalOf = (v: Pick<VersionRecord, 'lines' | 'deliveryFee'>) =>
  subtotalOf(v) + v.deliveryFee;
