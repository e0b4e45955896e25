import type {
  OrganisationView,
  QuotationLineView,
  QuotationVersionView,
  QuotationView,
} from '@spc/shared-contracts';

/** Quotations as the API answers them, for the screens' tests (long names, big numbers). */
export function createLine(overrides: Partial<QuotationLineView> = {}): QuotationLineView {
  return {
    productId: 'p1',
    unitId: 'u-tray',
    productName: 'Grevillea robusta (silky oak), nursery-raised in root trainers',
    unitName: 'Tray of 50',
    seedlings: 50,
    quantity: 600,
    source: { kind: 'stock' },
    readyDate: null,
    shopUnitPrice: 1_400,
    unitPrice: 1_250,
    lineTotal: 750_000,
    ...overrides,
  };
}

export function createVersion(overrides: Partial<QuotationVersionView> = {}): QuotationVersionView {
  return {
    version: 1,
    lines: [
      createLine(),
      createLine({
        quantity: 9_000,
        unitName: 'Seedling',
        seedlings: 1,
        source: { kind: 'batch', batchId: 'b1' },
        readyDate: '2027-03-12',
        unitPrice: 1_288,
        lineTotal: 11_592_000,
      }),
    ],
    delivery: {
      siteName: 'Ol Kalou Forest Station, Nyandarua County tree-growing site no. 4',
      county: 'Nyandarua',
      subCounty: 'Ol Kalou',
      streetAddress: 'Off Ol Kalou–Nyahururu road',
      date: '2027-03-20',
    },
    deliveryFee: 3_678,
    subtotal: 12_342_000,
    total: 12_345_678,
    validUntil: '2099-12-31',
    note: 'Prices hold for the short rains.',
    sentAt: '2026-11-25T09:00:00.000Z',
    sentBy: 'Wanjiku Mary Kamau',
    ...overrides,
  };
}

export function createQuotation(overrides: Partial<QuotationView> = {}): QuotationView {
  return {
    _id: 'q1',
    number: 'QUO-000123',
    organisationId: 'o1',
    organisationName: 'Green Belt Schools Trust',
    status: 'sent',
    request: { lines: [], note: '', delivery: null },
    requestedBy: 'Achieng Otieno',
    versions: [createVersion()],
    draft: null,
    messages: [],
    acceptance: null,
    createdAt: '2026-11-24T08:00:00.000Z',
    updatedAt: '2026-11-25T09:00:00.000Z',
    ...overrides,
  };
}

/** `GET /api/organisations/mine` for a person of an approved organisation, with their role. */
export const mine = (
  role: 'approver' | 'buyer',
  status: OrganisationView['status'] = 'approved',
) => ({
  success: true,
  message: '',
  organisation: { _id: 'o1', name: 'Green Belt Schools Trust', status },
  role,
});
