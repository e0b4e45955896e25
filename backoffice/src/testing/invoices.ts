/** Invoices as the API answers them (shared-contracts/src/invoices.ts), for the screens' tests. */
import type { InvoiceListResponse, InvoiceView, StatementView } from '@spc/shared-contracts';
import { ORG_ID } from './organisations';

export const INVOICE_ID = '6650f0c2a1b2c3d4e5f6b001';
export const ORDER_ID = '6650f0c2a1b2c3d4e5f60001';

/** An open tranche invoice of KES 100,000 (two lines and a fee), due in a month, nothing paid. */
export function createInvoice(overrides: Partial<InvoiceView> = {}): InvoiceView {
  return {
    id: INVOICE_ID,
    number: 'INV-000042',
    state: 'Open',
    organisation: { id: ORG_ID, name: 'Kiambu County Government', kraPin: 'P051234567X' },
    shop: { name: 'Seedlings Plant Centre', kraPin: 'P000111222Z' },
    orderId: ORDER_ID,
    purchaseNumber: 'SPDBMUYD9PD',
    lpoNumber: 'KCG/LPO/2026/0412',
    tranche: 1,
    lines: [
      {
        line: 0,
        productName: 'Grevillea robusta',
        unitName: 'Seedling',
        quantity: 2_000,
        unitPrice: 30,
        amount: 60_000,
      },
      {
        line: 1,
        productName: 'Croton megalocarpus',
        unitName: 'Tray of 50',
        quantity: 25,
        unitPrice: 1_400,
        amount: 35_000,
      },
    ],
    fee: 5_000,
    total: 100_000,
    issuedAt: '2026-11-20T09:00:00.000Z',
    dueDate: '2026-12-20',
    paid: 0,
    withheld: 0,
    credited: 0,
    balance: 100_000,
    excess: 0,
    overdue: false,
    daysOverdue: 0,
    payments: [],
    creditNotes: [],
    reminders: [],
    ...overrides,
  };
}

export function invoicePage(
  invoices: InvoiceView[],
  overrides: Partial<InvoiceListResponse> = {},
): InvoiceListResponse & { success: true; message: string } {
  return {
    success: true,
    message: '',
    invoices,
    total: invoices.length,
    page: 1,
    pages: 1,
    owed: invoices.reduce((sum, i) => sum + i.balance, 0),
    ...overrides,
  };
}

export function createStatement(overrides: Partial<StatementView> = {}): StatementView {
  return {
    organisation: { id: ORG_ID, name: 'Kiambu County Government', kraPin: 'P051234567X' },
    shop: { name: 'Seedlings Plant Centre', kraPin: 'P000111222Z' },
    from: '2026-11-01',
    to: '2026-11-29',
    openingBalance: 20_000,
    lines: [
      {
        date: '2026-11-20',
        kind: 'invoice',
        reference: 'INV-000042',
        invoiceNumber: 'INV-000042',
        description: 'Order SPDBMUYD9PD, tranche T1',
        debit: 100_000,
        credit: 0,
        balance: 120_000,
      },
      {
        date: '2026-11-25',
        kind: 'bank',
        reference: 'FT2633012345',
        invoiceNumber: 'INV-000042',
        description: 'Bank transfer for INV-000042',
        debit: 0,
        credit: 40_000,
        balance: 80_000,
      },
    ],
    closingBalance: 80_000,
    ageing: { current: 60_000, days30: 20_000, days60: 0, days90: 0, over90: 0 },
    overdue: 20_000,
    excess: 0,
    ...overrides,
  };
}
