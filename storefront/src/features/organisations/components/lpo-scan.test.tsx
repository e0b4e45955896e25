import { File as NodeFile } from 'node:buffer';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  LPO_SCAN_MESSAGES as LM,
  type QuotationAcceptanceView,
  type ScanAbout,
} from '@spc/shared-contracts';
import { useSessionStore } from '../../../stores/session-store';
import { fakeJwt, mockFetch, renderWithProviders } from '../../../testing/render';
import { createQuotation, mine } from '../../../testing/quotations';
import { MyOrganisationRoute } from '../routes/my-organisation';

const user = {
  _id: 'u1',
  fullName: 'Achieng Otieno',
  email: 'a@example.co.ke',
  role: 'customer' as const,
};
const ok = (body: object) => ({ body: { success: true, message: 'Done', ...body } });
const render = () =>
  renderWithProviders(<MyOrganisationRoute />, {
    path: '/user/organisation?quotation=q1',
    route: '/user/organisation',
  });
const pdfScan: ScanAbout = {
  contentType: 'application/pdf',
  size: 212 * 1024,
  uploadedAt: '2026-11-26T10:30:00.000Z',
};
const acceptance = (lpoScan: ScanAbout | null): QuotationAcceptanceView => ({
  version: 1,
  lpoNumber: 'LPO/GBST/0412',
  acceptedAt: '2026-11-26T10:00:00.000Z',
  acceptedBy: 'Achieng Otieno',
  byShop: false,
  orderId: 'ord1',
  purchaseNumber: 'SPDAB12CD34',
  lpoScan,
});
const accepted = (lpoScan: ScanAbout | null) =>
  createQuotation({ status: 'accepted', acceptance: acceptance(lpoScan) });
/** Node's File: the tests' FormData (Node's, jest-fixed-jsdom) takes no jsdom File. */
const file = (parts: BlobPart[], name: string, type: string) =>
  new NodeFile(parts as never, name, { type }) as unknown as File;
const pdf = (name = 'lpo.pdf', size = 2048) =>
  file([new Uint8Array(size)], name, 'application/pdf');

beforeEach(() =>
  useSessionStore.getState().signIn({ accessToken: fakeJwt(600), refreshToken: 'r', user }),
);

describe('the scanned LPO of an accepted quotation', () => {
  it('goes to the order right after the approver accepts; the page says it is on its way, then attached', async () => {
    let scan: ScanAbout | null = null;
    let status: 'sent' | 'accepted' = 'sent';
    let release!: () => void;
    const sent: { method: string; file?: File }[] = [];
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('approver') }),
      '/api/quotations/q1': () =>
        ok({ quotation: status === 'sent' ? createQuotation() : accepted(scan) }),
      '/api/quotations/q1/accept': () => {
        status = 'accepted';
        return {
          status: 201,
          body: {
            success: true,
            message: 'Quotation accepted',
            quotation: accepted(null),
            order: {},
          },
        };
      },
      '/api/orders/ord1/lpo-scan': async (req) => {
        sent.push({ method: req.method, file: (await req.formData()).get('file') as File });
        await new Promise<void>((r) => (release = r));
        scan = pdfScan;
        return ok({ message: LM.attached, lpoScan: pdfScan });
      },
    });
    render();
    const form = await screen.findByRole('form', { name: 'Accept version 1' });
    fireEvent.change(within(form).getByLabelText('LPO number'), {
      target: { value: 'LPO/GBST/0412' },
    });
    fireEvent.change(within(form).getByLabelText('Scanned LPO (PDF or photo, optional)'), {
      target: { files: [pdf('LPO 0412 signed.pdf')] },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Accept version 1' }));
    const card = await screen.findByRole('region', { name: 'Scanned LPO' });
    expect(await within(card).findByText('Attaching the scanned LPO…')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Sending…' })).toBeDisabled();
    expect(sent.map((s) => [s.method, s.file?.name])).toEqual([['PUT', 'LPO 0412 signed.pdf']]);
    release();
    expect(await within(card).findByText(/^PDF, 212 KB, attached/)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Download the scanned LPO' })).toBeEnabled();
    expect(within(card).getByRole('form', { name: 'Replace the scanned LPO' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the order stands when the scan was not attached, and attaches it again', async () => {
    let tries = 0;
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('approver') }),
      '/api/quotations/q1': () => ok({ quotation: tries ? accepted(null) : createQuotation() }),
      '/api/quotations/q1/accept': () => ({
        status: 201,
        body: {
          success: true,
          message: 'Quotation accepted',
          quotation: accepted(null),
          order: {},
        },
      }),
      '/api/orders/ord1/lpo-scan': () => {
        tries += 1;
        return tries === 1
          ? {
              status: 415,
              body: { success: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: LM.unsupported },
            }
          : ok({ message: LM.attached, lpoScan: pdfScan });
      },
    });
    render();
    const form = await screen.findByRole('form', { name: 'Accept version 1' });
    fireEvent.change(within(form).getByLabelText('LPO number'), { target: { value: 'LPO-1' } });
    fireEvent.change(within(form).getByLabelText('Scanned LPO (PDF or photo, optional)'), {
      target: { files: [pdf('scan.pdf')] },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Accept version 1' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(LM.notAttached);
    expect(alert).toHaveTextContent(LM.unsupported);
    const card = screen.getByRole('region', { name: 'Scanned LPO' });
    expect(within(card).getByText('No scanned LPO attached')).toBeInTheDocument();
    const again = within(card).getByRole('form', { name: 'Attach the scanned LPO' });
    fireEvent.click(within(again).getByRole('button', { name: 'Attach' }));
    expect(await within(again).findByText(LM.chooseFile)).toBeInTheDocument();
    expect(tries).toBe(1);
    fireEvent.change(within(again).getByLabelText('Attach the scanned LPO (PDF or photo)'), {
      target: { files: [pdf('scan-again.pdf')] },
    });
    fireEvent.click(within(again).getByRole('button', { name: 'Attach' }));
    expect(await screen.findByText(LM.attached)).toBeInTheDocument();
    expect(tries).toBe(2);
    await waitFor(() => expect(screen.queryByText(LM.notAttached)).not.toBeInTheDocument());
  });

  it('checks the file before accepting: over 5 MB or not a PDF or picture is refused in words, nothing sent', async () => {
    const { calls } = mockFetch({
      '/api/organisations/mine': () => ({ body: mine('approver') }),
      '/api/quotations/q1': () => ok({ quotation: createQuotation() }),
    });
    render();
    const form = await screen.findByRole('form', { name: 'Accept version 1' });
    fireEvent.change(within(form).getByLabelText('LPO number'), { target: { value: 'LPO-1' } });
    const field = within(form).getByLabelText('Scanned LPO (PDF or photo, optional)');
    expect(field).toHaveAttribute('accept', 'application/pdf,image/*');
    fireEvent.change(field, { target: { files: [pdf('huge.pdf', 5 * 1024 * 1024 + 1)] } });
    fireEvent.click(within(form).getByRole('button', { name: 'Accept version 1' }));
    expect(await within(form).findByText(LM.tooLarge)).toBeInTheDocument();
    fireEvent.change(field, {
      target: { files: [file(['<html>'], 'lpo.html', 'text/html')] },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Accept version 1' }));
    expect(await within(form).findByText(LM.unsupported)).toBeInTheDocument();
    expect(calls.some((c) => c.url.includes('/accept') || c.url.includes('lpo-scan'))).toBe(false);
  });

  it('a buyer downloads it (typed only as a PDF or a JPEG, named by the LPO) but may not attach one', async () => {
    URL.createObjectURL = jest.fn(() => 'blob:lpo');
    URL.revokeObjectURL = jest.fn();
    const names: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    const { calls } = mockFetch({
      '/api/organisations/mine': () => ({ body: mine('buyer') }),
      '/api/quotations/q1': () => ok({ quotation: accepted(pdfScan) }),
      '/api/orders/ord1/lpo-scan': () => ({ body: '<html><script>alert(1)</script></html>' }),
    });
    render();
    const card = await screen.findByRole('region', { name: 'Scanned LPO' });
    expect(within(card).queryByRole('form')).not.toBeInTheDocument();
    fireEvent.click(within(card).getByRole('button', { name: 'Download the scanned LPO' }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    const blob = (URL.createObjectURL as jest.Mock).mock.calls[0][0] as Blob;
    expect(blob.type).toBe('application/pdf');
    expect(names).toEqual(['LPO-LPO-GBST-0412.pdf']);
    const get = calls.find((c) => c.url.endsWith('/api/orders/ord1/lpo-scan'))!;
    expect(get.headers.get('Authorization')).toMatch(/^Bearer /);
    click.mockRestore();
  });

  it('says in words why the scan cannot be downloaded', async () => {
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('buyer') }),
      '/api/quotations/q1': () => ok({ quotation: accepted(pdfScan) }),
      '/api/orders/ord1/lpo-scan': () => ({
        status: 404,
        body: { success: false, code: 'NOT_FOUND', message: LM.none },
      }),
    });
    render();
    const card = await screen.findByRole('region', { name: 'Scanned LPO' });
    fireEvent.click(within(card).getByRole('button', { name: 'Download the scanned LPO' }));
    expect(await screen.findByText(LM.none)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Download the scanned LPO' })).toBeEnabled();
  });
});
