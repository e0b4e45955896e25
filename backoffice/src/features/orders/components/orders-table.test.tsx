import { fireEvent, screen } from '@testing-library/react';
import { formatDateTime, MPESA_EXPRESS_NAME } from '@spc/shared-contracts';
import { createOrder } from '../../../testing/factories';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { OrdersTable } from './orders-table';

describe('orders table', () => {
  beforeEach(() => signInAs('staff'));

  it('shows the receipt and time of an order paid by M-Pesa Express, which needs no Complete Payment', async () => {
    const paidAt = '2026-11-22T07:45:12.000Z';
    const order = createOrder({
      orderStatus: 'Processing',
      paymentStatus: 'Paid',
      paymentMethod: 'Mpesa',
      paymentDetails: {
        amount: 1270,
        transactionCode: 'TKL7RT61SV',
        timePaid: paidAt,
        completedBy: { _id: 'mpesa-express', fullName: MPESA_EXPRESS_NAME },
      },
      paidAt,
    });
    renderWithProviders(<OrdersTable orders={[order]} page={1} role="staff" />);
    expect(screen.getByText(`M-Pesa TKL7RT61SV · ${formatDateTime(paidAt)}`)).toBeInTheDocument();
    expect(screen.getByText('Paid by M-Pesa Express (STK push)')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /actions for order/i }));
    await screen.findByRole('menuitem', { name: 'Complete Payment' });
    expect(screen.getByRole('menuitem', { name: 'Complete Payment' })).toHaveAttribute(
      'data-disabled',
    );
    expect(screen.getByTestId('reason-completePayment')).toHaveAttribute(
      'aria-label',
      'This order is already paid',
    );
  });

  it('does not call a payment staff recorded by hand an M-Pesa Express one', () => {
    const order = createOrder({
      orderStatus: 'Processing',
      paymentStatus: 'Paid',
      paymentMethod: 'Mpesa',
      paymentDetails: {
        amount: 1270,
        transactionCode: 'SGH7K2LP9Q',
        timePaid: '2026-11-22T07:45:12.000Z',
        completedBy: { _id: '6650f0c2a1b2c3d4e5f60009', fullName: 'Peter Mwangi' },
      },
    });
    renderWithProviders(<OrdersTable orders={[order]} page={1} role="staff" />);
    expect(screen.getByText(/M-Pesa SGH7K2LP9Q/)).toBeInTheDocument();
    expect(screen.queryByText(/STK push/)).not.toBeInTheDocument();
  });

  it('shows the subtotal under "Subtotal", not the total with delivery', () => {
    const order = createOrder({ subtotal: 1000, shippingFee: 250, totalAmount: 1250 } as never);
    renderWithProviders(<OrdersTable orders={[order]} page={1} role="staff" />);
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    const row = screen.getAllByRole('row')[1]!;
    const cells = [...row.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells[headers.indexOf('Subtotal')]).toBe('KSH 1,000');
  });
});
