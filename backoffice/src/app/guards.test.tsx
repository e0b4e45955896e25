import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { useSessionStore } from '../lib/session-store';
import { signInAs, renderWithProviders } from '../testing/render';
import { AdminOnly, AdminOrStaff, HomeRedirect, RequireAuth, StaffOnly } from './guards';
import { NotFoundRoute } from './routes/not-found';

function Where() {
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return (
    <p>
      at {location.pathname}
      {from ? ` from ${from}` : ''}
    </p>
  );
}

/** A small copy of the app's tree: the guards as the router nests them, pages that say where they are. */
function Tree() {
  return (
    <Routes>
      <Route path="/" element={<HomeRedirect />} />
      <Route path="/authenticate/login" element={<Where />} />
      <Route element={<RequireAuth />}>
        <Route element={<AdminOnly />}>
          <Route path="/admin/dashboard" element={<Where />} />
          <Route path="/admin/reports" element={<Where />} />
        </Route>
        <Route element={<AdminOrStaff />}>
          <Route path="/manage/products" element={<Where />} />
        </Route>
        <Route element={<StaffOnly />}>
          <Route path="/staff/orders" element={<Where />} />
        </Route>
        <Route path="/staff" element={<Where />} />
        <Route path="/user/profile" element={<Where />} />
      </Route>
      <Route path="*" element={<NotFoundRoute />} />
    </Routes>
  );
}

describe('route guards', () => {
  it('sends a visitor without a session to the login page, remembering the page', () => {
    signInAs(null);
    renderWithProviders(<Tree />, { route: '/admin/reports?x=1' });
    expect(screen.getByText('at /authenticate/login from /admin/reports?x=1')).toBeInTheDocument();
  });

  it('lets a user with only a refresh token through (the access token is refreshed later)', () => {
    signInAs('admin');
    useSessionStore.setState({ token: null });
    renderWithProviders(<Tree />, { route: '/admin/reports' });
    expect(screen.getByText('at /admin/reports')).toBeInTheDocument();
  });

  it('lets an admin into admin pages and the product pages', () => {
    signInAs('admin');
    renderWithProviders(<Tree />, { route: '/admin/dashboard' });
    expect(screen.getByText('at /admin/dashboard')).toBeInTheDocument();
  });

  it('sends staff away from an admin page to / and on to their orders', () => {
    signInAs('staff');
    renderWithProviders(<Tree />, { route: '/admin/reports' });
    expect(screen.getByText('at /staff/orders')).toBeInTheDocument();
  });

  it('sends an admin away from a staff-only page to /staff', () => {
    signInAs('admin');
    renderWithProviders(<Tree />, { route: '/staff/orders' });
    expect(screen.getByText('at /staff')).toBeInTheDocument();
  });

  it('lets staff manage products but keeps a customer out of them', () => {
    signInAs('staff');
    const staff = renderWithProviders(<Tree />, { route: '/manage/products' });
    expect(screen.getByText('at /manage/products')).toBeInTheDocument();
    staff.unmount();
    signInAs('customer');
    renderWithProviders(<Tree />, { route: '/manage/products' });
    expect(screen.getByText('at /user/profile')).toBeInTheDocument();
  });

  it.each([
    ['admin', '/admin/dashboard'],
    ['staff', '/staff/orders'],
    ['customer', '/user/profile'],
  ] as const)('redirects a signed-in %s from an unknown page to %s', (role, target) => {
    signInAs(role);
    renderWithProviders(<Tree />, { route: '/no/such/page' });
    expect(screen.getByText(`at ${target}`)).toBeInTheDocument();
  });

  it('shows the 404 text and a back home link to a visitor', () => {
    signInAs(null);
    renderWithProviders(<Tree />, { route: '/no/such/page' });
    expect(
      screen.getByText('404, the page you are looking for cannot be found!'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'back home' })).toHaveAttribute('href', '/');
  });
});
