import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { createBatch } from '../../../testing/factories';
import { onWideScreen, renderWithProviders, signInAs } from '../../../testing/render';
import { BatchesRoute } from './batches';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function answer(batches: unknown[], status = 200) {
  return jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    if (url.pathname === '/api/products')
      return json(200, {
        success: true,
        message: '',
        products: [{ _id: '6650f0c2a1b2c3d4e5f6a001', productName: 'Avocado Hass' }],
        totalPages: 1,
      });
    if (status !== 200)
      return json(status, { success: false, statusCode: status, message: 'Down' });
    return json(200, {
      success: true,
      message: '',
      items: batches,
      total: batches.length,
      page: 1,
      limit: 20,
      totalPages: 1,
    });
  });
}

const render = (route = '/manage/batches') =>
  renderWithProviders(
    <Routes>
      <Route path="/manage/batches" element={<BatchesRoute />} />
    </Routes>,
    { route },
  );

const batchCalls = (fetchMock: jest.SpyInstance) =>
  fetchMock.mock.calls
    .map((c) => new URL((c[0] as Request).url))
    .filter((u) => u.pathname === '/api/batches');

describe('batches list', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  const twoBatches = () => [
    createBatch({ started: 500, lost: 20, booked: 300, available: 180 }),
    createBatch({
      _id: '6650f0c2a1b2c3d4e5f6b002',
      productName: 'Mango Apple',
      readyOn: '2027-04-02',
      status: 'Sold out',
      started: 100,
      booked: 100,
      available: 0,
    }),
  ];

  it('lists batches with their dates, booked against available and status, each opening its page', async () => {
    await onWideScreen(async () => {
      answer(twoBatches());
      render();
      const table = await screen.findByRole('table', { name: 'Batches' });
      const rows = within(table).getAllByRole('row');
      expect(rows[1]).toHaveTextContent('Avocado Hass05/01/202712/03/202750020300180Growing');
      expect(rows[2]).toHaveTextContent('Sold out');
      expect(within(rows[1]!).getByRole('link', { name: 'Avocado Hass' })).toHaveAttribute(
        'href',
        '/manage/batches/6650f0c2a1b2c3d4e5f6b001',
      );
    });
  });

  it('shows each batch as a card on a phone', async () => {
    answer(twoBatches());
    render();
    const card = await screen.findByRole('article', { name: 'Avocado Hass' });
    expect(card).toHaveTextContent(
      'Avocado HassGrowingSown 05/01/2027 · ready 12/03/2027Started 500 · lost 20 · booked 300 · available 180',
    );
    expect(within(card).getByRole('link', { name: 'Avocado Hass' })).toHaveAttribute(
      'href',
      '/manage/batches/6650f0c2a1b2c3d4e5f6b001',
    );
    expect(screen.getByRole('article', { name: 'Mango Apple' })).toHaveTextContent('Sold out');
  });

  it('filters by the product in the address and by status', async () => {
    const fetchMock = answer([]);
    render('/manage/batches?productId=6650f0c2a1b2c3d4e5f6a001');
    expect(await screen.findByText('No batches match these filters.')).toBeInTheDocument();
    expect(batchCalls(fetchMock)[0]!.searchParams.get('productId')).toBe(
      '6650f0c2a1b2c3d4e5f6a001',
    );
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: 'Ready' } });
    await waitFor(() =>
      expect(batchCalls(fetchMock).at(-1)!.searchParams.get('status')).toBe('Ready'),
    );
  });

  it('shows the batches ready this shop week when opened from the dashboard tile', async () => {
    jest.useFakeTimers({
      now: new Date('2026-11-27T07:00:00Z'),
      doNotFake: [
        'setTimeout',
        'setInterval',
        'queueMicrotask',
        'nextTick',
        'setImmediate',
        'clearTimeout',
        'clearInterval',
      ],
    });
    try {
      const fetchMock = answer([]);
      render('/manage/batches?week=this');
      expect(
        await screen.findByText('Ready this week (23/11/2026 – 29/11/2026)'),
      ).toBeInTheDocument();
      const asked = batchCalls(fetchMock)[0]!.searchParams;
      expect(asked.get('readyFrom')).toBe('2026-11-23');
      expect(asked.get('readyTo')).toBe('2026-11-29');
      fireEvent.click(screen.getByRole('button', { name: 'Show every ready date' }));
      await waitFor(() =>
        expect(batchCalls(fetchMock).at(-1)!.searchParams.get('readyFrom')).toBeNull(),
      );
    } finally {
      jest.useRealTimers();
    }
  });

  it('says when there are no batches yet, and when they cannot be loaded', async () => {
    answer([]);
    const { unmount } = render();
    expect(await screen.findByText('No batches yet.')).toBeInTheDocument();
    unmount();
    jest.restoreAllMocks();
    answer([], 500);
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('something went wrong...');
  });

  it('opens the new batch form with the product chosen in the filter', async () => {
    answer([]);
    render('/manage/batches?productId=6650f0c2a1b2c3d4e5f6a001');
    await screen.findByText('No batches match these filters.');
    fireEvent.click(screen.getByRole('button', { name: 'New batch' }));
    const dialog = await screen.findByRole('dialog', { name: 'New batch' });
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Product')).toHaveValue('6650f0c2a1b2c3d4e5f6a001'),
    );
  });
});
