import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useCartStore } from '../../../stores/cart-store';
import { useSessionStore } from '../../../stores/session-store';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { CheckoutRoute } from './checkout';

// Its own file: the location list is a module of its own, loaded once per test file, and these
// tests see the checkout before it is in.

beforeEach(() => {
  mockFetch({});
  localStorage.clear();
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

describe('checkout location pickers', () => {
  it('shows the form at once, the pickers disabled until the county list is in, then a signed-in customer finds their county chosen', async () => {
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
    renderWithProviders(<CheckoutRoute />);
    expect(screen.getByRole('heading', { name: 'Checkout' })).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toHaveValue('Wanjiku Kamau');
    const pending = screen.getByLabelText('County');
    expect(pending).toBeDisabled();
    expect(pending).toHaveDisplayValue('Select county');
    expect(screen.getByLabelText('Sub-county')).toBeDisabled();
    expect(screen.getByLabelText('Ward')).toBeDisabled();

    await screen.findByRole('option', { name: 'Nairobi' });
    expect(screen.getByLabelText('County')).toBeEnabled();
    expect(screen.getByLabelText('County')).toHaveValue('Kiambu');
    await waitFor(() => expect(screen.getByLabelText('Sub-county')).toBeEnabled());
    fireEvent.change(screen.getByLabelText('Sub-county'), { target: { value: 'Ruiru' } });
    expect(screen.getByLabelText('Sub-county')).toHaveValue('Ruiru');
  });
});
