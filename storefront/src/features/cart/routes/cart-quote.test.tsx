import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QUOTATION_MESSAGES } from '@spc/shared-contracts';
import { useCartStore } from '../../../stores/cart-store';
import { useSessionStore } from '../../../stores/session-store';
import { fakeJwt, mockFetch, renderWithProviders } from '../../../testing/render';
import { createQuotation, mine } from '../../../testing/quotations';
import { CartPageRoute } from './cart-page';

const user = {
  _id: 'u1',
  fullName: 'Achieng Otieno',
  email: 'a@example.co.ke',
  role: 'customer' as const,
};
const tray = {
  _id: 'u-tray',
  name: 'Tray of 50',
  seedlings: 50,
  price: 1400,
  offerPrice: 0,
  sku: 'GRV-T50',
  minQuantity: 1,
  step: 1,
  tiers: [],
};
const line = { userId: '', productDescription: 'desc', productImage: '', price: 30 };

beforeEach(() =>
  act(() => {
    localStorage.clear();
    useCartStore.setState({ userId: '', cartItems: [], totalAmount: 0 });
    useCartStore
      .getState()
      .addToCart({ ...line, _id: 'p1', productName: 'Grevillea robusta', unit: tray }, 600);
    useCartStore.getState().addToCart(
      {
        ...line,
        _id: 'p2',
        productName: 'Croton megalocarpus',
        booking: { batchId: 'b1', readyOn: '2027-03-12' },
      },
      9000,
    );
  }),
);

const signIn = () =>
  useSessionStore.getState().signIn({ accessToken: fakeJwt(600), refreshToken: 'r', user });

async function openForm() {
  fireEvent.click(await screen.findByRole('button', { name: 'Request a quote' }));
  return screen.findByRole('form', { name: 'Request a quote' });
}

function fillAndSend(form: HTMLElement) {
  const type = (label: string, value: string) =>
    fireEvent.change(within(form).getByLabelText(label), { target: { value } });
  type('Delivery site', 'Ol Kalou Forest Station site no. 4');
  type('County', 'Nyandarua');
  type('Street address', 'Off Ol Kalou–Nyahururu road');
  type('Delivery date', '2027-03-20');
  type('Note to the shop (optional)', 'For the short rains');
  fireEvent.click(within(form).getByRole('button', { name: 'Send the request' }));
  return form;
}

describe('Request a quote from the cart', () => {
  it("sends the cart's lines (unit, batch) with the delivery and note, then opens the quotation", async () => {
    signIn();
    let body: unknown;
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('buyer') }),
      '/api/quotations': async (req) => {
        body = await req.clone().json();
        return {
          status: 201,
          body: {
            success: true,
            message: 'Quotation requested',
            quotation: createQuotation({ _id: 'q9' }),
          },
        };
      },
    });
    renderWithProviders(<CartPageRoute />, { path: '/viewCart', route: '/viewCart' });
    fillAndSend(await openForm());
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(body).toEqual({
      lines: [
        { productId: 'p1', unitId: 'u-tray', quantity: 600 },
        { productId: 'p2', unitId: 'p2', quantity: 9000, batchId: 'b1' },
      ],
      note: 'For the short rains',
      delivery: {
        siteName: 'Ol Kalou Forest Station site no. 4',
        county: 'Nyandarua',
        subCounty: null,
        streetAddress: 'Off Ol Kalou–Nyahururu road',
        date: '2027-03-20',
      },
    });
    expect(screen.getByText('Quotation requested')).toBeInTheDocument();
  });

  it('says what is missing before sending, and the API’s refusal after, with Send disabled meanwhile', async () => {
    signIn();
    let release!: (v: { status: number; body: unknown }) => void;
    const { calls } = mockFetch({
      '/api/organisations/mine': () => ({ body: mine('approver') }),
      '/api/quotations': () => new Promise((r) => (release = r)),
    });
    renderWithProviders(<CartPageRoute />, { path: '/viewCart', route: '/viewCart' });
    const form = await openForm();
    fireEvent.click(within(form).getByRole('button', { name: 'Send the request' }));
    expect(await within(form).findByText('The delivery site needs a name')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fillAndSend(form);
    expect(await within(form).findByRole('button', { name: 'Sending…' })).toBeDisabled();
    release({ status: 429, body: { success: false, message: QUOTATION_MESSAGES.tooManyRequests } });
    expect(await within(form).findByText(QUOTATION_MESSAGES.tooManyRequests)).toHaveAttribute(
      'role',
      'alert',
    );
  });

  it('is not offered to a guest, nor to a person of an organisation not yet approved', async () => {
    useSessionStore.setState({ user: null, token: null, refreshToken: null });
    const { calls } = mockFetch({
      '/api/organisations/mine': () => ({ body: mine('approver', 'pending') }),
    });
    const first = renderWithProviders(<CartPageRoute />, { path: '/viewCart', route: '/viewCart' });
    expect(screen.getByRole('link', { name: 'Check out ready-now seedlings' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request a quote' })).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
    first.unmount();
    signIn();
    renderWithProviders(<CartPageRoute />, { path: '/viewCart', route: '/viewCart' });
    await waitFor(() => expect(calls).toHaveLength(1));
    await act(async () => {});
    expect(screen.queryByRole('button', { name: 'Request a quote' })).not.toBeInTheDocument();
  });

  it("prices the lines at the buyer's approved organisation's list, as the API charges them", async () => {
    signIn();
    const priceList = {
      discountPercent: 10,
      prices: [{ productId: 'p1', unitId: 'u-tray', price: 1200, productName: 'G', unitName: 'T' }],
    };
    const withList = (status: 'approved' | 'pending') => {
      const answer = mine('buyer', status);
      return { ...answer, organisation: { ...answer.organisation, priceList } };
    };
    mockFetch({ '/api/organisations/mine': () => ({ body: withList('approved') }) });
    renderWithProviders(<CartPageRoute />);
    // 600 trays at its own 1,200 (not the shop's 1,400); 9,000 singles at 30 less 10 % (27).
    await screen.findByText('KES 720,000');
    expect(screen.getByText('KES 243,000')).toBeTruthy();
    expect(screen.getAllByText('KES 963,000').length).toBeGreaterThan(0);
  });

  it("keeps the shop's prices for a buyer of an organisation not approved", async () => {
    signIn();
    const answer = mine('buyer', 'pending');
    const organisation = {
      ...answer.organisation,
      priceList: { discountPercent: 50, prices: [] },
    };
    mockFetch({ '/api/organisations/mine': () => ({ body: { ...answer, organisation } }) });
    const { client } = renderWithProviders(<CartPageRoute />);
    // The shop's prices show before the organisation is known: wait until it is.
    await waitFor(() =>
      expect(client.getQueryState(['organisations', 'mine'])?.status).toBe('success'),
    );
    await screen.findByText('KES 840,000');
    expect(screen.getByText('KES 270,000')).toBeTruthy();
  });
});
