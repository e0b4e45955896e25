import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { KRA_PIN_MESSAGE, ORGANISATION_MESSAGES } from '@spc/shared-contracts';
import { Route, Routes } from 'react-router';
import { renderWithProviders, signInAs } from '../../../testing/render';
import {
  CATALOGUE,
  createOrganisation,
  json,
  ORG_ID,
  PRODUCT_ID,
  UNIT_ID,
} from '../../../testing/organisations';
import { createQuotation, createVersion, summaryOf } from '../../../testing/quotations';
import { OrganisationDetailRoute } from './organisation-detail';

const QUOTATIONS = {
  quotations: [summaryOf(createQuotation({ status: 'sent', versions: [createVersion()] }))],
  totalQuotations: 1,
  totalPages: 1,
  page: 1,
};

type Reply = (request: Request, body: unknown) => Response | Promise<Response> | undefined;

/** The organisation's routes; `reply` answers a change first (undefined: the organisation). */
function answer(org = createOrganisation(), reply: Reply = () => undefined) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const request = input as Request;
    const url = new URL(request.url);
    if (url.pathname === '/api/products') return json(200, CATALOGUE);
    if (url.pathname === '/api/quotations' && request.method === 'GET')
      return json(200, { success: true, message: '', ...QUOTATIONS });
    if (request.method === 'GET')
      return json(200, { success: true, message: '', organisation: org });
    const body =
      request.method === 'DELETE' ? undefined : await request.json().catch(() => undefined);
    sent.push({ method: request.method, path: url.pathname, body });
    return reply(request, body) ?? json(200, { success: true, message: 'Done', organisation: org });
  });
  return sent;
}

const render = (role: 'staff' | 'admin') => {
  signInAs(role);
  return renderWithProviders(
    <Routes>
      <Route path="/manage/organisations/:id" element={<OrganisationDetailRoute />} />
    </Routes>,
    { route: `/manage/organisations/${ORG_ID}` },
  );
};

const section = (name: string) => screen.getByRole('region', { name });

describe("an organisation's page", () => {
  afterEach(() => jest.restoreAllMocks());

  it('lets staff approve a pending organisation, and shows them the terms read-only', async () => {
    const sent = answer();
    render('staff');
    expect(
      await screen.findByRole('heading', { name: 'Kiambu County Government' }),
    ).toBeInTheDocument();
    const terms = section('Terms');
    expect(terms).toHaveTextContent('Payment days: 30');
    expect(terms).toHaveTextContent('Credit limit: KES 0');
    expect(within(terms).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Price list' })).not.toBeInTheDocument();
    // Pending: approve or decline, never suspend.
    const status = section('Status');
    expect(within(status).queryByRole('button', { name: 'Suspend' })).not.toBeInTheDocument();
    fireEvent.click(within(status).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(sent).toEqual([
        { method: 'POST', path: `/api/organisations/${ORG_ID}/approve`, body: undefined },
      ]),
    );
  });

  it('asks for a reason before declining, and sends it', async () => {
    const sent = answer();
    render('staff');
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Decline' });
    expect(confirm).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText(/Reason/), {
      target: { value: ' The PIN is not theirs ' },
    });
    fireEvent.click(confirm);
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'POST',
          path: `/api/organisations/${ORG_ID}/decline`,
          body: { reason: 'The PIN is not theirs' },
        },
      ]),
    );
  });

  it('checks the KRA PIN as typed and sends the corrected details', async () => {
    const sent = answer();
    render('staff');
    const details = await screen.findByRole('form', { name: 'Details and contacts' });
    fireEvent.change(within(details).getByLabelText('KRA PIN'), { target: { value: 'P05123' } });
    expect(await within(details).findByText(KRA_PIN_MESSAGE)).toBeInTheDocument();
    fireEvent.click(within(details).getByRole('button', { name: 'Save details' }));
    fireEvent.change(within(details).getByLabelText('KRA PIN'), {
      target: { value: 'p051234567y' },
    });
    await waitFor(() => expect(within(details).queryByText(KRA_PIN_MESSAGE)).toBeNull());
    fireEvent.click(within(details).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      method: 'PATCH',
      path: `/api/organisations/${ORG_ID}`,
      body: { kraPin: 'P051234567Y', name: 'Kiambu County Government' },
    });
  });

  it("shows the API's refusal to take away the last approver", async () => {
    answer(createOrganisation(), () =>
      json(409, {
        success: false,
        statusCode: 409,
        code: 'LAST_APPROVER',
        message: ORGANISATION_MESSAGES.lastApprover,
      }),
    );
    render('staff');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Grace Wambui' }));
    expect(await within(section('People')).findByRole('alert')).toHaveTextContent(
      ORGANISATION_MESSAGES.lastApprover,
    );
  });

  it('invites a person by e-mail with a role', async () => {
    const sent = answer(createOrganisation(), (request) =>
      request.url.endsWith('/invitations')
        ? json(201, { success: true, message: 'Invitation recorded', invitation: {} })
        : undefined,
    );
    render('staff');
    const form = await screen.findByRole('form', { name: 'Invite a person' });
    fireEvent.change(within(form).getByLabelText('E-mail'), { target: { value: 'bad' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Invite' }));
    expect(await within(form).findByText(/e-mail/i)).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    fireEvent.change(within(form).getByLabelText('E-mail'), {
      target: { value: 'otieno@kiambu.go.ke' },
    });
    fireEvent.change(within(form).getByLabelText('Role'), { target: { value: 'approver' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Invite' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'POST',
          path: `/api/organisations/${ORG_ID}/invitations`,
          body: { email: 'otieno@kiambu.go.ke', role: 'approver' },
        },
      ]),
    );
  });

  it("lets an admin set the terms, refusing a credit limit beyond the API's", async () => {
    const sent = answer(createOrganisation({ status: 'approved' }));
    render('admin');
    const form = await screen.findByRole('form', { name: 'Terms' });
    const limit = within(form).getByLabelText(/Credit limit/);
    fireEvent.change(limit, { target: { value: '2000000000' } });
    expect(await within(form).findByText(ORGANISATION_MESSAGES.creditLimit)).toBeInTheDocument();
    fireEvent.change(limit, { target: { value: '750000000' } });
    fireEvent.change(within(form).getByLabelText(/Payment days/), { target: { value: '60' } });
    fireEvent.click(within(form).getByLabelText('May order on account'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save terms' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'PUT',
          path: `/api/organisations/${ORG_ID}/terms`,
          body: {
            paymentDays: 60,
            creditLimit: 750000000,
            onAccount: true,
            invoicing: 'perTranche',
          },
        },
      ]),
    );
  });

  it('lets an admin add a price for a product and unit picked from the catalogue', async () => {
    const sent = answer(createOrganisation({ status: 'approved' }));
    render('admin');
    const form = await screen.findByRole('form', { name: 'Price list' });
    fireEvent.change(within(form).getByLabelText(/Discount/), { target: { value: '5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add a price' }));
    fireEvent.change(within(form).getByLabelText('Product of price 1'), {
      target: { value: PRODUCT_ID },
    });
    const unit = within(form).getByLabelText('Unit of price 1');
    await waitFor(() => expect(unit).toBeEnabled());
    expect(
      within(unit)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Pick a unit', 'Seedling', 'Tray of 50']);
    fireEvent.change(unit, { target: { value: UNIT_ID } });
    fireEvent.change(within(form).getByLabelText('Price 1 (KES)'), { target: { value: '25' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save price list' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'PUT',
          path: `/api/organisations/${ORG_ID}/price-list`,
          body: {
            discountPercent: 5,
            prices: [{ productId: PRODUCT_ID, unitId: UNIT_ID, price: 25 }],
          },
        },
      ]),
    );
  });

  it('disables the terms while they are being sent', async () => {
    let release: (r: Response) => void = () => undefined;
    const sent = answer(createOrganisation({ status: 'approved' }), (request) =>
      request.method === 'PUT'
        ? new Promise<Response>((resolve) => (release = resolve))
        : undefined,
    );
    render('admin');
    const form = await screen.findByRole('form', { name: 'Terms' });
    fireEvent.click(within(form).getByLabelText('May order on account'));
    await waitFor(() =>
      expect(within(form).getByRole('button', { name: 'Save terms' })).toBeEnabled(),
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Save terms' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(within(form).getByLabelText(/Payment days/)).toBeDisabled();
    expect(within(form).getByLabelText('May order on account')).toBeDisabled();
    release(json(200, { success: true, message: 'Terms set', organisation: createOrganisation() }));
    await waitFor(() => expect(within(form).getByLabelText(/Payment days/)).toBeEnabled());
  });

  it('says when the organisation cannot be found', async () => {
    jest.spyOn(global, 'fetch').mockImplementation(async () =>
      json(404, {
        success: false,
        statusCode: 404,
        message: ORGANISATION_MESSAGES.noOrganisation,
      }),
    );
    render('staff');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      ORGANISATION_MESSAGES.noOrganisation,
    );
  });

  it('lists its quotations, and staff write a new one from a phone call, then open it', async () => {
    const created = createQuotation({ _id: '6650f0c2a1b2c3d4e5f6f0aa' });
    const sent = answer(createOrganisation({ status: 'approved' }), (request) =>
      new URL(request.url).pathname === '/api/quotations'
        ? json(201, { success: true, message: 'Quotation requested', quotation: created })
        : undefined,
    );
    render('staff');
    const quotes = await screen.findByRole('region', { name: 'Quotations' });
    const link = await within(quotes).findByRole('link', { name: 'QUO-000123' });
    expect(link).toHaveAttribute('href', '/manage/quotations/6650f0c2a1b2c3d4e5f6f001');
    expect(quotes).toHaveTextContent('Sent: awaiting the organisation');
    expect(quotes).toHaveTextContent('KES 755,000');
    fireEvent.click(within(quotes).getByRole('button', { name: 'New quotation' }));
    const form = await screen.findByRole('form', { name: 'New quotation' });
    const create = within(form).getByRole('button', { name: 'Create the quotation' });
    fireEvent.click(create);
    expect(await within(form).findByText('Choose a product')).toBeInTheDocument();
    expect(sent).toEqual([]);
    fireEvent.change(within(form).getByLabelText('Product'), { target: { value: PRODUCT_ID } });
    fireEvent.change(within(form).getByLabelText('Unit'), { target: { value: UNIT_ID } });
    fireEvent.change(within(form).getByLabelText('Quantity'), { target: { value: '30000' } });
    fireEvent.change(within(form).getByLabelText(/Note/), {
      target: { value: ' Called: 30,000 for the greening drive ' },
    });
    fireEvent.click(create);
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'POST',
          path: '/api/quotations',
          body: {
            organisationId: ORG_ID,
            lines: [{ productId: PRODUCT_ID, unitId: UNIT_ID, quantity: 30000 }],
            note: 'Called: 30,000 for the greening drive',
          },
        },
      ]),
    );
    // Created: the quote desk's page of the new quotation opens (this test routes only the organisation's).
    await waitFor(() =>
      expect(
        screen.queryByRole('heading', { name: 'Kiambu County Government' }),
      ).not.toBeInTheDocument(),
    );
  });
});
