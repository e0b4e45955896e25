import type { InvoiceListResponse, InvoiceView, StatementView } from '@spc/shared-contracts';

/** Invoices and statements as the API answers them (docs/invoices.md), for the screens' tests. */
export function createInvoice(overrides: Partial<InvoiceView> = {}): InvoiceView {
  return {
    id: 'inv1',
    number: 'INV-000042',
    state: 'Open',
    organisation: { id: 'o1', name: 'Green Belt Schools Trust', kraPin: 'P051234567X' },
    shop: { name: 'Seedlings Plant Centre', kraPin: 'P000111222A' },
    orderId: 'ord1',
    purchaseNumber: 'SPDAB12CD34',
    lpoNumber: 'LPO/GBST/0412',
    tranche: 2,
    lines: [
      {
        line: 0,
        productName: 'Grevillea robusta (silky oak), nursery-raised in root trainers',
        unitName: 'Tray of 50',
        quantity: 580,
        unitPrice: 1_250,
        amount: 725_000,
      },
    ],
    fee: 15_000,
    total: 740_000,
    issuedAt: '2026-12-01T11:00:00.000Z',
    dueDate: '2026-12-31',
    paid: 300_000,
    withheld: 14_800,
    credited: 25_000,
    balance: 400_200,
    excess: 0,
    overdue: false,
    daysOverdue: 0,
    payments: [],
    creditNotes: [],
    reminders: [],
    ...overrides,
  };
}

export const invoiceList = (
  invoices: InvoiceView[],
  more: Partial<InvoiceListResponse> = {},
): InvoiceListResponse => ({
  invoices,
  total: invoices.length,
  page: 1,
  pages: 1,
  owed: invoices.reduce((sum, i) => sum + i.balance, 0),
  ...more,
});

export function createStatement(overrides: Partial<StatementView> = {}): StatementView {
  return {
    organisation: { id: 'o1', name: 'Green Belt Schools Trust', kraPin: 'P051234567X' },
    shop: { name: 'Seedlings Plant Centre', kraPin: 'P000111222A' },
    from: '2026-11-01',
    to: '2026-11-29',
    openingBalance: 120_000,
    lines: [
      {
        date: '2026-11-03',
        kind: 'invoice',
        reference: 'INV-000040',
        invoiceNumber: 'INV-000040',
        description: 'Invoice for SPDAB12CD34 T1',
        debit: 500_000,
        credit: 0,
        balance: 620_000,
      },
      {
        date: '2026-11-20',
        kind: 'bank',
        reference: 'FT2611200042',
        invoiceNumber: 'INV-000040',
        description: 'Bank transfer',
        debit: 0,
        credit: 200_000,
        balance: 420_000,
      },
    ],
    closingBalance: 420_000,
    ageing: { current: 300_000, days30: 0, days60: 120_000, days90: 0, over90: 0 },
    overdue: 120_000,
    excess: 0,
    ...overrides,
  };
}
