import { act, fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { useCartStore } from '../../stores/cart-store';
import { useSessionStore } from '../../stores/session-store';
import { useUiStore } from '../../stores/ui-store';
import { renderWithProviders } from '../../testing/render';
import { SearchOverlay } from './search-overlay';
import { TopBar } from './top-bar';

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function Shell() {
  return (
    <>
      <TopBar />
      <SearchOverlay />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </>
  );
}

beforeEach(() =>
  act(() => {
    localStorage.clear();
    useSessionStore.getState().signOut();
    useCartStore.setState({ userId: '', cartItems: [], totalAmount: 0 });
    useUiStore.setState({ searchOpen: false, sidebarOpen: false, dropdownOpen: false });
  }),
);

describe('top bar', () => {
  it('shows the cart badge with the total quantity only above 0', () => {
    renderWithProviders(<Shell />, { route: '*' });
    expect(screen.queryByTestId('cart-badge')).not.toBeInTheDocument();
    act(() => {
      const item = {
        _id: 'a',
        userId: '',
        productName: 'A',
        productDescription: '',
        productImage: '',
        price: 1,
      };
      useCartStore.getState().addToCart(item);
      useCartStore.getState().addToCart(item);
    });
    expect(screen.getByTestId('cart-badge')).toHaveTextContent('2');
  });

  it('searches with the trimmed, encoded text and ignores blank text', () => {
    renderWithProviders(<Shell />, { route: '*' });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const box = screen.getByLabelText('Search seedlings');
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.submit(box);
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
    fireEvent.change(box, { target: { value: '  sweet & sour ' } });
    fireEvent.submit(box);
    expect(screen.getByTestId('where')).toHaveTextContent(
      '/shop/products?search=sweet%20%26%20sour',
    );
  });

  it('shows initials and hides cart, tracking and profile for an admin', () => {
    act(() =>
      useSessionStore.getState().signIn({
        accessToken: 'a.b.c',
        refreshToken: 'r',
        user: { _id: 'x', fullName: 'Achieng Otieno', email: 'a@o.co', role: 'admin' },
      }),
    );
    renderWithProviders(<Shell />, { route: '*' });
    expect(screen.queryByRole('button', { name: /^Cart/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Track Orders' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Account menu/ }));
    expect(screen.getByRole('button', { name: /Account menu/ })).toHaveTextContent('AO');
    expect(screen.queryByRole('menuitem', { name: 'Profile' })).not.toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Change password' })).toBeInTheDocument();
  });

  it('closes the dropdown when the sidebar opens and the reverse', () => {
    act(() =>
      useSessionStore.getState().signIn({
        accessToken: 'a.b.c',
        refreshToken: 'r',
        user: { _id: 'x', fullName: 'Wanjiku Kamau', email: 'w@k.co', role: 'customer' },
      }),
    );
    renderWithProviders(<Shell />, { route: '*' });
    fireEvent.click(screen.getByRole('button', { name: /Account menu/ }));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Account menu/ }));
    expect(useUiStore.getState().sidebarOpen).toBe(false);
  });

  it('logout clears the session and the cart and goes home', () => {
    act(() => {
      useSessionStore.getState().signIn({
        accessToken: 'a.b.c',
        refreshToken: 'r',
        user: { _id: 'x', fullName: 'Wanjiku Kamau', email: 'w@k.co', role: 'customer' },
      });
      useCartStore.getState().addToCart({
        _id: 'a',
        userId: 'x',
        productName: 'A',
        productDescription: '',
        productImage: '',
        price: 1,
      });
    });
    global.fetch = jest.fn(async () => new Response('{}')) as unknown as typeof fetch;
    renderWithProviders(<Shell />, { route: '*', path: '/shop/products' });
    fireEvent.click(screen.getByRole('button', { name: /Account menu/ }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Logout' }));
    expect(localStorage.getItem('token')).toBeNull();
    expect(useCartStore.getState().cartItems).toHaveLength(0);
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
  });
});
