import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { shopToday } from '@spc/shared-contracts';
import { useSessionStore } from '../../../stores/session-store';
import { fakeJwt, mockFetch, renderWithProviders } from '../../../testing/render';
import { mine } from '../../../testing/quotations';
import { createInvoice, createStatement, invoiceList } from '../../../testing/invoices';
import { delivered, standing } from '../../../testing/tranches';
import { MyOrganisationRoute } from '../routes/my-organisation';

const user = {
  _id: 'u1',
  fullName: 'Achieng Otieno',
  email: 'a@example.co.ke',
  role: 'customer' as const,
};
const ok = (body: object) => ({ body: { success: true, message: 'Done', ...body } });
const notFound = (message: string) => ({
  status: 404,
  body: { success: false, code: 'NOT_FOUND', message },
});

const open = (path: string) =>
  renderWithProviders(<MyOrganisationRoute />, {
    path: `/user/organisation${path}`,
    route: '/user/organisation',
  });
const query = (req: Request) => Object.fromEntries(new URL(req.url).searchParams);

/** Saves what the page hands the browser as a download: the names given. */
function catchDownloads() {
  URL.createObjectURL = jest.fn(() => 'blob:file');
  URL.revokeObjectURL = jest.fn();
  const names: string[] = [];
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download);
  });
  return { names, restore: () => click.mockRestore() };
}

const overdue = createInvoice({
  id: 'inv0',
  number: 'INV-000040',
  tranche: null,
  state: 'Open',
  overdue: true,
  daysOverdue: 12,
  dueDate: '2026-11-17',
  total: 500_000,
  balance: 120_000,
});
const paid = createInvoice({
  id: 'inv9',
  number: 'INV-000039',
  tranche: 1,
  state: 'Paid',
  balance: 0,
});

beforeEach(() =>
  useSessionStore.getState().signIn({ accessToken: fakeJwt(600), refreshToken: 'r', user }),
);

describe("the organisation's invoices (?invoices=<filter>)", () => {
  it('says it is loading, then lists each invoice with its order, tranche, days, money and state', async () => {
    let release!: () => void;
    const { calls } = mockFetch({
      '/api/invoices': async () => {
        await new Promise<void>((r) => (release = r));
        return ok(invoiceList([createInvoice(), overdue, paid]));
      },
    });
    open('?invoices=all');
    expect(await screen.findByText('Loading the invoices…')).toHaveAttribute('role', 'status');
    await waitFor(() => expect(release).toBeDefined());
    release();
    const table = await screen.findByRole('region', { name: 'Invoice list' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[1]).toHaveTextContent(
      'INV-000042SPDAB12CD34T201/12/202631/12/2026KES 740,000KES 400,200Open',
    );
    expect(rows[2]).toHaveTextContent('INV-000040SPDAB12CD34Whole order');
    expect(rows[2]).toHaveTextContent('KES 120,000Overdue · 12 days');
    expect(rows[3]).toHaveTextContent('T1');
    expect(rows[3]).toHaveTextContent('KES 0Paid');
    expect(within(rows[1]!).getByRole('link', { name: 'INV-000042' })).toHaveAttribute(
      'href',
      '/user/organisation?invoice=inv1',
    );
    expect(screen.getByText(/^Owed:/)).toHaveTextContent('Owed: KES 520,200 (3 invoices)');
    expect(query(calls[0]!)).toEqual({ filter: 'all', page: '1', limit: '20' });
    expect(calls[0]!.headers.get('Authorization')).toMatch(/^Bearer /);
  });

  it('shows one filter at a time as tabs, and asks the API for the one chosen', async () => {
    const { calls } = mockFetch({
      '/api/invoices': (req) =>
        ok(invoiceList(query(req).filter === 'overdue' ? [overdue] : [createInvoice(), overdue])),
    });
    open('?invoices=all');
    const tabs = await screen.findByRole('navigation', { name: 'Which invoices' });
    expect(within(tabs).getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page');
    fireEvent.click(within(tabs).getByRole('link', { name: 'Overdue' }));
    expect(await screen.findByText(/^Overdue:/)).toHaveTextContent('Overdue: KES 120,000');
    expect(within(tabs).getByRole('link', { name: 'Overdue' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(
      within(screen.getByRole('region', { name: 'Invoice list' })).getAllByRole('row'),
    ).toHaveLength(2);
    expect(calls.map((c) => query(c).filter)).toEqual(['all', 'overdue']);
  });

  it('takes an unknown filter as all, and pages through the list', async () => {
    const { calls } = mockFetch({
      '/api/invoices': (req) =>
        ok(
          invoiceList([query(req).page === '2' ? paid : createInvoice()], {
            total: 21,
            pages: 2,
            page: Number(query(req).page),
          }),
        ),
    });
    open('?invoices=everything');
    expect(await screen.findByRole('link', { name: 'INV-000042' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByRole('link', { name: 'INV-000039' })).toBeInTheDocument();
    expect(calls.map((c) => [query(c).filter, query(c).page])).toEqual([
      ['all', '1'],
      ['all', '2'],
    ]);
  });

  it('says when there are no invoices yet', async () => {
    mockFetch({ '/api/invoices': () => ok(invoiceList([])) });
    open('?invoices=all');
    expect(await screen.findByText(/^No invoices yet\./)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Invoice list' })).not.toBeInTheDocument();
  });

  it('says in words why it could not load, and tries again', async () => {
    let tries = 0;
    mockFetch({
      '/api/invoices': () => {
        tries += 1;
        return tries === 1
          ? { status: 500, body: { success: false, message: 'The invoices cannot be read now' } }
          : ok(invoiceList([createInvoice()]));
      },
    });
    open('?invoices=open');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The invoices cannot be read now');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'INV-000042' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('one invoice (?invoice=<id>)', () => {
  const full = createInvoice({
    payments: [
      {
        id: 'm1',
        kind: 'paybill',
        amount: 300_000,
        reference: 'TKL7RT61SV',
        at: '2026-12-05T07:30:00.000Z',
        excess: 0,
        by: null,
      },
      {
        id: 'm2',
        kind: 'withholding',
        amount: 14_800,
        reference: 'WHT-2026-0098',
        at: '2026-12-06T07:30:00.000Z',
        excess: 0,
        by: { fullName: 'Clerk', role: 'staff' },
      },
    ],
    creditNotes: [
      {
        id: 'c1',
        number: 'CN-000003',
        reason: 'short',
        amount: 25_000,
        note: '20 trays crushed on the Nyahururu road',
        at: '2026-12-02T09:00:00.000Z',
        by: null,
      },
    ],
  });

  it('shows its lines, money, days, both KRA PINs, LPO, payments, credit notes and how to pay', async () => {
    const { calls } = mockFetch({
      '/api/invoices/inv1': () => ok({ invoice: full }),
      '/api/payments/mpesa/pay-info/SPDAB12CD34': () =>
        ok({
          payable: false,
          paybill: '522533',
          account: 'SPDAB12CD34',
          amountDue: 0,
          lastPrompt: null,
        }),
    });
    open('?invoice=inv1');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Invoice INV-000042' }),
    ).toBeInTheDocument();
    const invoice = screen.getByRole('region', { name: 'The invoice' });
    expect(invoice).toHaveTextContent('OrderSPDAB12CD34 · T2');
    expect(invoice).toHaveTextContent('LPOLPO/GBST/0412');
    expect(invoice).toHaveTextContent('Issued01/12/2026');
    expect(invoice).toHaveTextContent('Due31/12/2026');
    expect(invoice).toHaveTextContent('Green Belt Schools Trust · KRA PIN P051234567X');
    expect(invoice).toHaveTextContent('Seedlings Plant Centre · KRA PIN P000111222A');
    expect(within(invoice).getByRole('list', { name: 'Lines' })).toHaveTextContent(
      'Grevillea robusta (silky oak), nursery-raised in root trainers · Tray of 50580 × KES 1,250KES 725,000',
    );
    expect(invoice).toHaveTextContent(
      'Delivery feeKES 15,000TotalKES 740,000PaidKES 300,000Tax withheldKES 14,800CreditedKES 25,000BalanceKES 400,200',
    );
    expect(await screen.findByTestId('invoice-paying-words')).toHaveTextContent(
      'Pay by M-Pesa: paybill 522533, account INV-000042, amount KES 400,200.',
    );
    const payments = screen.getByRole('region', { name: 'Payments' });
    expect(payments).toHaveTextContent('M-Pesa paybill · TKL7RT61SV');
    expect(payments).toHaveTextContent('KES 300,000');
    expect(payments).toHaveTextContent('Tax withheld · WHT-2026-0098');
    const credits = screen.getByRole('region', { name: 'Credit notes' });
    expect(credits).toHaveTextContent('CN-000003 · Short delivery');
    expect(credits).toHaveTextContent('20 trays crushed on the Nyahururu road');
    expect(
      calls.find((c) => c.url.includes('/api/invoices/inv1'))!.headers.get('Authorization'),
    ).toMatch(/^Bearer /);
  });

  it('says how many days it is overdue, and the account alone when the paybill is not known', async () => {
    mockFetch({
      '/api/invoices/inv0': () => ok({ invoice: overdue }),
      '/api/payments/mpesa/pay-info/SPDAB12CD34': () => notFound('No order with this number'),
    });
    open('?invoice=inv0');
    expect(await screen.findByText('Overdue · 12 days')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'The invoice' })).toHaveTextContent(
      'Due17/11/2026 · 12 days overdue',
    );
    expect(screen.getByTestId('invoice-paying-words')).toHaveTextContent(
      'Pay by M-Pesa with the account INV-000040, amount KES 120,000.',
    );
    expect(screen.getByRole('region', { name: 'Payments' })).toHaveTextContent('No payments yet.');
  });

  it("links the invoice's eTIMS CU number to KRA's check page, with its tax by type", async () => {
    const QR =
      'https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=P000000000Z00ABCDEFGHIJKLMNOP';
    const etims = [
      {
        kind: 'invoice',
        trdInvcNo: 'INV-000123',
        state: 'signed',
        cuInvoiceNo: 'KRACU0100000001/9',
        signature: 'ABCDEFGHIJKLMNOP',
        internalData: 'QRSTUVWXYZ234567QRSTUVWXYZ',
        mrcNo: 'WIS00000001',
        signedAt: '2026-03-01T10:00:05.000Z',
        qrUrl: QR,
        taxes: [
          {
            taxType: 'B',
            label: 'Standard rate 16 %',
            rate: 16,
            amount: 1_234_567,
            taxable: 1_064_281.9,
            tax: 170_285.1,
          },
        ],
        total: { amount: 1_234_567, taxable: 1_064_281.9, tax: 170_285.1 },
      },
    ];
    mockFetch({ '/api/invoices/inv1': () => ok({ invoice: full, etims }) });
    open('?invoice=inv1');
    const link = await screen.findByRole('link', { name: 'eTIMS: KRACU0100000001/9' });
    expect(link).toHaveAttribute('href', QR);
    expect(screen.getByText('Tax KES 170,285.10')).toBeInTheDocument();
  });

  it('shows no eTIMS section for an invoice without documents (eTIMS off)', async () => {
    mockFetch({ '/api/invoices/inv1': () => ok({ invoice: full, etims: [] }) });
    open('?invoice=inv1');
    expect(
      await screen.findByRole('heading', { name: `Invoice ${full.number}` }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/eTIMS/)).not.toBeInTheDocument();
  });

  it('says nothing of paying a paid invoice', async () => {
    mockFetch({ '/api/invoices/inv9': () => ok({ invoice: paid }) });
    open('?invoice=inv9');
    expect(await screen.findByText('Paid', { selector: '.quote-status' })).toBeInTheDocument();
    expect(screen.queryByTestId('invoice-paying-words')).not.toBeInTheDocument();
  });

  it('downloads its PDF signed in, saved as INV-….pdf, the button disabled meanwhile', async () => {
    const { names, restore } = catchDownloads();
    let release!: () => void;
    const { calls } = mockFetch({
      '/api/invoices/inv1': () => ok({ invoice: full }),
      '/api/invoices/inv1/pdf': async () => {
        await new Promise<void>((r) => (release = r));
        return { body: '%PDF-1.7' };
      },
    });
    open('?invoice=inv1');
    fireEvent.click(await screen.findByRole('button', { name: 'Download invoice (PDF)' }));
    expect(screen.getByRole('button', { name: 'Preparing…' })).toBeDisabled();
    await waitFor(() => expect(release).toBeDefined());
    release();
    await waitFor(() => expect(names).toEqual(['INV-000042.pdf']));
    const blob = (URL.createObjectURL as jest.Mock).mock.calls[0][0] as Blob;
    expect(blob.type).toBe('application/pdf');
    expect(calls.find((c) => c.url.endsWith('/pdf'))!.headers.get('Authorization')).toMatch(
      /^Bearer /,
    );
    expect(await screen.findByRole('button', { name: 'Download invoice (PDF)' })).toBeEnabled();
    restore();
  });

  it("says in words why it cannot be shown: another organisation's invoice is not found", async () => {
    mockFetch({ '/api/invoices/other': () => notFound('Invoice not found') });
    open('?invoice=other');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invoice not found');
    expect(screen.getByRole('link', { name: '← Invoices' })).toHaveAttribute(
      'href',
      '/user/organisation?invoices=all',
    );
  });
});

describe('the statement of account (?statement)', () => {
  const today = shopToday();
  const monthStart = `${today.slice(0, 8)}01`;

  it('asks for this month by default, and shows the balances, lines, ageing and what is overdue', async () => {
    const { calls } = mockFetch({
      '/api/organisations/mine': () => ({ body: mine('buyer') }),
      '/api/organisations/o1/statement': () => ok(createStatement()),
    });
    open('?statement');
    expect(await screen.findByText('Loading the statement…')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeDisabled();
    const lines = await screen.findByRole('region', { name: 'Statement lines' });
    const rows = within(lines).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('01/11/2026Opening balanceKES 120,000');
    expect(rows[2]).toHaveTextContent(
      '03/11/2026INV-000040INV-000040Invoice for SPDAB12CD34 T1KES 500,000KES 620,000',
    );
    expect(rows[3]).toHaveTextContent('FT2611200042INV-000040Bank transferKES 200,000KES 420,000');
    expect(rows[4]).toHaveTextContent('29/11/2026Closing balanceKES 420,000');
    const ageing = screen.getByRole('region', { name: 'Ageing' });
    expect(ageing).toHaveTextContent(
      'Current1–30 days31–60 days61–90 days90+ daysKES 300,000KES 0KES 120,000KES 0KES 0',
    );
    expect(screen.getByText(/^Overdue:/)).toHaveTextContent('Overdue: KES 120,000');
    const asked = calls.find((c) => c.url.includes('/statement'))!;
    expect(query(asked)).toEqual({ from: monthStart, to: today, format: 'json' });
    expect(screen.getByLabelText('From')).toHaveValue(monthStart);
    expect(screen.getByLabelText('To')).toHaveValue(today);
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
  });

  it('asks again for the days chosen, and refuses a period that ends before it starts', async () => {
    const { calls } = mockFetch({
      '/api/organisations/mine': () => ({ body: mine('approver') }),
      '/api/organisations/o1/statement': (req) =>
        ok(createStatement({ from: query(req).from!, to: query(req).to! })),
    });
    open('?statement&from=2026-10-01&to=2026-10-31');
    await screen.findByRole('region', { name: 'Statement lines' });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-09-30' } });
    expect(
      await screen.findByText('The first day must be on or before the last day.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-09-01' } });
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Statement lines' })).toHaveTextContent(
        '01/09/2026Opening balance',
      ),
    );
    const asked = calls.filter((c) => c.url.includes('/statement')).map((c) => query(c));
    expect(asked).toEqual([
      { from: '2026-10-01', to: '2026-10-31', format: 'json' },
      { from: '2026-09-01', to: '2026-09-30', format: 'json' },
    ]);
  });

  it('downloads the CSV and the PDF of the period, signed in, named by the PIN and the last day', async () => {
    const { names, restore } = catchDownloads();
    const { calls } = mockFetch({
      '/api/organisations/mine': () => ({ body: mine('buyer') }),
      '/api/organisations/o1/statement': (req) =>
        query(req).format === 'json'
          ? ok(createStatement({ from: '2026-10-01', to: '2026-10-31' }))
          : { body: 'date,reference' },
    });
    open('?statement&from=2026-10-01&to=2026-10-31');
    await screen.findByRole('region', { name: 'Statement lines' });
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(names).toEqual(['statement-P051234567X-2026-10-31.csv']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(names).toHaveLength(2));
    expect(names[1]).toBe('statement-P051234567X-2026-10-31.pdf');
    const files = calls.filter((c) => c.url.includes('/statement') && query(c).format !== 'json');
    expect(files.map((c) => query(c))).toEqual([
      { from: '2026-10-01', to: '2026-10-31', format: 'csv' },
      { from: '2026-10-01', to: '2026-10-31', format: 'pdf' },
    ]);
    expect(files[0]!.headers.get('Authorization')).toMatch(/^Bearer /);
    restore();
  });

  it('says in words why the statement or its file cannot be had', async () => {
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('buyer') }),
      '/api/organisations/o1/statement': (req) =>
        query(req).format === 'json'
          ? ok(createStatement())
          : { status: 400, body: { success: false, message: 'from must be a day, YYYY-MM-DD' } },
    });
    open('?statement');
    await screen.findByRole('region', { name: 'Statement lines' });
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('from must be a day, YYYY-MM-DD')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
  });

  it('shows the error words when the statement cannot be read', async () => {
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('buyer') }),
      '/api/organisations/o1/statement': () => notFound('Organisation not found'),
    });
    open('?statement');
    const statement = await screen.findByRole('region', { name: 'Statement' });
    expect(await within(statement).findByRole('alert')).toHaveTextContent('Organisation not found');
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  });
});

describe("an order's invoices", () => {
  it("an order's deliveries page lists its invoices", async () => {
    mockFetch({
      '/api/orders/ord1/tranches': () => ok(standing([delivered])),
      '/api/orders/ord1/invoices': () => ok({ invoices: [createInvoice()] }),
    });
    open('?order=ord1');
    const section = await screen.findByRole('region', { name: 'Invoices' });
    expect(within(section).getByRole('link', { name: 'INV-000042' })).toHaveAttribute(
      'href',
      '/user/organisation?invoice=inv1',
    );
    expect(section).toHaveTextContent('KES 400,200Open');
  });
});
