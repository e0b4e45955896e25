import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { createTillSale, fakeApi, json, SALE_ID } from '../../../testing/till';
import { TillReceiptRoute } from './till-receipt';

function render(sale = createTillSale()) {
  fakeApi(({ path }) =>
    path === `/api/till/sales/${SALE_ID}`
      ? json(200, { success: true, message: '', sale })
      : undefined,
  );
  signInAs('staff');
  return renderWithProviders(
    <Routes>
      <Route path="/till/receipt/:orderId" element={<TillReceiptRoute />} />
    </Routes>,
    { route: `/till/receipt/${SALE_ID}` },
  );
}

describe('a gate receipt', () => {
  afterEach(() => jest.restoreAllMocks());

  it('prints the shop, the lines, the cash given and the change, the clerk, and "eTIMS pending" before signing', async () => {
    render();
    const receipt = await screen.findByRole('article', { name: 'Receipt' });
    expect(receipt).toHaveTextContent('Seedling Propagation Centre');
    expect(receipt).toHaveTextContent('Receipt SPGATE0001');
    expect(receipt).toHaveTextContent('Served by Wanjiku Mary Kamau');
    expect(receipt).toHaveTextContent('Kale Sukuma Wiki, Tray of 503 × KES 1,500KES 4,500');
    expect(receipt).toHaveTextContent('TotalKES 5,100');
    expect(receipt).toHaveTextContent('Cash (given KES 6,000)KES 5,100');
    expect(receipt).toHaveTextContent('ChangeKES 900');
    expect(screen.getByTestId('receipt-etims')).toHaveTextContent('eTIMS pending');
    // 80 mm unless told; 58 mm narrows the receipt and the printed page.
    expect(screen.getByTestId('receipt-print-css').textContent).toContain('size: 80mm auto');
    fireEvent.click(screen.getByText('58 mm'));
    expect(receipt).toHaveAttribute('data-roll', '58');
    expect(screen.getByTestId('receipt-print-css').textContent).toContain('size: 58mm auto');
  });

  it('prints the eTIMS number and its check link once signed', async () => {
    render(
      createTillSale({
        etims: {
          invoiceNumber: 'KRACU0100000042/118',
          signedAt: '2026-11-29T07:15:10.000Z',
          qrUrl:
            'https://etims.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=P000',
        },
      }),
    );
    const etims = await screen.findByTestId('receipt-etims');
    expect(etims).toHaveTextContent('KRA eTIMS KRACU0100000042/118');
    expect(etims).toHaveTextContent('indexEtimsReceiptData');
    expect(etims).not.toHaveTextContent('eTIMS pending');
  });
});
