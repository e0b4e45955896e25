import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { EtimsSummaryFigures, EtimsSummaryResponse } from '@spc/shared-contracts';
import { json } from '../../../testing/organisations';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { wideScreen } from '../../../testing/screen';
import { EtimsSummaryRoute } from './etims-summary';

const zero = { taxable: 0, tax: 0 };
const figures = (overrides: Partial<EtimsSummaryFigures> = {}): EtimsSummaryFigures => ({
  signed: 0,
  creditNotes: 0,
  pending: 0,
  failed: 0,
  waiting: 0,
  taxByType: { A: zero, B: zero, C: zero, D: zero, E: zero },
  total: 0,
  ...overrides,
});

function summaryOf(url: URL, busy: boolean): EtimsSummaryResponse {
  const from = url.searchParams.get('from')!;
  const to = url.searchParams.get('to')!;
  const day = figures(
    busy
      ? {
          signed: 3,
          creditNotes: 1,
          failed: 1,
          pending: 2,
          taxByType: { A: zero, B: { taxable: 900, tax: 124.14 }, C: zero, D: zero, E: zero },
          total: 900,
        }
      : {},
  );
  return { enabled: true, from, to, days: [{ date: to, ...day }], totals: day };
}

function answer(busy: boolean | number) {
  const spy = jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    if (typeof busy === 'number')
      return json(busy, { success: false, statusCode: busy, message: 'Down' });
    if (url.pathname === '/api/reports/etims.csv')
      return new Response('date,signed\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv' },
      });
    return json(200, { success: true, message: 'eTIMS summary', ...summaryOf(url, busy) });
  });
  return () => spy.mock.calls.map(([input]) => new URL((input as Request).url));
}

describe('the daily eTIMS summary', () => {
  beforeEach(() => signInAs('admin'));
  afterEach(() => jest.restoreAllMocks());

  it('shows each day and the totals: counts, and taxable / tax by type', async () => {
    const asked = answer(true);
    wideScreen();
    renderWithProviders(<EtimsSummaryRoute />);
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'eTIMS per day' });
    const rows = within(table).getAllByRole('row');
    expect(rows[0]).toHaveTextContent(
      'DaySignedCredit notesPendingFailedQueuedA exemptB 16 %C zero-ratedD non-VATE 8 %Total',
    );
    expect(rows[1]).toHaveTextContent('31210');
    expect(rows[1]).toHaveTextContent('900.00 / 124.14');
    expect(rows.at(-1)).toHaveTextContent('Total');
    expect(asked()[0]!.pathname).toBe('/api/reports/etims');
  });

  it('shows each day as a card on a phone, with the figures that are not zero', async () => {
    answer(true);
    renderWithProviders(<EtimsSummaryRoute />);
    const totals = await screen.findByRole('article', { name: 'Total' });
    expect(screen.queryByRole('table')).toBeNull();
    const [day] = screen.getAllByRole('article');
    expect(day).toHaveAccessibleName(/^\d{2}\/\d{2}\/\d{4}$/);
    for (const card of [day!, totals]) {
      expect(card).toHaveTextContent('Signed 3 · Credit notes 1 · Pending 2 · Failed 1 · Queued 0');
      expect(card).toHaveTextContent('B 16 %900.00 / 124.14');
      expect(card).toHaveTextContent('Total900.00');
      expect(card).not.toHaveTextContent('A exempt');
    }
  });

  it('downloads the CSV of the range from the API', async () => {
    const asked = answer(true);
    URL.createObjectURL = jest.fn(() => 'blob:csv');
    URL.revokeObjectURL = jest.fn();
    const names: string[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    renderWithProviders(<EtimsSummaryRoute />);
    await screen.findByRole('article', { name: 'Total' });
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(names).toHaveLength(1));
    const csv = asked().find((u) => u.pathname === '/api/reports/etims.csv')!;
    expect(csv.searchParams.get('from')).toBe(asked()[0]!.searchParams.get('from'));
    expect(csv.searchParams.get('to')).toBe(asked()[0]!.searchParams.get('to'));
    expect(names).toEqual([
      `etims-summary-${csv.searchParams.get('from')}-to-${csv.searchParams.get('to')}.csv`,
    ]);
  });

  it('says so when nothing was queued in the range', async () => {
    answer(false);
    renderWithProviders(<EtimsSummaryRoute />);
    expect(
      await screen.findByText('No document was queued for KRA in these days'),
    ).toBeInTheDocument();
  });

  it('says when it cannot be loaded, with a way to try again', async () => {
    answer(500);
    renderWithProviders(<EtimsSummaryRoute />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The eTIMS summary could not be loaded.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
