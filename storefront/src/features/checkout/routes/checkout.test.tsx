import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { KRA_PIN_MESSAGE, MPESA_MESSAGES } from '@spc/shared-contracts';
import { useCartStore } from '../../../stores/cart-store';
import { useSessionStore } from '../../../stores/session-store';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { CheckoutRoute } from './checkout';

/** The API's delivery choices for Kiambu: a zone fee and free collection. */
const DELIVERY_OPTIONS = {
  '/api/delivery/options': () => ({
    body: {
      success: true,
      message: 'Delivery options retrieved',
      options: [
        {
          method: 'delivery',
          zoneName: 'Kiambu',
          fee: 200,
          days: 2,
          estimatedDeliveryDate: '2026-11-25T09:00:00.000Z',
        },
        {
          method: 'collection',
          zoneName: 'Collect at the nursery',
          fee: 0,
          days: 1,
          estimatedDeliveryDate: '2026-11-24T09:00:00.000Z',
          address: 'Seedling Propagation Centre, Kiambu, Kenya',
          openingHours: 'Monday to Saturday, 8:00 am to 5:00 pm',
        },
      ],
    },
  }),
};

function fillForm() {
  fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Wanjiku Kamau' } });
  fireEvent.change(screen.getByLabelText('Phone number (area code and number)'), {
    target: { value: '0712345678' },
  });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'w@example.co.ke' } });
  fireEvent.change(screen.getByLabelText('County'), { target: { value: 'Kiambu' } });
  fireEvent.change(screen.getByLabelText('Street address (nearest town, include sub-county)'), {
    target: { value: 'Ruiru, near the stage' },
  });
}

beforeEach(() => {
  mockFetch(DELIVERY_OPTIONS);
  localStorage.clear();
  window.open = jest.fn();
  act(() => {
    useCartStore.setState({ userId: '', cartItems: [], totalAmount: 0 });
    useCartStore.getState().addToCart({
      _id: '665f1c2b9d3e4a0012345679',
      userId: '',
      productName: 'Hass Avocado',
      productDescription: 'Grafted',
      productImage: '',
      price: 350,
    });
  });
});

describe('checkout', () => {
  it('shows the spec messages while typing and keeps PLACE ORDER disabled until valid', async () => {
    renderWithProviders(<CheckoutRoute />);
    const button = screen.getByRole('button', { name: 'PLACE ORDER' });
    expect(button).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'x' } });
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: '' } });
    expect(await screen.findByText('Full Name is required')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Phone number (area code and number)'), {
      target: { value: '+2547123456789' },
    });
    expect(await screen.findByText('Invalid phone number format')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nope' } });
    expect(await screen.findByText('Invalid email format')).toBeInTheDocument();
    fillForm();
    await waitFor(() => expect(button).toBeEnabled());
  });

  it('lists sub-counties of the chosen county', async () => {
    renderWithProviders(<CheckoutRoute />);
    expect(screen.getByLabelText('Sub-county')).toBeDisabled();
    fireEvent.change(screen.getByLabelText('County'), { target: { value: 'Kiambu' } });
    await waitFor(() => expect(screen.getByLabelText('Sub-county')).toBeEnabled());
    expect(screen.getByRole('option', { name: 'Ruiru' })).toBeInTheDocument();
  });

  it("chooses a signed-in customer's county at once and offers its sub-counties", async () => {
    act(() =>
      useSessionStore.getState().signIn({
        accessToken: 'a.b.c',
        refreshToken: 'r',
        user: {
          _id: 'u1',
          fullName: 'Wanjiku Kamau',
          email: 'w@example.co.ke',
          role: 'customer',
          county: 'Kiambu',
        },
      }),
    );
    try {
      renderWithProviders(<CheckoutRoute />);
      expect(screen.getByLabelText('County')).toHaveValue('Kiambu');
      // The 47 counties and "Select county", before the sub-counties are in.
      expect(within(screen.getByLabelText('County')).getAllByRole('option')).toHaveLength(48);
      expect(screen.getByLabelText('Sub-county')).toBeDisabled();
      await waitFor(() => expect(screen.getByLabelText('Sub-county')).toBeEnabled());
      fireEvent.change(screen.getByLabelText('Sub-county'), { target: { value: 'Ruiru' } });
      expect(screen.getByLabelText('Sub-county')).toHaveValue('Ruiru');
    } finally {
      act(() => useSessionStore.getState().signOut());
    }
  });

  it('shows the My Order summary with subtotal, shipping and total', async () => {
    renderWithProviders(<CheckoutRoute />);
    expect(screen.getByRole('heading', { name: 'My Order' })).toBeInTheDocument();
    expect(screen.getByText('Cart Subtotal').nextElementSibling).toHaveTextContent('KES 350');
    expect(screen.getByTestId('shipping-fee')).toHaveTextContent('Choose your county');
    expect(screen.getByTestId('delivery-options-empty')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('County'), { target: { value: 'Kiambu' } });
    await waitFor(() => expect(screen.getByTestId('shipping-fee')).toHaveTextContent('KES 200'));
    expect(screen.getByTestId('order-total')).toHaveTextContent('KES 550');
  });

  it('shows delivery with its fee and date and free collection; collection is sent and costs nothing', async () => {
    const { calls } = mockFetch({
      ...DELIVERY_OPTIONS,
      '/api/orders': () => ({
        status: 201,
        body: {
          success: true,
          message: 'Order placed',
          order: { purchaseNumber: 'SPD7K3MX9QB', whatsappUrl: 'https://wa.me/2547?text=x' },
        },
      }),
    });
    renderWithProviders(<CheckoutRoute />);
    fillForm();
    const delivery = await screen.findByRole('radio', { name: /Delivery to Kiambu/ });
    expect(delivery).toBeChecked();
    expect(screen.getByTestId('delivery-fee-delivery')).toHaveTextContent('KES 200');
    expect(screen.getByTestId('delivery-date-delivery')).toHaveTextContent(
      'Expected by 25/11/2026',
    );
    expect(screen.getByText(/Monday to Saturday/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: /Collect at the nursery/ }));
    expect(screen.getByTestId('shipping-fee')).toHaveTextContent('KES 0');
    expect(screen.getByTestId('order-total')).toHaveTextContent('KES 350');
    const button = screen.getByRole('button', { name: 'PLACE ORDER' });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    await screen.findByTestId('purchase-number');
    const order = calls.find((c) => c.url.endsWith('/api/orders'))!;
    expect((await order.clone().json()).deliveryMethod).toBe('collection');
  });

  it('keeps PLACE ORDER disabled and offers a retry when the delivery options fail', async () => {
    mockFetch({
      '/api/delivery/options': () => ({
        status: 500,
        body: { success: false, statusCode: 500, message: 'Something went wrong' },
      }),
    });
    renderWithProviders(<CheckoutRoute />);
    fillForm();
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'PLACE ORDER' })).toBeDisabled();
  });

  it('keeps the cart and shows the server message on a 409', async () => {
    mockFetch({
      ...DELIVERY_OPTIONS,
      '/api/orders': () => ({
        status: 409,
        body: { success: false, statusCode: 409, message: 'Only 2 left of Hass Avocado' },
      }),
    });
    renderWithProviders(<CheckoutRoute />);
    fillForm();
    const button = screen.getByRole('button', { name: 'PLACE ORDER' });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    expect(await screen.findByText('Only 2 left of Hass Avocado')).toBeInTheDocument();
    expect(useCartStore.getState().cartItems).toHaveLength(1);
    expect(window.open).not.toHaveBeenCalled();
  });

  it('places the order once with an Idempotency-Key, clears the cart and shows the number', async () => {
    const { calls } = mockFetch({
      ...DELIVERY_OPTIONS,
      '/api/orders': () => ({
        status: 201,
        body: {
          success: true,
          message: 'Order placed',
          order: {
            purchaseNumber: 'SPD7K3MX9QA',
            whatsappUrl: 'https://wa.me/254700000000?text=x',
          },
        },
      }),
    });
    renderWithProviders(<CheckoutRoute />);
    fillForm();
    const button = screen.getByRole('button', { name: 'PLACE ORDER' });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    fireEvent.click(button);
    expect(await screen.findByTestId('purchase-number')).toHaveTextContent('SPD7K3MX9QA');
    const orders = calls.filter((c) => c.url.endsWith('/api/orders'));
    expect(orders).toHaveLength(1);
    expect(orders[0]!.headers.get('Idempotency-Key')).toMatch(/.{8,}/);
    const body = await orders[0]!.clone().json();
    expect(body.products).toEqual([{ _id: '665f1c2b9d3e4a0012345679', quantity: 1 }]);
    expect(body.guestInfo).toMatchObject({ county: 'Kiambu', fullName: 'Wanjiku Kamau' });
    // No KRA PIN typed: none sent.
    expect(body).not.toHaveProperty('kraPin');
    expect(body.guestInfo).not.toHaveProperty('kraPin');
    expect(useCartStore.getState().cartItems).toHaveLength(0);
    expect(window.open).toHaveBeenCalledWith(
      'https://wa.me/254700000000?text=x',
      '_blank',
      'noopener,noreferrer',
    );
  });

  it('offers M-Pesa Express when the API has it, places the order, then pays it by prompt', async () => {
    const { calls } = mockFetch({
      ...DELIVERY_OPTIONS,
      '/api/payments/options': () => ({
        body: { success: true, message: 'Payment options', mpesaExpress: true },
      }),
      '/api/orders': () => ({
        status: 201,
        body: {
          success: true,
          message: 'Order placed',
          order: {
            purchaseNumber: 'SPD7K3MX9QA',
            totalAmount: 350,
            whatsappUrl: 'https://wa.me/254700000000?text=x',
          },
        },
      }),
      '/api/payments/mpesa/stk-push': () => ({
        body: { success: true, message: MPESA_MESSAGES.promptSent, checkoutRequestId: 'ws_CO_9' },
      }),
      '/api/payments/mpesa/status/ws_CO_9': () => ({
        body: { success: true, status: 'paid', message: MPESA_MESSAGES.paid },
      }),
    });
    renderWithProviders(<CheckoutRoute />);
    fireEvent.click(await screen.findByLabelText('Pay with M-Pesa'));
    expect(screen.getByLabelText('Pay on delivery')).toBeInTheDocument();
    fillForm();
    const button = screen.getByRole('button', { name: 'PLACE ORDER' });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    expect(await screen.findByRole('heading', { name: 'Pay with M-Pesa' })).toBeInTheDocument();
    expect(screen.getByText('KES 350')).toBeInTheDocument();
    expect(screen.getByLabelText('M-Pesa phone number')).toHaveValue('0712345678');
    expect(window.open).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Send prompt' }));
    expect(await screen.findByTestId('payment-status')).toHaveTextContent(MPESA_MESSAGES.paid);
    expect(screen.getByRole('heading', { name: 'Thank you for your order' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue shopping' })).toBeInTheDocument();
    expect(screen.getByTestId('purchase-number')).toHaveTextContent('SPD7K3MX9QA');
    const push = calls.find((c) => c.url.endsWith('/api/payments/mpesa/stk-push'))!;
    expect(await push.clone().json()).toEqual({
      purchaseNumber: 'SPD7K3MX9QA',
      phoneNumber: '0712345678',
    });
  });

  describe('the KRA PIN for a tax invoice', () => {
    const PIN_LABEL = 'KRA PIN (for a tax invoice in your name)';
    const placed = () =>
      mockFetch({
        ...DELIVERY_OPTIONS,
        '/api/orders': () => ({
          status: 201,
          body: {
            success: true,
            message: 'Order placed',
            order: { purchaseNumber: 'SPD7K3MX9QD', whatsappUrl: 'https://wa.me/2547?text=x' },
          },
        }),
      });

    it('refuses a PIN of the wrong form with its message, then sends a good one upper-cased beside the delivery details', async () => {
      const { calls } = placed();
      renderWithProviders(<CheckoutRoute />);
      fillForm();
      const button = screen.getByRole('button', { name: 'PLACE ORDER' });
      await waitFor(() => expect(button).toBeEnabled());
      const pin = screen.getByLabelText(PIN_LABEL);
      fireEvent.change(pin, { target: { value: 'P05123456X' } });
      expect(await screen.findByText(KRA_PIN_MESSAGE)).toBeInTheDocument();
      expect(pin).toHaveAttribute('aria-invalid', 'true');
      await waitFor(() => expect(button).toBeDisabled());
      fireEvent.change(pin, { target: { value: ' p051234567x ' } });
      await waitFor(() => expect(screen.queryByText(KRA_PIN_MESSAGE)).toBeNull());
      // Kept in the form as typed.
      expect(pin).toHaveValue(' p051234567x ');
      await waitFor(() => expect(button).toBeEnabled());
      fireEvent.click(button);
      await screen.findByTestId('purchase-number');
      const body = await calls
        .find((c) => c.url.endsWith('/api/orders'))!
        .clone()
        .json();
      expect(body.kraPin).toBe('P051234567X');
      expect(body.guestInfo).not.toHaveProperty('kraPin');
    });

    it("offers a signed-in customer their profile's PIN; taken off, the order has none", async () => {
      const { calls } = placed();
      act(() =>
        useSessionStore.getState().signIn({
          accessToken: 'a.b.c',
          refreshToken: 'r',
          user: {
            _id: 'u1',
            fullName: 'Wanjiku Kamau',
            email: 'w@example.co.ke',
            role: 'customer',
            kraPin: 'A012345678Z',
          },
        }),
      );
      try {
        renderWithProviders(<CheckoutRoute />);
        const pin = screen.getByLabelText(PIN_LABEL);
        expect(pin).toHaveValue('A012345678Z');
        fillForm();
        fireEvent.change(pin, { target: { value: '' } });
        const button = screen.getByRole('button', { name: 'PLACE ORDER' });
        await waitFor(() => expect(button).toBeEnabled());
        fireEvent.click(button);
        await screen.findByTestId('purchase-number');
        const body = await calls
          .find((c) => c.url.endsWith('/api/orders'))!
          .clone()
          .json();
        expect(body.kraPin).toBe('');
      } finally {
        act(() => useSessionStore.getState().signOut());
      }
    });
  });

  it('offers only pay on delivery and the paybill when M-Pesa Express is off', async () => {
    mockFetch({
      '/api/payments/options': () => ({
        body: { success: true, message: 'Payment options', mpesaExpress: false },
      }),
    });
    renderWithProviders(<CheckoutRoute />);
    expect(await screen.findByLabelText('M-Pesa paybill')).toBeInTheDocument();
    expect(screen.getByLabelText('Pay on delivery')).toBeChecked();
    await waitFor(() => expect(screen.queryByLabelText('Pay with M-Pesa')).toBeNull());
  });

  describe('a booking', () => {
    const booked = () =>
      act(() => {
        useCartStore.getState().addToCart(
          {
            _id: '665f1c2b9d3e4a0012345680',
            userId: '',
            productName: 'Cabbage Gloria F1',
            productDescription: 'By the tray',
            productImage: '',
            price: 1000,
            booking: { batchId: 'b1', readyOn: '2027-03-12' },
          },
          2,
        );
      });

    it('is checked out alone: its deposit and balance, no pay on delivery, the prompt for the deposit', async () => {
      booked();
      const { calls } = mockFetch({
        ...DELIVERY_OPTIONS,
        '/api/bookings/settings': () => ({
          body: { success: true, message: 'ok', depositPercent: 30, balanceDays: 7, seasons: [] },
        }),
        '/api/payments/options': () => ({
          body: { success: true, message: 'Payment options', mpesaExpress: true },
        }),
        '/api/orders': () => ({
          status: 201,
          body: {
            success: true,
            message: 'Order placed',
            order: {
              purchaseNumber: 'SPD7K3MX9QC',
              totalAmount: 2200,
              whatsappUrl: 'https://wa.me/254700000000?text=x',
              booking: { deposit: 660, balance: 1540, readyOn: '2027-03-12', state: 'Deposit due' },
            },
          },
        }),
        '/api/payments/mpesa/stk-push': () => ({
          body: { success: true, message: MPESA_MESSAGES.promptSent, checkoutRequestId: 'ws_CO_7' },
        }),
        '/api/payments/mpesa/status/ws_CO_7': () => ({
          body: { success: true, status: 'paid', message: MPESA_MESSAGES.paid },
        }),
      });
      renderWithProviders(<CheckoutRoute />, { path: '/checkout?batch=b1', route: '/checkout' });
      expect(screen.getByRole('heading', { name: 'My Booking' })).toBeInTheDocument();
      expect(screen.getByText(/This order is the booking below alone/)).toBeInTheDocument();
      // Only the booking's line is in this order.
      expect(screen.getByText('Cart Subtotal').nextElementSibling).toHaveTextContent('KES 2,000');
      expect(await screen.findByLabelText('Pay with M-Pesa')).toBeChecked();
      expect(screen.queryByLabelText('Pay on delivery')).toBeNull();
      fillForm();
      await waitFor(() => expect(screen.getByTestId('order-total')).toHaveTextContent('KES 2,200'));
      expect(screen.getByText('Deposit now:').parentElement).toHaveTextContent(
        'Deposit now: KES 660 (30 %)',
      );
      expect(screen.getByText('Balance when ready (12 March):').parentElement).toHaveTextContent(
        'Balance when ready (12 March): KES 1,540',
      );
      const button = screen.getByRole('button', { name: 'PLACE ORDER' });
      await waitFor(() => expect(button).toBeEnabled());
      fireEvent.click(button);
      expect(await screen.findByTestId('deposit-due')).toHaveTextContent('KES 660');
      expect(screen.getByRole('button', { name: 'Pay the deposit later' })).toBeInTheDocument();
      const order = calls.find((c) => c.url.endsWith('/api/orders'))!;
      expect((await order.clone().json()).products).toEqual([
        { _id: '665f1c2b9d3e4a0012345680', quantity: 2, batchId: 'b1' },
      ]);
      // The ready-now line stays in the cart for its own checkout.
      expect(useCartStore.getState().cartItems.map((i) => i.productName)).toEqual(['Hass Avocado']);
      fireEvent.click(screen.getByRole('button', { name: 'Send prompt' }));
      expect(await screen.findByTestId('payment-status')).toHaveTextContent(MPESA_MESSAGES.paid);
      expect(screen.getByTestId('booking-summary')).toHaveTextContent(
        'Deposit paid: KES 660. Balance when ready (12 March): KES 1,540.',
      );
    });

    it('leaves the bookings for later when the ready-now lines are checked out', async () => {
      booked();
      renderWithProviders(<CheckoutRoute />, { path: '/checkout', route: '/checkout' });
      expect(screen.getByRole('heading', { name: 'My Order' })).toBeInTheDocument();
      expect(screen.getByText(/the bookings in your cart stay/)).toBeInTheDocument();
      expect(screen.getByText('Cart Subtotal').nextElementSibling).toHaveTextContent('KES 350');
      expect(screen.queryByText('Deposit now:')).toBeNull();
    });

    it('without M-Pesa Express, a booking is paid by the paybill: never on delivery', async () => {
      booked();
      mockFetch({
        '/api/payments/options': () => ({
          body: { success: true, message: 'Payment options', mpesaExpress: false },
        }),
      });
      renderWithProviders(<CheckoutRoute />, { path: '/checkout?batch=b1', route: '/checkout' });
      expect(await screen.findByLabelText('M-Pesa paybill')).toBeChecked();
      expect(screen.queryByLabelText('Pay on delivery')).toBeNull();
      expect(screen.getByText(/pay the deposit through M-Pesa paybill/)).toBeInTheDocument();
      // The booking settings did not answer: the amounts come with the placed booking.
      await waitFor(
        () => expect(screen.getByTestId('deposit-now')).toHaveTextContent('shown once placed'),
        { timeout: 5000 },
      );
    });
  });
});
