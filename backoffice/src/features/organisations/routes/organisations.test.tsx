import { fireEvent, screen, waitFor } from '@testing-library/react';
import { onWideScreen, renderWithProviders, signInAs } from '../../../testing/render';
import { createOrganisation, json } from '../../../testing/organisations';
import { OrganisationsRoute } from './organisations';

const row = (overrides: Record<string, unknown> = {}) => {
  const o = createOrganisation(overrides);
  return {
    _id: o._id,
    name: o.name,
    kraPin: o.kraPin,
    kind: o.kind,
    status: o.status,
    people: 1,
    createdAt: o.createdAt,
  };
};

function answer(status: number, rows: unknown[] = []) {
  return jest.spyOn(global, 'fetch').mockImplementation(async () =>
    status === 200
      ? json(200, {
          success: true,
          message: '',
          organisations: rows,
          totalOrganisations: rows.length,
          totalPages: 1,
          page: 1,
        })
      : json(status, { success: false, statusCode: status, message: 'Down' }),
  );
}

const asked = (spy: jest.SpyInstance) =>
  spy.mock.calls.map(([input]) => new URL((input as Request).url));

const render = (route = '/manage/organisations') => {
  signInAs('staff');
  return renderWithProviders(<OrganisationsRoute />, { route });
};

describe('organisations list', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows a loader, then each organisation as a card linking to its page', async () => {
    answer(200, [row()]);
    render();
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
    const card = await screen.findByRole('article', { name: 'Kiambu County Government' });
    expect(card).toHaveTextContent('P051234567X · County government');
    expect(card).toHaveTextContent('Awaiting approval');
    expect(screen.getByRole('link', { name: 'Kiambu County Government' })).toHaveAttribute(
      'href',
      '/manage/organisations/6650f0c2a1b2c3d4e5f6c001',
    );
  });

  it('shows name, KRA PIN, kind, status and created in a table on a wide screen', async () => {
    await onWideScreen(async () => {
      answer(200, [row({ status: 'approved' })]);
      render();
      const table = await screen.findByRole('table', { name: 'Organisations' });
      expect(table).toHaveTextContent('NameKRA PINKindStatusCreated');
      expect(table).toHaveTextContent(
        'Kiambu County GovernmentP051234567XCounty governmentApproved',
      );
    });
  });

  it('asks for those waiting for approval from the address, and says when none wait', async () => {
    const spy = answer(200, []);
    render('/manage/organisations?status=pending');
    expect(await screen.findByText('No organisation is waiting for approval.')).toBeInTheDocument();
    expect(asked(spy)[0]!.searchParams.get('status')).toBe('pending');
  });

  it('searches by name or KRA PIN and filters by kind, from page 1', async () => {
    const spy = answer(200, []);
    render();
    expect(await screen.findByText('No organisations yet.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Filter by kind'), { target: { value: 'school' } });
    fireEvent.change(screen.getByLabelText('Search by name or KRA PIN'), {
      target: { value: ' P0512 ' },
    });
    await waitFor(() => {
      const last = asked(spy).at(-1)!;
      expect(last.searchParams.get('search')).toBe('P0512');
      expect(last.searchParams.get('kind')).toBe('school');
      expect(last.searchParams.get('page')).toBe('1');
    });
    expect(await screen.findByText('No organisations match these filters.')).toBeInTheDocument();
  });

  it('says when the list cannot be loaded', async () => {
    answer(500);
    render();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });
});
