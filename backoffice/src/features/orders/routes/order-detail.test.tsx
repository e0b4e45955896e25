import { File as NodeFile } from 'node:buffer';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { LPO_SCAN_MESSAGES as LM, type ScanAbout } from '@spc/shared-contracts';
import { Route, Routes } from 'react-router';
import { createOrder, createOrderMoney } from '../../../testing/factories';
import { json } from '../../../testing/organisations';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { AdminOrderDetailRoute, StaffOrderDetailRoute } from './order-detail';

/** The detail's answer for `order`; any other call answers an empty success. */
function answer(order: ReturnType<typeof createOrder> & { kraPin?: string | null }) {
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    if (url.pathname === `/api/orders/${order._id}/detail`)
      return json(200, {
        success: true,
        message: '',
        order,
        timeline: [],
        actions: [],
        documents: { receipt: { available: false }, deliveryNote: { available: false } },
        money: createOrderMoney(),
        etims: [],
        shop: { name: 'Seedling Propagation Centre', place: 'Kiambu', phone: '', website: '' },
      });
    return json(200, { success: true, message: '', payments: [], invoices: [] });
  });
}

describe("an order's page", () => {
  afterEach(() => jest.restoreAllMocks());

  it("names an accepted quotation's LPO, its quotation and organisation, and each line's batch", async () => {
    const base = createOrder();
    const order = {
      ...base,
      quotation: {
        quotationId: 'q1',
        organisationId: 'org1',
        lpoNumber: 'LPO/NDR/2026/0114',
        lpoScan: null,
      },
      onAccount: true,
      products: [{ ...base.products[0]!, batchId: 'b1' }],
    } as typeof base;
    answer(order);
    signInAs('admin');
    renderWithProviders(
      <Routes>
        <Route path="/admin/orders/:id" element={<AdminOrderDetailRoute />} />
      </Routes>,
      { route: `/admin/orders/${order._id}` },
    );
    await screen.findByRole('heading', { name: 'From a quotation' });
    expect(screen.getByText('LPO/NDR/2026/0114')).toBeTruthy();
    expect(
      screen.getByText('On account: paid by its invoice; it does not expire unpaid'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'The quotation' }).getAttribute('href')).toBe(
      '/manage/quotations/q1',
    );
    expect(screen.getByRole('link', { name: 'The organisation' }).getAttribute('href')).toBe(
      '/manage/organisations/org1',
    );
    expect(screen.getByRole('link', { name: 'a growing batch' }).getAttribute('href')).toBe(
      '/manage/batches/b1',
    );
  });

  it('shows no quotation on an ordinary order', async () => {
    const order = createOrder();
    answer(order);
    signInAs('admin');
    renderWithProviders(
      <Routes>
        <Route path="/admin/orders/:id" element={<AdminOrderDetailRoute />} />
      </Routes>,
      { route: `/admin/orders/${order._id}` },
    );
    await screen.findByRole('heading', { name: `Order ${order.purchaseNumber}` });
    expect(screen.queryByRole('heading', { name: 'From a quotation' })).toBeNull();
    expect(screen.queryByText("Buyer's KRA PIN (tax invoice)")).toBeNull();
  });

  it("shows the buyer's KRA PIN with the customer when they gave one", async () => {
    const order = { ...createOrder(), kraPin: 'P051234567X' };
    answer(order);
    signInAs('staff');
    renderWithProviders(
      <Routes>
        <Route path="/staff/orders/:id" element={<StaffOrderDetailRoute />} />
      </Routes>,
      { route: `/staff/orders/${order._id}` },
    );
    const label = await screen.findByText("Buyer's KRA PIN (tax invoice)");
    expect(label.parentElement?.textContent).toContain('P051234567X');
  });

  describe('its scanned LPO', () => {
    const pdfScan: ScanAbout = {
      contentType: 'application/pdf',
      size: 212 * 1024,
      uploadedAt: '2026-11-26T10:30:00.000Z',
    };
    /** Node's File: the tests' FormData (Node's) takes no jsdom File. */
    const file = (size: number, name = 'lpo.pdf', type = 'application/pdf') =>
      new NodeFile([new Uint8Array(size)], name, { type }) as unknown as File;

    /** The order from a quotation, its scan `scan`; PUT answers `put` (recorded in `sent`). */
    function world(scan: ScanAbout | null, put: () => Response) {
      const base = createOrder();
      const order = {
        ...base,
        quotation: {
          quotationId: 'q1',
          organisationId: 'org1',
          lpoNumber: 'LPO/NDR/2026/0114',
          lpoScan: scan,
        },
      } as typeof base;
      const sent: { method: string; file: string | null }[] = [];
      jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
        const request = input as Request;
        const url = new URL(request.url);
        if (url.pathname === `/api/orders/${order._id}/detail`)
          return json(200, {
            success: true,
            message: '',
            order,
            timeline: [],
            actions: [],
            documents: { receipt: { available: false }, deliveryNote: { available: false } },
            money: createOrderMoney(),
            etims: [],
            shop: { name: 'Seedling Propagation Centre', place: 'Kiambu', phone: '', website: '' },
          });
        if (url.pathname === `/api/orders/${order._id}/tranches`)
          return json(200, {
            success: true,
            message: '',
            orderId: order._id,
            purchaseNumber: order.purchaseNumber,
            lines: [],
            tranches: [],
          });
        if (url.pathname === `/api/orders/${order._id}/invoices`)
          return json(200, { success: true, message: '', invoices: [] });
        if (url.pathname === `/api/orders/${order._id}/lpo-scan`) {
          if (request.method === 'GET')
            return new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
              headers: { 'Content-Type': 'application/pdf' },
            });
          const form = await request.formData();
          sent.push({
            method: request.method,
            file: (form.get('file') as File | null)?.name ?? null,
          });
          return put();
        }
        return json(200, { success: true, message: '', payments: [], refunds: [] });
      });
      signInAs('staff');
      renderWithProviders(
        <Routes>
          <Route path="/staff/orders/:id" element={<StaffOrderDetailRoute />} />
        </Routes>,
        { route: `/staff/orders/${order._id}` },
      );
      return sent;
    }
    const picker = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

    it('says what is attached, downloads it signed in, and replaces it with a notification', async () => {
      URL.createObjectURL = jest.fn(() => 'blob:lpo');
      URL.revokeObjectURL = jest.fn();
      const names: string[] = [];
      jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        names.push(this.download);
      });
      const sent = world(pdfScan, () =>
        json(200, { success: true, message: LM.attached, lpoScan: pdfScan }),
      );
      const card = await screen.findByRole('group', { name: 'Scanned LPO' });
      expect(card.textContent).toMatch(/^Scanned LPO: PDF, 212 KB, attached /);
      fireEvent.click(screen.getByRole('button', { name: 'Download the scanned LPO' }));
      await waitFor(() => expect(names).toEqual(['LPO-LPO-NDR-2026-0114.pdf']));
      const get = (global.fetch as jest.Mock).mock.calls
        .map((c) => c[0] as Request)
        .find((r) => r.url.endsWith('/lpo-scan'))!;
      expect(get.headers.get('Authorization')).toBe('Bearer access-token');
      expect(screen.getByRole('button', { name: 'Replace the scanned LPO' })).toBeTruthy();
      fireEvent.change(picker(), { target: { files: [file(4096, 'clearer copy.pdf')] } });
      expect(await screen.findByText(LM.attached)).toBeTruthy();
      expect(sent).toEqual([{ method: 'PUT', file: 'clearer copy.pdf' }]);
    });

    it('shows its invoices card, with the whole order to invoice while none is', async () => {
      world(pdfScan, () => json(200, { success: true, message: '' }));
      const card = await screen.findByRole('region', { name: 'Invoices' });
      expect(await within(card).findByText('No invoices yet')).toBeTruthy();
      expect(within(card).getByRole('button', { name: 'Issue invoice' })).toBeTruthy();
    });

    it('attaches one where none is; refuses a file over 5 MB before sending, and shows the API refusal in words', async () => {
      const sent = world(null, () =>
        json(415, {
          success: false,
          statusCode: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: LM.unsupported,
        }),
      );
      const card = await screen.findByRole('group', { name: 'Scanned LPO' });
      expect(card.textContent).toContain('Scanned LPO: none attached');
      expect(screen.queryByRole('button', { name: 'Download the scanned LPO' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Attach the scanned LPO' })).toBeTruthy();
      expect(picker().getAttribute('accept')).toBe('application/pdf,image/*');
      fireEvent.change(picker(), { target: { files: [file(5 * 1024 * 1024 + 1)] } });
      expect(await screen.findByText(LM.tooLarge)).toBeTruthy();
      expect(sent).toEqual([]);
      fireEvent.change(picker(), { target: { files: [file(2048, 'notes.pdf')] } });
      expect(await screen.findByText(LM.unsupported)).toBeTruthy();
      expect(sent).toEqual([{ method: 'PUT', file: 'notes.pdf' }]);
    });
  });
});
