import { fireEvent, screen } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { TrackOrdersRoute } from './track-orders';

const route = { route: '/track-orders', path: '/track-orders' };

describe('order tracking', () => {
  it('does not look anything up while the number is empty', () => {
    const { calls } = mockFetch({});
    renderWithProviders(<TrackOrdersRoute />, route);
    fireEvent.click(screen.getByRole('button', { name: 'Track' }));
    expect(calls).toHaveLength(0);
  });

  it('shows the number, the estimated date and the steps done', async () => {
    const { calls } = mockFetch({
      '/api/orders/track/new-order': () => ({
        body: {
          success: true,
          message: 'ok',
          purchaseNumber: 'SPD7K3MX9QA',
          orderStatus: { currentStatus: 'InTransit' },
          estimatedDeliveryDate: '2026-03-04T09:00:00.000Z',
          orderReceivedDate: '2026-03-01T09:00:00.000Z',
          inTransitDate: '2026-03-02T09:00:00.000Z',
          deliveredDate: null,
        },
      }),
    });
    renderWithProviders(<TrackOrdersRoute />, route);
    fireEvent.change(screen.getByLabelText('Confirmation number'), {
      target: { value: 'SPD7K3MX9QA' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Track' }));
    expect(await screen.findByText('04/03/2026')).toBeInTheDocument();
    expect(new URL(calls[0]!.url).searchParams.get('purchaseNumber')).toBe('SPD7K3MX9QA');
    const steps = screen.getAllByRole('listitem');
    expect(steps.map((s) => s.getAttribute('data-done'))).toEqual(['true', 'true', 'false']);
    expect(steps[0]).toHaveTextContent('Order Received');
  });

  it('shows the tracking error for an unknown number', async () => {
    mockFetch({
      '/api/orders/track/new-order': () => ({ status: 404, body: { message: 'Order not found' } }),
    });
    renderWithProviders(<TrackOrdersRoute />, route);
    fireEvent.change(screen.getByLabelText('Confirmation number'), { target: { value: 'SPDXXX' } });
    fireEvent.click(screen.getByRole('button', { name: 'Track' }));
    expect(
      await screen.findByText('Error fetching order. Please check your confirmation number.'),
    ).toBeInTheDocument();
  });

  it("opens the order texts' link (purchaseNumber) and shows a booking's balance due with a way to pay it", async () => {
    mockFetch({
      '/api/orders/track/new-order': () => ({
        body: {
          success: true,
          message: 'ok',
          purchaseNumber: 'SPD7K3MX9QA',
          orderStatus: { currentStatus: 'Pending' },
          estimatedDeliveryDate: '2027-03-15T09:00:00.000Z',
          orderReceivedDate: '2026-11-20T09:00:00.000Z',
          inTransitDate: null,
          deliveredDate: null,
          booking: {
            readyOn: '2027-03-12',
            depositPercent: 30,
            deposit: 360,
            amountPaid: 360,
            balanceDue: 840,
            amountDueNow: 840,
            state: 'Balance due',
            balanceDueBy: '2027-03-19',
          },
        },
      }),
      '/api/payments/mpesa/pay-info/SPD7K3MX9QA': () => ({
        body: {
          success: true,
          message: 'ok',
          payable: true,
          paybill: '174379',
          account: 'SPD7K3MX9QA',
          amountDue: 840,
          lastPrompt: null,
        },
      }),
    });
    renderWithProviders(<TrackOrdersRoute />, {
      route: '/track-orders',
      path: '/track-orders?purchaseNumber=SPD7K3MX9QA',
    });
    const facts = await screen.findByTestId('booking-facts');
    expect(facts).toHaveTextContent('Ready from 12 March');
    expect(facts).toHaveTextContent('Deposit paid: KES 360 (30 %)');
    expect(facts).toHaveTextContent('Balance due: KES 840 by 19 March');
    fireEvent.click(await screen.findByRole('button', { name: 'Pay the balance with M-Pesa' }));
    expect(screen.getByLabelText('M-Pesa phone number')).toHaveValue('');
    expect(screen.getByTestId('paybill-instructions')).toHaveTextContent(
      'Or pay by M-Pesa Paybill 174379, account SPD7K3MX9QA, amount KES 840.',
    );
  });
});
