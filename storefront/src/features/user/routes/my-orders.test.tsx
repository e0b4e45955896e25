import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createOrder, createOrderLine, createOrderList } from '../../../testing/factories';
import type { Order } from '../../../lib/types';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { MyOrdersRoute } from './my-orders';

const order = (overrides: Partial<Order> = {}) =>
  createOrder({
    _id: 'o1',
    purchaseNumber: 'SPD7K3MX9QA',
    customerName: 'Wanjiku Kamau',
    products: [
      createOrderLine({ productName: 'Hass Avocado', quantity: 1, unitPrice: 350, lineTotal: 350 }),
    ],
    subtotal: 350,
    shippingFee: 300,
    totalAmount: 650,
    delivery: { method: 'delivery', zoneName: 'Nairobi', days: 2 },
    estimatedDeliveryDate: '2026-03-03T09:00:00.000Z',
    orderStatus: 'Pending',
    paymentStatus: 'Pending',
    fulfillmentStatus: 'Unfulfilled',
    orderDate: '2026-03-01T09:00:00.000Z',
    ...overrides,
  });

const page = (orders: Order[]) => ({ body: createOrderList(orders) });

describe('my orders', () => {
  it("says 'No orders found.' when there are none", async () => {
    mockFetch({ '/api/orders/user': () => page([]) });
    renderWithProviders(<MyOrdersRoute />);
    expect(await screen.findByText('No orders found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Place Order' })).toHaveAttribute(
      'href',
      '/shop/products',
    );
  });

  it('lets a pending order be cancelled and not one in transit', async () => {
    const { calls } = mockFetch({
      '/api/orders/user': () =>
        page([
          order(),
          order({ _id: 'o2', purchaseNumber: 'SPDABCDEFGH', orderStatus: 'InTransit' }),
        ]),
      '/api/orders/cancel/o1': () => ({
        body: { success: true, message: 'Order cancelled', order: {} },
      }),
    });
    renderWithProviders(<MyOrdersRoute />);
    const table = await screen.findByRole('table');
    const pending = within(table).getByText('SPD7K3MX9QA').closest('tr')!;
    const transit = within(table).getByText('SPDABCDEFGH').closest('tr')!;
    expect(within(transit).getByRole('button', { name: 'Cancel order' })).toBeDisabled();
    fireEvent.click(within(pending).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('Order cancelled')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        calls.some((c) => c.method === 'PATCH' && c.url.endsWith('/api/orders/cancel/o1')),
      ).toBe(true),
    );
  });

  it('gives a phone one card per order with its status and the cancellation request', async () => {
    mockFetch({
      '/api/orders/user': () =>
        page([
          order(),
          order({
            _id: 'o2',
            purchaseNumber: 'SPDABCDEFGH',
            orderStatus: 'InTransit',
            shippingFee: 0,
            totalAmount: 350,
            delivery: { method: 'collection', zoneName: 'Collect at the nursery', days: 1 },
            estimatedDeliveryDate: '2026-03-02T09:00:00.000Z',
          }),
        ]),
    });
    renderWithProviders(<MyOrdersRoute />);
    const cards = await screen.findAllByTestId('order-card');
    expect(cards).toHaveLength(2);
    expect(
      within(cards[0]!).getByText('Pending', { selector: '.status-pill' }),
    ).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('button', { name: 'Cancel order' })).toBeEnabled();
    expect(within(cards[0]!).getByText('Nairobi · KES 300 · by 03/03/2026')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('KES 650')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('InTransit')).toBeInTheDocument();
    expect(within(cards[1]!).getByRole('button', { name: 'Cancel order' })).toBeDisabled();
    expect(
      within(cards[1]!).getByText('Collect at the nursery · Free · from 02/03/2026'),
    ).toBeInTheDocument();
  });
});
