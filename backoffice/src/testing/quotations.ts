import type {
  QuotationLineView,
  QuotationSummary,
  QuotationVersionView,
  QuotationView,
} from '@spc/shared-contracts';
import { ORG_ID, PRODUCT_ID, UNIT_ID } from './organisations';

/** Quotations as the API answers them, for the screens' tests. */
export const QUOTATION_ID = '6650f0c2a1b2c3d4e5f6f001';
export const BATCH_ID = '6650f0c2a1b2c3d4e5f6b001';

export function createLine(overrides: Partial<QuotationLineView> = {}): QuotationLineView {
  return {
    productId: PRODUCT_ID,
    unitId: UNIT_ID,
    productName: 'Grevillea robusta',
    unitName: 'Seedling',
    seedlings: 1,
    quantity: 30_000,
    source: { kind: 'stock' },
    readyDate: null,
    shopUnitPrice: 30,
    unitPrice: 25,
    lineTotal: 750_000,
    ...overrides,
  };
}

export function createVersion(overrides: Partial<QuotationVersionView> = {}): QuotationVersionView {
  return {
    version: 1,
    lines: [createLine()],
    delivery: {
      siteName: 'Gatundu North tree nursery site',
      county: 'Kiambu',
      subCounty: 'Gatundu North',
      streetAddress: 'Kamwangi road',
      date: '2026-12-10',
    },
    deliveryFee: 5_000,
    subtotal: 750_000,
    total: 755_000,
    validUntil: '2099-12-31',
    note: 'Prices hold for the short rains.',
    sentAt: '2026-11-25T09:00:00.000Z',
    sentBy: 'Wanjiku Mary Kamau',
    ...overrides,
  };
}

export function createQuotation(overrides: Partial<QuotationView> = {}): QuotationView {
  return {
    _id: QUOTATION_ID,
    number: 'QUO-000123',
    organisationId: ORG_ID,
    organisationName: 'Kiambu County Government',
    status: 'requested',
    request: {
      lines: [{ productId: PRODUCT_ID, unitId: UNIT_ID, quantity: 30_000, batchId: null }],
      note: 'For the county greening drive',
      delivery: null,
    },
    requestedBy: 'Grace Wambui',
    versions: [],
    draft: null,
    messages: [],
    acceptance: null,
    createdAt: '2026-11-24T08:00:00.000Z',
    updatedAt: '2026-11-24T08:00:00.000Z',
    ...overrides,
  };
}

export function summaryOf(q: QuotationView): QuotationSummary {
  const latest = q.versions[q.versions.length - 1];
  return {
    _id: q._id,
    number: q.number,
    organisationId: q.organisationId,
    organisationName: q.organisationName,
    status: q.status,
    total: latest?.total ?? null,
    validUntil: latest?.validUntil ?? null,
    versions: q.versions.length,
    createdAt: q.createdAt,
    updatedAt: q.updatedAt,
  };
}
