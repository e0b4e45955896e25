import { render, screen } from '@testing-library/react';
import { mockFetch } from '../testing/render';
import { App } from './app';
import { createQueryClient } from './provider';
import { preloadScreen } from './router';

// Its own file: a screen's code, once loaded, stays loaded for the rest of a file's tests.
it("shows the checkout's heading with the app's own script, and its form once the form's code is in", async () => {
  mockFetch({
    '/api/payments/options': () => ({
      body: { success: true, message: 'Payment options', mpesaExpress: false },
    }),
  });
  window.history.pushState({}, '', '/checkout');
  const client = createQueryClient();
  // The first render does not wait for the checkout's code (page.test.tsx: the shell shows meanwhile).
  expect(await preloadScreen(client, window.location)).toEqual([undefined, undefined]);
  render(<App client={client} />);
  expect(await screen.findByRole('form', { name: 'Delivery details' })).toBeInTheDocument();
  // The shell's heading gave way to the screen's own: one heading, one progress list.
  expect(screen.getAllByRole('heading', { level: 1, name: 'Checkout' })).toHaveLength(1);
  expect(screen.getAllByRole('list', { name: 'Progress' })).toHaveLength(1);
});
