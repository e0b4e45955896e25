import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QuotationAcceptanceView } from '@spc/shared-contracts';
import { useSessionStore } from '../../../stores/session-store';
import { fakeJwt, mockFetch, renderWithProviders } from '../../../testing/render';
import { createQuotation, mine } from '../../../testing/quotations';
import { MyOrganisationRoute } from '../routes/my-organisation';
import { createTranche, delivered, grevillea, standing } from '../../../testing/tranches';
import { OrderTranches } from './order-tranches';

const user = {
  _id: 'u1',
  fullName: 'Achieng Otieno',
  email: 'a@example.co.ke',
  role: 'customer' as const,
};
const ok = (body: object) => ({ body: { success: true, message: 'Done', ...body } });

const render = () => renderWithProviders(<OrderTranches orderId="ord1" />);
const section = () => screen.getByRole('region', { name: 'Deliveries' });

beforeEach(() =>
  useSessionStore.getState().signIn({ accessToken: fakeJwt(600), refreshToken: 'r', user }),
);

describe("an order's deliveries (tranches) in the organisation's area", () => {
  it('says it is loading, then that no loads are planned (nothing to count as still to deliver)', async () => {
    let release!: () => void;
    mockFetch({
      '/api/orders/ord1/tranches': async () => {
        await new Promise<void>((r) => (release = r));
        return ok(standing([]));
      },
    });
    render();
    expect(within(section()).getByRole('status')).toHaveTextContent('Loading the deliveries…');
    await waitFor(() => expect(release).toBeDefined());
    release();
    expect(
      await within(section()).findByText(/^No deliveries planned in parts/),
    ).toBeInTheDocument();
    expect(
      within(section()).queryByRole('region', { name: 'Still to deliver' }),
    ).not.toBeInTheDocument();
    expect(within(section()).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says in words why it could not load, and tries again', async () => {
    let tries = 0;
    mockFetch({
      '/api/orders/ord1/tranches': () => {
        tries += 1;
        return tries === 1
          ? {
              status: 404,
              body: { success: false, code: 'NOT_FOUND', message: 'No order with this id' },
            }
          : ok(standing([createTranche()]));
      },
    });
    render();
    const alert = await within(section()).findByRole('alert');
    expect(alert).toHaveTextContent('No order with this id');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(section()).findByRole('article', { name: /^T1/ })).toBeInTheDocument();
    expect(tries).toBe(2);
    expect(within(section()).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows each tranche with its state, site, day, lines, short reason and who signed', async () => {
    const cancelled = createTranche({
      number: 3,
      label: 'T3',
      state: 'Cancelled',
      cancelledAt: '2026-12-02T09:00:00.000Z',
    });
    const onItsWay = createTranche({
      number: 4,
      label: 'T4',
      state: 'Dispatched',
      lines: [
        {
          ...grevillea,
          quantity: 120_000,
          dispatched: 119_500,
          delivered: null,
          shortReason: null,
        },
      ],
      dispatchedAt: '2027-03-20T04:00:00.000Z',
    });
    mockFetch({
      '/api/orders/ord1/tranches': () =>
        ok(standing([createTranche(), delivered, cancelled, onItsWay])),
    });
    render();
    const t1 = await within(section()).findByRole('article', { name: 'T1 · 20/03/2027' });
    expect(within(t1).getByText('Planned')).toBeInTheDocument();
    expect(t1).toHaveTextContent(
      'Ol Kalou Forest Station, Nyandarua County tree-growing site no. 4',
    );
    expect(t1).toHaveTextContent('Ol Kalou, Nyandarua');
    expect(t1).toHaveTextContent('Contact: Peter Mwangi, +254712345678');
    expect(t1).toHaveTextContent('120,000 × Seedling');
    expect(t1).not.toHaveTextContent('Signed for by');
    expect(within(t1).getByRole('button', { name: 'Delivery note T1 (PDF)' })).toBeEnabled();

    const t2 = within(section()).getByRole('article', { name: 'T2 · 01/12/2026' });
    expect(within(t2).getByText('Delivered (signed)')).toBeInTheDocument();
    expect(t2).toHaveTextContent('580 × Tray of 50 (29,000 seedlings) delivered of 600 sent');
    expect(t2).toHaveTextContent('Short by 20: 20 trays crushed on the Nyahururu road');
    expect(t2).toHaveTextContent(
      'Signed for by Wanjiru Njoroge, forest officer on 01/12/2026 (2:15 PM)',
    );
    expect(within(t2).getByRole('button', { name: 'Signed delivery note T2 (PDF)' })).toBeEnabled();

    const t3 = within(section()).getByRole('article', { name: /^T3/ });
    expect(within(t3).getByText('Cancelled')).toBeInTheDocument();
    expect(within(t3).queryByRole('button')).not.toBeInTheDocument();

    const left = within(section()).getByRole('region', { name: 'Still to deliver' });
    expect(left).toHaveTextContent('150,000 × Seedling of 150,000 to deliver');
    expect(left).toHaveTextContent('30,000 not planned yet · 120,000 planned');
    expect(left).toHaveTextContent('20 × Tray of 50 (1,000 seedlings) of 600 to deliver');
    expect(left).toHaveTextContent('20 not planned yet · 580 delivered');

    const t4 = within(section()).getByRole('article', { name: /^T4/ });
    expect(within(t4).getByText('On its way')).toBeInTheDocument();
    expect(t4).toHaveTextContent('119,500 × Seedling sent');
    expect(t4).toHaveTextContent('left the nursery 20/03/2027 (7:00 AM)');
  });

  it('downloads the delivery note signed in, as a PDF named by the order and tranche', async () => {
    URL.createObjectURL = jest.fn(() => 'blob:note');
    URL.revokeObjectURL = jest.fn();
    const names: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    let release!: () => void;
    const { calls } = mockFetch({
      '/api/orders/ord1/tranches': () => ok(standing([delivered])),
      '/api/orders/ord1/tranches/2/delivery-note.pdf': async () => {
        await new Promise<void>((r) => (release = r));
        return { body: '%PDF-1.7' };
      },
    });
    render();
    const t2 = await within(section()).findByRole('article', { name: /^T2/ });
    fireEvent.click(within(t2).getByRole('button', { name: 'Signed delivery note T2 (PDF)' }));
    expect(within(t2).getByRole('button', { name: 'Preparing…' })).toBeDisabled();
    release();
    await waitFor(() => expect(names).toEqual(['delivery-note-SPDAB12CD34-T2.pdf']));
    const blob = (URL.createObjectURL as jest.Mock).mock.calls[0][0] as Blob;
    expect(blob.type).toBe('application/pdf');
    const get = calls.find((c) => c.url.endsWith('/tranches/2/delivery-note.pdf'))!;
    expect(get.headers.get('Authorization')).toMatch(/^Bearer /);
    expect(
      await within(t2).findByRole('button', { name: 'Signed delivery note T2 (PDF)' }),
    ).toBeEnabled();
    click.mockRestore();
  });

  it('offers the photo of the signed note the shop attached, fetched signed in', async () => {
    URL.createObjectURL = jest.fn(() => 'blob:signed');
    URL.revokeObjectURL = jest.fn();
    const names: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    const photographed = {
      ...delivered,
      signedNote: {
        contentType: 'image/jpeg' as const,
        size: 412_000,
        uploadedAt: '2026-12-01T14:05:00.000Z',
      },
    };
    const { calls } = mockFetch({
      '/api/orders/ord1/tranches': () => ok(standing([photographed, createTranche()])),
      '/api/orders/ord1/tranches/2/signed-note': () => ({ body: 'jpeg bytes' }),
    });
    render();
    const t2 = await within(section()).findByRole('article', { name: /^T2/ });
    const t1 = within(section()).getByRole('article', { name: /^T1/ });
    expect(
      within(t1).queryByRole('button', { name: /signed delivery note/i }),
    ).not.toBeInTheDocument();
    fireEvent.click(within(t2).getByRole('button', { name: 'View the signed delivery note T2' }));
    await waitFor(() => expect(names).toHaveLength(1));
    expect(names[0]).toMatch(/^SPDAB12CD34-T2-signed\.(pdf|jpg)$/);
    const get = calls.find((c) => c.url.endsWith('/tranches/2/signed-note'))!;
    expect(get.headers.get('Authorization')).toMatch(/^Bearer /);
    click.mockRestore();
  });

  it('says in words why the delivery note cannot be downloaded', async () => {
    mockFetch({
      '/api/orders/ord1/tranches': () => ok(standing([createTranche()])),
      '/api/orders/ord1/tranches/1/delivery-note.pdf': () => ({
        status: 409,
        body: {
          success: false,
          code: 'ILLEGAL_TRANSITION',
          message: 'Tranche T1 of order SPDAB12CD34 was cancelled: it has no delivery note',
        },
      }),
    });
    render();
    const t1 = await within(section()).findByRole('article', { name: /^T1/ });
    fireEvent.click(within(t1).getByRole('button', { name: 'Delivery note T1 (PDF)' }));
    expect(
      await screen.findByText(
        'Tranche T1 of order SPDAB12CD34 was cancelled: it has no delivery note',
      ),
    ).toBeInTheDocument();
    expect(within(t1).getByRole('button', { name: 'Delivery note T1 (PDF)' })).toBeEnabled();
  });

  it("shows on an accepted quotation's page, for the order it made", async () => {
    const acceptance: QuotationAcceptanceView = {
      version: 1,
      lpoNumber: 'LPO/GBST/0412',
      acceptedAt: '2026-11-26T10:00:00.000Z',
      acceptedBy: 'Achieng Otieno',
      byShop: false,
      orderId: 'ord1',
      purchaseNumber: 'SPDAB12CD34',
      lpoScan: null,
    };
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('buyer') }),
      '/api/quotations/q1': () =>
        ok({ quotation: createQuotation({ status: 'accepted', acceptance }) }),
      '/api/orders/ord1/tranches': () => ok(standing([delivered])),
    });
    renderWithProviders(<MyOrganisationRoute />, {
      path: '/user/organisation?quotation=q1',
      route: '/user/organisation',
    });
    const deliveries = await screen.findByRole('region', { name: 'Deliveries' });
    expect(await within(deliveries).findByRole('article', { name: /^T2/ })).toBeInTheDocument();
  });

  it("has its own page in the organisation's area (?order=<id>), named by the order", async () => {
    mockFetch({ '/api/orders/ord1/tranches': () => ok(standing([delivered])) });
    renderWithProviders(<MyOrganisationRoute />, {
      path: '/user/organisation?order=ord1',
      route: '/user/organisation',
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Order SPDAB12CD34' }),
    ).toBeInTheDocument();
    expect(await within(section()).findByRole('article', { name: /^T2/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Your organisation' })).toHaveAttribute(
      'href',
      '/user/organisation',
    );
  });
});
