import { act, fireEvent, screen, within } from '@testing-library/react';
import { useCartStore } from '../../../stores/cart-store';
import { useUiStore } from '../../../stores/ui-store';
import { renderWithProviders } from '../../../testing/render';
import { CartDrawer } from './cart-drawer';

const add = (id: string, price: number) =>
  useCartStore.getState().addToCart({
    _id: id,
    userId: '',
    productName: `Seedling ${id}`,
    productDescription: 'desc',
    productImage: '',
    price,
  });

beforeEach(() =>
  act(() => {
    localStorage.clear();
    useCartStore.setState({ userId: '', cartItems: [], totalAmount: 0 });
    useUiStore.setState({ cartOpen: true });
  }),
);

describe('cart drawer', () => {
  it("says 'Your cart is empty.' when empty", () => {
    renderWithProviders(<CartDrawer />);
    expect(screen.getByRole('dialog', { name: 'Shopping Cart' })).toHaveTextContent(
      'Your cart is empty.',
    );
  });

  it('changes quantities with plus, minus and the box, and updates the subtotal', () => {
    act(() => add('a', 100));
    renderWithProviders(<CartDrawer />);
    const minus = screen.getByRole('button', { name: 'Decrease quantity of Seedling a' });
    expect(minus).toHaveClass('dim');
    fireEvent.click(screen.getByRole('button', { name: 'Increase quantity of Seedling a' }));
    expect(screen.getByText('Subtotal').nextElementSibling).toHaveTextContent('KES 200');
    const box = screen.getByLabelText('Quantity of Seedling a');
    fireEvent.change(box, { target: { value: '0' } });
    expect(box).toHaveValue('2');
    fireEvent.change(box, { target: { value: '' } });
    expect(box).toHaveValue('');
    fireEvent.change(box, { target: { value: '5' } });
    fireEvent.blur(box);
    expect(screen.getByText('Subtotal').nextElementSibling).toHaveTextContent('KES 500');
  });

  it('asks before removing an item; No keeps it, Yes removes it', () => {
    act(() => {
      add('a', 100);
      add('b', 50);
    });
    renderWithProviders(<CartDrawer />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Seedling a' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove item' });
    expect(confirm).toHaveTextContent('Are you sure removing this item from your shopping cart?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'No' }));
    expect(useCartStore.getState().cartItems).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Seedling a' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Remove item' })).getByRole('button', {
        name: 'Yes',
      }),
    );
    expect(useCartStore.getState().cartItems.map((i) => i._id)).toEqual(['b']);
  });
});
