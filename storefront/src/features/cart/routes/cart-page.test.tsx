import { act, screen, within } from '@testing-library/react';
import { useCartStore } from '../../../stores/cart-store';
import { renderWithProviders } from '../../../testing/render';
import { CartPageRoute } from './cart-page';

const add = (id: string, booking?: { batchId: string; readyOn: string }) =>
  useCartStore.getState().addToCart({
    _id: id,
    userId: '',
    productName: `Seedling ${id}`,
    productDescription: 'desc',
    productImage: '',
    price: 100,
    ...(booking ? { booking } : {}),
  });

beforeEach(() =>
  act(() => {
    localStorage.clear();
    useCartStore.setState({ userId: '', cartItems: [], totalAmount: 0 });
  }),
);

describe('cart page with bookings', () => {
  it('keeps a booking apart from ready-now seedlings, each with its own checkout', () => {
    act(() => {
      add('a');
      add('b', { batchId: 'b1', readyOn: '2027-03-12' });
    });
    renderWithProviders(<CartPageRoute />);
    expect(screen.getByRole('note')).toHaveTextContent(
      'ready-now seedlings and each booking are checked out separately',
    );
    const ready = screen.getByRole('region', { name: 'Ready now' });
    expect(within(ready).getByText('Seedling a')).toBeInTheDocument();
    expect(
      within(ready).getByRole('link', { name: 'Check out ready-now seedlings' }),
    ).toHaveAttribute('href', '/checkout');
    const booking = screen.getByRole('region', { name: 'Booking: ready from 12 March' });
    expect(within(booking).getByText('Seedling b')).toBeInTheDocument();
    expect(
      within(booking).getByRole('link', { name: 'Check out the booking for 12 March' }),
    ).toHaveAttribute('href', '/checkout?batch=b1');
    expect(screen.queryByRole('link', { name: 'Checkout' })).toBeNull();
  });

  it('a cart of one booking has its title and one Checkout to that booking', () => {
    act(() => add('b', { batchId: 'b1', readyOn: '2027-03-12' }));
    renderWithProviders(<CartPageRoute />);
    expect(
      screen.getByRole('heading', { name: 'Booking: ready from 12 March' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByRole('link', { name: 'Checkout' })).toHaveAttribute(
      'href',
      '/checkout?batch=b1',
    );
  });

  it('a cart of ready-now seedlings looks as before: no titles, one Checkout', () => {
    act(() => add('a'));
    renderWithProviders(<CartPageRoute />);
    expect(screen.queryByRole('heading', { name: 'Ready now' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Checkout' })).toHaveAttribute('href', '/checkout');
  });
});
