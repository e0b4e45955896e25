import { File as NodeFile } from 'node:buffer';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  LPO_SCAN_MESSAGES as LM,
  QUOTATION_MESSAGES,
  type QuotationView,
  type ScanAbout,
} from '@spc/shared-contracts';
import { Route, Routes } from 'react-router';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { CATALOGUE, json, PRODUCT_ID, UNIT_ID } from '../../../testing/organisations';
import {
  BATCH_ID,
  createQuotation,
  createVersion,
  QUOTATION_ID,
} from '../../../testing/quotations';
import { QuotationDetailRoute } from './quotation-detail';

type Reply = (request: Request, body: unknown) => Response | Promise<Response> | undefined;

const BATCHES = {
  success: true,
  message: '',
  items: [{ _id: BATCH_ID, readyOn: '2027-03-12', available: 12_000 }],
  total: 1,
  page: 1,
  limit: 100,
  totalPages: 1,
};

/** The quotation's routes; `reply` answers a change first (undefined: the quotation, 'Done'). */
function answer(q: QuotationView, reply: Reply = () => undefined) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const request = input as Request;
    const url = new URL(request.url);
    if (url.pathname === '/api/products') return json(200, CATALOGUE);
    if (url.pathname === '/api/batches') return json(200, BATCHES);
    if (request.method === 'GET') return json(200, { success: true, message: '', quotation: q });
    const body = await request.json().catch(() => undefined);
    sent.push({ method: request.method, path: url.pathname, body });
    return reply(request, body) ?? json(201, { success: true, message: 'Done', quotation: q });
  });
  return sent;
}

const render = () => {
  signInAs('staff');
  return renderWithProviders(
    <Routes>
      <Route path="/manage/quotations/:id" element={<QuotationDetailRoute />} />
    </Routes>,
    { route: `/manage/quotations/${QUOTATION_ID}` },
  );
};

const section = (name: string) => screen.getByRole('region', { name });
const base = `/api/quotations/${QUOTATION_ID}`;

describe('a quotation on the quote desk', () => {
  afterEach(() => jest.restoreAllMocks());

  it('prices a request: the draft starts from its lines, is saved, and Send waits for it', async () => {
    const sent = answer(createQuotation());
    render();
    expect(await screen.findByRole('heading', { name: 'QUO-000123' })).toBeInTheDocument();
    expect(screen.getByText('Awaiting the shop')).toBeInTheDocument();
    const draft = await screen.findByRole('form', { name: 'Draft' });
    expect(screen.getByRole('button', { name: 'Send version 1' })).toBeDisabled();
    const line = within(draft).getByRole('group', { name: 'Line 1' });
    expect(within(line).getByLabelText('Product')).toHaveValue(PRODUCT_ID);
    expect(within(line).getByLabelText('Quantity (units)')).toHaveValue('30,000');
    // The source offers ready stock and the product's growing batch.
    const source = within(line).getByLabelText('Source');
    await within(source).findByRole('option', { name: /Batch ready 12\/03\/2027/ });
    fireEvent.change(source, { target: { value: BATCH_ID } });
    fireEvent.change(within(line).getByLabelText('Unit price (KES)'), { target: { value: '24' } });
    fireEvent.change(within(draft).getByLabelText('Delivery site'), {
      target: { value: 'Gatundu North site' },
    });
    fireEvent.change(within(draft).getByLabelText('County'), { target: { value: 'Kiambu' } });
    fireEvent.change(within(draft).getByLabelText('Street address'), {
      target: { value: 'Kamwangi road' },
    });
    fireEvent.change(within(draft).getByLabelText('Delivery date'), {
      target: { value: '2026-12-10' },
    });
    fireEvent.click(within(draft).getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      path: `${base}/draft`,
      body: {
        lines: [
          {
            productId: PRODUCT_ID,
            unitId: UNIT_ID,
            quantity: 30000,
            batchId: BATCH_ID,
            unitPrice: 24,
          },
        ],
        delivery: {
          siteName: 'Gatundu North site',
          county: 'Kiambu',
          subCounty: null,
          date: '2026-12-10',
        },
        deliveryFee: 0,
      },
    });
  });

  it('says what is missing before saving, and sends nothing', async () => {
    const sent = answer(createQuotation());
    render();
    const draft = await screen.findByRole('form', { name: 'Draft' });
    fireEvent.click(within(draft).getByRole('button', { name: 'Save draft' }));
    expect(await within(draft).findByText('The delivery site needs a name')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('sends a saved draft, disabled while sending, and toasts the answer', async () => {
    let release!: (r: Response) => void;
    const q = createQuotation({ draft: createVersion({ version: 0, sentAt: null, sentBy: null }) });
    const sent = answer(q, (request) =>
      request.url.endsWith('/send') ? new Promise<Response>((r) => (release = r)) : undefined,
    );
    render();
    const send = await screen.findByRole('button', { name: 'Send version 1' });
    expect(send).toBeEnabled();
    fireEvent.click(send);
    await waitFor(() => expect(send).toBeDisabled());
    expect(sent).toEqual([{ method: 'POST', path: `${base}/send`, body: {} }]);
    release(json(201, { success: true, message: 'Quotation sent', quotation: q }));
    expect(await screen.findByText('Quotation sent')).toBeInTheDocument();
  });

  it("shows the API's message when sending fails", async () => {
    const q = createQuotation({ draft: createVersion({ version: 0, sentAt: null, sentBy: null }) });
    answer(q, () =>
      json(400, { success: false, statusCode: 400, message: QUOTATION_MESSAGES.validUntil }),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Send version 1' }));
    expect(await screen.findByText(QUOTATION_MESSAGES.validUntil)).toBeInTheDocument();
  });

  it('shows each version sent, with its PDF, and accepts on the buyer’s word with the LPO', async () => {
    const sent = answer(
      createQuotation({
        status: 'sent',
        versions: [createVersion(), createVersion({ version: 2 })],
      }),
    );
    render();
    const v1 = await screen.findByRole('region', { name: 'Version 1' });
    // A phone (the tests' screen) reads each line as text.
    expect(within(v1).getByRole('list', { name: 'Lines of version 1' })).toHaveTextContent(
      'Grevillea robusta · Seedling: 30,000 (30,000 seedlings), Ready stock, KES 25 each (shop KES 30) = KES 750,000',
    );
    expect(v1).toHaveTextContent('Total KES 755,000');
    expect(within(v1).getByRole('button', { name: 'PDF of version 1' })).toBeInTheDocument();
    const accept = within(section("Accept on the buyer's word")).getByRole('form');
    expect(within(accept).getByLabelText('Version')).toHaveValue('2');
    fireEvent.click(within(accept).getByRole('button', { name: 'Accept' }));
    expect(await within(accept).findByText(QUOTATION_MESSAGES.lpoRequired)).toBeInTheDocument();
    fireEvent.change(within(accept).getByLabelText('LPO number'), {
      target: { value: ' LPO/2026/0412 ' },
    });
    fireEvent.click(within(accept).getByRole('button', { name: 'Accept' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'POST',
          path: `${base}/accept`,
          body: { version: 2, lpoNumber: 'LPO/2026/0412' },
        },
      ]),
    );
  });

  it('on 409 SHORT shows the short lines and the batches offered; on CREDIT_LIMIT its message', async () => {
    let code = 'SHORT';
    answer(createQuotation({ status: 'sent', versions: [createVersion()] }), () =>
      json(409, {
        success: false,
        statusCode: 409,
        code,
        message:
          code === 'SHORT'
            ? QUOTATION_MESSAGES.short
            : QUOTATION_MESSAGES.creditLimit(500_000, 120_000),
        ...(code === 'SHORT'
          ? {
              lines: [
                {
                  productId: PRODUCT_ID,
                  unitId: UNIT_ID,
                  productName: 'Grevillea robusta',
                  source: { kind: 'stock' },
                  quantity: 30000,
                  seedlings: 30000,
                  available: 18000,
                  batches: [{ _id: BATCH_ID, readyOn: '2027-03-12', available: 12000 }],
                },
              ],
            }
          : {}),
      }),
    );
    render();
    const accept = await screen.findByRole('form', { name: "Accept on the buyer's word" });
    fireEvent.change(within(accept).getByLabelText('LPO number'), { target: { value: 'LPO-1' } });
    fireEvent.click(within(accept).getByRole('button', { name: 'Accept' }));
    const short = await within(accept).findByRole('list', { name: 'Short lines' });
    expect(short).toHaveTextContent(
      'Grevillea robusta: 30,000 seedlings asked from ready stock, 18,000 left. Batches that could grow them: ready 12/03/2027 (12,000 left).',
    );
    code = 'CREDIT_LIMIT';
    fireEvent.click(within(accept).getByRole('button', { name: 'Accept' }));
    expect(
      await within(accept).findByText(QUOTATION_MESSAGES.creditLimit(500_000, 120_000)),
    ).toBeInTheDocument();
    expect(within(accept).queryByRole('list', { name: 'Short lines' })).not.toBeInTheDocument();
  });

  it('withdraws after asking, and replies in the thread', async () => {
    const sent = answer(
      createQuotation({
        messages: [
          {
            _id: 'm1',
            from: 'organisation',
            authorName: 'Grace Wambui',
            text: 'Can you deliver in two tranches?',
            at: '2026-11-24T09:00:00.000Z',
          },
        ],
      }),
    );
    render();
    const thread = await screen.findByRole('region', { name: 'Messages' });
    expect(thread).toHaveTextContent('Grace Wambui (organisation)');
    fireEvent.change(within(thread).getByLabelText('Reply'), { target: { value: ' Yes, two. ' } });
    fireEvent.click(within(thread).getByRole('button', { name: 'Send reply' }));
    await waitFor(() =>
      expect(sent).toEqual([
        { method: 'POST', path: `${base}/messages`, body: { text: 'Yes, two.' } },
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() =>
      expect(sent.at(-1)).toEqual({ method: 'POST', path: `${base}/withdraw`, body: {} }),
    );
  });

  it('an accepted quotation shows its order and no step to take', async () => {
    answer(
      createQuotation({
        status: 'accepted',
        versions: [createVersion()],
        acceptance: {
          version: 1,
          lpoNumber: 'LPO/2026/0412',
          acceptedAt: '2026-11-26T10:00:00.000Z',
          acceptedBy: 'Grace Wambui',
          byShop: false,
          orderId: '6650f0c2a1b2c3d4e5f6a777',
          purchaseNumber: 'SPD1A2B3C4D',
          lpoScan: null,
        },
      }),
    );
    render();
    expect(await screen.findByRole('link', { name: 'SPD1A2B3C4D' })).toHaveAttribute(
      'href',
      '/staff/orders/6650f0c2a1b2c3d4e5f6a777',
    );
    expect(screen.queryByRole('form', { name: 'Draft' })).not.toBeInTheDocument();
    for (const name of [/^Send version/, 'Withdraw', 'Accept'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });

  describe('with the scanned LPO', () => {
    const ORDER_ID = '6650f0c2a1b2c3d4e5f6a777';
    const pdfScan: ScanAbout = {
      contentType: 'application/pdf',
      size: 212 * 1024,
      uploadedAt: '2026-11-26T10:30:00.000Z',
    };
    const acceptedWith = (lpoScan: ScanAbout | null) =>
      createQuotation({
        status: 'accepted',
        versions: [createVersion()],
        acceptance: {
          version: 1,
          lpoNumber: 'LPO/2026/0412',
          acceptedAt: '2026-11-26T10:00:00.000Z',
          acceptedBy: 'Wanjiku Mary Kamau',
          byShop: true,
          orderId: ORDER_ID,
          purchaseNumber: 'SPD1A2B3C4D',
          lpoScan,
        },
      });
    /** Node's File: the tests' FormData (Node's) takes no jsdom File. */
    const file = (size: number, name = 'lpo.pdf') =>
      new NodeFile([new Uint8Array(size)], name, { type: 'application/pdf' }) as unknown as File;

    /** A sent quotation accepted on the buyer's word; the order's scan PUT answers `put`. */
    function desk(put: () => Response | Promise<Response>) {
      let q = createQuotation({ status: 'sent', versions: [createVersion()] });
      const sent: { method: string; path: string; file?: string }[] = [];
      jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
        const request = input as Request;
        const url = new URL(request.url);
        if (url.pathname === '/api/products') return json(200, CATALOGUE);
        if (url.pathname === '/api/batches') return json(200, BATCHES);
        if (request.method === 'GET')
          return json(200, { success: true, message: '', quotation: q });
        if (url.pathname === `${base}/accept`) {
          sent.push({ method: request.method, path: url.pathname });
          q = acceptedWith(null);
          return json(201, {
            success: true,
            message: 'Quotation accepted',
            quotation: q,
            order: { _id: ORDER_ID, purchaseNumber: 'SPD1A2B3C4D' },
          });
        }
        const form = await request.formData();
        sent.push({
          method: request.method,
          path: url.pathname,
          file: (form.get('file') as File | null)?.name,
        });
        const res = await put();
        if (res.ok) q = acceptedWith(pdfScan);
        return res;
      });
      render();
      return sent;
    }
    const fill = async (scan: File) => {
      const form = await screen.findByRole('form', { name: "Accept on the buyer's word" });
      fireEvent.change(within(form).getByLabelText('LPO number'), {
        target: { value: 'LPO/2026/0412' },
      });
      const picker = form.querySelector<HTMLInputElement>('input[type="file"]')!;
      expect(picker.getAttribute('accept')).toBe('application/pdf,image/*');
      fireEvent.change(picker, { target: { files: [scan] } });
      fireEvent.click(within(form).getByRole('button', { name: 'Accept' }));
      return form;
    };

    it('sends the scan picked with the acceptance to the order it made; the page says it is attached', async () => {
      let release!: () => void;
      const sent = desk(async () => {
        await new Promise<void>((r) => (release = r));
        return json(200, { success: true, message: LM.attached, lpoScan: pdfScan });
      });
      expect(await screen.findByText(/Scanned LPO \(PDF or photo, optional\)/)).toBeTruthy();
      await fill(file(2048, 'LPO 0412.pdf'));
      expect(await screen.findByText('Attaching the scanned LPO…')).toBeTruthy();
      expect(sent).toEqual([
        { method: 'POST', path: `${base}/accept` },
        { method: 'PUT', path: `/api/orders/${ORDER_ID}/lpo-scan`, file: 'LPO 0412.pdf' },
      ]);
      release();
      expect(await screen.findByText(LM.attached)).toBeTruthy();
      expect(await screen.findByText(/^Scanned LPO: PDF, 212 KB, attached/)).toBeTruthy();
    });

    it('says the order stands when the scan is refused, and links to the order to attach it again', async () => {
      desk(() =>
        json(415, {
          success: false,
          statusCode: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: LM.unsupported,
        }),
      );
      await fill(file(2048));
      // The notification says the API's words; the page says the order stands, and where to go.
      const alert = (await screen.findByText(LM.notAttached)).closest<HTMLElement>(
        '[role="alert"]',
      )!;
      expect(alert.textContent).toContain(LM.unsupported);
      expect(within(alert).getByRole('link', { name: 'order SPD1A2B3C4D' })).toHaveAttribute(
        'href',
        `/staff/orders/${ORDER_ID}`,
      );
    });

    it('refuses a file over 5 MB before accepting: nothing is sent', async () => {
      const sent = desk(() => json(200, {}));
      const form = await fill(file(5 * 1024 * 1024 + 1, 'huge.pdf'));
      expect(await within(form).findByText(LM.tooLarge)).toBeTruthy();
      expect(sent).toEqual([]);
    });
  });
});
