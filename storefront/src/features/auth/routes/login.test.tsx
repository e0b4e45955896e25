import { PASSWORD_RULE_MESSAGE } from '@spc/shared-contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { LoginRoute } from './login';

beforeEach(() => localStorage.clear());

describe('login page', () => {
  it('shows the spec messages for an empty e-mail and a weak password', async () => {
    renderWithProviders(<LoginRoute />);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abcdef' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_RULE_MESSAGE)).toBeInTheDocument();
  });

  it('shows the server message when the credentials are refused', async () => {
    mockFetch({
      '/api/auth/login': () => ({
        status: 401,
        body: { success: false, message: 'Invalid email or password', statusCode: 401 },
      }),
    });
    renderWithProviders(<LoginRoute />);
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'a@b.co' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret@1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('stores the session on success', async () => {
    mockFetch({
      '/api/auth/login': () => ({
        body: {
          success: true,
          message: 'Login successful',
          data: {
            accessToken: 'a.b.c',
            refreshToken: 'r',
            user: { _id: 'u1', fullName: 'Wanjiku Kamau', email: 'a@b.co', role: 'customer' },
          },
        },
      }),
    });
    renderWithProviders(<LoginRoute />);
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'a@b.co' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret@1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Login successful')).toBeInTheDocument();
    await waitFor(() => expect(localStorage.getItem('token')).toBe('a.b.c'));
  });
});
