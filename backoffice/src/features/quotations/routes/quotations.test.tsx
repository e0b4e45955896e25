import { fireEvent, screen, waitFor } from '@testing-library/react';
import { onWideScreen, renderWithProviders, signInAs } from '../../../testing/render';
import { json } from '../../../testing/organisations';
import { createQuotation, createVersion, summaryOf } from '../../../testing/quotations';
import { QuotationsRoute } from './quotations';

function answer(status: number, rows: unknown[] = []) {
  return jest.spyOn(global, 'fetch').mockImplementation(async () =>
    status === 200
      ? json(200, {
          success: true,
          message: '',
          quotations: rows,
          totalQuotations: rows.length,
          totalPages: 1,
          page: 1,
        })
      : json(status, { success: false, statusCode: status, message: 'Down' }),
  );
}

const asked = (spy: jest.SpyInstance) =>
  spy.mock.calls.map(([input]) => new URL((input as Request).url));

const sent = summaryOf(
  createQuotation({
    status: 'sent',
    versions: [createVersion({ total: 12_345_678 })],
    organisationName: 'The Nyandarua County Department of Environment, Water and Natural Resources',
  }),
);

const render = (route = '/manage/quotations') => {
  signInAs('staff');
  return renderWithProviders(<QuotationsRoute />, { route });
};

describe('the quote desk', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows a loader, then each quotation as a card with its status label and total', async () => {
    answer(200, [sent]);
    render();
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
    const card = await screen.findByRole('article', { name: 'QUO-000123' });
    expect(card).toHaveTextContent('Sent: awaiting the organisation');
    expect(card).toHaveTextContent('The Nyandarua County Department');
    expect(card).toHaveTextContent('KES 12,345,678');
    expect(screen.getByRole('link', { name: 'QUO-000123' })).toHaveAttribute(
      'href',
      '/manage/quotations/6650f0c2a1b2c3d4e5f6f001',
    );
  });

  it('shows number, organisation, status, total and validity in a table on a wide screen', async () => {
    await onWideScreen(async () => {
      answer(200, [sent]);
      render();
      const table = await screen.findByRole('table', { name: 'Quotations' });
      expect(table).toHaveTextContent('NumberOrganisationStatusTotalValid until');
      expect(table).toHaveTextContent('Sent: awaiting the organisationKES 12,345,678');
    });
  });

  it("filters by status in the contract's words, from the address, and searches from page 1", async () => {
    const spy = answer(200, []);
    render('/manage/quotations?status=requested');
    expect(await screen.findByText('No quotations match these filters.')).toBeInTheDocument();
    expect(asked(spy)[0]!.searchParams.get('status')).toBe('requested');
    const select = screen.getByLabelText<HTMLSelectElement>('Filter by status');
    expect(select.selectedOptions[0]!.textContent).toBe('Awaiting the shop');
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'All statuses',
      'Awaiting the shop',
      'Sent: awaiting the organisation',
      'Expired',
      'Accepted',
      'Declined',
      'Withdrawn',
    ]);
    fireEvent.change(select, { target: { value: 'expired' } });
    fireEvent.change(screen.getByLabelText('Search by organisation or number'), {
      target: { value: ' Kiambu ' },
    });
    await waitFor(() => {
      const last = asked(spy).at(-1)!;
      expect(last.searchParams.get('status')).toBe('expired');
      expect(last.searchParams.get('search')).toBe('Kiambu');
      expect(last.searchParams.get('page')).toBe('1');
    });
  });

  it('says when there are none yet, and when the list cannot be loaded', async () => {
    answer(200, []);
    const first = render();
    expect(await screen.findByText('No quotations yet.')).toBeInTheDocument();
    first.unmount();
    jest.restoreAllMocks();
    answer(500);
    render();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });
});
