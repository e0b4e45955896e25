import { inflateSync } from 'node:zlib';
import type { InvoiceView } from '@spc/shared-contracts';
import type { EtimsDocumentView } from '../etims/etims-views';
import { invoicePdf, type InvoicePdfInput } from './invoice-pdf';

/** The text pdfkit drew: each TJ array's hex strings, decoded (numbers are kerning). */
function drawnText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    try {
      const content = inflateSync(
        Buffer.from(raw.slice(start, raw.indexOf('endstream', start)), 'latin1'),
      ).toString('latin1');
      for (const line of content.match(/\[[^\]]*\]\s*TJ/g) ?? [])
        out.push(
          (line.match(/<([0-9a-fA-F]*)>/g) ?? [])
            .map((h) => Buffer.from(h.slice(1, -1), 'hex').toString('latin1'))
            .join(''),
        );
    } catch {
      // a stream that is not deflated text
    }
  }
  return out.join('\n');
}

const invoice: InvoiceView = {
  id: '665f1c2b9d3e4a0012345670',
  number: 'INV-000042',
  state: 'Open',
  organisation: { id: 'org1', name: 'Ndaragwa Water Project', kraPin: 'P051234567X' },
  shop: { name: 'Seedling Propagation Centre', kraPin: 'P000000000Z' },
  orderId: '665f1c2b9d3e4a0012345679',
  purchaseNumber: 'SPD7K3MX9QA',
  lpoNumber: 'LPO/NDR/2026/0114',
  tranche: null,
  lines: [
    {
      line: 0,
      productName: 'Tomato seedlings',
      unitName: 'Tray of 50',
      quantity: 2,
      unitPrice: 450,
      amount: 900,
    },
  ],
  fee: 0,
  total: 900,
  issuedAt: '2026-03-01T10:00:00.000Z',
  dueDate: '2026-03-31',
  paid: 0,
  withheld: 0,
  credited: 0,
  balance: 900,
  excess: 0,
  overdue: false,
  daysOverdue: 0,
  payments: [],
  creditNotes: [],
  reminders: [],
};

const QR =
  'https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=P000000000Z00ABCDEFGHIJKLMNOP';
const signedInvoice: EtimsDocumentView = {
  kind: 'invoice',
  trdInvcNo: 'INV-000042',
  state: 'signed',
  cuInvoiceNo: 'KRACU0100000001/12',
  signature: 'ABCDEFGHIJKLMNOP',
  internalData: 'QRSTUVWXYZ234567QRSTUVWXYZ',
  mrcNo: 'WIS00000001',
  signedAt: '2026-03-01T10:00:05.000Z',
  qrUrl: QR,
  buyer: { pin: 'P051234567X', name: 'Kiambu County Government' },
  taxes: [
    {
      taxType: 'B',
      label: 'Standard rate 16 %',
      rate: 16,
      amount: 900,
      taxable: 775.86,
      tax: 124.14,
    },
  ],
  total: { amount: 900, taxable: 775.86, tax: 124.14 },
};

const input = (etims: InvoicePdfInput['etims']): InvoicePdfInput => ({
  invoice,
  site: null,
  shop: { phone: '+254700000000', email: 'shop@example.co.ke', website: 'shop.example.co.ke' },
  paybill: '174379',
  bank: null,
  etims,
});

describe('the invoice PDF and eTIMS', () => {
  it("prints the signed invoice's CU invoice number, signature, time, QR link and tax by type", async () => {
    const pdf = await invoicePdf(input({ documents: [signedInvoice], expected: true }));
    const text = drawnText(pdf);
    expect(text).toContain('Invoice INV-000042');
    expect(text).toContain('CU invoice number: KRACU0100000001/12');
    expect(text).toContain('Signature: ABCDEFGHIJKLMNOP');
    expect(text).toContain('Signed: 01/03/2026 (1:00 PM)');
    expect(text).toContain('B · Standard rate 16 %');
    expect(text).toContain('KES 124.14');
    // Whose tax invoice it is: the buyer KRA was sent.
    expect(text).toContain('Buyer: Kiambu County Government');
    expect(text).toContain('Buyer KRA PIN: P051234567X');
    expect(text).not.toContain('eTIMS pending');
    expect(pdf.toString('latin1')).toContain(`/URI (${QR})`);
  });

  it('prints "eTIMS pending" for an invoice not yet signed or not yet queued; nothing with eTIMS off', async () => {
    const notSigned = {
      ...signedInvoice,
      state: 'pending' as const,
      cuInvoiceNo: null,
      signature: null,
      internalData: null,
      mrcNo: null,
      signedAt: null,
      qrUrl: null,
    };
    const waiting = drawnText(await invoicePdf(input({ documents: [notSigned], expected: true })));
    expect(waiting).toContain('eTIMS pending');
    expect(waiting).not.toContain('CU invoice number');
    expect(waiting).toContain('B · Standard rate 16 %');
    expect(drawnText(await invoicePdf(input({ documents: [], expected: true })))).toContain(
      'eTIMS pending',
    );
    expect(drawnText(await invoicePdf(input(null)))).not.toContain('eTIMS');
  });
});
