import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ORDER_DOCUMENT_MESSAGES } from '@spc/shared-contracts';
import {
  createBooking,
  createMoneyEntry,
  createOrder,
  createOrderDetail,
  createOrderLine,
  createOrderList,
  createOrderMoney,
  type OrderDetailResponseDto,
} from '../../../testing/factories';
import type { Order } from '../../../lib/types';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { MyOrdersRoute } from './my-orders';
import { MyOrderDetailRoute } from './order-detail';
import { OrderDocumentRoute } from './order-document';

const order = (overrides: Partial<Order> = {}) =>
  createOrder({
    _id: 'o1',
    purchaseNumber: 'SPD7K3MX9QA',
    customerName: 'Wanjiku Kamau',
    placedBy: null,
    guestInfo: {
      fullName: 'Wanjiku Kamau',
      phoneNumber: '0722000111',
      email: 'w@example.co.ke',
      county: 'Kiambu',
      subCounty: 'Ruiru',
      ward: 'Gitothua',
      streetAddress: 'Kamakis',
    },
    products: [
      createOrderLine({
        productName: 'Hass Avocado',
        quantity: 3,
        unitPrice: 350,
        lineTotal: 1050,
      }),
    ],
    subtotal: 1050,
    shippingFee: 0,
    totalAmount: 1050,
    delivery: { method: 'delivery', zoneName: 'All of Kenya', days: 3 },
    orderStatus: 'Processing',
    paymentStatus: 'Paid',
    fulfillmentStatus: 'Unfulfilled',
    paymentMethod: 'Mpesa',
    paymentDetails: {
      amount: 1050,
      transactionCode: 'SGH7K2LP9Q',
      timePaid: '2026-03-01T10:00:00.000Z',
      completedBy: { _id: '', fullName: 'Seedling Propagation Centre' },
    },
    paidAt: '2026-03-01T10:00:00.000Z',
    orderDate: '2026-03-01T09:00:00.000Z',
    ...overrides,
  });

const detail = (
  o = order(),
  documents: OrderDetailResponseDto['documents'] = {
    receipt: { available: true },
    deliveryNote: { available: true },
  },
  money = createOrderMoney([createMoneyEntry()]),
  cancel: OrderDetailResponseDto['actions'][number] = {
    action: 'cancel',
    allowed: false,
    reason: 'This order is being processed; please contact the shop to cancel it',
  },
) => ({
  body: createOrderDetail({
    order: o,
    timeline: [
      { step: 'Placed', at: o.orderDate, by: null, text: 'We received your order' },
      { step: 'Payment recorded', at: o.paidAt!, by: null, text: 'Your payment was received' },
    ],
    actions: [cancel],
    documents,
    money,
  }),
});

// The machine running the suite is shared and slow; rendering the detail takes a while there.
jest.setTimeout(20_000);

describe("a customer's order detail", () => {
  it('shows the lines, address, payment and timeline, and downloads the receipt of a paid order', async () => {
    URL.createObjectURL = jest.fn(() => 'blob:receipt');
    URL.revokeObjectURL = jest.fn();
    const { calls } = mockFetch({
      '/api/orders/o1/detail': () => detail(),
      '/api/orders/o1/receipt.pdf': () => ({ body: '%PDF-' }),
    });
    renderWithProviders(<MyOrderDetailRoute />, {
      path: '/user/my-orders/o1',
      route: '/user/my-orders/:id',
    });
    expect(await screen.findByRole('heading', { name: 'Order SPD7K3MX9QA' })).toBeInTheDocument();
    const items = screen.getByRole('region', { name: 'Items' });
    expect(within(items).getByText('Hass Avocado')).toBeInTheDocument();
    expect(within(items).getByText('KES 1,050')).toBeInTheDocument();
    expect(screen.getByText(/Kamakis, Gitothua, Ruiru, Kiambu/)).toBeInTheDocument();
    expect(screen.getByText('SGH7K2LP9Q')).toBeInTheDocument();
    expect(screen.getByText('Your payment was received')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel order' })).toBeDisabled();
    expect(screen.getByText(/please contact the shop to cancel it/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Download receipt (PDF)' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.endsWith('/api/orders/o1/receipt.pdf'))).toBe(true),
    );
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    // No KRA PIN was given: none shown.
    expect(screen.queryByTestId('kra-pin')).toBeNull();
  });

  it('shows the KRA PIN its receipt is a tax invoice to', async () => {
    mockFetch({
      '/api/orders/o1/detail': () => ({
        body: createOrderDetail({ order: { ...order(), kraPin: 'A012345678Z' } }),
      }),
    });
    renderWithProviders(<MyOrderDetailRoute />, {
      path: '/user/my-orders/o1',
      route: '/user/my-orders/:id',
    });
    expect(await screen.findByTestId('kra-pin')).toHaveTextContent('A012345678Z');
    expect(screen.getByText('Tax invoice to KRA PIN')).toBeInTheDocument();
  });

  it("says why an unpaid order's receipt is not there yet", async () => {
    mockFetch({
      '/api/orders/o1/detail': () =>
        detail(
          order({
            paymentStatus: 'Pending',
            paymentMethod: null,
            paymentDetails: null,
            paidAt: null,
          }),
          {
            receipt: { available: false, reason: ORDER_DOCUMENT_MESSAGES.notPaid },
            deliveryNote: { available: false, reason: ORDER_DOCUMENT_MESSAGES.customerNotPaid },
          },
        ),
    });
    renderWithProviders(<MyOrderDetailRoute />, {
      path: '/user/my-orders/o1',
      route: '/user/my-orders/:id',
    });
    expect(await screen.findByRole('button', { name: 'Download receipt (PDF)' })).toBeDisabled();
    expect(screen.getByText(ORDER_DOCUMENT_MESSAGES.notPaid)).toBeInTheDocument();
  });

  it('My Orders links each purchase number to its detail and offers the receipt of paid orders only', async () => {
    mockFetch({
      '/api/orders/user': () => ({
        body: createOrderList([
          order(),
          order({ _id: 'o2', purchaseNumber: 'SPDABCDEFGH', paymentStatus: 'Pending' }),
        ]),
      }),
    });
    renderWithProviders(<MyOrdersRoute />);
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('link', { name: 'SPD7K3MX9QA' })).toHaveAttribute(
      'href',
      '/user/my-orders/o1',
    );
    const paid = within(table).getByText('SPD7K3MX9QA').closest('tr')!;
    const unpaid = within(table).getByText('SPDABCDEFGH').closest('tr')!;
    expect(within(paid).getByRole('button', { name: 'Download receipt (PDF)' })).toBeEnabled();
    expect(within(unpaid).queryByRole('button', { name: 'Download receipt (PDF)' })).toBeNull();
  });
});

describe("the eTIMS tax invoice on a customer's order", () => {
  const QR =
    'https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=P000000000Z00ABCDEFGHIJKLMNOP';
  const signed: OrderDetailResponseDto['etims'][number] = {
    kind: 'sale',
    trdInvcNo: 'SPD7K3MX9QA',
    state: 'signed',
    cuInvoiceNo: 'KRACU0100000001/7',
    signature: 'ABCDEFGHIJKLMNOP',
    internalData: 'QRSTUVWXYZ234567QRSTUVWXYZ',
    mrcNo: 'WIS00000001',
    signedAt: '2026-03-01T10:00:05.000Z',
    qrUrl: QR,
    buyer: null,
    taxes: [
      {
        taxType: 'B',
        label: 'Standard rate 16 %',
        rate: 16,
        amount: 1050,
        taxable: 905.17,
        tax: 144.83,
      },
    ],
    total: { amount: 1050, taxable: 905.17, tax: 144.83 },
  };
  const render = (etims: OrderDetailResponseDto['etims']) => {
    mockFetch({
      '/api/orders/o1/detail': () => ({ body: { ...detail().body, etims } }),
    });
    renderWithProviders(<MyOrderDetailRoute />, {
      path: '/user/my-orders/o1',
      route: '/user/my-orders/:id',
    });
  };

  it("links a signed sale's CU number to KRA's check page, with its tax by type", async () => {
    render([signed]);
    const link = await screen.findByRole('link', { name: 'eTIMS: KRACU0100000001/7' });
    expect(link).toHaveAttribute('href', QR);
    const section = screen.getByRole('region', { name: /Tax invoice/ });
    expect(within(section).getByText(/B · Standard rate 16 %: KES 1,050.00/)).toBeInTheDocument();
    expect(within(section).getByText('Tax KES 144.83')).toBeInTheDocument();
    expect(within(section).queryByText('eTIMS pending')).not.toBeInTheDocument();
  });

  it('says "eTIMS pending" for a sale KRA has not signed, with no link', async () => {
    render([
      {
        ...signed,
        state: 'pending',
        cuInvoiceNo: null,
        signature: null,
        internalData: null,
        mrcNo: null,
        signedAt: null,
        qrUrl: null,
      },
    ]);
    expect(await screen.findByText('eTIMS pending')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /eTIMS:/ })).not.toBeInTheDocument();
  });

  it('shows no eTIMS section while the order has no documents (eTIMS off)', async () => {
    render([]);
    expect(await screen.findByRole('heading', { name: 'Order SPD7K3MX9QA' })).toBeInTheDocument();
    expect(screen.queryByText(/eTIMS/)).not.toBeInTheDocument();
  });
});

describe("the money on a customer's order", () => {
  const openDetail = () =>
    renderWithProviders(<MyOrderDetailRoute />, {
      path: '/user/my-orders/o1',
      route: '/user/my-orders/:id',
    });
  const pendingPartPaid = () =>
    order({
      orderStatus: 'Pending',
      paymentStatus: 'Pending',
      paymentMethod: null,
      paymentDetails: null,
      paidAt: null,
      amountPaid: 500,
      amountOutstanding: 550,
    });
  const cancelAllowed = { action: 'cancel', allowed: true } as const;

  it('lists what was received and refunded, when and how, with the totals and no staff', async () => {
    mockFetch({
      '/api/orders/o1/detail': () =>
        detail(
          order({ orderStatus: 'Cancelled' }),
          undefined,
          createOrderMoney([
            createMoneyEntry({ amount: 1_234_567 }),
            createMoneyEntry({
              id: 'out:1',
              direction: 'out',
              kind: 'reversal',
              amount: 1_234_567,
              code: null,
              reference: 'RVS8K2L1M0',
              of: 'c2b:SGH7K2LP9Q',
              at: '2026-03-02T07:15:00.000Z',
              state: 'recorded',
            }),
          ]),
        ),
    });
    openDetail();
    const section = await screen.findByRole('region', { name: 'Payments and refunds' });
    const [paid, back] = within(section).getAllByTestId('money-entry');
    expect(paid).toHaveTextContent('Received · M-Pesa paybill');
    expect(paid).toHaveTextContent('KES 1,234,567');
    expect(paid).toHaveTextContent('01/03/2026 (1:00 PM) · SGH7K2LP9Q');
    expect(back).toHaveTextContent('Refunded · M-Pesa reversal');
    expect(back).toHaveTextContent('− KES 1,234,567');
    expect(back).toHaveTextContent('02/03/2026 (10:15 AM) · RVS8K2L1M0');
    expect(section).toHaveTextContent('ReceivedKES 1,234,567');
    expect(section).toHaveTextContent('RefundedKES 1,234,567');
    expect(section).not.toHaveTextContent(/staff|Wanjiru/i);
  });

  it('says no payment was received yet, and keeps Cancel for a pending order with none', async () => {
    mockFetch({
      '/api/orders/o1/detail': () =>
        detail(
          order({
            orderStatus: 'Pending',
            paymentStatus: 'Pending',
            paymentDetails: null,
            paymentMethod: null,
            paidAt: null,
          }),
          undefined,
          createOrderMoney([]),
          cancelAllowed,
        ),
    });
    openDetail();
    const section = await screen.findByRole('region', { name: 'Payments and refunds' });
    expect(section).toHaveTextContent('No payment received yet');
    expect(screen.getByRole('button', { name: 'Cancel order' })).toBeEnabled();
    expect(screen.queryByTestId('ask-the-shop')).toBeNull();
  });

  it('offers to ask the shop instead of Cancel once money was received on a pending order', async () => {
    mockFetch({
      '/api/orders/o1/detail': () =>
        detail(
          pendingPartPaid(),
          undefined,
          createOrderMoney([createMoneyEntry({ amount: 500 })]),
          cancelAllowed,
        ),
    });
    openDetail();
    const ask = await screen.findByTestId('ask-the-shop');
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(ask).toHaveTextContent('We have received KES 500 on this order');
    expect(ask).toHaveTextContent('it will cancel the order and refund you');
    expect(within(ask).getByRole('link', { name: 'Ask the shop to cancel' })).toHaveAttribute(
      'href',
      '/contactUs?subject=Cancel%20order%20SPD7K3MX9QA%20and%20refund%20me',
    );
  });

  it("shows the API's answer when money came in after the page loaded, Cancel disabled while sending", async () => {
    const refusal =
      'We have received KES 500 on order SPD7K3MX9QA: ask the shop to cancel it, and it will refund you';
    let received = false;
    let answer!: (a: { status: number; body: unknown }) => void;
    mockFetch({
      '/api/orders/o1/detail': () =>
        received
          ? detail(
              pendingPartPaid(),
              undefined,
              createOrderMoney([createMoneyEntry({ amount: 500 })]),
              cancelAllowed,
            )
          : detail(
              order({
                orderStatus: 'Pending',
                paymentStatus: 'Pending',
                paymentDetails: null,
                paymentMethod: null,
                paidAt: null,
              }),
              undefined,
              createOrderMoney([]),
              cancelAllowed,
            ),
      '/api/orders/cancel/o1': () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    openDetail();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByRole('button', { name: 'Cancelling...' })).toBeDisabled();
    received = true;
    answer({
      status: 409,
      body: { success: false, statusCode: 409, code: 'ASK_THE_SHOP', message: refusal },
    });
    const ask = await screen.findByTestId('ask-the-shop');
    expect(within(ask).getByRole('alert')).toHaveTextContent(refusal);
    expect(within(ask).getByRole('link', { name: 'Ask the shop to cancel' })).toBeInTheDocument();
    expect(await screen.findByTestId('money-entry')).toHaveTextContent('Received · M-Pesa paybill');
  });

  it('My Orders sends a customer with money on a pending order to ask the shop', async () => {
    mockFetch({
      '/api/orders/user': () => ({ body: createOrderList([pendingPartPaid()]) }),
    });
    renderWithProviders(<MyOrdersRoute />);
    const card = (await screen.findAllByTestId('order-card'))[0]!;
    expect(within(card).queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(within(card).getByRole('link', { name: 'Ask the shop to cancel' })).toHaveAttribute(
      'href',
      '/contactUs?subject=Cancel%20order%20SPD7K3MX9QA%20and%20refund%20me',
    );
  });
});

describe("an order from an organisation's quotation", () => {
  const fromQuote = () =>
    order({
      orderStatus: 'Pending',
      paymentStatus: 'Pending',
      paymentDetails: null,
      paymentMethod: null,
      paidAt: null,
      quotation: {
        quotationId: 'q1',
        organisationId: 'org1',
        lpoNumber: 'KCG/LPO/2026/0777',
        lpoScan: null,
      },
    });
  const reason =
    "This order was made from a quotation with LPO KCG/LPO/2026/0777: ask the shop to cancel it, in the quotation's messages";

  it('offers no Cancel: it says why and links to the quotation to write to the shop', async () => {
    mockFetch({
      '/api/orders/o1/detail': () =>
        detail(fromQuote(), undefined, createOrderMoney([]), {
          action: 'cancel',
          allowed: false,
          reason,
          code: 'ASK_THE_SHOP',
        }),
    });
    renderWithProviders(<MyOrderDetailRoute />, {
      path: '/user/my-orders/o1',
      route: '/user/my-orders/:id',
    });
    const ask = await screen.findByTestId('ask-the-shop');
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(ask).toHaveTextContent(reason);
    const quote = screen.getByRole('region', { name: 'From a quotation' });
    expect(quote).toHaveTextContent('LPO KCG/LPO/2026/0777');
    expect(quote).toHaveTextContent('Paid up front, like any order.');
    expect(within(quote).getByRole('link', { name: 'The quotation' })).toHaveAttribute(
      'href',
      '/user/organisation?quotation=q1',
    );
    expect(within(ask).getByRole('link', { name: 'Write to the shop' })).toHaveAttribute(
      'href',
      '/user/organisation?quotation=q1',
    );
  });

  it('says an order on account is paid by its invoice', async () => {
    mockFetch({
      '/api/orders/o1/detail': () =>
        detail({ ...fromQuote(), onAccount: true }, undefined, createOrderMoney([]), {
          action: 'cancel',
          allowed: false,
          reason,
          code: 'ASK_THE_SHOP',
        }),
    });
    renderWithProviders(<MyOrderDetailRoute />, {
      path: '/user/my-orders/o1',
      route: '/user/my-orders/:id',
    });
    const quote = await screen.findByRole('region', { name: 'From a quotation' });
    expect(quote).toHaveTextContent('On account: your organisation pays it by its invoice.');
    expect(within(quote).queryByRole('link', { name: 'its deliveries' })).toBeNull();
  });

  it('links an order delivered in loads to its deliveries in the organisation area', async () => {
    mockFetch({
      '/api/orders/o1/detail': () =>
        detail({ ...fromQuote(), inTranches: true }, undefined, createOrderMoney([]), {
          action: 'cancel',
          allowed: false,
          reason,
          code: 'ASK_THE_SHOP',
        }),
    });
    renderWithProviders(<MyOrderDetailRoute />, {
      path: '/user/my-orders/o1',
      route: '/user/my-orders/:id',
    });
    const quote = await screen.findByRole('region', { name: 'From a quotation' });
    expect(within(quote).getByRole('link', { name: 'its deliveries' })).toHaveAttribute(
      'href',
      '/user/organisation?order=o1',
    );
  });

  it('My Orders shows no Cancel on it', async () => {
    mockFetch({ '/api/orders/user': () => ({ body: createOrderList([fromQuote()]) }) });
    renderWithProviders(<MyOrdersRoute />);
    const card = (await screen.findAllByTestId('order-card'))[0]!;
    expect(within(card).getByText('SPD7K3MX9QA')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(within(card).queryByRole('link', { name: 'Ask the shop to cancel' })).toBeNull();
  });
});

describe('a booking on My Orders and its order page', () => {
  const booking = createBooking({
    state: 'Balance due',
    readyAt: '2027-03-10T07:00:00.000Z',
    balanceDueBy: '2027-03-17',
  });
  const bookingOrder = (overrides: Partial<Order> = {}) =>
    order({
      orderStatus: 'Processing',
      paymentStatus: 'Pending',
      paymentMethod: null,
      paymentDetails: null,
      paidAt: null,
      amountPaid: 315,
      amountOutstanding: 735,
      amountDueNow: 735,
      booking,
      ...overrides,
    });

  it('shows the ready day, the deposit paid and the balance due, and pays the balance by M-Pesa', async () => {
    const { calls } = mockFetch({
      '/api/orders/o1/detail': () => detail(bookingOrder()),
      '/api/payments/mpesa/pay-info/SPD7K3MX9QA': () => ({
        body: {
          success: true,
          message: 'ok',
          payable: true,
          paybill: '174379',
          account: 'SPD7K3MX9QA',
          amountDue: 735,
          lastPrompt: null,
        },
      }),
      '/api/payments/mpesa/stk-push': () => ({
        body: { success: true, message: 'Prompt sent', checkoutRequestId: 'ws_CO_1' },
      }),
      '/api/payments/mpesa/status/ws_CO_1': () => ({
        body: { success: true, status: 'pending', message: 'Waiting' },
      }),
    });
    renderWithProviders(<MyOrderDetailRoute />, {
      path: '/user/my-orders/o1',
      route: '/user/my-orders/:id',
    });
    const facts = await screen.findByTestId('booking-facts');
    expect(facts).toHaveTextContent('Ready from 12 March');
    expect(facts).toHaveTextContent('Ready: balance due');
    expect(facts).toHaveTextContent('Deposit paid: KES 315 (30 %)');
    expect(facts).toHaveTextContent('Balance due: KES 735 by 17 March');
    fireEvent.click(await screen.findByRole('button', { name: 'Pay the balance with M-Pesa' }));
    expect(screen.getByTestId('paybill-instructions')).toHaveTextContent('KES 735');
    fireEvent.click(screen.getByRole('button', { name: 'Send prompt' }));
    expect(await screen.findByText(/A prompt for KES 735 was sent/)).toBeInTheDocument();
    expect(calls.some((c) => c.url.endsWith('/api/payments/mpesa/stk-push'))).toBe(true);
  });

  it('My Orders shows a booking paid in full on its card', async () => {
    mockFetch({
      '/api/orders/user': () => ({
        body: createOrderList([
          bookingOrder({
            booking: { ...booking, state: 'Paid', balancePaidAt: '2027-03-11T07:00:00.000Z' },
          }),
        ]),
      }),
    });
    renderWithProviders(<MyOrdersRoute />);
    const card = (await screen.findAllByTestId('order-card'))[0]!;
    expect(within(card).getByText('Ready from 12 March')).toBeInTheDocument();
    expect(within(card).getByText('Paid in full')).toBeInTheDocument();
    expect(within(card).getByText('Deposit paid: KES 315 (30 %)')).toBeInTheDocument();
    expect(within(card).getByText('Balance paid: KES 735')).toBeInTheDocument();
  });
});

describe("the payment e-mail's receipt link", () => {
  it('sends the signed parameters to the API and shows its refusal when the link has expired', async () => {
    const { calls } = mockFetch({
      '/api/orders/o1/receipt.pdf': () => ({
        status: 410,
        body: {
          success: false,
          message: ORDER_DOCUMENT_MESSAGES.linkExpired,
          code: 'LINK_EXPIRED',
        },
      }),
    });
    renderWithProviders(<OrderDocumentRoute />, {
      path: '/orders/o1/receipt?expires=123&signature=abc',
      route: '/orders/:id/:document',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(ORDER_DOCUMENT_MESSAGES.linkExpired);
    const url = new URL(calls[0]!.url);
    expect(url.searchParams.get('expires')).toBe('123');
    expect(url.searchParams.get('signature')).toBe('abc');
    expect(calls[0]!.headers.has('Authorization')).toBe(false);
  });

  it('offers the PDF when the API answers it', async () => {
    URL.createObjectURL = jest.fn(() => 'blob:receipt');
    mockFetch({ '/api/orders/o1/receipt.pdf': () => ({ body: '%PDF-' }) });
    renderWithProviders(<OrderDocumentRoute />, {
      path: '/orders/o1/receipt?expires=123&signature=abc',
      route: '/orders/:id/:document',
    });
    expect(await screen.findByRole('link', { name: 'Download receipt (PDF)' })).toHaveAttribute(
      'href',
      'blob:receipt',
    );
  });
});
