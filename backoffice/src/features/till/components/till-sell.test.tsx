import { fireEvent, screen, within } from '@testing-library/react';
import { formatMoney, TILL_MESSAGES } from '@spc/shared-contracts';
import { createProduct } from '../../../testing/factories';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { createTillSale, fakeApi, json, SALE_ID, SESSION_ID } from '../../../testing/till';
import { useBasketStore } from '../stores/basket-store';
import { TillSell } from './till-sell';

const PRODUCT_ID = '6650f0c2a1b2c3d4e5f6a001';
const TRAY_ID = '6650f0c2a1b2c3d4e5f6a0aa';

/** Kale sold singly from 10 in steps of 10 (KES 30), and by the tray of 50 (KES 1,500). */
const kale = createProduct({
  units: [
    {
      _id: PRODUCT_ID,
      name: 'Single seedling',
      seedlings: 1,
      price: 30,
      offerPrice: 0,
      sku: '',
      minQuantity: 10,
      step: 10,
      tiers: [],
    },
    {
      _id: TRAY_ID,
      name: 'Tray of 50',
      seedlings: 50,
      price: 1500,
      offerPrice: 0,
      sku: '',
      minQuantity: 1,
      step: 1,
      tiers: [{ minQuantity: 10, price: 1400 }],
    },
  ],
});

const products = () =>
  json(200, { success: true, message: '', products: [kale], totalPages: 1, totalProducts: 1 });

const render = () => {
  signInAs('staff');
  return renderWithProviders(<TillSell sessionId={SESSION_ID} />);
};

const SINGLES = 'Single seedling of Kale Sukuma Wiki';
const TRAYS = 'Tray of 50 of Kale Sukuma Wiki';
const charge = () => screen.getByRole('button', { name: /^Charge/ });

/** 3 trays (KES 4,500) and 20 singles (KES 600) in the basket. */
async function fillBasket() {
  const add = async (name: string) =>
    fireEvent.click(await screen.findByRole('button', { name: `Add ${name}` }));
  await add(TRAYS);
  await add(TRAYS);
  await add(TRAYS);
  await add(SINGLES);
  fireEvent.click(screen.getByRole('button', { name: `More ${SINGLES}` }));
}

describe('selling at the till', () => {
  beforeEach(() => useBasketStore.getState().clear());
  afterEach(() => jest.restoreAllMocks());

  it('keeps quantities to the unit’s minimum and step, and says the rule', async () => {
    fakeApi(({ path }) => (path.startsWith('/api/products') ? products() : undefined));
    render();
    fireEvent.click(await screen.findByRole('button', { name: `Add ${SINGLES}` }));
    const quantity = screen.getByRole('textbox', { name: `Quantity of ${SINGLES}` });
    expect(quantity).toHaveValue('10');
    const basket = screen.getByRole('region', { name: 'Basket' });
    expect(within(basket).getByText('From 10, in steps of 10')).toBeInTheDocument();
    // At its minimum: no fewer.
    expect(screen.getByRole('button', { name: `Fewer ${SINGLES}` })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: `More ${SINGLES}` }));
    expect(quantity).toHaveValue('20');
    fireEvent.change(quantity, { target: { value: '15' } });
    const offStep = 'Single seedling: in steps of 10 from 10 (10 or 20, not 15)';
    expect(await within(basket).findByRole('alert')).toHaveTextContent(offStep);
    expect(screen.getByTestId('charge-problem')).toHaveTextContent(offStep);
    expect(charge()).toBeDisabled();
    // The buttons step back onto the rule.
    fireEvent.click(screen.getByRole('button', { name: `More ${SINGLES}` }));
    expect(quantity).toHaveValue('20');
    fireEvent.click(screen.getByRole('button', { name: `Fewer ${SINGLES}` }));
    expect(quantity).toHaveValue('10');
  });

  it('shows the change, and keeps "Charge" disabled while the cash given is short', async () => {
    fakeApi(({ path }) => (path.startsWith('/api/products') ? products() : undefined));
    render();
    await fillBasket();
    expect(screen.getByTestId('basket-total')).toHaveTextContent('KES 5,100');
    const short = TILL_MESSAGES.cashShort(formatMoney(5100));
    expect(screen.getByTestId('charge-problem')).toHaveTextContent(short);
    expect(charge()).toBeDisabled();
    const given = screen.getByRole('textbox', { name: 'Cash given' });
    fireEvent.change(given, { target: { value: '5000' } });
    expect(screen.getByTestId('charge-problem')).toHaveTextContent(short);
    expect(charge()).toBeDisabled();
    expect(screen.getByTestId('change')).toHaveTextContent('Change KES 0');
    fireEvent.change(given, { target: { value: '6000' } });
    expect(screen.getByTestId('change')).toHaveTextContent('Change KES 900');
    expect(screen.queryByTestId('charge-problem')).not.toBeInTheDocument();
    expect(charge()).toBeEnabled();
    // A split: the cash part alone is due in cash.
    fireEvent.click(screen.getByRole('button', { name: 'Cash + M-Pesa' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Cash part' }), {
      target: { value: '1000' },
    });
    expect(screen.getByTestId('change')).toHaveTextContent('Change KES 5,000');
    expect(screen.getByText('M-Pesa KES 4,100')).toBeInTheDocument();
  });

  it('sends the same Idempotency-Key again when retried after a network error, even after leaving the page', async () => {
    let tries = 0;
    const seen = fakeApi(({ method, path }) => {
      if (path.startsWith('/api/products')) return products();
      if (method === 'POST' && path === '/api/till/sales') {
        tries += 1;
        if (tries === 1) throw new TypeError('Failed to fetch');
        return json(201, { success: true, message: 'Sale made', sale: createTillSale() });
      }
      if (path === `/api/till/sales/${SALE_ID}`)
        return json(200, { success: true, message: '', sale: createTillSale() });
      return undefined;
    });
    const first = render();
    await fillBasket();
    const giveCash = () =>
      fireEvent.change(screen.getByRole('textbox', { name: 'Cash given' }), {
        target: { value: '6000' },
      });
    giveCash();
    fireEvent.click(charge());
    expect(await screen.findByText('The sale was not made')).toBeInTheDocument();
    // The clerk leaves the till and comes back: the basket is still there, the retry is the same.
    first.unmount();
    render();
    expect(await screen.findByTestId('basket-total')).toHaveTextContent('KES 5,100');
    giveCash();
    fireEvent.click(charge());
    const done = await screen.findByLabelText('Sale done');
    expect(within(done).getByTestId('sale-change')).toHaveTextContent('KES 900');
    expect(within(done).getByRole('link', { name: 'Print receipt' })).toHaveAttribute(
      'href',
      `/till/receipt/${SALE_ID}`,
    );
    const posts = seen.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    const key = posts[0]!.headers.get('Idempotency-Key');
    expect(key).toMatch(/.{8,}/);
    expect(posts[1]!.headers.get('Idempotency-Key')).toBe(key);
    expect(posts[1]!.body).toEqual({
      sessionId: SESSION_ID,
      lines: [
        { productId: PRODUCT_ID, unitId: TRAY_ID, quantity: 3 },
        { productId: PRODUCT_ID, unitId: PRODUCT_ID, quantity: 20 },
      ],
      payments: [{ method: 'cash', amount: 5100, given: 6000 }],
    });
    // The sale is made: its basket is gone (coming back never sells it twice).
    expect(useBasketStore.getState().lines).toEqual([]);
    fireEvent.click(within(done).getByRole('button', { name: 'New sale' }));
    expect(await screen.findByText(/The basket is empty/)).toBeInTheDocument();
  });

  it('prompts the buyer’s phone by M-Pesa and waits until the sale is paid', async () => {
    const waiting = createTillSale({
      state: 'awaiting-payment',
      paid: 0,
      change: 0,
      phone: '+254712345678',
      payments: [
        {
          method: 'mpesa-express',
          amount: 5100,
          given: null,
          change: null,
          code: null,
          state: 'waiting',
        },
      ],
    });
    const paid = createTillSale({
      ...waiting,
      state: 'paid',
      paid: 5100,
      payments: [{ ...waiting.payments[0]!, state: 'received' }],
    });
    let reads = 0;
    const seen = fakeApi(({ method, path }) => {
      if (path.startsWith('/api/products')) return products();
      if (method === 'POST' && path === '/api/till/sales')
        return json(201, { success: true, message: 'Sale made', sale: waiting });
      if (path === `/api/till/sales/${SALE_ID}`) {
        reads += 1;
        return json(200, { success: true, message: '', sale: reads > 1 ? paid : waiting });
      }
      return undefined;
    });
    render();
    await fillBasket();
    fireEvent.click(screen.getByRole('button', { name: 'M-Pesa prompt' }));
    expect(screen.queryByRole('textbox', { name: 'Cash given' })).not.toBeInTheDocument();
    expect(charge()).toBeDisabled();
    fireEvent.change(screen.getByLabelText(/Buyer’s phone/), { target: { value: '0712 345 678' } });
    expect(charge()).toBeEnabled();
    fireEvent.click(charge());
    expect(
      await screen.findByText(/Waiting for the buyer to enter their M-Pesa PIN/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Print receipt' })).not.toBeInTheDocument();
    expect(seen.find((r) => r.method === 'POST')!.body).toMatchObject({
      payments: [{ method: 'mpesa-express', amount: 5100, phone: '254712345678' }],
      phone: '+254712345678',
    });
    // Read again every few seconds until M-Pesa says it is paid.
    expect(
      await screen.findByRole('link', { name: 'Print receipt' }, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sale SPGATE0001' })).toBeInTheDocument();
  }, 15_000);
});
