import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useSessionStore } from '../../../stores/session-store';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { RequireAuth } from '../../../app/guards';
import { YourData } from './your-data';

const user = {
  _id: 'u1',
  fullName: 'Wanjiku Kamau',
  email: 'w@example.co.ke',
  role: 'customer' as const,
};
const consent = (granted: boolean) => ({
  success: true,
  message: 'ok',
  marketingSms: { granted, at: null, source: null, history: [] },
});

describe('Your data (profile)', () => {
  beforeEach(() => {
    useSessionStore.getState().signIn({ accessToken: 'a.b.c', refreshToken: 'r', user });
  });

  it('shows offers by SMS off until turned on, and saves the choice', async () => {
    const { calls } = mockFetch({
      '/api/users/profile/consents': (req) =>
        req.method === 'PATCH' ? { body: consent(true) } : { body: consent(false) },
    });
    renderWithProviders(<YourData customer />);
    const offers = screen.getByRole('switch', { name: 'Offers and news by SMS' });
    await waitFor(() => expect(offers).toBeEnabled());
    expect(offers).not.toBeChecked();
    fireEvent.click(offers);
    await waitFor(() => expect(offers).toBeChecked());
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(await patch.json()).toEqual({ marketingSms: true });
  });

  it('deletes the account with the password, then signs out (nothing of the customer stays)', async () => {
    const { calls } = mockFetch({
      '/api/users/profile/consents': () => ({ body: consent(false) }),
      '/api/users/profile/delete': async (req) =>
        ((await req.json()) as { password: string }).password === 'Seedling#2026'
          ? { body: { success: true, message: 'Your account was deleted' } }
          : { status: 401, body: { success: false, message: 'The password is not correct' } },
    });
    renderWithProviders(
      <RequireAuth>
        <YourData customer />
      </RequireAuth>,
      { path: '/user/profile', route: '/user/profile' },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete my account' });
    fireEvent.change(screen.getByLabelText('Your password'), { target: { value: 'wrong' } });
    fireEvent.submit(dialog.querySelector('form')!);
    expect(await screen.findByText('The password is not correct')).toBeVisible();
    expect(useSessionStore.getState().user).not.toBeNull();

    fireEvent.change(screen.getByLabelText('Your password'), {
      target: { value: 'Seedling#2026' },
    });
    fireEvent.submit(dialog.querySelector('form')!);
    expect(await screen.findByText('elsewhere')).toBeVisible();
    expect(useSessionStore.getState().user).toBeNull();
    expect(calls.filter((c) => c.url.endsWith('/api/users/profile/delete'))).toHaveLength(2);
  });

  it('offers no deletion to staff (the admin closes their accounts)', () => {
    mockFetch({});
    renderWithProviders(<YourData customer={false} />);
    expect(screen.getByRole('button', { name: 'Download my data' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Delete my account' })).toBeNull();
  });
});
