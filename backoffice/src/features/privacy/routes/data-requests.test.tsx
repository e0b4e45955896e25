import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { DataRequestsRoute } from './data-requests';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const request = (overrides: object) => ({
  _id: '0b8f8c1e-0000-4000-8000-000000000001',
  kind: 'erasure',
  purchaseNumber: 'SPD7K3MX9QA',
  phone: '+254712345678',
  status: 'open',
  createdAt: '2026-11-20T06:00:00.000Z',
  confirmedAt: '2026-11-20T06:05:00.000Z',
  dueAt: '2026-11-27T06:05:00.000Z',
  overdue: false,
  answeredAt: null,
  answer: null,
  answeredBy: null,
  ...overrides,
});

describe('data requests queue', () => {
  beforeEach(() => signInAs('admin'));
  afterEach(() => jest.restoreAllMocks());

  it('lists each request with its due date, overdue ones marked, and erases on yes', async () => {
    let erased = false;
    const fetch = jest.spyOn(global, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input as RequestInfo, init);
      if (req.url.endsWith('/erase')) {
        erased = true;
        return json(200, { success: true, message: 'erased', request: request({}) });
      }
      return json(200, {
        success: true,
        message: 'Data requests retrieved',
        requests: [
          request({ status: erased ? 'answered' : 'open', answer: erased ? 'anonymised' : null }),
          request({
            _id: '0b8f8c1e-0000-4000-8000-000000000002',
            kind: 'export',
            purchaseNumber: 'SPD2222ABCD',
            overdue: true,
          }),
        ],
      });
    });
    renderWithProviders(<DataRequestsRoute />);
    const table = await screen.findByRole('table', { name: 'Data requests' });
    const late = within(table).getByText('SPD2222ABCD').closest('tr')!;
    expect(within(late).getByText(/overdue since/)).toBeInTheDocument();
    expect(within(late).queryByRole('button', { name: 'erase' })).toBeNull();
    const row = within(table).getByText('SPD7K3MX9QA').closest('tr')!;
    expect(within(row).getByText(/^due/)).toBeInTheDocument();
    fireEvent.click(within(row).getByRole('button', { name: 'erase' }));
    fireEvent.click(await screen.findByRole('button', { name: 'yes' }));
    await waitFor(() => expect(erased).toBe(true));
    expect(
      fetch.mock.calls.some(([input]) =>
        String(input instanceof Request ? input.url : input).endsWith(
          '/api/admin/data-requests/0b8f8c1e-0000-4000-8000-000000000001/erase',
        ),
      ),
    ).toBe(true);
  });
});
