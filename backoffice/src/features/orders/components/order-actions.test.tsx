import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OrderStatus, PaymentStatus } from '@spc/shared-contracts';
import {
  createBooking,
  createMoneyEntry,
  createOrder,
  createOrderMoney,
} from '../../../testing/factories';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { OrderActions } from './order-actions';

async function openMenu(status: OrderStatus, payment: PaymentStatus = 'Pending') {
  renderWithProviders(
    <OrderActions
      order={createOrder({ orderStatus: status, paymentStatus: payment })}
      role="staff"
    />,
  );
  fireEvent.click(screen.getByRole('button', { name: /actions for order/i }));
  await screen.findByRole('menuitem', { name: 'Complete Payment' });
}

const enabled = (name: string) =>
  !screen.getByRole('menuitem', { name }).hasAttribute('data-disabled');

describe('order actions', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  it.each([
    // status, payment, Complete Payment, In transit, Fulfill Order, Cancel Order
    ['Pending', 'Pending', true, true, false, true],
    ['Processing', 'Paid', false, true, false, true],
    ['InTransit', 'Pending', true, false, false, false],
    ['InTransit', 'Paid', false, false, true, false],
    ['Delivered', 'Paid', false, false, true, false],
    ['Completed', 'Paid', false, false, false, false],
    ['Cancelled', 'Pending', false, false, false, false],
  ] as const)(
    'for a %s order with payment %s offers pay=%s, transit=%s, fulfil=%s, cancel=%s',
    async (status, payment, pay, transit, fulfil, cancel) => {
      await openMenu(status, payment);
      expect(enabled('Complete Payment')).toBe(pay);
      expect(enabled('In transit')).toBe(transit);
      expect(enabled('Fulfill Order')).toBe(fulfil);
      expect(enabled('Cancel Order')).toBe(cancel);
    },
  );

  it('gives the reason of a disabled action', async () => {
    await openMenu('InTransit', 'Pending');
    expect(screen.getByTestId('reason-fulfil')).toHaveAttribute(
      'aria-label',
      'Complete the payment before fulfilling this order',
    );
  });

  it.each([
    ['Booked', "This booking's batch is not ready yet (expected 12/03/2027)"],
    ['Balance due', 'Record the balance of this booking before it goes out'],
    ['Affected', 'This booking is affected: it does not go out'],
  ])('keeps a %s booking from going in transit, saying why', async (state, reason) => {
    renderWithProviders(
      <OrderActions
        order={createOrder({ booking: createBooking({ state }) } as never)}
        role="staff"
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: /actions for order/i }));
    await screen.findByRole('menuitem', { name: 'In transit' });
    expect(enabled('In transit')).toBe(false);
    expect(screen.getByTestId('reason-inTransit')).toHaveAttribute('aria-label', reason);
  });

  it('takes no payment on an affected booking', async () => {
    renderWithProviders(
      <OrderActions
        order={createOrder({ booking: createBooking({ state: 'Affected' }) } as never)}
        role="staff"
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: /actions for order/i }));
    await screen.findByRole('menuitem', { name: 'Complete Payment' });
    expect(enabled('Complete Payment')).toBe(false);
    expect(screen.getByTestId('reason-completePayment')).toHaveAttribute(
      'aria-label',
      'This booking is affected: it takes no payment',
    );
  });

  it('prefills Complete Payment with the balance of a booking whose deposit is paid', async () => {
    renderWithProviders(
      <OrderActions
        order={createOrder({
          totalAmount: 15000,
          amountPaid: 4500,
          amountDueNow: 10500,
          booking: createBooking({ state: 'Balance due', depositPaidAt: '2027-01-10T07:00:00Z' }),
        } as never)}
        role="staff"
        layout="buttons"
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Complete Payment' }));
    const dialog = await screen.findByRole('dialog', { name: /^Complete Payment/ });
    expect(dialog).toHaveTextContent(
      'Balance of the booking KSH 10,500 (order total KSH 15,000, deposit paid)',
    );
    expect(within(dialog).getByLabelText('Amount')).toHaveValue('KSH 10,500');
  });

  it('lets a paid booking go in transit', async () => {
    renderWithProviders(
      <OrderActions
        order={createOrder({
          orderStatus: 'Processing',
          paymentStatus: 'Paid',
          booking: createBooking({ state: 'Paid' }),
        } as never)}
        role="staff"
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: /actions for order/i }));
    await screen.findByRole('menuitem', { name: 'In transit' });
    expect(enabled('In transit')).toBe(true);
  });

  describe('an order delivered in tranches', () => {
    const buttons = (orderStatus: OrderStatus, paymentStatus: PaymentStatus = 'Paid') =>
      renderWithProviders(
        <OrderActions
          order={createOrder({ orderStatus, paymentStatus, inTranches: true, onAccount: true })}
          role="staff"
          layout="buttons"
        />,
      );
    const button = (name: string) => screen.getByRole('button', { name });

    it('refuses Confirm Delivery and Fulfill Order while its tranches are on their way, saying why', () => {
      buttons('InTransit');
      expect(button('Confirm Delivery')).toBeDisabled();
      expect(button('Fulfill Order')).toBeDisabled();
      expect(screen.getByTestId('reason-confirmDelivery')).toHaveTextContent(
        "Order SPDBMUYD9PD is delivered in tranches: record each tranche's signed delivery note",
      );
      expect(screen.getByTestId('reason-fulfil')).toHaveTextContent(
        'some are not delivered yet: record their signed notes before completing it',
      );
    });

    it('refuses sending the whole order out: each tranche is dispatched from the desk', () => {
      buttons('Processing');
      expect(button('In transit')).toBeDisabled();
      expect(screen.getByTestId('reason-inTransit')).toHaveTextContent(
        'dispatch each tranche from the dispatch desk',
      );
    });

    it('lets it be completed once every tranche is delivered', () => {
      buttons('Delivered');
      expect(button('Fulfill Order')).toBeEnabled();
      expect(button('Confirm Delivery')).toBeDisabled();
    });

    it("keeps the order's own reason where its rules refuse first", () => {
      buttons('Completed');
      expect(screen.getByTestId('reason-inTransit')).not.toHaveTextContent('tranches');
    });
  });

  it('shows admins no menu at all', () => {
    renderWithProviders(<OrderActions order={createOrder()} role="admin" />);
    expect(screen.queryByRole('button', { name: /actions for order/i })).not.toBeInTheDocument();
  });

  it('asks to confirm moving in transit and shows the server refusal', async () => {
    const fetchMock = jest.spyOn(global, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({
          success: false,
          statusCode: 409,
          message: 'This order is already in transit',
        }),
        { status: 409, headers: { 'Content-Type': 'application/json' } },
      ),
    );
    await openMenu('Pending');
    fireEvent.click(screen.getByRole('menuitem', { name: 'In transit' }));
    expect(
      await screen.findByText(
        'are you sure you want to move to in transit this order (SPDBMUYD9PD)?',
      ),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'yes' }));
    expect(await screen.findByText('This order is already in transit')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(request.method).toBe('PATCH');
    expect(request.url).toMatch(/\/api\/orders\/inTransit\/6650f0c2a1b2c3d4e5f60001$/);
  });

  describe('cancelling a paid order', () => {
    const paidOrder = () =>
      createOrder({
        orderStatus: 'Processing',
        paymentStatus: 'Paid',
        paymentMethod: 'Mpesa',
        amountPaid: 1270,
        paymentDetails: {
          amount: 1270,
          transactionCode: 'SGR4T5Y6U7',
          timePaid: '2026-11-22T08:00:00.000Z',
          completedBy: { _id: 'u2', fullName: 'Wanjiru Staff' },
        },
        paidAt: '2026-11-22T08:00:00.000Z',
      });

    const reply = (status: number, body: object) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });

    /**
     * The API as the dialog meets it: the order's detail (its money from the ledger: KES 1,270
     * typed at the desk, KES 270 of it already given back by hand), then the cancel's answer.
     */
    function api(
      cancel: () => Response | Promise<Response>,
      money = createOrderMoney([
        createMoneyEntry({ returned: 270 }),
        createMoneyEntry({
          id: 'out:1',
          direction: 'out',
          kind: 'mpesa-by-hand',
          amount: 270,
          code: null,
          reference: 'RVS0000001',
          of: 'desk:SGR4T5Y6U7',
          state: 'recorded',
        }),
      ]),
    ) {
      return jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
        const req = input as Request;
        if (req.method === 'GET' && /\/api\/orders\/[^/]+\/detail$/.test(req.url))
          return reply(200, {
            success: true,
            message: 'Order retrieved',
            order: paidOrder(),
            timeline: [],
            actions: [],
            documents: { receipt: { available: true }, deliveryNote: { available: true } },
            money,
            etims: [],
            shop: { name: 'SPC', place: 'Kiambu', phone: '+254700000000', website: 'spc' },
          });
        return cancel();
      });
    }
    const cancels = (fetchMock: jest.SpyInstance) =>
      fetchMock.mock.calls.map((c) => c[0] as Request).filter((r) => r.method === 'PATCH');

    async function openRefund() {
      renderWithProviders(<OrderActions order={paidOrder()} role="staff" />);
      fireEvent.click(screen.getByRole('button', { name: /actions for order/i }));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Cancel Order' }));
      const dialog = await screen.findByRole('dialog', { name: 'Cancel and refund · SPDBMUYD9PD' });
      await within(dialog).findByLabelText(/Refund amount/);
      return dialog;
    }

    it('asks for the refund instead of a plain yes/no, prefilled with what the ledger says may go back', async () => {
      api(() => reply(200, { success: true, message: 'Order cancelled' }));
      const dialog = await openRefund();
      expect(dialog).toHaveTextContent('This order is paid');
      expect(dialog).toHaveTextContent(
        'KSH 1,000 was received (M-Pesa at the desk SGR4T5Y6U7) and not given back',
      );
      expect(within(dialog).getByLabelText(/Refund amount/)).toHaveValue('KSH 1,000');
      expect(within(dialog).getByLabelText('Refund method')).toHaveValue('Mpesa');
      expect(screen.queryByText(/are you sure you want to cancel/)).not.toBeInTheDocument();
    });

    it('says so while it reads the money, and why when it cannot', async () => {
      let answer!: (r: Response) => void;
      jest
        .spyOn(global, 'fetch')
        .mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
      renderWithProviders(<OrderActions order={paidOrder()} role="staff" />);
      fireEvent.click(screen.getByRole('button', { name: /actions for order/i }));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Cancel Order' }));
      const dialog = await screen.findByRole('dialog', { name: /Cancel and refund/ });
      expect(within(dialog).getByRole('status')).toHaveTextContent('Reading what was received');
      answer(reply(500, { success: false, statusCode: 500, message: 'The ledger is away' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('The ledger is away');
      expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeEnabled();
      expect(within(dialog).queryByRole('button', { name: 'Cancel and refund' })).toBeNull();
    });

    it('needs the M-Pesa reversal code and the refundable amount before sending anything', async () => {
      const fetchMock = api(() => reply(200, { success: true, message: 'Order cancelled' }));
      const dialog = await openRefund();
      fireEvent.change(within(dialog).getByLabelText(/Refund amount/), {
        target: { value: '1270' },
      });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel and refund' }));
      expect(
        await within(dialog).findByText(
          'An M-Pesa refund needs its reference (the reversal or transaction code)',
        ),
      ).toBeInTheDocument();
      expect(
        within(dialog).getByText('The refund must be the amount paid, KES 1,000'),
      ).toBeInTheDocument();
      expect(cancels(fetchMock)).toHaveLength(0);
    });

    it('sends the cancel with the refund, disabled while it is on its way', async () => {
      let answer!: (r: Response) => void;
      const fetchMock = api(() => new Promise<Response>((resolve) => (answer = resolve)));
      const dialog = await openRefund();
      fireEvent.change(within(dialog).getByLabelText(/M-Pesa reversal code/), {
        target: { value: ' RVS8K2L1M0 ' },
      });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel and refund' }));
      await waitFor(() => expect(cancels(fetchMock)).toHaveLength(1));
      const request = cancels(fetchMock)[0]!;
      expect(request.url).toMatch(/\/api\/orders\/cancel\/6650f0c2a1b2c3d4e5f60001$/);
      expect(await request.clone().json()).toEqual({
        refund: { method: 'Mpesa', amount: 1000, reference: 'RVS8K2L1M0' },
      });
      await waitFor(() =>
        expect(within(dialog).getByRole('button', { name: 'Keep order' })).toBeDisabled(),
      );
      expect(within(dialog).getByLabelText(/M-Pesa reversal code/)).toBeDisabled();
      answer(reply(200, { success: true, message: 'Order cancelled' }));
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: /Cancel and refund/ })).not.toBeInTheDocument(),
      );
    });

    it('sends the refund through M-Pesa without a code when the clerk asks it to', async () => {
      const fetchMock = api(() => reply(200, { success: true, message: 'Order cancelled' }));
      const dialog = await openRefund();
      fireEvent.click(within(dialog).getByLabelText(/Send it back through M-Pesa/));
      expect(within(dialog).queryByLabelText(/M-Pesa reversal code/)).not.toBeInTheDocument();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel and refund' }));
      await waitFor(() => expect(cancels(fetchMock)).toHaveLength(1));
      expect(await cancels(fetchMock)[0]!.clone().json()).toEqual({
        refund: { method: 'Mpesa', amount: 1000, send: true },
      });
    });

    it('shows the server refusal and keeps the form open', async () => {
      const refusal =
        'A payment typed at the desk has no number to send to: reverse SGR4T5Y6U7 whole, or record the refund by hand';
      api(() => reply(400, { success: false, statusCode: 400, message: refusal }));
      const dialog = await openRefund();
      fireEvent.click(within(dialog).getByLabelText(/Send it back through M-Pesa/));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel and refund' }));
      expect(await screen.findByText(refusal)).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Cancel and refund' })).toBeEnabled();
    });

    it('cancels without a refund when everything received was given back already', async () => {
      const fetchMock = api(
        () => reply(200, { success: true, message: 'Order cancelled' }),
        createOrderMoney([createMoneyEntry({ returned: 1270 })], { refunded: 1270, refundable: 0 }),
      );
      renderWithProviders(<OrderActions order={paidOrder()} role="staff" />);
      fireEvent.click(screen.getByRole('button', { name: /actions for order/i }));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Cancel Order' }));
      const dialog = await screen.findByRole('dialog', { name: /Cancel and refund/ });
      expect(
        await within(dialog).findByText(/The KSH 1,270 received was given back already/),
      ).toBeInTheDocument();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
      await waitFor(() => expect(cancels(fetchMock)).toHaveLength(1));
      expect(cancels(fetchMock)[0]!.headers.get('content-length') ?? '0').toBe('0');
    });
  });

  it("shows the API's refusal of an M-Pesa code already recorded, naming its order", async () => {
    const taken =
      'The transaction code SGR4T5Y6U7 is already recorded for order SPD7K3MX9QA. Check the code on the M-Pesa message.';
    jest
      .spyOn(global, 'fetch')
      .mockResolvedValue(
        new Response(
          JSON.stringify({ success: false, statusCode: 409, code: 'CODE_TAKEN', message: taken }),
          { status: 409, headers: { 'Content-Type': 'application/json' } },
        ),
      );
    renderWithProviders(<OrderActions order={createOrder()} role="staff" layout="buttons" />);
    fireEvent.click(screen.getByRole('button', { name: 'Complete Payment' }));
    const dialog = await screen.findByRole('dialog', { name: /^Complete Payment/ });
    fireEvent.change(within(dialog).getByLabelText('Payment Method'), {
      target: { value: 'Mpesa' },
    });
    fireEvent.change(within(dialog).getByLabelText(/Transaction Code/), {
      target: { value: 'SGR4T5Y6U7' },
    });
    fireEvent.change(within(dialog).getByLabelText(/Time Paid/), {
      target: { value: '2026-11-22T10:00' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Complete Payment' }));
    expect(await screen.findByText(taken)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: /^Complete Payment/ })).toBeInTheDocument();
  });

  it('keeps the plain confirmation for an unpaid order', async () => {
    await openMenu('Pending');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Cancel Order' }));
    expect(
      await screen.findByText('are you sure you want to cancel this order (SPDBMUYD9PD)?'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Cancel and refund')).not.toBeInTheDocument();
  });
});
