import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useCartStore } from '../../../stores/cart-store';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { CheckoutRoute } from './checkout';

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

  it('shows the My Order summary with subtotal, shipping and total', () => {
    renderWithProviders(<CheckoutRoute />);
    expect(screen.getByRole('heading', { name: 'My Order' })).toBeInTheDocument();
    expect(screen.getByText('Cart Subtotal').nextElementSibling).toHaveTextContent('KES 350');
    expect(screen.getByText('Shipping').nextElementSibling).toHaveTextContent('KES 0');
    expect(screen.getByText('Total').nextElementSibling).toHaveTextContent('KES 350');
  });

  it('keeps the cart and shows the server message on a 409', async () => {
    mockFetch({
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
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.get('Idempotency-Key')).toMatch(/.{8,}/);
    const body = await calls[0]!.clone().json();
    expect(body.products).toEqual([{ _id: '665f1c2b9d3e4a0012345679', quantity: 1 }]);
    expect(body.guestInfo).toMatchObject({ county: 'Kiambu', fullName: 'Wanjiku Kamau' });
    expect(useCartStore.getState().cartItems).toHaveLength(0);
    expect(window.open).toHaveBeenCalledWith(
      'https://wa.me/254700000000?text=x',
      '_blank',
      'noopener,noreferrer',
    );
  });
});
