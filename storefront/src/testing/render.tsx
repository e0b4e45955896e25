import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { Toaster } from '../components/toast';

/**
 * Renders a screen with a fresh query client (no retries) and a router at `path`; answers the
 * render's result with that `client` (to wait for a query a screen asks in the background).
 */
export function renderWithProviders(
  ui: ReactElement,
  { path = '/', route = '/' }: { path?: string; route?: string } = {},
) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={ui} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, client };
}

/** A fetch stand-in answering JSON per path; unknown paths answer 404. */
export function mockFetch(
  routes: Record<
    string,
    (
      req: Request,
    ) =>
      | { status?: number; body: unknown }
      | Promise<{ status?: number; body: unknown }>
      | Promise<never>
  >,
) {
  const calls: Request[] = [];
  const fn = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    calls.push(req);
    const path = new URL(req.url).pathname;
    const handler = routes[path];
    if (!handler) return new Response(JSON.stringify({ message: 'Not found' }), { status: 404 });
    const { status = 200, body } = await handler(req);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  global.fetch = fn as unknown as typeof fetch;
  return { fn, calls };
}

/** A JWT whose `exp` is `secondsFromNow` away (signature not checked by the client). */
export function fakeJwt(secondsFromNow: number) {
  const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  const exp = Math.floor(Date.now() / 1000) + secondsFromNow;
  return `${b64({ alg: 'HS256' })}.${b64({ sub: 'u1', role: 'customer', exp })}.sig`;
}
