import { screen, within } from '@testing-library/react';
import { createMoneyEntry, createOrderMoney } from '../../../testing/factories';
import { renderWithProviders } from '../../../testing/render';
import { OrderMoneyCard } from './order-money';

describe("an order's money on the order page", () => {
  it('says no payment was received yet when the ledger has no entry', () => {
    renderWithProviders(<OrderMoneyCard money={createOrderMoney()} />);
    const card = screen.getByRole('region', { name: 'Money' });
    expect(card).toHaveTextContent('No payment received yet');
    expect(within(card).queryByTestId('money-entry')).not.toBeInTheDocument();
  });

  it('lists each entry received and refunded, how, its code, when and by whom, with the totals', () => {
    const money = createOrderMoney([
      createMoneyEntry({
        kind: 'paybill',
        amount: 1_234_567,
        code: 'TKL7RT61SV',
        payer: '254712345678',
        by: null,
        split: { deposit: 370_370, balance: 864_197, excess: 0 },
        returned: 1_000,
      }),
      createMoneyEntry({
        id: 'cash:1',
        kind: 'cash',
        amount: 500,
        code: null,
        reference: 'Paid at the gate',
        at: '2026-11-23T09:30:00.000Z',
        by: { fullName: 'Wanjiku Nyambura Kamau-Odhiambo', role: 'staff' },
      }),
      createMoneyEntry({
        id: 'out:1',
        direction: 'out',
        kind: 'b2c',
        amount: 1_000,
        code: null,
        reference: 'UBX9C2D3E4',
        payer: '254712345678',
        of: 'c2b:TKL7RT61SV',
        at: '2026-11-24T10:00:00.000Z',
        state: 'recorded',
        by: { fullName: 'Admin Njoroge', role: 'admin' },
      }),
    ]);
    renderWithProviders(<OrderMoneyCard money={money} />);
    const card = screen.getByRole('region', { name: 'Money' });
    expect(card).toHaveTextContent('ReceivedKSH 1,235,067');
    expect(card).toHaveTextContent('RefundedKSH 1,000');
    expect(card).toHaveTextContent('RefundableKSH 1,234,067');

    const [paybill, cash, b2c] = within(card).getAllByTestId('money-entry');
    expect(paybill).toHaveTextContent('Received');
    expect(paybill).toHaveTextContent('Paybill · TKL7RT61SV');
    expect(paybill).toHaveTextContent('from 254712345678');
    expect(paybill).toHaveTextContent('KSH 1,234,567');
    expect(paybill).toHaveTextContent(
      'deposit KSH 370,370 · balance KSH 864,197 · KSH 1,000 given back',
    );
    expect(cash).toHaveTextContent('Cash · Paid at the gate');
    expect(cash).toHaveTextContent(
      '23/11/2026 (12:30 PM) · by Wanjiku Nyambura Kamau-Odhiambo (staff)',
    );
    expect(b2c).toHaveTextContent('Refunded');
    expect(b2c).toHaveTextContent('B2C to 254712345678 · UBX9C2D3E4');
    expect(b2c).toHaveTextContent('by Admin Njoroge (admin)');
    expect(b2c).toHaveTextContent('− KSH 1,000');
  });
});
