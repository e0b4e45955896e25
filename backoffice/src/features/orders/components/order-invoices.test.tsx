import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { INVOICE_MESSAGES, type InvoiceView } from '@spc/shared-contracts';
import { createInvoice, INVOICE_ID, ORDER_ID } from '../../../testing/invoices';
import { json } from '../../../testing/organisations';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { invoiceChoices, OrderInvoices } from './order-invoices';

const tranche = (number: number, state: string) => ({ number, label: `T${number}`, state });

/**
 * The order's invoices (`invoices`, then `after` once one is issued) and its tranches; a POST is
 * recorded and answered by `reply` (by default: the invoice issued).
 */
function answer(
  invoices: InvoiceView[],
  tranches: ReturnType<typeof tranche>[],
  { after = invoices, reply }: { after?: InvoiceView[]; reply?: () => Response } = {},
) {
  const sent: { path: string; body: unknown }[] = [];
  let current = invoices;
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const request = input as Request;
    const url = new URL(request.url);
    if (url.pathname.endsWith('/tranches'))
      return json(200, { success: true, message: '', orderId: ORDER_ID, lines: [], tranches });
    if (request.method === 'GET')
      return json(200, { success: true, message: '', invoices: current });
    sent.push({ path: url.pathname, body: await request.json() });
    if (reply) return reply();
    current = after;
    return json(201, { success: true, message: 'Invoice issued', invoice: after.at(-1) });
  });
  return sent;
}

const render = () => {
  signInAs('staff');
  return renderWithProviders(<OrderInvoices orderId={ORDER_ID} />);
};

describe("an order's invoices", () => {
  afterEach(() => jest.restoreAllMocks());

  it('offers each delivered tranche not invoiced, and the whole order while nothing is', () => {
    const t1 = createInvoice({ tranche: 1 });
    expect(invoiceChoices([], [])).toEqual([{ value: 'whole', label: 'Whole order' }]);
    expect(invoiceChoices([], [1])).toEqual([
      { value: '1', label: 'Tranche T1' },
      { value: 'whole', label: 'Whole order' },
    ]);
    expect(invoiceChoices([t1], [1, 2])).toEqual([{ value: '2', label: 'Tranche T2' }]);
    expect(invoiceChoices([t1], [1])).toEqual([]);
  });

  it('lists the invoices with a link, tranche, money and state', async () => {
    answer([createInvoice({ overdue: true, daysOverdue: 3 })], [tranche(1, 'Delivered')]);
    render();
    const table = await screen.findByRole('table', { name: 'Invoices of the order' });
    expect(within(table).getByRole('link', { name: 'INV-000042' })).toHaveAttribute(
      'href',
      `/invoices/${INVOICE_ID}`,
    );
    expect(table).toHaveTextContent('T120/12/2026KES 100,000KES 100,000Overdue · 3 days');
    // Its only delivered tranche is invoiced: nothing to issue.
    expect(screen.queryByRole('button', { name: 'Issue invoice' })).toBeNull();
  });

  it('issues the invoice of a delivered tranche and lists it', async () => {
    const sent = answer([], [tranche(1, 'Delivered'), tranche(2, 'Dispatched')], {
      after: [createInvoice()],
    });
    render();
    expect(await screen.findByText('No invoices yet')).toBeInTheDocument();
    const what = await screen.findByLabelText('What to invoice');
    await waitFor(() =>
      expect(
        within(what)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Tranche T1', 'Whole order']),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Issue invoice' }));
    await waitFor(() =>
      expect(sent).toEqual([{ path: `/api/orders/${ORDER_ID}/invoices`, body: { tranche: 1 } }]),
    );
    expect(await screen.findByRole('link', { name: 'INV-000042' })).toBeInTheDocument();
    expect(await screen.findByText('Invoice issued')).toBeInTheDocument();
  });

  it("issues the whole order's invoice with an empty body, and shows the API's refusal", async () => {
    const sent = answer([], [], {
      reply: () =>
        json(409, {
          success: false,
          statusCode: 409,
          code: 'CONFLICT',
          message: INVOICE_MESSAGES.orderNotDelivered,
        }),
    });
    render();
    const issue = await screen.findByRole('button', { name: 'Issue invoice' });
    fireEvent.click(issue);
    await waitFor(() =>
      expect(sent).toEqual([{ path: `/api/orders/${ORDER_ID}/invoices`, body: {} }]),
    );
    expect(
      await within(screen.getByRole('region', { name: 'Invoices' })).findByRole('alert'),
    ).toHaveTextContent(INVOICE_MESSAGES.orderNotDelivered);
  });

  it('says when the invoices cannot be loaded', async () => {
    jest
      .spyOn(global, 'fetch')
      .mockImplementation(async () => json(500, { success: false, message: 'Down' }));
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('The invoices could not be loaded.');
  });
});
