import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createOrder } from '../../../testing/factories';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { createTillSale, fakeApi, json, SALE_ID, SESSION_ID } from '../../../testing/till';
import { CollectBooking } from './collect-booking';

/** A booking of KES 15,000 whose KES 4,500 deposit is paid: KES 10,500 to collect. */
const booking = createOrder({
  purchaseNumber: 'SPBOOK0042',
  totalAmount: 15_000,
  amountPaid: 4_500,
});

describe('collecting a booking at the gate', () => {
  afterEach(() => jest.restoreAllMocks());

  it('takes the balance in cash and an M-Pesa code, then shows the receipt', async () => {
    const collected = createTillSale({ total: 10_500, change: 0 });
    const seen = fakeApi(({ method, path }) => {
      if (path.startsWith('/api/bookings/queue?tab=balances'))
        return json(200, {
          success: true,
          message: '',
          orders: [booking],
          totalOrders: 1,
          totalPages: 1,
          page: 1,
        });
      if (method === 'POST' && path === `/api/till/bookings/${booking._id}/collect`)
        return json(200, { success: true, message: 'Booking collected', sale: collected });
      if (path === `/api/till/sales/${SALE_ID}`)
        return json(200, { success: true, message: '', sale: collected });
      return undefined;
    });
    signInAs('staff');
    renderWithProviders(<CollectBooking sessionId={SESSION_ID} />);
    const card = await screen.findByLabelText('Booking SPBOOK0042');
    expect(card).toHaveTextContent('KES 10,500 due');
    fireEvent.click(within(card).getByRole('button', { name: 'Collect' }));
    // No M-Pesa prompt for a booking: cash, a code, or both.
    expect(screen.queryByRole('button', { name: 'M-Pesa prompt' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cash + M-Pesa' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Cash part' }), {
      target: { value: '500' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Cash given' }), {
      target: { value: '500' },
    });
    const take = screen.getByRole('button', { name: 'Take KES 10,500 and hand over' });
    expect(take).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: 'M-Pesa code' }), {
      target: { value: 'sgr4t5y6u7' },
    });
    expect(take).toBeEnabled();
    fireEvent.click(take);
    expect(await screen.findByRole('link', { name: 'Print receipt' })).toHaveAttribute(
      'href',
      `/till/receipt/${SALE_ID}`,
    );
    await waitFor(() =>
      expect(seen.find((r) => r.method === 'POST')?.body).toEqual({
        sessionId: SESSION_ID,
        payments: [
          { method: 'cash', amount: 500, given: 500 },
          { method: 'mpesa-code', amount: 10_000, code: 'SGR4T5Y6U7' },
        ],
      }),
    );
  });

  it('says when no booking is ready to collect', async () => {
    fakeApi(({ path }) =>
      path.startsWith('/api/bookings/queue')
        ? json(200, {
            success: true,
            message: '',
            orders: [],
            totalOrders: 0,
            totalPages: 0,
            page: 1,
          })
        : undefined,
    );
    signInAs('staff');
    renderWithProviders(<CollectBooking sessionId={SESSION_ID} />);
    expect(await screen.findByText('No bookings ready to collect.')).toBeInTheDocument();
  });
});
