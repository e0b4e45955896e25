import { act, screen } from '@testing-library/react';
import { external } from '../../../lib/external';
import { useSessionStore } from '../../../stores/session-store';
import { renderWithProviders } from '../../../testing/render';
import { NotFoundRoute } from './not-found';

const signInAs = (role: 'admin' | 'staff' | 'customer') =>
  act(() =>
    useSessionStore.getState().signIn({
      accessToken: 'a.b.c',
      refreshToken: 'r',
      user: { _id: 'u', fullName: 'A B', email: 'a@b.co', role },
    }),
  );

beforeEach(() => act(() => useSessionStore.getState().signOut()));

describe('404 page', () => {
  it('shows the spec text and a link home to a visitor', () => {
    renderWithProviders(<NotFoundRoute />, { route: '*', path: '/nowhere' });
    expect(
      screen.getByRole('heading', { name: '404, the page you are looking for cannot be found!' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'back home' })).toHaveAttribute('href', '/');
  });

  it('sends a signed-in customer to the profile', () => {
    signInAs('customer');
    renderWithProviders(<NotFoundRoute />, { route: '/nowhere', path: '/nowhere' });
    expect(screen.getByText('elsewhere')).toBeInTheDocument();
  });

  it('sends an admin to the back office dashboard', () => {
    const go = jest.spyOn(external, 'go').mockImplementation(() => undefined);
    signInAs('admin');
    renderWithProviders(<NotFoundRoute />, { route: '*', path: '/nowhere' });
    expect(go).toHaveBeenCalledWith('http://localhost:5174/admin/dashboard');
  });
});
