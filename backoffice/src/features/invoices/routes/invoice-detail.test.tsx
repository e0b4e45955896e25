import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { INVOICE_MESSAGES, shopToday, type InvoiceView } from '@spc/shared-contracts';
import { Route, Routes } from 'react-router';
import { createInvoice, INVOICE_ID, ORDER_ID } from '../../../testing/invoices';
import { json } from '../../../testing/organisations';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { InvoiceDetailRoute } from './invoice-detail';

type Reply = (request: Request, body: unknown) => Response | Promise<Response> | undefined;

/**
 * The invoice's routes: GET answers the invoice as it stands (the second answer after a change),
 * a POST is recorded and answered by `reply` (by default: accepted, the changed invoice).
 */
function answer(first: InvoiceView, after: InvoiceView = first, reply: Reply = () => undefined) {
  const sent: { path: string; body: unknown }[] = [];
  let current = first;
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const request = input as Request;
    const url = new URL(request.url);
    if (request.method === 'GET')
      return json(200, { success: true, message: '', invoice: current });
    const body = await request.json().catch(() => undefined);
    sent.push({ path: url.pathname, body });
    const refused = await reply(request, body);
    if (refused) return refused;
    current = after;
    return json(201, { success: true, message: 'Payment recorded', invoice: after });
  });
  return sent;
}

const render = (role: 'staff' | 'admin' = 'staff') => {
  signInAs(role);
  return renderWithProviders(
    <Routes>
      <Route path="/invoices/:id" element={<InvoiceDetailRoute />} />
    </Routes>,
    { route: `/invoices/${INVOICE_ID}` },
  );
};

const section = (name: string) => screen.getByRole('region', { name });

describe('an invoice', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows both KRA PINs, the LPO, the order, the tranche, the lines and the money', async () => {
    answer(createInvoice());
    render('admin');
    expect(await screen.findByRole('heading', { name: 'INV-000042' })).toBeInTheDocument();
    expect(screen.getByText('P051234567X')).toBeInTheDocument();
    expect(screen.getByText('P000111222Z')).toBeInTheDocument();
    expect(screen.getByText('KCG/LPO/2026/0412')).toBeInTheDocument();
    expect(screen.getByText('T1')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'SPDBMUYD9PD' })).toHaveAttribute(
      'href',
      `/admin/orders/${ORDER_ID}`,
    );
    const lines = screen.getByRole('table', { name: 'Lines billed' });
    expect(lines).toHaveTextContent('Grevillea robusta · Seedling2,000KES 30KES 60,000');
    expect(screen.getByTestId('invoice-balance')).toHaveTextContent('KES 100,000');
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
    expect(section('Payments')).toHaveTextContent('No payments yet.');
    expect(section('Reminders sent')).toHaveTextContent('No reminders sent.');
  });

  it('records a bank payment (today by default), shows the new balance and says so', async () => {
    const paid = createInvoice({
      paid: 40_000,
      balance: 60_000,
      payments: [
        {
          id: 'e1',
          kind: 'bank',
          amount: 40_000,
          reference: 'FT2633012345',
          at: '2026-11-25T09:00:00.000Z',
          excess: 0,
          by: { fullName: 'Wanjiku Mary Kamau', role: 'staff' },
        },
      ],
    });
    const sent = answer(createInvoice(), paid);
    render();
    const form = await screen.findByRole('form', { name: 'Record a bank payment' });
    expect(within(form).getByLabelText('Paid on')).toHaveValue(shopToday());
    fireEvent.change(within(form).getByLabelText('Amount (KES)'), { target: { value: '40000' } });
    fireEvent.change(within(form).getByLabelText('Bank reference'), {
      target: { value: ' FT2633012345 ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Record payment' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          path: `/api/invoices/${INVOICE_ID}/payments`,
          body: { amount: 40000, reference: 'FT2633012345', paidOn: shopToday() },
        },
      ]),
    );
    await waitFor(() =>
      expect(screen.getByTestId('invoice-balance')).toHaveTextContent('KES 60,000'),
    );
    expect(await screen.findByText('Payment recorded')).toBeInTheDocument();
    expect(section('Payments')).toHaveTextContent('FT2633012345');
    expect(section('Payments')).toHaveTextContent('Bank transfer');
  });

  it('checks the payment before sending: required reference, and above the balance only as an excess', async () => {
    const sent = answer(createInvoice({ balance: 30_000, paid: 70_000 }));
    render();
    const form = await screen.findByRole('form', { name: 'Record a bank payment' });
    fireEvent.click(within(form).getByRole('button', { name: 'Record payment' }));
    expect(await within(form).findByText(INVOICE_MESSAGES.amountWhole)).toBeInTheDocument();
    expect(within(form).getByText(INVOICE_MESSAGES.referenceRequired)).toBeInTheDocument();
    fireEvent.change(within(form).getByLabelText('Amount (KES)'), { target: { value: '35000' } });
    fireEvent.change(within(form).getByLabelText('Bank reference'), {
      target: { value: 'FT1' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Record payment' }));
    expect(
      await within(form).findByText(INVOICE_MESSAGES.aboveBalance('KES 30,000')),
    ).toBeInTheDocument();
    expect(sent).toEqual([]);
    fireEvent.click(within(form).getByLabelText('Part of it is an excess'));
    fireEvent.click(within(form).getByRole('button', { name: 'Record payment' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          path: `/api/invoices/${INVOICE_ID}/payments`,
          body: { amount: 35000, reference: 'FT1', paidOn: shopToday(), excess: true },
        },
      ]),
    );
  });

  it("shows the API's refusal under the form, and the form is disabled while it sends", async () => {
    let release: (r: Response) => void = () => undefined;
    const words = INVOICE_MESSAGES.referenceUsed('FT1', 'INV-000041');
    answer(createInvoice(), createInvoice(), () => new Promise((resolve) => (release = resolve)));
    render();
    const form = await screen.findByRole('form', { name: 'Record a bank payment' });
    fireEvent.change(within(form).getByLabelText('Amount (KES)'), { target: { value: '1000' } });
    fireEvent.change(within(form).getByLabelText('Bank reference'), { target: { value: 'FT1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Record payment' }));
    await waitFor(() => expect(within(form).getByLabelText('Bank reference')).toBeDisabled());
    expect(within(form).getByLabelText('Amount (KES)')).toBeDisabled();
    expect(within(form).getByRole('button', { name: 'Record payment' })).toBeDisabled();
    release(json(409, { success: false, statusCode: 409, code: 'CONFLICT', message: words }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(words);
    expect(within(form).getByLabelText('Bank reference')).toBeEnabled();
  });

  it('fills 2 % of the total as tax withheld, which the clerk may change, and records it', async () => {
    const sent = answer(createInvoice({ total: 123_456, balance: 123_456 }));
    render();
    const form = await screen.findByRole('form', { name: 'Record tax withheld' });
    fireEvent.click(within(form).getByRole('button', { name: '2 %' }));
    await waitFor(() => expect(within(form).getByLabelText('Amount (KES)')).toHaveValue('2,469'));
    fireEvent.change(within(form).getByLabelText('Amount (KES)'), { target: { value: '2470' } });
    fireEvent.change(within(form).getByLabelText('Certificate number'), {
      target: { value: 'WHT-0099812' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Record tax withheld' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          path: `/api/invoices/${INVOICE_ID}/withholding`,
          body: { amount: 2470, certificate: 'WHT-0099812' },
        },
      ]),
    );
  });

  it('issues a credit note with its reason, never above what is left to credit', async () => {
    const sent = answer(createInvoice({ credited: 90_000, balance: 10_000 }));
    render();
    const form = await screen.findByRole('form', { name: 'Issue a credit note' });
    expect(
      within(within(form).getByLabelText('Reason'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Pick a reason', 'Short delivery', 'Seedlings returned', 'Price correction']);
    fireEvent.change(within(form).getByLabelText('Reason'), { target: { value: 'return' } });
    fireEvent.change(within(form).getByLabelText('Amount (KES)'), { target: { value: '12000' } });
    fireEvent.change(within(form).getByLabelText(/Note/), {
      target: { value: 'Twelve trays came back wilted' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Issue credit note' }));
    expect(
      await within(form).findByText(INVOICE_MESSAGES.creditAboveInvoice('KES 10,000')),
    ).toBeInTheDocument();
    expect(sent).toEqual([]);
    fireEvent.change(within(form).getByLabelText('Amount (KES)'), { target: { value: '10000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Issue credit note' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          path: `/api/invoices/${INVOICE_ID}/credit-notes`,
          body: { reason: 'return', amount: 10000, note: 'Twelve trays came back wilted' },
        },
      ]),
    );
  });

  it('hides the payment forms once it is settled, keeping the credit note while some is creditable', async () => {
    answer(createInvoice({ state: 'Paid', paid: 100_000, balance: 0 }));
    render();
    expect(await screen.findByRole('form', { name: 'Issue a credit note' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Record a bank payment' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Record tax withheld' })).toBeNull();
    expect(screen.getByText(/The invoice is settled/)).toBeInTheDocument();
  });

  it('offers no form on an invoice credited in full', async () => {
    answer(createInvoice({ state: 'Credited', credited: 100_000, balance: 0 }));
    render();
    expect(await screen.findByRole('heading', { name: 'INV-000042' })).toBeInTheDocument();
    expect(screen.queryAllByRole('form')).toHaveLength(0);
  });

  it('shows an overdue invoice in red with its days, and the reminders sent', async () => {
    answer(
      createInvoice({
        overdue: true,
        daysOverdue: 9,
        reminders: [{ kind: 'due', at: '2026-12-20T06:00:00.000Z' }],
      }),
    );
    render();
    expect(await screen.findByText('Overdue · 9 days')).toBeInTheDocument();
    expect(section('Reminders sent')).toHaveTextContent('On the due date');
  });

  it('says when there is no such invoice', async () => {
    jest.spyOn(global, 'fetch').mockImplementation(async () =>
      json(404, {
        success: false,
        statusCode: 404,
        code: 'NOT_FOUND',
        message: INVOICE_MESSAGES.notFound,
      }),
    );
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent(INVOICE_MESSAGES.notFound);
  });
});
