import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { EtimsDocumentListResponse, EtimsDocumentView } from '@spc/shared-contracts';
import { json } from '../../../testing/organisations';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { wideScreen } from '../../../testing/screen';
import { EtimsQueueRoute } from './etims-queue';

function createDocument(overrides: Partial<EtimsDocumentView> = {}): EtimsDocumentView {
  return {
    source: 'order:6650f0c2a1b2c3d4e5f6a001:sale',
    kind: 'sale',
    trdInvcNo: 'SPDBMUYD9PD',
    invcNo: 42,
    state: 'failed',
    attempts: 1,
    lastCode: '910',
    lastMessage:
      "Request parameter error: custTin P051234567X is not a valid PIN in KRA's register",
    at: '2026-11-20T07:00:00.000Z',
    queuedAt: '2026-11-20T07:00:01.000Z',
    updatedAt: '2026-11-20T07:00:02.000Z',
    nextTryAt: null,
    total: 1150,
    buyer: { pin: 'P051234567X', name: 'Kiambu County' },
    orderId: '6650f0c2a1b2c3d4e5f6a001',
    original: null,
    waitsFor: null,
    signature: null,
    ...overrides,
  };
}

const listOf = (
  documents: EtimsDocumentView[],
  extra: Partial<EtimsDocumentListResponse> = {},
): EtimsDocumentListResponse => ({
  enabled: true,
  documents,
  total: documents.length,
  page: 1,
  pages: documents.length ? 1 : 0,
  ...extra,
});

interface Sent {
  url: URL;
  method: string;
  body: unknown;
}

/**
 * Answers the list with `list` (or an error status) and a resend or signature with `post` (its
 * status and body); returns what was asked.
 */
function answer(
  list: EtimsDocumentListResponse | number | (() => EtimsDocumentListResponse | number),
  post: { status: number; body: unknown } = { status: 200, body: {} },
) {
  const sent: Sent[] = [];
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'POST' ? await req.text() : '';
    sent.push({ url, method: req.method, body: text ? JSON.parse(text) : undefined });
    if (req.method === 'POST') return json(post.status, post.body);
    const page = typeof list === 'function' ? list() : list;
    return typeof page === 'number'
      ? json(page, { success: false, statusCode: page, message: 'Down' })
      : json(200, { success: true, message: '', ...page });
  });
  return {
    lists: () => sent.filter((s) => s.method === 'GET').map((s) => s.url),
    posts: () => sent.filter((s) => s.method === 'POST'),
  };
}

const render = (route = '/manage/etims') => {
  signInAs('staff');
  return renderWithProviders(<EtimsQueueRoute />, { route });
};

describe('the eTIMS page', () => {
  afterEach(() => jest.restoreAllMocks());

  it("lists what waits for KRA with KRA's words, loading first", async () => {
    const asked = answer(
      listOf([
        createDocument(),
        createDocument({
          source: 'refund:1',
          kind: 'credit-note',
          trdInvcNo: 'CN-000007',
          invcNo: 43,
          state: 'pending',
          lastCode: '994',
          lastMessage: 'There is an overlapped Data — copy it from KRA’s eTIMS portal',
          buyer: null,
        }),
      ]),
    );
    wideScreen();
    render();
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'eTIMS documents' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('SPDBMUYD9PDSale42');
    expect(rows[1]).toHaveTextContent('KES 1,150.00P051234567XFailed');
    expect(rows[1]).toHaveTextContent(
      "910 Request parameter error: custTin P051234567X is not a valid PIN in KRA's register",
    );
    expect(rows[2]).toHaveTextContent('CN-000007Credit note43');
    expect(rows[2]).toHaveTextContent('Pending');
    // A failed one: resend, or fix the buyer; a pending one: resend, or enter the signature.
    expect(within(rows[1]!).getByRole('button', { name: 'Fix buyer and resend' })).toBeEnabled();
    expect(within(rows[2]!).getByRole('button', { name: 'Enter signature' })).toBeEnabled();
    expect(within(rows[2]!).queryByRole('button', { name: 'Fix buyer and resend' })).toBeNull();
    expect(asked.lists()[0]!.searchParams.has('state')).toBe(false);
    expect(screen.getByRole('tab', { name: 'Not signed yet' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('shows each document as a card on a phone, its CU number and state whole, nothing sideways', async () => {
    answer(
      listOf([
        createDocument({
          source: 'order:6650f0c2a1b2c3d4e5f6a002:sale',
          trdInvcNo: 'SPDSIGNED01',
          invcNo: 44,
          state: 'signed',
          total: 1_234_567,
          buyer: null,
          lastCode: '000',
          lastMessage: 'It is succeeded',
          signature: {
            cuInvoiceNumber: 'KRACU0100000001/12',
            sdcId: 'KRACU0100000001',
            mrcNo: 'WIS00000001',
            rcptNo: 12,
            totRcptNo: 12,
            intrlData: null,
            rcptSign: 'GTYRHUQI6G6OFM3M',
            signedAt: '2026-11-20T07:00:03.000Z',
            qrUrl:
              'https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=P000000000Z00GTYRHUQI6G6OFM3M',
            enteredBy: null,
          },
        }),
        createDocument(),
      ]),
    );
    render();
    const signed = await screen.findByRole('article', { name: 'Sale SPDSIGNED01' });
    expect(screen.queryByRole('table')).toBeNull();
    expect(signed).toHaveTextContent('Signed');
    expect(signed).toHaveTextContent('eTIMS no. 44');
    expect(signed).toHaveTextContent('KES 1,234,567.00');
    expect(within(signed).getByText('KRACU0100000001/12')).toBeInTheDocument();
    expect(within(signed).getByRole('link', { name: 'Check on KRA’s site' })).toHaveAttribute(
      'href',
      expect.stringContaining('Data=P000000000Z00GTYRHUQI6G6OFM3M'),
    );
    const failed = screen.getByRole('article', { name: 'Sale SPDBMUYD9PD' });
    expect(failed).toHaveTextContent("Buyer's PIN P051234567X");
    expect(failed).toHaveTextContent('910 Request parameter error');
    expect(within(failed).getByRole('button', { name: 'Resend SPDBMUYD9PD' })).toBeEnabled();
    expect(within(failed).getByRole('button', { name: 'Fix buyer and resend' })).toBeEnabled();
  });

  it('says "Nothing waits for KRA" when the queue is empty, and asks a tab its state', async () => {
    const asked = answer(listOf([]));
    render();
    expect(await screen.findByText('Nothing waits for KRA')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Failed' }));
    expect(await screen.findByText('KRA has refused nothing')).toBeInTheDocument();
    await waitFor(() => expect(asked.lists().at(-1)!.searchParams.get('state')).toBe('failed'));
  });

  it('says eTIMS is off instead of an empty queue', async () => {
    answer(listOf([], { enabled: false }));
    render();
    expect(
      await screen.findByText(/^eTIMS is off \(ETIMS_ENV=off\): nothing is sent/),
    ).toBeVisible();
    expect(screen.queryByText('Nothing waits for KRA')).toBeNull();
  });

  it('says when the queue cannot be loaded, and loads it again on "Try again"', async () => {
    let down = true;
    answer(() => (down ? 500 : listOf([createDocument()])));
    wideScreen();
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The eTIMS documents could not be loaded.',
    );
    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'eTIMS documents' })).toBeInTheDocument();
  });

  it('resends a document as it is: the button is busy while it is sent, then a toast says so', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const doc = createDocument();
    jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const req = input as Request;
      if (req.method === 'POST') {
        await held;
        return json(200, {
          success: true,
          message: 'Sent to KRA again',
          document: { ...doc, state: 'queued' },
        });
      }
      return json(200, { success: true, message: '', ...listOf([doc]) });
    });
    render();
    const button = await screen.findByRole('button', { name: 'Resend SPDBMUYD9PD' });
    fireEvent.click(button);
    await waitFor(() => expect(button).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Fix buyer and resend' })).toBeDisabled();
    release();
    expect(await screen.findByText('SPDBMUYD9PD is on its way to KRA again')).toBeInTheDocument();
    await waitFor(() => expect(button).toBeEnabled());
  });

  it("fixes the buyer's PIN and resends; a PIN of the wrong form is refused before sending", async () => {
    const doc = createDocument();
    const asked = answer(listOf([doc]), {
      status: 200,
      body: {
        success: true,
        message: 'Sent to KRA again',
        document: { ...doc, state: 'queued', buyer: { pin: 'P059999999Z', name: 'Kiambu County' } },
      },
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Fix buyer and resend' }));
    const form = await screen.findByRole('form', { name: 'Resend SPDBMUYD9PD' });
    const pin = within(form).getByRole('textbox', { name: /Buyer's KRA PIN/ });
    expect(pin).toHaveValue('P051234567X');
    fireEvent.change(pin, { target: { value: 'P05123' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Resend to KRA' }));
    expect(await within(form).findByText(/buyerPin: A KRA PIN is the letter A or P/)).toBeVisible();
    expect(asked.posts()).toEqual([]);

    fireEvent.change(pin, { target: { value: ' p059999999z ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Resend to KRA' }));
    await waitFor(() => expect(asked.posts()).toHaveLength(1));
    expect(asked.posts()[0]!.url.pathname).toBe(
      `/api/etims/documents/${encodeURIComponent(doc.source)}/resend`,
    );
    expect(asked.posts()[0]!.body).toEqual({ buyerPin: 'P059999999Z', buyerName: 'Kiambu County' });
    expect(await screen.findByText('SPDBMUYD9PD is on its way to KRA again')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('form', { name: 'Resend SPDBMUYD9PD' })).toBeNull(),
    );
  });

  it('removes a buyer whose PIN KRA does not know and resends it as a sale to no one named', async () => {
    const doc = createDocument();
    const asked = answer(listOf([doc]), {
      status: 200,
      body: {
        success: true,
        message: 'Sent to KRA again',
        document: { ...doc, state: 'queued', buyer: null },
      },
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Fix buyer and resend' }));
    const form = await screen.findByRole('form', { name: 'Resend SPDBMUYD9PD' });
    const remove = within(form).getByRole('checkbox', { name: /Remove the buyer/ });
    fireEvent.click(remove);
    expect(within(form).getByRole('textbox', { name: /Buyer's KRA PIN/ })).toBeDisabled();
    expect(within(form).getByRole('textbox', { name: /Buyer's name/ })).toBeDisabled();
    fireEvent.click(within(form).getByRole('button', { name: 'Resend to KRA' }));
    await waitFor(() => expect(asked.posts()).toHaveLength(1));
    expect(asked.posts()[0]!.body).toEqual({ buyerPin: '' });
    expect(await screen.findByText('SPDBMUYD9PD is on its way to KRA again')).toBeInTheDocument();
  });

  it('offers no removal of a buyer when the document names none', async () => {
    answer(listOf([createDocument({ buyer: null })]));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Fix buyer and resend' }));
    const form = await screen.findByRole('form', { name: 'Resend SPDBMUYD9PD' });
    expect(within(form).queryByRole('checkbox', { name: /Remove the buyer/ })).toBeNull();
  });

  it("offers no removal of an invoice on account's buyer: the organisation that owes it", async () => {
    answer(listOf([createDocument({ source: 'invoice:6650a1b2c3d4e5f6a7b8c9d0' })]));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Fix buyer and resend' }));
    const form = await screen.findByRole('form', { name: 'Resend SPDBMUYD9PD' });
    expect(within(form).getByRole('textbox', { name: /Buyer's KRA PIN/ })).toBeInTheDocument();
    expect(within(form).queryByRole('checkbox', { name: /Remove the buyer/ })).toBeNull();
  });

  it('says a credit note set aside waits for its sale to be signed', async () => {
    answer(
      listOf([
        createDocument({
          source: 'refund:6650f0c2a1b2c3d4e5f6a0aa',
          kind: 'credit-note',
          trdInvcNo: 'SPDBMUYD9PD-CN',
          state: 'queued',
          lastCode: null,
          lastMessage: null,
          original: 'order:6650f0c2a1b2c3d4e5f6a001:sale',
          waitsFor: 'SPDBMUYD9PD',
        }),
      ]),
    );
    render();
    expect(
      await screen.findByText(/Waits for its sale SPDBMUYD9PD to be signed/),
    ).toBeInTheDocument();
  });

  it("shows the API's refusal under the resend form and keeps it open", async () => {
    const doc = createDocument();
    answer(listOf([doc]), {
      status: 409,
      body: {
        success: false,
        statusCode: 409,
        code: 'CONFLICT',
        message: 'SPDBMUYD9PD is signed already (eTIMS 42)',
      },
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Fix buyer and resend' }));
    const form = await screen.findByRole('form', { name: 'Resend SPDBMUYD9PD' });
    fireEvent.click(within(form).getByRole('button', { name: 'Resend to KRA' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'SPDBMUYD9PD is signed already (eTIMS 42)',
    );
  });

  it("saves a pending document's signature copied from KRA's portal, in Nairobi time", async () => {
    const doc = createDocument({ state: 'pending', lastCode: '994' });
    const asked = answer(listOf([doc]), {
      status: 200,
      body: { success: true, message: 'Signature saved', document: { ...doc, state: 'signed' } },
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Enter signature' }));
    const form = await screen.findByRole('form', { name: 'Signature of SPDBMUYD9PD' });
    const field = (name: RegExp) => within(form).getByLabelText(name);
    fireEvent.change(field(/CU invoice number/), { target: { value: '12' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save signature' }));
    expect(await within(form).findByText(/cuInvoiceNumber must be/)).toBeVisible();
    expect(asked.posts()).toEqual([]);

    fireEvent.change(field(/CU invoice number/), { target: { value: 'kracu0100000001/12' } });
    fireEvent.change(field(/Receipt signature/), { target: { value: 'VZBRUTNY5NM6RKYS' } });
    fireEvent.change(field(/Signed at/), { target: { value: '2026-11-20T10:41' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save signature' }));
    await waitFor(() => expect(asked.posts()).toHaveLength(1));
    expect(asked.posts()[0]!.url.pathname).toBe(
      `/api/etims/documents/${encodeURIComponent(doc.source)}/signature`,
    );
    expect(asked.posts()[0]!.body).toEqual({
      cuInvoiceNumber: 'KRACU0100000001/12',
      rcptSign: 'VZBRUTNY5NM6RKYS',
      signedAt: '2026-11-20T07:41:00.000Z',
    });
    expect(await screen.findByText('SPDBMUYD9PD is signed')).toBeInTheDocument();
  });
});
