import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  KRA_PIN_MESSAGE,
  ORGANISATION_MESSAGES,
  type OrganisationView,
} from '@spc/shared-contracts';
import { useSessionStore } from '../../../stores/session-store';
import { fakeJwt, mockFetch, renderWithProviders } from '../../../testing/render';
import { createTranche } from '../../../testing/tranches';
import type { TrancheView } from '../api/tranches';
import { ForOrganisationsRoute } from './for-organisations';
import { MyOrganisationRoute } from './my-organisation';

const user = {
  _id: 'u1',
  fullName: 'Achieng Otieno',
  email: 'a@example.co.ke',
  role: 'customer' as const,
};
const contact = { name: 'Achieng Otieno', phone: '0712345678', email: 'a@example.co.ke' };
const org = (over: Partial<OrganisationView> = {}): OrganisationView => ({
  _id: 'o1',
  name: 'Green Belt Schools Trust',
  kraPin: 'P051234567X',
  kind: 'ngo',
  status: 'approved',
  statusReason: '',
  billingContact: contact,
  deliveryContact: contact,
  terms: { paymentDays: 30, creditLimit: 0, onAccount: false, invoicing: 'perTranche' },
  priceList: { discountPercent: 0, prices: [] },
  people: [
    {
      accountId: 'u1',
      fullName: 'Achieng Otieno',
      email: 'a@example.co.ke',
      role: 'approver',
      joinedAt: '2026-11-01T08:00:00Z',
    },
    {
      accountId: 'u2',
      fullName: 'Baraka Mwangi',
      email: 'b@example.co.ke',
      role: 'approver',
      joinedAt: '2026-11-02T08:00:00Z',
    },
  ],
  invitations: [],
  createdAt: '2026-11-01T08:00:00Z',
  updatedAt: '2026-11-01T08:00:00Z',
  ...over,
});
const ok = (body: object) => ({ body: { success: true, message: 'Done', ...body } });
const noInvitations = () => ok({ invitations: [] });

describe('For organisations', () => {
  it('asks a guest to sign in or register and brings them back', () => {
    useSessionStore.setState({ user: null, token: null, refreshToken: null });
    renderWithProviders(<ForOrganisationsRoute />);
    expect(screen.getByRole('link', { name: 'sign in' })).toHaveAttribute(
      'href',
      '/authenticate/login?next=%2Forganisations',
    );
    expect(screen.getByRole('link', { name: 'create an account' })).toHaveAttribute(
      'href',
      '/authenticate/register?next=%2Forganisations',
    );
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it('checks the KRA PIN as it is typed, sends the sign-up, then says it waits for approval', async () => {
    useSessionStore.getState().signIn({ accessToken: fakeJwt(600), refreshToken: 'r', user });
    let signedUp: unknown = null;
    const { calls } = mockFetch({
      '/api/organisations/mine': () =>
        ok(
          signedUp
            ? { organisation: org({ status: 'pending' }), role: 'approver' }
            : { organisation: null, role: null },
        ),
      '/api/organisations': async (req) => {
        signedUp = await req.json();
        return {
          status: 201,
          body: {
            success: true,
            message: 'Organisation signed up',
            organisation: org({ status: 'pending' }),
          },
        };
      },
    });
    renderWithProviders(<ForOrganisationsRoute />);
    const pin = await screen.findByLabelText('KRA PIN');
    fireEvent.change(pin, { target: { value: 'P05123' } });
    expect(await screen.findByText(KRA_PIN_MESSAGE)).toBeInTheDocument();
    fireEvent.change(pin, { target: { value: ' p051234567x ' } });
    await waitFor(() => expect(screen.queryByText(KRA_PIN_MESSAGE)).not.toBeInTheDocument());
    fireEvent.change(screen.getByLabelText('Organisation name'), {
      target: { value: 'Green Belt Schools Trust' },
    });
    for (const set of screen.getAllByRole('group')) {
      const g = within(set);
      fireEvent.change(g.getByLabelText('Name'), { target: { value: contact.name } });
      fireEvent.change(g.getByLabelText('Phone'), { target: { value: contact.phone } });
      fireEvent.change(g.getByLabelText('E-mail'), { target: { value: contact.email } });
    }
    fireEvent.click(screen.getByRole('button', { name: 'Sign up the organisation' }));
    expect(await screen.findByText(/waiting for approval/)).toBeInTheDocument();
    expect(signedUp).toEqual({
      name: 'Green Belt Schools Trust',
      kraPin: 'P051234567X',
      kind: 'ngo',
      billingContact: contact,
      deliveryContact: contact,
    });
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('shows the API refusal of a KRA PIN already registered', async () => {
    useSessionStore.getState().signIn({ accessToken: fakeJwt(600), refreshToken: 'r', user });
    mockFetch({
      '/api/organisations/mine': () => ok({ organisation: null, role: null }),
      '/api/organisations': () => ({
        status: 409,
        body: { success: false, message: ORGANISATION_MESSAGES.kraPinTaken },
      }),
    });
    renderWithProviders(<ForOrganisationsRoute />);
    fireEvent.change(await screen.findByLabelText('KRA PIN'), { target: { value: 'P051234567X' } });
    fireEvent.change(screen.getByLabelText('Organisation name'), { target: { value: 'X' } });
    for (const set of screen.getAllByRole('group')) {
      const g = within(set);
      fireEvent.change(g.getByLabelText('Name'), { target: { value: contact.name } });
      fireEvent.change(g.getByLabelText('Phone'), { target: { value: contact.phone } });
      fireEvent.change(g.getByLabelText('E-mail'), { target: { value: contact.email } });
    }
    fireEvent.click(screen.getByRole('button', { name: 'Sign up the organisation' }));
    expect(await screen.findByText(ORGANISATION_MESSAGES.kraPinTaken)).toBeInTheDocument();
  });
});

describe('Your organisation', () => {
  beforeEach(() => {
    useSessionStore.getState().signIn({ accessToken: fakeJwt(600), refreshToken: 'r', user });
  });

  it('sends someone signed out to sign in, to come back here', () => {
    useSessionStore.setState({ user: null, token: null, refreshToken: null });
    renderWithProviders(<MyOrganisationRoute />, {
      path: '/user/organisation',
      route: '/user/organisation',
    });
    expect(screen.getByText('elsewhere')).toBeInTheDocument();
  });

  const invitation = {
    _id: 'i1',
    organisation: { _id: 'o1', name: 'Green Belt Schools Trust', kind: 'ngo' },
    role: 'buyer',
    invitedAt: '2026-11-20T08:00:00Z',
    expiresAt: '2026-12-04T08:00:00Z',
  };

  it("says when the customer buys for none, and accepts the invitation of the e-mail's link with its code", async () => {
    let joined = false;
    const { calls } = mockFetch({
      '/api/organisations/mine': () =>
        ok(joined ? { organisation: org(), role: 'buyer' } : { organisation: null, role: null }),
      '/api/organisation-invitations': () => ok({ invitations: joined ? [] : [invitation] }),
      '/api/organisation-invitations/i1/accept': () => {
        joined = true;
        return {
          status: 201,
          body: { success: true, message: 'You joined the organisation', organisation: org() },
        };
      },
    });
    renderWithProviders(<MyOrganisationRoute />, {
      path: '/user/organisation?invitation=i1&code=q3Jx-9',
      route: '/user/organisation',
    });
    expect(await screen.findByText('You do not buy for an organisation yet.')).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('You joined the organisation')).toBeInTheDocument();
    expect(await screen.findByText('You are its buyer.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit contacts' })).not.toBeInTheDocument();
    const accepted = calls.find((c) => c.method === 'POST' && c.url.endsWith('/i1/accept'))!;
    expect(await accepted.json()).toEqual({ code: 'q3Jx-9' });
  });

  it('declines with the code too; an invitation listed without its link says to open the e-mail', async () => {
    const other = {
      ...invitation,
      _id: 'i2',
      organisation: { ...invitation.organisation, name: 'Kisii Farmers Co-operative' },
    };
    const { calls } = mockFetch({
      '/api/organisations/mine': () => ok({ organisation: null, role: null }),
      '/api/organisation-invitations': () => ok({ invitations: [invitation, other] }),
      '/api/organisation-invitations/i1/decline': () => ok({}),
    });
    renderWithProviders(<MyOrganisationRoute />, {
      path: '/user/organisation?invitation=i1&code=q3Jx-9',
      route: '/user/organisation',
    });
    const items = await screen.findAllByRole('listitem');
    const kisii = items.find((li) => li.textContent?.includes('Kisii'))!;
    expect(kisii).toHaveTextContent('Open the link in the invitation e-mail to accept it');
    expect(within(kisii).queryByRole('button')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/i1/decline'))).toBe(true),
    );
    const declined = calls.find((c) => c.url.endsWith('/i1/decline'))!;
    expect(await declined.json()).toEqual({ code: 'q3Jx-9' });
  });

  it('without a code in the address, no invitation can be answered from the page', async () => {
    mockFetch({
      '/api/organisations/mine': () => ok({ organisation: null, role: null }),
      '/api/organisation-invitations': () => ok({ invitations: [invitation] }),
    });
    renderWithProviders(<MyOrganisationRoute />, {
      path: '/user/organisation?invitation=i1',
      route: '/user/organisation',
    });
    expect(
      await screen.findByText('Open the link in the invitation e-mail to accept it'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
  });

  it('lets an approver change a role and shows the API refusal (last approver)', async () => {
    mockFetch({
      '/api/organisations/mine': () => ok({ organisation: org(), role: 'approver' }),
      '/api/organisation-invitations': noInvitations,
      '/api/organisations/o1/people/u2': () => ({
        status: 409,
        body: { success: false, message: ORGANISATION_MESSAGES.lastApprover },
      }),
    });
    renderWithProviders(<MyOrganisationRoute />);
    const role = await screen.findByRole('combobox', { name: 'Role of Baraka Mwangi' });
    fireEvent.change(role, { target: { value: 'buyer' } });
    expect(await screen.findByText(ORGANISATION_MESSAGES.lastApprover)).toBeInTheDocument();
  });

  it('invites a person by e-mail and shows the shop’s answer', async () => {
    let sent: unknown = null;
    mockFetch({
      '/api/organisations/mine': () => ok({ organisation: org(), role: 'approver' }),
      '/api/organisation-invitations': noInvitations,
      '/api/organisations/o1/invitations': async (req) => {
        sent = await req.json();
        return {
          status: 201,
          body: {
            success: true,
            message: ORGANISATION_MESSAGES.invitationSent(14),
            invitation: {},
          },
        };
      },
    });
    renderWithProviders(<MyOrganisationRoute />);
    const email = await screen.findByLabelText('Their e-mail');
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    fireEvent.change(email, { target: { value: 'c@example.co.ke' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText(ORGANISATION_MESSAGES.invitationSent(14))).toBeInTheDocument();
    expect(sent).toEqual({ email: 'c@example.co.ke', role: 'buyer' });
  });

  it('shows the API words when the organisation cannot be read', async () => {
    mockFetch({
      '/api/organisations/mine': () => ({
        status: 500,
        body: { success: false, message: 'Something broke' },
      }),
      '/api/organisation-invitations': noInvitations,
    });
    renderWithProviders(<MyOrganisationRoute />);
    expect(await screen.findByText('Something broke')).toHaveClass('state-error');
    expect(screen.queryByRole('button', { name: 'Send invitation' })).not.toBeInTheDocument();
  });
});

describe("the organisation's loads under way, on its area's overview", () => {
  const item = (t: TrancheView) => ({ ...t, organisationName: 'Green Belt Schools Trust' });
  const list = (tranches: TrancheView[], total = tranches.length) =>
    ok({ tranches: tranches.map(item), total, page: 1, totalPages: total ? 1 : 0 });
  const renderOverview = () =>
    renderWithProviders(<MyOrganisationRoute />, {
      path: '/user/organisation',
      route: '/user/organisation',
    });
  const base = {
    '/api/organisations/mine': () => ok({ organisation: org(), role: 'buyer' }),
    '/api/organisation-invitations': noInvitations,
    '/api/quotations': () => ok({ quotations: [], totalQuotations: 0, totalPages: 0, page: 1 }),
  };
  beforeEach(() => {
    useSessionStore.getState().signIn({ accessToken: fakeJwt(600), refreshToken: 'r', user });
  });

  it('lists the loads on their way, then those planned, each linking to its order', async () => {
    const onItsWay = createTranche({ number: 4, label: 'T4', state: 'Dispatched' });
    const { calls } = mockFetch({
      ...base,
      '/api/tranches': (req) => {
        const q = new URL(req.url).searchParams;
        return q.get('queue') === 'awaitingSignature'
          ? list([onItsWay])
          : list([createTranche()], 7);
      },
    });
    renderOverview();
    const card = await screen.findByRole('region', { name: 'Deliveries' });
    const rows = within(card).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('SPDAB12CD34 T4On its way'),
      expect.stringContaining('SPDAB12CD34 T1Planned20/03/2027 · Ol Kalou Forest Station'),
    ]);
    expect(rows[1]).toHaveTextContent('120,000 seedlings');
    expect(within(rows[0]!).getByRole('link')).toHaveAttribute(
      'href',
      '/user/organisation?order=ord1',
    );
    expect(card).toHaveTextContent("Each order's page lists all its deliveries.");
    const asked = calls.filter((c) => c.url.includes('/api/tranches')).map((c) => c.url);
    expect(asked.some((u) => u.includes('state=Planned'))).toBe(true);
  });

  it('adds nothing when the organisation has no loads under way', async () => {
    mockFetch({ ...base, '/api/tranches': () => list([]) });
    const { client } = renderOverview();
    expect(await screen.findByRole('region', { name: 'Quotations' })).toBeInTheDocument();
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(screen.queryByRole('region', { name: 'Deliveries' })).not.toBeInTheDocument();
  });

  it('says in words when the loads could not be read, and tries again', async () => {
    let tries = 0;
    mockFetch({
      ...base,
      '/api/tranches': (req) => {
        tries += 1;
        if (tries > 2 && new URL(req.url).searchParams.get('queue')) return list([]);
        return tries <= 2
          ? { status: 503, body: { success: false, code: 'INTERNAL_ERROR', message: 'Try later' } }
          : list([createTranche()]);
      },
    });
    renderOverview();
    const card = await screen.findByRole('region', { name: 'Deliveries' });
    expect(await within(card).findByRole('alert')).toHaveTextContent('Try later');
    await waitFor(() => expect(tries).toBe(2));
    fireEvent.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByRole('link', { name: 'SPDAB12CD34 T1' })).toBeInTheDocument();
  });

  it("links to the organisation's invoices, the overdue ones and its statement", async () => {
    mockFetch({ ...base, '/api/tranches': () => list([]) });
    renderOverview();
    const card = await screen.findByRole('region', { name: 'Invoices' });
    expect(within(card).getByRole('link', { name: 'Invoices' })).toHaveAttribute(
      'href',
      '/user/organisation?invoices=all',
    );
    expect(within(card).getByRole('link', { name: 'Overdue' })).toHaveAttribute(
      'href',
      '/user/organisation?invoices=overdue',
    );
    expect(within(card).getByRole('link', { name: 'Statement of account' })).toHaveAttribute(
      'href',
      '/user/organisation?statement',
    );
  });

  it('shows no invoices to an organisation not approved yet', async () => {
    mockFetch({
      ...base,
      '/api/organisations/mine': () =>
        ok({ organisation: org({ status: 'pending' }), role: 'buyer' }),
    });
    renderOverview();
    expect(
      await screen.findByRole('heading', { name: 'Green Belt Schools Trust' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Invoices' })).not.toBeInTheDocument();
  });
});
