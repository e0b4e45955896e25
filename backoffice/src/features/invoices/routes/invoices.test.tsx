import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { InvoiceListResponse } from '@spc/shared-contracts';
import { createInvoice, invoicePage, ORDER_ID, INVOICE_ID } from '../../../testing/invoices';
import { json, ORG_ID } from '../../../testing/organisations';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { InvoicesRoute } from './invoices';

const NAKURU = { _id: '6650f0c2a1b2c3d4e5f6c002', name: 'Nakuru Water and Sanitation Company' };

/**
 * Answers every list of invoices with `page` (or an error status), and the organisations' search
 * with Nakuru's; returns the invoices' URLs asked.
 */
function answer(page: InvoiceListResponse | number) {
  const spy = jest.spyOn(global, 'fetch').mockImplementation(async (input) =>
    new URL((input as Request).url).pathname === '/api/organisations'
      ? json(200, {
          success: true,
          message: '',
          organisations: [NAKURU],
          totalOrganisations: 1,
          totalPages: 1,
          page: 1,
        })
      : typeof page === 'number'
        ? json(page, { success: false, statusCode: page, message: 'Down' })
        : json(200, { success: true, message: '', ...page }),
  );
  return () =>
    spy.mock.calls
      .map(([input]) => new URL((input as Request).url))
      .filter((url) => url.pathname === '/api/invoices');
}

const render = (route = '/invoices', role: 'staff' | 'admin' = 'staff') => {
  signInAs(role);
  return renderWithProviders(<InvoicesRoute />, { route });
};

describe('the invoices page', () => {
  afterEach(() => jest.restoreAllMocks());

  it('lists invoices with their order, tranche, dates, money and state', async () => {
    const asked = answer(
      invoicePage([
        createInvoice(),
        createInvoice({
          id: '6650f0c2a1b2c3d4e5f6b002',
          number: 'INV-000041',
          tranche: null,
          state: 'Paid',
          paid: 100_000,
          balance: 0,
        }),
      ]),
    );
    render();
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(table).toHaveTextContent(
      'NumberOrganisationOrderTrancheIssuedDue dateTotalBalanceState',
    );
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(
      'INV-000042Kiambu County GovernmentSPDBMUYD9PDT120/11/202620/12/2026KES 100,000KES 100,000Open',
    );
    expect(rows[2]).toHaveTextContent('Whole order');
    expect(rows[2]).toHaveTextContent('Paid');
    expect(within(rows[1]!).getByRole('link', { name: 'INV-000042' })).toHaveAttribute(
      'href',
      `/invoices/${INVOICE_ID}`,
    );
    expect(within(rows[1]!).getByRole('link', { name: 'SPDBMUYD9PD' })).toHaveAttribute(
      'href',
      `/staff/orders/${ORDER_ID}`,
    );
    expect(asked()[0]!.searchParams.get('filter')).toBe('all');
    expect(screen.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
  });

  it('opens on the overdue tab from the address, with the total owed and days overdue in red', async () => {
    const asked = answer(
      invoicePage([createInvoice({ overdue: true, daysOverdue: 12 })], { owed: 345_678 }),
    );
    render('/invoices?filter=overdue');
    expect(await screen.findByTestId('owed')).toHaveTextContent(
      'Owed on overdue invoices: KES 345,678',
    );
    expect(screen.getByText('Overdue · 12 days')).toBeInTheDocument();
    expect(asked()[0]!.searchParams.get('filter')).toBe('overdue');
    expect(screen.getByRole('tab', { name: 'Overdue' })).toHaveAttribute('aria-selected', 'true');
  });

  it('says nothing is overdue on an empty overdue tab, and "No invoices yet" on all', async () => {
    const asked = answer(invoicePage([]));
    render();
    expect(await screen.findByText('No invoices yet')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Overdue' }));
    expect(await screen.findByText('Nothing is overdue')).toBeInTheDocument();
    await waitFor(() => expect(asked().at(-1)!.searchParams.get('filter')).toBe('overdue'));
  });

  it("asks only one organisation's invoices when the address names it, and can show all again", async () => {
    const asked = answer(invoicePage([createInvoice()]));
    render(`/invoices?organisationId=${ORG_ID}`);
    const picker = screen.getByRole('textbox', { name: 'Organisation' });
    await waitFor(() => expect(picker).toHaveValue('Kiambu County Government'));
    expect(asked()[0]!.searchParams.get('organisationId')).toBe(ORG_ID);
    // Cleared: every organisation's.
    fireEvent.click(screen.getByRole('button', { name: 'Show every organisation' }));
    await waitFor(() => expect(asked().at(-1)!.searchParams.has('organisationId')).toBe(false));
    expect(picker).toHaveValue('');
  });

  it('narrows the invoices to an organisation picked by name', async () => {
    const asked = answer(invoicePage([createInvoice()]));
    render();
    await screen.findByRole('table', { name: 'Invoices' });
    const picker = screen.getByRole('textbox', { name: 'Organisation' });
    fireEvent.click(picker);
    fireEvent.change(picker, { target: { value: 'Nakuru' } });
    fireEvent.click(await screen.findByRole('option', { name: NAKURU.name }));
    await waitFor(() =>
      expect(asked().at(-1)!.searchParams.get('organisationId')).toBe(NAKURU._id),
    );
  });

  it('pages through the invoices', async () => {
    const asked = answer(invoicePage([createInvoice()], { total: 45, pages: 3 }));
    render();
    await screen.findByRole('table', { name: 'Invoices' });
    expect(screen.getByTestId('pagination-total')).toHaveTextContent('45 invoices');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(asked().at(-1)!.searchParams.get('page')).toBe('2'));
  });

  it('says when the list cannot be loaded', async () => {
    answer(500);
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('something went wrong...');
  });
});
