import { fireEvent, screen } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../testing/render';
import { PayByMpesa } from './pay-by-mpesa';

const INFO = '/api/payments/mpesa/pay-info/SPD7K3MX9QA';

function answer(lastPrompt: { status: string; message: string } | null, payable = true) {
  return mockFetch({
    [INFO]: () => ({
      body: {
        success: true,
        message: 'How to pay the order by M-Pesa',
        payable,
        paybill: '174379',
        account: 'SPD7K3MX9QA',
        amountDue: 950,
        lastPrompt,
      },
    }),
  });
}

describe('PayByMpesa', () => {
  it('after a failed prompt says why and offers "Try M-Pesa again", with the paybill details', async () => {
    answer({ status: 'failed', message: 'You cancelled the M-Pesa prompt.' });
    renderWithProviders(
      <PayByMpesa purchaseNumber="SPD7K3MX9QA" phoneNumber="0712 345 678" open />,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('You cancelled the M-Pesa prompt.');
    expect(screen.getByTestId('paybill-instructions')).toHaveTextContent(
      'Or pay by M-Pesa Paybill 174379, account SPD7K3MX9QA, amount KES 950.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try M-Pesa again' }));
    expect(await screen.findByLabelText('M-Pesa phone number')).toHaveValue('0712 345 678');
    expect(screen.getByRole('button', { name: 'Send prompt' })).toBeInTheDocument();
  });

  it('shows nothing for an order that can no longer be paid', async () => {
    const { calls } = answer(null, false);
    renderWithProviders(
      <PayByMpesa purchaseNumber="SPD7K3MX9QA" phoneNumber="0712 345 678" open />,
    );
    await screen.findByText((_, el) => el === document.body);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(1);
    expect(screen.queryByText(/Pay by M-Pesa/)).not.toBeInTheDocument();
  });
});
