import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MPESA_MESSAGES } from '@spc/shared-contracts';
import { mockFetch, renderWithProviders } from '../testing/render';
import { MpesaPayment } from './mpesa-payment';

const STATUS = '/api/payments/mpesa/status/ws_CO_1';

function renderPayment(onPaid = jest.fn()) {
  renderWithProviders(
    <MpesaPayment
      purchaseNumber="SPD7K3MX9QA"
      amount={1250}
      defaultPhone="0712 345 678"
      onPaid={onPaid}
      pollMs={20}
    />,
  );
  return onPaid;
}

describe('MpesaPayment', () => {
  it('sends the prompt to the prefilled phone, waits, and reports the payment', async () => {
    const answers = ['pending', 'pending', 'paid'];
    const { calls } = mockFetch({
      '/api/payments/mpesa/stk-push': () => ({
        body: { success: true, message: MPESA_MESSAGES.promptSent, checkoutRequestId: 'ws_CO_1' },
      }),
      [STATUS]: () => {
        const status = answers.shift() ?? 'paid';
        return {
          body: {
            success: true,
            status,
            message: status === 'paid' ? MPESA_MESSAGES.paid : MPESA_MESSAGES.waiting,
          },
        };
      },
    });
    const onPaid = renderPayment();
    expect(screen.getByLabelText('M-Pesa phone number')).toHaveValue('0712 345 678');
    fireEvent.click(screen.getByRole('button', { name: 'Send prompt' }));
    expect(await screen.findByText(MPESA_MESSAGES.waiting)).toBeInTheDocument();
    expect(screen.getByText(/A prompt for KES 1,250 was sent to 0712 345 678/)).toBeInTheDocument();
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith(MPESA_MESSAGES.paid));
    const push = calls.find((c) => c.url.endsWith('/stk-push'))!;
    expect(await push.clone().json()).toEqual({
      purchaseNumber: 'SPD7K3MX9QA',
      phoneNumber: '0712 345 678',
    });
    expect(calls.filter((c) => c.url.endsWith(STATUS)).length).toBeGreaterThanOrEqual(3);
  });

  it('shows why the payment failed and lets the shopper try again', async () => {
    mockFetch({
      '/api/payments/mpesa/stk-push': () => ({
        body: { success: true, message: MPESA_MESSAGES.promptSent, checkoutRequestId: 'ws_CO_1' },
      }),
      [STATUS]: () => ({
        body: { success: true, status: 'failed', message: MPESA_MESSAGES.cancelled },
      }),
    });
    const onPaid = renderPayment();
    fireEvent.click(screen.getByRole('button', { name: 'Send prompt' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MPESA_MESSAGES.cancelled);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByLabelText('M-Pesa phone number')).toHaveValue('0712 345 678');
    expect(screen.getByRole('button', { name: 'Send prompt' })).toBeEnabled();
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('refuses a number that is not a Safaricom line without calling the API', () => {
    const { calls } = mockFetch({});
    renderPayment();
    fireEvent.change(screen.getByLabelText('M-Pesa phone number'), {
      target: { value: '0212345678' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send prompt' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MPESA_MESSAGES.invalidPhone);
    expect(calls).toHaveLength(0);
  });

  it('shows the API’s refusal, such as the per-order limit', async () => {
    mockFetch({
      '/api/payments/mpesa/stk-push': () => ({
        status: 429,
        body: { success: false, statusCode: 429, message: MPESA_MESSAGES.tooManyForOrder },
      }),
    });
    renderPayment();
    fireEvent.click(screen.getByRole('button', { name: 'Send prompt' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MPESA_MESSAGES.tooManyForOrder);
    expect(screen.getByRole('button', { name: 'Send prompt' })).toBeEnabled();
  });

  it('tells a shopper still waiting after a while that they may leave the page', async () => {
    mockFetch({
      '/api/payments/mpesa/stk-push': () => ({
        body: { success: true, message: MPESA_MESSAGES.promptSent, checkoutRequestId: 'ws_CO_1' },
      }),
      [STATUS]: () => ({
        body: { success: true, status: 'pending', message: MPESA_MESSAGES.waiting },
      }),
    });
    renderWithProviders(
      <MpesaPayment
        purchaseNumber="SPD7K3MX9QA"
        amount={1250}
        defaultPhone="0712345678"
        onPaid={jest.fn()}
        pollMs={20}
        slowAfterMs={100}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send prompt' }));
    expect(await screen.findByText(MPESA_MESSAGES.waiting)).toBeInTheDocument();
    expect(screen.queryByText(MPESA_MESSAGES.stillWaiting)).toBeNull();
    expect(await screen.findByText(MPESA_MESSAGES.stillWaiting)).toBeInTheDocument();
  });
});
