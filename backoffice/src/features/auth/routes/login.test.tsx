import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { useSessionStore } from '../../../lib/session-store';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { CUSTOMER_REFUSED, destination, LoginRoute } from './login';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const session = (role: string) =>
  json(200, {
    success: true,
    message: 'Signed in',
    data: {
      accessToken: 'a',
      refreshToken: 'r',
      user: {
        _id: 'u1',
        fullName: 'Kamau Mwangi',
        email: 'k@spc.local',
        phoneNumber: '0711',
        role,
      },
    },
  });

function setup() {
  renderWithProviders(
    <Routes>
      <Route path="/authenticate/login" element={<LoginRoute />} />
      <Route path="/admin/dashboard" element={<p>admin dashboard</p>} />
      <Route path="/staff/orders" element={<p>staff orders</p>} />
    </Routes>,
    { route: '/authenticate/login' },
  );
  fireEvent.change(screen.getByLabelText('Email Address'), { target: { value: 'k@spc.local' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret@123' } });
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
}

describe('login page', () => {
  beforeEach(() => signInAs(null));
  afterEach(() => jest.restoreAllMocks());

  it('takes staff to their orders', async () => {
    jest.spyOn(global, 'fetch').mockResolvedValue(session('staff'));
    setup();
    expect(await screen.findByText('staff orders')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('a');
  });

  it('takes an admin to the dashboard', async () => {
    jest.spyOn(global, 'fetch').mockResolvedValue(session('admin'));
    setup();
    expect(await screen.findByText('admin dashboard')).toBeInTheDocument();
  });

  it('tells a customer the console is for staff and keeps them out', async () => {
    const fetchMock = jest
      .spyOn(global, 'fetch')
      .mockResolvedValueOnce(session('customer'))
      .mockResolvedValueOnce(json(200, { success: true, message: 'Signed out' }));
    setup();
    expect(await screen.findByText(CUSTOMER_REFUSED)).toBeInTheDocument();
    expect(useSessionStore.getState().user).toBeNull();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });

  it('shows the server message when the sign-in fails', async () => {
    jest
      .spyOn(global, 'fetch')
      .mockResolvedValue(
        json(401, { success: false, statusCode: 401, message: 'Invalid email or password' }),
      );
    setup();
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
  });
});

describe('return after sign-in', () => {
  it('goes back to the page the session ended on when the role may open it', () => {
    expect(destination('/manage/products?page=3', 'staff')).toBe('/manage/products?page=3');
    expect(destination('/admin/reports', 'admin')).toBe('/admin/reports');
  });

  it('goes to the role landing page otherwise', () => {
    expect(destination('/admin/reports', 'staff')).toBe('/staff/orders');
    expect(destination('/edit-staff/abc', 'staff')).toBe('/staff/orders');
    expect(destination('/staff/orders', 'admin')).toBe('/admin/dashboard');
    expect(destination(undefined, 'admin')).toBe('/admin/dashboard');
  });
});
