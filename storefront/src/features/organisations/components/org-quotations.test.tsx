import { screen } from '@testing-library/react';
import { useSessionStore } from '../../../stores/session-store';
import { fakeJwt, mockFetch, renderWithProviders } from '../../../testing/render';
import { OrgQuotations } from './org-quotations';

const user = {
  _id: 'u1',
  fullName: 'Achieng Otieno',
  email: 'a@example.co.ke',
  role: 'customer' as const,
};
const row = {
  _id: 'q1',
  number: 'QUO-000123',
  organisationId: 'o1',
  organisationName: 'Green Belt Schools Trust',
  status: 'sent',
  total: 12_345_678,
  validUntil: '2099-12-31',
  versions: 2,
  createdAt: '2026-11-24T08:00:00.000Z',
  updatedAt: '2026-11-25T09:00:00.000Z',
};
const page = (quotations: unknown[]) => ({
  body: {
    success: true,
    message: '',
    quotations,
    totalQuotations: quotations.length,
    totalPages: 1,
    page: 1,
  },
});

beforeEach(() =>
  useSessionStore.getState().signIn({ accessToken: fakeJwt(600), refreshToken: 'r', user }),
);

describe("the organisation's quotations", () => {
  it('lists each with its status in the shared words, total and validity, opening its page', async () => {
    const { calls } = mockFetch({
      '/api/quotations': () =>
        page([
          row,
          {
            ...row,
            _id: 'q2',
            number: 'QUO-000124',
            status: 'requested',
            total: null,
            validUntil: null,
            versions: 0,
          },
        ]),
    });
    renderWithProviders(<OrgQuotations />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    const link = await screen.findByRole('link', { name: 'QUO-000123' });
    expect(link).toHaveAttribute('href', '/user/organisation?quotation=q1');
    const item = link.closest('li')!;
    expect(item).toHaveTextContent('Awaiting your answer');
    expect(item).toHaveTextContent('KES 12,345,678');
    expect(item).toHaveTextContent('Valid until 31/12/2099 · 2 versions');
    expect(screen.getByRole('link', { name: 'QUO-000124' }).closest('li')).toHaveTextContent(
      'Awaiting the shop',
    );
    expect(new URL(calls[0]!.url).searchParams.get('page')).toBe('1');
  });

  it('says when there are none, pointing to the cart', async () => {
    mockFetch({ '/api/quotations': () => page([]) });
    renderWithProviders(<OrgQuotations />);
    expect(await screen.findByText(/No quotations yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'cart' })).toHaveAttribute('href', '/viewCart');
  });

  it('says when they cannot be read, in the API’s words', async () => {
    mockFetch({
      '/api/quotations': () => ({
        status: 403,
        body: {
          success: false,
          message: 'Only the people of an approved organisation can ask for a quotation',
        },
      }),
    });
    renderWithProviders(<OrgQuotations />);
    expect(
      await screen.findByText(
        'Only the people of an approved organisation can ask for a quotation',
      ),
    ).toHaveAttribute('role', 'alert');
  });
});
