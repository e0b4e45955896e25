import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { createBatch } from '../../../testing/factories';
import { onWideScreen, renderWithProviders, signInAs } from '../../../testing/render';
import { BatchDetailRoute } from './batch-detail';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const BOOKINGS = [
  {
    orderId: 'o1',
    purchaseNumber: 'SPFIRST001',
    customer: 'Achieng Otieno',
    seedlings: 200,
    state: 'Booked',
    placedAt: '2027-01-10T07:00:00.000Z',
  },
  {
    orderId: 'o2',
    purchaseNumber: 'SPSECOND02',
    customer: 'Kiprop Kering',
    seedlings: 100,
    state: 'Deposit due',
    placedAt: '2027-01-11T07:00:00.000Z',
  },
];

function answer(batch: Record<string, unknown>) {
  return jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const request = input as Request;
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname.endsWith('/ready'))
      return json(200, { success: true, message: 'Batch marked ready', batch });
    if (url.pathname.startsWith('/api/batches/'))
      return json(200, { success: true, message: '', batch });
    return json(404, { success: false, statusCode: 404, message: 'Not found' });
  });
}

const render = (role: 'staff' | 'admin' = 'staff') => {
  signInAs(role);
  return renderWithProviders(
    <Routes>
      <Route path="/manage/batches/:id" element={<BatchDetailRoute />} />
    </Routes>,
    { route: '/manage/batches/6650f0c2a1b2c3d4e5f6b001' },
  );
};

describe('batch page', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows the batch and its bookings in booking order, each linking to its order', async () => {
    answer(createBatch({ booked: 300, available: 200, bookings: BOOKINGS }));
    render('admin');
    expect(await screen.findByRole('heading', { name: 'Avocado Hass' })).toBeInTheDocument();
    // A phone (the tests' screen) shows the bookings as cards, in booking order.
    const cards = screen.getAllByRole('listitem');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Booking 1: SPFIRST001',
      'Booking 2: SPSECOND02',
    ]);
    expect(cards[0]).toHaveTextContent('Achieng Otieno · 200 seedlings');
    expect(cards[1]).toHaveTextContent('Deposit due');
    expect(within(cards[0]!).getByRole('link', { name: '1. SPFIRST001' })).toHaveAttribute(
      'href',
      '/admin/orders/o1',
    );
  });

  it('lists the orders from quotations holding its seedlings, beside its bookings', async () => {
    answer(
      createBatch({
        booked: 12_300,
        bookings: BOOKINGS,
        orders: [
          {
            orderId: 'o9',
            purchaseNumber: 'SPCOUNTY09',
            customer: 'Nyandarua County Government',
            seedlings: 12_000,
            placedAt: '2027-01-12T07:00:00.000Z',
          },
        ],
      }),
    );
    render('staff');
    await screen.findByRole('heading', { name: 'Orders from quotations' });
    expect(screen.getByRole('link', { name: 'SPCOUNTY09' })).toHaveAttribute(
      'href',
      '/staff/orders/o9',
    );
    expect(screen.getByText(/Nyandarua County Government · 12,000 seedlings/)).toBeInTheDocument();
  });

  it('shows the bookings as a table on a wide screen', async () => {
    await onWideScreen(async () => {
      answer(createBatch({ booked: 300, available: 200, bookings: BOOKINGS }));
      render('admin');
      const table = await screen.findByRole('table', { name: 'Bookings in booking order' });
      const rows = within(table).getAllByRole('row');
      expect(rows[1]).toHaveTextContent('1SPFIRST001Achieng Otieno200Booked');
      expect(rows[2]).toHaveTextContent('2SPSECOND02Kiprop Kering100Deposit due');
    });
  });

  it('marks a growing batch ready after a confirmation that says what follows', async () => {
    const fetchMock = answer(createBatch({ booked: 300, available: 200, bookings: BOOKINGS }));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Mark ready' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark this batch ready?' });
    expect(dialog).toHaveTextContent('200 unbooked seedlings go into ready stock.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark ready' }));
    expect(await screen.findByText('Batch marked ready')).toBeInTheDocument();
    const post = fetchMock.mock.calls.map((c) => c[0] as Request).find((r) => r.method === 'POST');
    expect(post?.url).toMatch(/\/api\/batches\/6650f0c2a1b2c3d4e5f6b001\/ready$/);
  });

  it('offers no actions on a ready batch and says when it was marked ready', async () => {
    answer(createBatch({ status: 'Ready', readyAt: '2027-03-12T06:00:00.000Z', bookings: [] }));
    render();
    expect(await screen.findByText(/^Marked ready 12\/03\/2027/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark ready' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Record loss' })).not.toBeInTheDocument();
    expect(screen.getByText('No bookings on this batch yet.')).toBeInTheDocument();
  });

  it('records a loss and shows the server refusal', async () => {
    const batch = createBatch({ bookings: [] });
    const fetchMock = jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'POST')
        return json(409, {
          success: false,
          statusCode: 409,
          message: 'This batch failed',
        });
      return json(200, { success: true, message: '', batch });
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Record loss' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record a loss on this batch' });
    fireEvent.change(within(dialog).getByLabelText('Seedlings lost'), {
      target: { value: '12' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record loss' }));
    expect(await screen.findByText('This batch failed')).toBeInTheDocument();
    await waitFor(async () => {
      const post = fetchMock.mock.calls
        .map((c) => c[0] as Request)
        .find((r) => r.method === 'POST');
      expect(await post!.clone().json()).toEqual({ quantity: 12, reason: 'died', note: '' });
    });
  });

  it('says when there is no such batch', async () => {
    jest
      .spyOn(global, 'fetch')
      .mockResolvedValue(
        json(404, { success: false, statusCode: 404, code: 'NOT_FOUND', message: 'No batch' }),
      );
    render();
    expect(await screen.findByText('No batch with this id')).toHaveAttribute('role', 'alert');
  });
});
