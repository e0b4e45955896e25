import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QUOTATION_MESSAGES } from '@spc/shared-contracts';
import { useSessionStore } from '../../../stores/session-store';
import { fakeJwt, mockFetch, renderWithProviders } from '../../../testing/render';
import { createQuotation, createVersion, mine } from '../../../testing/quotations';
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

beforeEach(() =>
  useSessionStore.getState().signIn({ accessToken: fakeJwt(600), refreshToken: 'r', user }),
);

describe('a quotation of the organisation (/user/organisation?quotation=<id>)', () => {
  it('shows every version sent, latest first, with lines, totals, validity and a PDF', async () => {
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('buyer') }),
      '/api/quotations/q1': () =>
        ok({
          quotation: createQuotation({
            versions: [createVersion(), createVersion({ version: 2 })],
          }),
        }),
    });
    render();
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    expect(await screen.findByRole('heading', { name: 'QUO-000123' })).toBeInTheDocument();
    expect(screen.getByText('Awaiting your answer')).toBeInTheDocument();
    const versions = screen.getAllByRole('region', { name: /^Version/ });
    expect(versions.map((v) => v.getAttribute('aria-label'))).toEqual(['Version 2', 'Version 1']);
    const v1 = versions[1]!;
    expect(v1).toHaveTextContent('600 × KES 1,250 (30,000 seedlings, ready stock)');
    expect(v1).toHaveTextContent('9,000 × KES 1,288 (9,000 seedlings, growing, ready 12/03/2027)');
    expect(v1).toHaveTextContent('TotalKES 12,345,678');
    expect(v1).toHaveTextContent('valid until 31/12/2099');
    expect(within(v1).getByRole('button', { name: 'PDF of version 1' })).toBeEnabled();
    // A buyer asks for changes; accepting and declining are the approver's.
    expect(screen.getByRole('button', { name: 'Ask for changes' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: /^Accept/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Decline' })).not.toBeInTheDocument();
    expect(
      screen.getByText('An approver of your organisation accepts or declines it.'),
    ).toBeInTheDocument();
  });

  it('lets an approver accept the latest version with the LPO number', async () => {
    let sent: unknown;
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('approver') }),
      '/api/quotations/q1': () => ok({ quotation: createQuotation() }),
      '/api/quotations/q1/accept': async (req) => {
        sent = await req.clone().json();
        return {
          status: 201,
          body: {
            success: true,
            message: 'Quotation accepted',
            quotation: createQuotation({ status: 'accepted' }),
            order: {},
          },
        };
      },
    });
    render();
    const form = await screen.findByRole('form', { name: 'Accept version 1' });
    fireEvent.click(within(form).getByRole('button', { name: 'Accept version 1' }));
    expect(await within(form).findByText(QUOTATION_MESSAGES.lpoRequired)).toBeInTheDocument();
    expect(sent).toBeUndefined();
    fireEvent.change(within(form).getByLabelText('LPO number'), {
      target: { value: ' LPO/GBST/0412 ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Accept version 1' }));
    expect(await screen.findByText('Quotation accepted')).toBeInTheDocument();
    expect(sent).toEqual({ version: 1, lpoNumber: 'LPO/GBST/0412' });
  });

  it('shows what is short and the batches offered when the shop can no longer cover it', async () => {
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('approver') }),
      '/api/quotations/q1': () => ok({ quotation: createQuotation() }),
      '/api/quotations/q1/accept': () => ({
        status: 409,
        body: {
          success: false,
          code: 'SHORT',
          message: QUOTATION_MESSAGES.short,
          lines: [
            {
              productId: 'p1',
              unitId: 'u-tray',
              productName: 'Grevillea robusta',
              source: { kind: 'stock' },
              quantity: 600,
              seedlings: 30000,
              available: 21000,
              batches: [{ _id: 'b2', readyOn: '2027-04-02', available: 12000 }],
            },
          ],
        },
      }),
    });
    render();
    const form = await screen.findByRole('form', { name: 'Accept version 1' });
    fireEvent.change(within(form).getByLabelText('LPO number'), { target: { value: 'LPO-1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Accept version 1' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent(QUOTATION_MESSAGES.short);
    expect(within(alert).getByRole('list', { name: 'What the shop can offer' })).toHaveTextContent(
      'Grevillea robusta: 30,000 seedlings asked, 21,000 left. Growing: 12,000 ready 02/04/2027.',
    );
  });

  it('disables Accept while it is sent, and shows the credit limit refusal in the API’s words', async () => {
    let release!: (v: { status: number; body: unknown }) => void;
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('approver') }),
      '/api/quotations/q1': () => ok({ quotation: createQuotation() }),
      '/api/quotations/q1/accept': () => new Promise((r) => (release = r)),
    });
    render();
    const form = await screen.findByRole('form', { name: 'Accept version 1' });
    fireEvent.change(within(form).getByLabelText('LPO number'), { target: { value: 'LPO-1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Accept version 1' }));
    expect(await within(form).findByRole('button', { name: 'Accepting…' })).toBeDisabled();
    const words = QUOTATION_MESSAGES.creditLimit(500_000, 120_000);
    release({ status: 409, body: { success: false, code: 'CREDIT_LIMIT', message: words } });
    expect(await within(form).findByRole('alert')).toHaveTextContent(words);
    expect(within(form).queryByRole('list')).not.toBeInTheDocument();
  });

  it('asks for changes, declines after asking, and writes in the thread', async () => {
    const posted: Record<string, unknown> = {};
    const record = (name: string) => async (req: Request) => {
      posted[name] = await req.clone().json();
      return ok({ quotation: createQuotation() });
    };
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('approver') }),
      '/api/quotations/q1': () =>
        ok({
          quotation: createQuotation({
            messages: [
              {
                _id: 'm1',
                from: 'shop',
                authorName: 'The shop',
                text: 'Version 1 is ready.',
                at: '2026-11-25T09:00:00.000Z',
              },
            ],
          }),
        }),
      '/api/quotations/q1/ask-changes': record('ask'),
      '/api/quotations/q1/decline': record('decline'),
      '/api/quotations/q1/messages': record('message'),
    });
    render();
    expect(await screen.findByText('The shop ·', { exact: false })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Ask for changes' }));
    const ask = screen.getByRole('form', { name: 'Ask for changes' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Send the request' }));
    expect(await within(ask).findByText(QUOTATION_MESSAGES.messageRequired)).toBeInTheDocument();
    fireEvent.change(within(ask).getByLabelText('What should change?'), {
      target: { value: 'Deliver in two tranches' },
    });
    fireEvent.click(within(ask).getByRole('button', { name: 'Send the request' }));
    await waitFor(() => expect(posted.ask).toEqual({ text: 'Deliver in two tranches' }));
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, decline' }));
    await waitFor(() => expect(posted.decline).toEqual({}));
    const write = screen.getByRole('form', { name: 'Write to the shop' });
    fireEvent.change(within(write).getByLabelText('Your message'), {
      target: { value: 'Thank you' },
    });
    fireEvent.click(within(write).getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(posted.message).toEqual({ text: 'Thank you' }));
  });

  it("says why it cannot be read (another organisation's, or none)", async () => {
    mockFetch({
      '/api/organisations/mine': () => ({ body: mine('buyer') }),
      '/api/quotations/q1': () => ({
        status: 404,
        body: { success: false, message: QUOTATION_MESSAGES.noQuotation },
      }),
    });
    render();
    expect(await screen.findByText(QUOTATION_MESSAGES.noQuotation)).toHaveAttribute(
      'role',
      'alert',
    );
  });
});
