import { screen, within } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../testing/render';
import { DashboardRoute } from './dashboard';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function answer(salesStatus: number, salesExtra: Record<string, unknown> = {}) {
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    if (url.pathname === '/api/staff')
      return json(200, { success: true, message: '', staff: [], totalStaff: 4, totalPages: 1 });
    if (url.pathname === '/api/orders/queue')
      return json(200, {
        success: true,
        message: '',
        counts: { toConfirmPayment: 3, toDispatch: 5, inTransit: 2, toComplete: 1, all: 40 },
      });
    if (url.pathname === '/api/organisations')
      return json(200, {
        success: true,
        message: '',
        organisations: [],
        totalOrganisations: url.searchParams.get('status') === 'pending' ? 6 : 99,
        totalPages: 1,
        page: 1,
      });
    if (url.pathname === '/api/quotations/awaiting-shop/count')
      return json(200, { success: true, message: '', count: 7 });
    if (url.pathname === '/api/tranches/queue')
      return json(200, {
        success: true,
        message: '',
        counts: { toDispatch: 8, upcoming: 12, awaitingSignature: 1 },
      });
    if (url.pathname === '/api/users')
      return json(200, { success: true, message: '', users: [], totalUsers: 27, totalPages: 3 });
    if (salesStatus !== 200)
      return json(salesStatus, { success: false, statusCode: salesStatus, message: 'Down' });
    return json(200, {
      success: true,
      message: '',
      dailySales: 1270,
      weeklySales: 6935,
      totalSales: 10130,
      balancesDueThisWeek: { count: 3, amount: 31500 },
      batchesReadyThisWeek: 2,
      ...salesExtra,
    });
  });
}

describe('dashboard', () => {
  beforeEach(() => signInAs('admin'));
  afterEach(() => jest.restoreAllMocks());

  it('shows the tiles with their figures and links, and no error icon', async () => {
    answer(200);
    renderWithProviders(<DashboardRoute />);
    expect(await screen.findByText('27')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^Total Staff / })).toHaveAttribute(
      'href',
      '/admin/staff',
    );
    expect(screen.getByRole('link', { name: /^Daily Sales / })).toHaveTextContent('KSH 1,270');
    expect(screen.getByRole('link', { name: /^Weekly Sales / })).toHaveTextContent('KSH 6,935');
    expect(screen.queryByRole('img', { name: 'error' })).not.toBeInTheDocument();
  });

  it('shows the work queue as tiles opening the admin orders list on that tab', async () => {
    answer(200);
    renderWithProviders(<DashboardRoute />);
    const toDispatch = await screen.findByRole('link', { name: /^To dispatch / });
    expect(toDispatch).toHaveAttribute('href', '/admin/orders?queue=toDispatch');
    expect(await within(toDispatch).findByText('5')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^To confirm payment / })).toHaveTextContent('3');
    expect(screen.getByRole('link', { name: /^In transit / })).toHaveTextContent('2');
    expect(screen.getByRole('link', { name: /^Delivered, to complete / })).toHaveAttribute(
      'href',
      '/admin/orders?queue=toComplete',
    );
  });

  it('shows the tranches to handle as tiles opening the orders page on that bucket', async () => {
    answer(200);
    renderWithProviders(<DashboardRoute />);
    const toDispatch = await screen.findByRole('link', { name: /^Tranches due out / });
    expect(toDispatch).toHaveAttribute('href', '/admin/orders?tranches=toDispatch');
    expect(await within(toDispatch).findByText('8')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^Tranches planned later / })).toHaveTextContent('12');
    expect(
      screen.getByRole('link', { name: /^Tranches awaiting the signed note / }),
    ).toHaveAttribute('href', '/admin/orders?tranches=awaitingSignature');
  });

  it('shows the bookings tiles: balances due this week (count and KSH) and batches ready this week', async () => {
    answer(200);
    renderWithProviders(<DashboardRoute />);
    const balances = await screen.findByRole('link', { name: /^Balances due this week / });
    expect(await within(balances).findByText('3 · KSH 31,500')).toBeInTheDocument();
    expect(balances).toHaveAttribute('href', '/manage/bookings?tab=balances');
    const batches = screen.getByRole('link', { name: /^Batches ready this week / });
    expect(batches).toHaveTextContent('2');
    expect(batches).toHaveAttribute('href', '/manage/batches?week=this');
  });

  it('shows how many organisations wait for approval, linking to that view', async () => {
    answer(200);
    renderWithProviders(<DashboardRoute />);
    const waiting = await screen.findByRole('link', {
      name: /^Organisations waiting for approval /,
    });
    expect(await within(waiting).findByText('6')).toBeInTheDocument();
    expect(waiting).toHaveAttribute('href', '/manage/organisations?status=pending');
  });

  it('shows how many quotations await the shop, linking to that view of the quote desk', async () => {
    answer(200);
    renderWithProviders(<DashboardRoute />);
    const awaiting = await screen.findByRole('link', { name: /^Quotations awaiting the shop / });
    expect(await within(awaiting).findByText('7')).toBeInTheDocument();
    expect(awaiting).toHaveAttribute('href', '/manage/quotations?status=requested');
  });

  it('shows the overdue invoices (count and KSH), linking to the overdue list', async () => {
    answer(200, { overdueInvoices: { count: 4, amount: 1_250_000 } });
    renderWithProviders(<DashboardRoute />);
    const overdue = await screen.findByRole('link', { name: /^Overdue invoices / });
    expect(await within(overdue).findByText('4 · KSH 1,250,000')).toBeInTheDocument();
    expect(overdue).toHaveAttribute('href', '/invoices?filter=overdue');
  });

  it('counts no overdue invoices when the summary does not tell them', async () => {
    answer(200);
    renderWithProviders(<DashboardRoute />);
    const overdue = await screen.findByRole('link', { name: /^Overdue invoices / });
    expect(await within(overdue).findByText('0 · KSH 0')).toBeInTheDocument();
  });

  it('shows an error icon when a dashboard query fails', async () => {
    answer(500);
    renderWithProviders(<DashboardRoute />);
    expect(await screen.findByRole('img', { name: 'error' })).toBeInTheDocument();
    expect(screen.getByText('4')).toBeInTheDocument();
  });
});
