import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { theme } from '../app/theme';
import { createQueryClient } from '../lib/query-client';
import type { LoggedInUser } from '../lib/api-client';
import { useSessionStore } from '../lib/session-store';

/** Renders inside the app's providers, at a route when given. */
export function renderWithProviders(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  return render(
    <MantineProvider theme={theme} env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** A signed-in user of a role, built by a small factory. */
export function createUser(overrides: Partial<LoggedInUser> = {}): LoggedInUser {
  const role = overrides.role ?? 'staff';
  return {
    _id: '64b7f0c2a1b2c3d4e5f60718',
    fullName: 'Wanjiku Mary Kamau',
    email: `${role}@spc.local`,
    phoneNumber: '0711000111',
    role,
    isAdmin: role === 'admin',
    ...overrides,
  };
}

export function signInAs(role: LoggedInUser['role'] | null, overrides: Partial<LoggedInUser> = {}) {
  if (!role) {
    useSessionStore.setState({ token: null, refreshToken: null, user: null });
    return;
  }
  useSessionStore.setState({
    token: 'access-token',
    refreshToken: 'refresh-token',
    user: createUser({ role, ...overrides }),
  });
}

/** Runs a test body on a wide screen (the tests' screen is a phone: matchMedia matches nothing). */
export async function onWideScreen(body: () => Promise<void>) {
  const matchMedia = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    ...matchMedia(query),
    matches: true,
  })) as typeof window.matchMedia;
  try {
    await body();
  } finally {
    window.matchMedia = matchMedia;
  }
}
