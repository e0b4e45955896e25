import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render';
import { PaymentFormFields } from './payment-form';

function setup(total = 1270) {
  const onSubmit = jest.fn();
  renderWithProviders(<PaymentFormFields total={total} onSubmit={onSubmit} />);
  return { onSubmit };
}

const choose = (method: string) =>
  fireEvent.change(screen.getByLabelText('Payment Method'), { target: { value: method } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Complete Payment' }));

describe('payment form', () => {
  it('prefills the amount with the order total', () => {
    setup(1270);
    expect(screen.getByLabelText('Amount')).toHaveValue('KSH 1,270');
  });

  it('asks for the payment method', async () => {
    const { onSubmit } = setup();
    submit();
    expect(await screen.findByText('Payment method is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows no transaction code or time paid for Cash and sends only method and amount', async () => {
    const { onSubmit } = setup(1270);
    choose('Cash');
    expect(screen.queryByLabelText('Transaction Code')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Time Paid')).not.toBeInTheDocument();
    submit();
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ paymentMethod: 'Cash', amount: 1270 }),
    );
  });

  it('requires the transaction code and the time paid for Mpesa', async () => {
    const { onSubmit } = setup();
    choose('Mpesa');
    expect(screen.getByLabelText('Transaction Code')).toBeInTheDocument();
    expect(screen.getByLabelText('Time Paid')).toBeInTheDocument();
    submit();
    expect(await screen.findByText('Transaction code is required')).toBeInTheDocument();
    expect(screen.getByText('Time paid is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends an Mpesa payment with its code and time', async () => {
    const { onSubmit } = setup(630);
    choose('Mpesa');
    fireEvent.change(screen.getByLabelText('Transaction Code'), {
      target: { value: 'SG35TMXYZ1' },
    });
    fireEvent.change(screen.getByLabelText('Time Paid'), { target: { value: '2026-11-20T10:30' } });
    submit();
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        paymentMethod: 'Mpesa',
        amount: 630,
        transactionCode: 'SG35TMXYZ1',
        timePaid: '2026-11-20T10:30',
      }),
    );
  });

  it('asks for the amount when it is cleared', async () => {
    const { onSubmit } = setup();
    choose('Cash');
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '' } });
    submit();
    expect(await screen.findByText('Amount is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
