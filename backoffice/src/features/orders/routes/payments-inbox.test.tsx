import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { PaymentsInboxRoute } from './payments-inbox';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const payment = {
  transId: 'TKL7RT61SV',
  amount: 1270,
  account: 'my seedlings',
  phone: '254712345678',
  payerName: 'John',
  paidAt: '2026-11-25T07:15:00.000Z',
  status: 'inbox',
  reason:
    'No open order has the account number "my seedlings", and no open order has the payer\'s phone',
  purchaseNumber: null,
  matchedBy: null,
  excess: 0,
  refundId: null,
  unconfirmed: false,
};

describe('payments to match', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  it('lists a payment no order took, with why, and assigns it to the order typed', async () => {
    const fetchMock = jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const req = input as Request;
      if (req.method === 'POST')
        return json(200, {
          success: true,
          message: 'Payment credited to order SPDBMUYD9PD',
          payment: { ...payment, status: 'matched', purchaseNumber: 'SPDBMUYD9PD' },
        });
      return json(200, { success: true, message: '', payments: [payment], waiting: 1 });
    });
    renderWithProviders(<PaymentsInboxRoute />);
    expect(await screen.findByText(/TKL7RT61SV/)).toBeInTheDocument();
    expect(screen.getByText(payment.reason)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Purchase number'), {
      target: { value: 'SPDBMUYD9PD' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Assign to order' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([r]) => (r as Request).method === 'POST')).toBe(true),
    );
    const post = fetchMock.mock.calls.map(([r]) => r as Request).find((r) => r.method === 'POST')!;
    expect(post.url).toMatch(/\/api\/payments\/mpesa\/c2b\/TKL7RT61SV\/assign$/);
    expect(await post.clone().json()).toEqual({ purchaseNumber: 'SPDBMUYD9PD' });
  });

  it('offers only Check again for a payment M-Pesa did not confirm, disabled while it asks', async () => {
    const unconfirmed = {
      ...payment,
      transId: 'TKL7RT6XXX',
      account: 'SPDBMUYD9PD',
      reason: 'M-Pesa did not confirm this payment: The transaction is not found',
      unconfirmed: true,
    };
    let answer!: (r: Response) => void;
    const fetchMock = jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const req = input as Request;
      if (req.method === 'POST') return new Promise<Response>((resolve) => (answer = resolve));
      return json(200, {
        success: true,
        message: '',
        payments: [unconfirmed, payment],
        waiting: 2,
      });
    });
    renderWithProviders(<PaymentsInboxRoute />);
    const [first, second] = await screen.findAllByTestId('inbox-payment');
    expect(first).toHaveTextContent(unconfirmed.reason);
    expect(within(first!).queryByRole('button', { name: 'Assign to order' })).toBeNull();
    expect(within(first!).queryByRole('button', { name: 'Refund' })).toBeNull();
    // The other payment keeps its buttons.
    expect(within(second!).getByRole('button', { name: 'Assign to order' })).toBeInTheDocument();
    expect(within(second!).getByRole('button', { name: 'Refund' })).toBeEnabled();

    fireEvent.click(within(first!).getByRole('button', { name: 'Check again' }));
    await waitFor(() =>
      expect(within(first!).getByRole('button', { name: 'Check again' })).toBeDisabled(),
    );
    const post = fetchMock.mock.calls.map(([r]) => r as Request).find((r) => r.method === 'POST')!;
    expect(post.url).toMatch(/\/api\/payments\/mpesa\/c2b\/TKL7RT6XXX\/check$/);
    answer(
      json(200, {
        success: true,
        message: 'Asked M-Pesa again about TKL7RT6XXX',
        payment: { ...unconfirmed, status: 'verifying', reason: '' },
      }),
    );
    expect(await screen.findByText('Asked M-Pesa again about TKL7RT6XXX')).toBeInTheDocument();
  });

  it("shows the API's refusal when M-Pesa checks are off", async () => {
    const unconfirmed = {
      ...payment,
      reason: 'M-Pesa did not confirm this payment in time',
      unconfirmed: true,
    };
    jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const req = input as Request;
      if (req.method === 'POST')
        return json(409, {
          success: false,
          statusCode: 409,
          code: 'CONFLICT',
          message: 'Paybill payments are not checked with M-Pesa (MPESA_C2B_VERIFY is off)',
        });
      return json(200, { success: true, message: '', payments: [unconfirmed], waiting: 1 });
    });
    renderWithProviders(<PaymentsInboxRoute />);
    fireEvent.click(await screen.findByRole('button', { name: 'Check again' }));
    expect(
      await screen.findByText(
        'Paybill payments are not checked with M-Pesa (MPESA_C2B_VERIFY is off)',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check again' })).toBeEnabled();
  });

  it('records an over-payment given back by hand with its code, and sends the code, nothing else', async () => {
    const overpaid = {
      ...payment,
      status: 'matched',
      purchaseNumber: 'SPDBMUYD9PD',
      excess: 250,
      reason: '',
    };
    const fetchMock = jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const req = input as Request;
      if (req.method === 'POST')
        return json(200, {
          success: true,
          message: 'Refund asked for',
          payment: { ...overpaid, refundId: 'excess:TKL7RT61SV' },
        });
      return json(200, { success: true, message: '', payments: [overpaid], waiting: 1 });
    });
    renderWithProviders(<PaymentsInboxRoute />);
    const record = await screen.findByRole('button', { name: 'Record as given back' });
    expect(record).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Given back by hand: M-Pesa code or note'), {
      target: { value: ' SKB3H2J1K0 ' },
    });
    fireEvent.click(record);
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([r]) => (r as Request).method === 'POST')).toBe(true),
    );
    const post = fetchMock.mock.calls.map(([r]) => r as Request).find((r) => r.method === 'POST')!;
    expect(post.url).toMatch(/\/api\/payments\/mpesa\/c2b\/TKL7RT61SV\/refund$/);
    expect(await post.clone().json()).toEqual({ byHand: 'SKB3H2J1K0' });
  });
});
