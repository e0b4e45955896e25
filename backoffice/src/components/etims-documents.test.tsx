import { screen, within } from '@testing-library/react';
import type { components } from '@spc/shared-contracts';
import { renderWithProviders } from '../testing/render';
import { EtimsDocuments } from './etims-documents';

type EtimsDocument = components['schemas']['EtimsDocumentDto'];

const QR =
  'https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=P000000000Z00ABCDEFGHIJKLMNOP';
const signed: EtimsDocument = {
  kind: 'sale',
  trdInvcNo: 'SPD7K3MX9QA',
  state: 'signed',
  cuInvoiceNo: 'KRACU0100000001/7',
  signature: 'ABCDEFGHIJKLMNOP',
  internalData: 'QRSTUVWXYZ234567QRSTUVWXYZ',
  mrcNo: 'WIS00000001',
  signedAt: '2026-03-01T10:00:05.000Z',
  qrUrl: QR,
  buyer: null,
  taxes: [
    { taxType: 'A', label: 'Exempt', rate: 0, amount: 250, taxable: 250, tax: 0 },
    {
      taxType: 'B',
      label: 'Standard rate 16 %',
      rate: 16,
      amount: 900,
      taxable: 775.86,
      tax: 124.14,
    },
  ],
  total: { amount: 1150, taxable: 1025.86, tax: 124.14 },
};

describe("eTIMS documents on an order's or an invoice's page", () => {
  it("shows a signed document's CU number, signature, time, KRA's link and the tax by type", () => {
    renderWithProviders(<EtimsDocuments documents={[signed]} />);
    const doc = screen.getByTestId('etims-document');
    expect(doc).toHaveTextContent('Sale SPD7K3MX9QA');
    expect(doc).toHaveTextContent('CU invoice number: KRACU0100000001/7');
    expect(doc).toHaveTextContent('Signature: ABCDEFGHIJKLMNOP');
    expect(doc).toHaveTextContent('Signed: 01/03/2026 (1:00 PM)');
    expect(within(doc).getByRole('link', { name: /Check it with KRA/ })).toHaveAttribute(
      'href',
      QR,
    );
    const taxes = within(doc).getByRole('table', { name: /Tax by type/ });
    expect(taxes).toHaveTextContent('B · Standard rate 16 %');
    expect(taxes).toHaveTextContent('KSH 775.86');
    expect(taxes).toHaveTextContent('KSH 124.14');
    expect(doc).not.toHaveTextContent('eTIMS pending');
  });

  it('says "eTIMS pending" for a document KRA has not signed, with no link', () => {
    renderWithProviders(
      <EtimsDocuments
        documents={[
          {
            ...signed,
            state: 'pending',
            cuInvoiceNo: null,
            signature: null,
            qrUrl: null,
            signedAt: null,
          },
        ]}
      />,
    );
    const doc = screen.getByTestId('etims-document');
    expect(doc).toHaveTextContent('eTIMS pending');
    expect(doc).not.toHaveTextContent('CU invoice number');
    expect(within(doc).queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows nothing while the order has no documents (eTIMS off)', () => {
    const { container } = renderWithProviders(<EtimsDocuments documents={[]} />);
    expect(container).not.toHaveTextContent('eTIMS');
  });
});
