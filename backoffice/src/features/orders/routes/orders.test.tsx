import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createOrder } from '../../../testing/factories';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { AdminOrdersRoute } from './orders';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

/** The orders API: a search whose count stopped at 1,000 until page 101, where the rest are counted. */
function ordersApi() {
  return jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    if (url.pathname === '/api/orders/queue')
      return json({
        success: true,
        message: '',
        counts: { toConfirmPayment: 1, toDispatch: 2, inTransit: 3, toComplete: 4, all: 4000 },
      });
    if (url.pathname === '/api/tranches/queue')
      return json({
        success: true,
        message: '',
        counts: { toDispatch: 0, upcoming: 0, awaitingSignature: 0 },
      });
    if (url.pathname === '/api/tranches')
      return json({ success: true, message: '', tranches: [], total: 0, page: 1, totalPages: 0 });
    const page = Number(url.searchParams.get('page'));
    const counted = page > 100;
    return json({
      success: true,
      message: '',
      orders: [createOrder({ _id: `order-${page}`, purchaseNumber: `SPDPAGE${page}` })],
      totalOrders: counted ? 1004 : 1000,
      totalIsLowerBound: !counted,
      totalPages: counted ? 101 : 100,
      page,
    });
  });
}

const pageAsked = (fetchMock: jest.SpyInstance) =>
  fetchMock.mock.calls
    .map(([r]) => new URL((r as Request).url))
    .filter((u) => u.pathname === '/api/orders')
    .map((u) => Number(u.searchParams.get('page')));

const LONG = { timeout: 10_000 };

describe('the orders list on many orders', () => {
  beforeEach(() => signInAs('admin'));
  afterEach(() => jest.restoreAllMocks());

  it("shows a search's bounded total as 1,000+ and pages on past it and back", async () => {
    const fetchMock = ordersApi();
    renderWithProviders(<AdminOrdersRoute />, { route: '/admin/orders?search=wanjiku&page=100' });
    // The first render loads the route's components: a busy machine takes seconds.
    expect(await screen.findByTestId('pagination-total', {}, LONG)).toHaveTextContent(
      '1,000+ orders',
    );
    expect(screen.getByRole('button', { name: '100' })).toHaveAttribute('aria-current', 'page');
    // The last page counted is not the last page: next stays enabled.
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toBeEnabled();
    fireEvent.click(next);
    await waitFor(() => expect(pageAsked(fetchMock)).toContain(101), LONG);
    await waitFor(
      () => expect(screen.getByTestId('pagination-total')).toHaveTextContent('1,004 orders'),
      LONG,
    );
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(pageAsked(fetchMock).at(-1)).toBe(100), LONG);
    expect(await screen.findByText('SPDPAGE100', {}, LONG)).toBeInTheDocument();
  });
});
