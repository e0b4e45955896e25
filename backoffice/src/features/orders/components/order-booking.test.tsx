import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createBatch, createBooking, createOrder } from '../../../testing/factories';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { OrderBooking } from './order-booking';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const PRODUCT = '6650f0c2a1b2c3d4e5f6a001';

function bookingOrder(booking: Record<string, unknown>, quantity = 2) {
  const order = createOrder({ totalAmount: 15000, booking: createBooking(booking) } as never);
  order.products = [
    {
      ...order.products[0]!,
      product: { _id: PRODUCT, productName: 'Avocado Hass', productImage: '' },
      quantity,
      unit: { _id: 'u1', name: 'Tray of 50', seedlings: 50 },
    },
  ];
  return order;
}

const posted = (fetchMock: jest.SpyInstance) =>
  fetchMock.mock.calls.map((c) => c[0] as Request).filter((r) => r.method === 'POST');

describe('booking on the order page', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  it('shows the ready date, the deposit due, the balance and the state', () => {
    renderWithProviders(<OrderBooking order={bookingOrder({})} canAct />);
    const card = screen.getByLabelText('Booking');
    expect(card).toHaveTextContent('Deposit due');
    expect(card).toHaveTextContent('Ready date12/03/2027');
    expect(card).toHaveTextContent('Deposit (30 %)KSH 4,500 due');
    expect(card).toHaveTextContent('BalanceKSH 10,500 due when ready');
    expect(within(card).getByRole('link', { name: 'Avocado Hass' })).toHaveAttribute(
      'href',
      '/manage/batches/6650f0c2a1b2c3d4e5f6b001',
    );
  });

  it('shows a paid deposit and the day the balance is due by, with no actions', () => {
    renderWithProviders(
      <OrderBooking
        order={bookingOrder({
          state: 'Balance due',
          depositPaidAt: '2027-01-10T07:00:00.000Z',
          balanceDueBy: '2027-03-19',
        })}
        canAct
      />,
    );
    const card = screen.getByLabelText('Booking');
    expect(card).toHaveTextContent('KSH 4,500 paid 10/01/2027');
    expect(card).toHaveTextContent('KSH 10,500 due by 19/03/2027');
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
  });

  it('records a deposit with the amount prefilled and refuses another amount before sending', async () => {
    const fetchMock = jest
      .spyOn(global, 'fetch')
      .mockResolvedValue(json(200, { success: true, message: 'Deposit recorded' }));
    renderWithProviders(<OrderBooking order={bookingOrder({})} canAct />);
    fireEvent.click(screen.getByRole('button', { name: 'Record deposit' }));
    const dialog = await screen.findByRole('dialog', { name: /^Record deposit/ });
    expect(within(dialog).getByLabelText('Amount')).toHaveValue('KSH 4,500');
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '4000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record deposit' }));
    expect(await within(dialog).findByText('Transaction code is required')).toBeInTheDocument();
    expect(
      within(dialog).getByText('The deposit of this booking is KES 4,500'),
    ).toBeInTheDocument();
    expect(posted(fetchMock)).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '4500' } });
    fireEvent.change(within(dialog).getByLabelText(/Transaction code/), {
      target: { value: 'SGR4T5Y6U7' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record deposit' }));
    expect(await screen.findByText('Deposit recorded')).toBeInTheDocument();
    const request = posted(fetchMock)[0]!;
    expect(request.url).toMatch(/\/api\/orders\/6650f0c2a1b2c3d4e5f60001\/booking\/deposit$/);
    expect(await request.clone().json()).toEqual({ transactionCode: 'SGR4T5Y6U7', amount: 4500 });
  });

  it('shows why a deposit code is refused: the order it is recorded for, the dialog kept open', async () => {
    const taken =
      'The transaction code SGR4T5Y6U7 is already recorded for order SPD7K3MX9QA. Check the code on the M-Pesa message.';
    jest
      .spyOn(global, 'fetch')
      .mockResolvedValue(
        json(409, { success: false, statusCode: 409, code: 'CODE_TAKEN', message: taken }),
      );
    renderWithProviders(<OrderBooking order={bookingOrder({})} canAct />);
    fireEvent.click(screen.getByRole('button', { name: 'Record deposit' }));
    const dialog = await screen.findByRole('dialog', { name: /^Record deposit/ });
    fireEvent.change(within(dialog).getByLabelText(/Transaction code/), {
      target: { value: 'SGR4T5Y6U7' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record deposit' }));
    expect(await screen.findByText(taken)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Record deposit' })).toBeEnabled();
  });

  it('moves an affected booking to a growing batch of the product with room for it', async () => {
    const fetchMock = jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'POST')
        return json(200, { success: true, message: 'Booking moved to the batch ready 02/04/2027' });
      return json(200, {
        success: true,
        message: '',
        totalPages: 1,
        items: [
          createBatch(), // its own batch: not offered
          createBatch({ _id: 'b-small', readyOn: '2027-03-20', available: 60 }),
          createBatch({ _id: 'b-room', readyOn: '2027-04-02', available: 400 }),
        ],
      });
    });
    renderWithProviders(
      <OrderBooking order={bookingOrder({ state: 'Affected', problem: 'failed' })} canAct />,
    );
    expect(screen.getByText(/Its batch failed\./)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Move to another batch' }));
    const dialog = await screen.findByRole('dialog', { name: /^Move to another batch/ });
    const select = await within(dialog).findByLabelText('Batch');
    // 2 trays of 50 need 100 seedlings: the batch with 60 left is not offered.
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a batch', 'Ready 02/04/2027 · 400 available']);
    const list = new URL((fetchMock.mock.calls[0]![0] as Request).url).searchParams;
    expect(list.get('productId')).toBe(PRODUCT);
    expect(list.get('status')).toBe('Growing');
    expect(within(dialog).getByRole('button', { name: 'Move booking' })).toBeDisabled();
    fireEvent.change(select, { target: { value: 'b-room' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move booking' }));
    await waitFor(() => expect(posted(fetchMock)).toHaveLength(1));
    expect(await posted(fetchMock)[0]!.clone().json()).toEqual({ batchId: 'b-room' });
  });

  it('asks before refunding the deposit of an affected booking, in red', async () => {
    const fetchMock = jest
      .spyOn(global, 'fetch')
      .mockResolvedValue(json(200, { success: true, message: 'Deposit refunded' }));
    renderWithProviders(
      <OrderBooking order={bookingOrder({ state: 'Affected', problem: 'short' })} canAct />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Refund deposit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund deposit' });
    expect(dialog).toHaveTextContent(
      'Refund the deposit of KSH 4,500 and cancel order SPDBMUYD9PD? Its seedlings are released and the customer is told by SMS.',
    );
    const yes = within(dialog).getByRole('button', { name: 'Refund deposit' });
    expect(yes.getAttribute('style') ?? '').toMatch(/red/);
    fireEvent.click(yes);
    await waitFor(() => expect(posted(fetchMock)).toHaveLength(1));
    expect(posted(fetchMock)[0]!.url).toMatch(/\/booking\/refund$/);
  });

  it('shows admins the booking without actions', () => {
    renderWithProviders(
      <OrderBooking order={bookingOrder({ state: 'Affected' })} canAct={false} />,
    );
    expect(screen.queryByRole('button', { name: 'Refund deposit' })).not.toBeInTheDocument();
  });
});
