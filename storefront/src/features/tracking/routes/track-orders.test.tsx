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
});
