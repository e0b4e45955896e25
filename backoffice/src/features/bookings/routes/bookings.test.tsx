import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { createBooking, createOrder } from '../../../testing/factories';
import { onWideScreen, renderWithProviders, signInAs } from '../../../testing/render';
import { BookingsRoute } from './bookings';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const deposits = [
  createOrder({
    _id: 'o1',
    purchaseNumber: 'SPBOOK0001',
    customerName: 'Achieng Otieno',
    booking: createBooking(),
  } as never),
];
const balances = [
  createOrder({
    _id: 'o2',
    purchaseNumber: 'SPBOOK0002',
    customerName: 'Kiprop Kering',
    booking: createBooking({
      state: 'Balance due',
      depositPaidAt: '2027-01-10T07:00:00.000Z',
      balanceDueBy: '2027-03-19',
    }),
  } as never),
];

function answer({ queueStatus = 200 }: { queueStatus?: number } = {}) {
  return jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    if (url.pathname === '/api/bookings/counts')
      return json(200, {
        success: true,
        message: '',
        deposits: 1,
        balances: 1,
        dispatch: 0,
        affected: 2,
      });
    if (queueStatus !== 200)
      return json(queueStatus, { success: false, statusCode: queueStatus, message: 'Down' });
    const tab = url.searchParams.get('tab');
    const orders = tab === 'deposits' ? deposits : tab === 'balances' ? balances : [];
    return json(200, { success: true, message: '', orders, total: orders.length, totalPages: 1 });
  });
}

const render = (route = '/manage/bookings') =>
  renderWithProviders(
    <Routes>
      <Route path="/manage/bookings" element={<BookingsRoute />} />
    </Routes>,
    { route },
  );

describe('bookings queue', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  it('shows the four tabs with their counts, deposits to confirm first', async () => {
    answer();
    render();
    const tabs = await screen.findByRole('tablist', { name: 'Bookings queue' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual([
      expect.stringMatching(/^Deposits to confirm/),
      expect.stringMatching(/^Balances due this week/),
      expect.stringMatching(/^Ready to dispatch/),
      expect.stringMatching(/^Affected/),
    ]);
    expect(await screen.findByLabelText('2 bookings')).toHaveTextContent('2');
    expect(screen.getByRole('tab', { name: /Deposits to confirm/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    // A phone (the tests' screen) shows each booking as a card.
    const row = await screen.findByRole('article', { name: 'Booking SPBOOK0001' });
    expect(row).toHaveTextContent(
      'SPBOOK0001Deposit dueAchieng Otieno · Avocado HassReady 12/03/2027Deposit: KSH 4,500 dueBalance: KSH 10,500 due',
    );
    expect(within(row).getByRole('link', { name: 'SPBOOK0001' })).toHaveAttribute(
      'href',
      '/staff/orders/o1',
    );
  });

  it('opens a tab from the address and another on a click', async () => {
    const fetchMock = answer();
    render('/manage/bookings?tab=balances');
    const row = await screen.findByRole('article', { name: 'Booking SPBOOK0002' });
    expect(row).toHaveTextContent('KSH 4,500 paid');
    expect(row).toHaveTextContent('KSH 10,500 due');
    fireEvent.click(screen.getByRole('tab', { name: /Ready to dispatch/ }));
    expect(await screen.findByText('No paid bookings wait for dispatch.')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        fetchMock.mock.calls
          .map((c) => new URL((c[0] as Request).url))
          .some((u) => u.searchParams.get('tab') === 'dispatch'),
      ).toBe(true),
    );
  });

  it('shows a table on a wide screen', async () => {
    await onWideScreen(async () => {
      answer();
      render();
      const row = (await screen.findByRole('link', { name: 'SPBOOK0001' })).closest('tr')!;
      expect(row).toHaveTextContent(
        'SPBOOK0001Achieng OtienoAvocado Hass12/03/2027KSH 4,500 dueKSH 10,500 dueDeposit due',
      );
    });
  });

  it('says when the queue cannot be loaded', async () => {
    answer({ queueStatus: 500 });
    render();
    expect(await screen.findByText('something went wrong...')).toBeInTheDocument();
  });
});
