import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { AuditTrailsRoute } from './audit-trails';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

const ENTRIES = [
  {
    _id: 'e2',
    action: 'order.inTransit',
    message: 'Grace Njeri marked order SPD-2026-0042 in transit',
    performedBy: { id: 's1', fullName: 'Grace Njeri', role: 'staff' },
    user: 's1',
    target: { type: 'order', id: 'o1', label: 'SPD-2026-0042' },
    timestamp: '2026-11-20T07:05:00.000Z',
  },
  {
    _id: 'e1',
    action: 'category.create',
    message: 'Grace Njeri created category "Fruits"',
    performedBy: { id: 's1', fullName: 'Grace Njeri', role: 'staff' },
    user: 's1',
    target: { type: 'category', id: 'c1', label: 'Fruits' },
    timestamp: '2026-11-20T06:00:00.000Z',
  },
];

/** Answers the trail and its filter options, recording each list request's query. */
function answer(entries = ENTRIES, totals: Record<string, string> = {}) {
  const queries: URLSearchParams[] = [];
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    if (url.pathname === '/api/audit-logs/filters')
      return json(200, {
        success: true,
        message: 'Audit trail filters',
        people: [{ id: 's1', fullName: 'Grace Njeri', role: 'staff' }],
        actions: ['auth.login', 'category.create', 'order.inTransit'],
      });
    queries.push(url.searchParams);
    return json(200, entries, { 'X-Total-Count': String(entries.length), ...totals });
  });
  return queries;
}

describe('audit trails screen', () => {
  beforeEach(() => signInAs('admin'));
  afterEach(() => jest.restoreAllMocks());

  it('shows each activity in words, with the spec’s columns', async () => {
    answer();
    renderWithProviders(<AuditTrailsRoute />, { route: '/admin/audit-trails' });
    const table = await screen.findByRole('table', {}, { timeout: 10_000 });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['#', 'User', 'Role', 'Activity', 'Timestamp', 'Message']);
    expect(within(table).getByText('Marked order SPD-2026-0042 in transit')).toBeInTheDocument();
    expect(within(table).getByText('Created category Fruits')).toBeInTheDocument();
    expect(within(table).queryByText('category.create')).toBeNull();
    expect(screen.getByTestId('audit-count')).toHaveTextContent('2 entries');
  });

  it('asks for the filters in the address, customers’ sign-ins hidden by default', async () => {
    const queries = answer();
    renderWithProviders(<AuditTrailsRoute />, {
      route: '/admin/audit-trails?user=s1&action=category.create&from=2026-11-01&to=2026-11-20',
    });
    await screen.findByRole('table', {}, { timeout: 10_000 });
    expect(Object.fromEntries(queries[0]!)).toEqual({
      user: 's1',
      action: 'category.create',
      from: '2026-11-01',
      to: '2026-11-20',
      hideCustomerSignIns: 'true',
      page: '1',
      limit: '50',
    });
  });

  it('shows customers’ sign-ins again when the switch is turned off', async () => {
    const queries = answer();
    renderWithProviders(<AuditTrailsRoute />, { route: '/admin/audit-trails' });
    await screen.findByRole('table', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('switch', { name: 'Hide customers’ sign-ins' }));
    await screen.findByRole('switch', { checked: false });
    await new Promise((r) => setTimeout(r, 0));
    expect(queries.at(-1)!.has('hideCustomerSignIns')).toBe(false);
  });

  it('shows a total that is a lower bound as "1,000+", and pages on past it', async () => {
    const queries = answer(ENTRIES, {
      'X-Total-Count': '1000',
      'X-Total-Is-Lower-Bound': 'true',
    });
    renderWithProviders(<AuditTrailsRoute />, { route: '/admin/audit-trails?page=20' });
    await screen.findByRole('table', {}, { timeout: 10_000 });
    expect(screen.getByTestId('audit-count')).toHaveTextContent(
      '1,000+ entries (an export holds the newest 10,000 at most)',
    );
    // 20 pages of 50 are counted; more match, so next stays enabled past the last counted.
    const pages = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pages).getByRole('button', { name: '20' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeEnabled();
    fireEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(queries.at(-1)!.get('page')).toBe('21'));
    fireEvent.click(within(pages).getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(queries.at(-1)!.get('page')).toBe('20'));
  });

  it('says an export leaves entries out once more than it holds are known to match', async () => {
    answer(ENTRIES, { 'X-Total-Count': '10050', 'X-Total-Is-Lower-Bound': 'true' });
    renderWithProviders(<AuditTrailsRoute />, { route: '/admin/audit-trails?page=201' });
    await screen.findByRole('table', {}, { timeout: 10_000 });
    expect(screen.getByTestId('audit-count')).toHaveTextContent(
      '10,050+ entries (an export holds the newest 10,000; narrow the dates for the rest)',
    );
  });

  it('shows an exact total as it is, with no page past it', async () => {
    answer(ENTRIES, { 'X-Total-Count': '120', 'X-Total-Is-Lower-Bound': 'false' });
    renderWithProviders(<AuditTrailsRoute />, { route: '/admin/audit-trails?page=3' });
    await screen.findByRole('table', {}, { timeout: 10_000 });
    expect(screen.getByTestId('audit-count')).toHaveTextContent(/^120 entries$/);
    const pages = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pages).queryByRole('button', { name: '4' })).toBeNull();
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('says so when nothing matches, and offers no export', async () => {
    answer([]);
    renderWithProviders(<AuditTrailsRoute />, { route: '/admin/audit-trails?role=customer' });
    expect(
      await screen.findByText('no audits to display', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });
});
