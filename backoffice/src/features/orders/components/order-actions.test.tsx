import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { OrderStatus, PaymentStatus } from '@spc/shared-contracts';
import { createOrder } from '../../../testing/orders';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { OrderActions } from './order-actions';

async function openMenu(status: OrderStatus, payment: PaymentStatus = 'Pending') {
  renderWithProviders(
    <OrderActions
      order={createOrder({ orderStatus: status, paymentStatus: payment })}
      role="staff"
    />,
  );
  fireEvent.click(screen.getByRole('button', { name: /actions for order/i }));
  await screen.findByRole('menuitem', { name: 'Complete Payment' });
}

const enabled = (name: string) =>
  !screen.getByRole('menuitem', { name }).hasAttribute('data-disabled');

describe('order actions', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  it.each([
    // status, payment, Complete Payment, In transit, Fulfill Order, Cancel Order
    ['Pending', 'Pending', true, true, false, true],
    ['Processing', 'Paid', false, true, false, true],
    ['InTransit', 'Pending', true, false, false, false],
    ['InTransit', 'Paid', false, false, true, false],
    ['Delivered', 'Paid', false, false, true, false],
    ['Completed', 'Paid', false, false, false, false],
    ['Cancelled', 'Pending', false, false, false, false],
  ] as const)(
    'for a %s order with payment %s offers pay=%s, transit=%s, fulfil=%s, cancel=%s',
    async (status, payment, pay, transit, fulfil, cancel) => {
      await openMenu(status, payment);
      expect(enabled('Complete Payment')).toBe(pay);
      expect(enabled('In transit')).toBe(transit);
      expect(enabled('Fulfill Order')).toBe(fulfil);
      expect(enabled('Cancel Order')).toBe(cancel);
    },
  );

  it('gives the reason of a disabled action', async () => {
    await openMenu('InTransit', 'Pending');
    expect(screen.getByTestId('reason-fulfil')).toHaveAttribute(
      'aria-label',
      'Complete the payment before fulfilling this order',
    );
  });

  it('shows admins no menu at all', () => {
    renderWithProviders(<OrderActions order={createOrder()} role="admin" />);
    expect(screen.queryByRole('button', { name: /actions for order/i })).not.toBeInTheDocument();
  });

  it('asks to confirm moving in transit and shows the server refusal', async () => {
    const fetchMock = jest.spyOn(global, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({
          success: false,
          statusCode: 409,
          message: 'This order is already in transit',
        }),
        { status: 409, headers: { 'Content-Type': 'application/json' } },
      ),
    );
    await openMenu('Pending');
    fireEvent.click(screen.getByRole('menuitem', { name: 'In transit' }));
    expect(
      await screen.findByText(
        'are you sure you want to move to in transit this order (SPDBMUYD9PD)?',
      ),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'yes' }));
    expect(await screen.findByText('This order is already in transit')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(request.method).toBe('PATCH');
    expect(request.url).toMatch(/\/api\/orders\/inTransit\/6650f0c2a1b2c3d4e5f60001$/);
  });
});
