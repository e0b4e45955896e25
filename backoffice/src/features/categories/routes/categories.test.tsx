import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { CategoriesRoute } from './categories';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** 30 categories "Category 01".."Category 30"; Category 01 holds 1 product, the others 0 or 5. */
const CATEGORIES = Array.from({ length: 30 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0');
  return {
    _id: `665f1c2b9d3e4a00123456${n}`,
    name: `Category ${n}`,
    description: i === 29 ? 'Grafted avocado' : `Seedlings of kind ${n}`,
    productCount: i === 0 ? 1 : i % 2 ? 5 : 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
});

/** Answers GET /api/categories as the API pages and searches it, and records each query. */
function serveCategories() {
  const queries: URLSearchParams[] = [];
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    queries.push(url.searchParams);
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 100);
    const search = (url.searchParams.get('search') ?? '').toLowerCase();
    const found = CATEGORIES.filter((c) =>
      `${c.name} ${c.description}`.toLowerCase().includes(search),
    );
    return json(200, {
      success: true,
      message: 'Categories retrieved',
      categories: found.slice((page - 1) * limit, page * limit),
      totalCategories: found.length,
      totalPages: found.length ? Math.ceil(found.length / limit) : 0,
      page,
    });
  });
  return queries;
}

// Twelve Mantine cards a render: slow in jsdom on a busy machine.
jest.setTimeout(30_000);
const slow = { timeout: 10_000 };

describe('categories screen', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  it('shows one page of 12 with "1 product" and "N products", and pages on through the API', async () => {
    const queries = serveCategories();
    renderWithProviders(<CategoriesRoute />);
    expect(await screen.findByText('Category 01', {}, slow)).toBeInTheDocument();
    expect(screen.getByText('Category 12')).toBeInTheDocument();
    expect(screen.queryByText('Category 13')).not.toBeInTheDocument();
    expect(screen.getByText('1 product')).toBeInTheDocument();
    expect(screen.getAllByText('5 products')).toHaveLength(6);
    expect(screen.getAllByText('0 products')).toHaveLength(5);
    expect(queries[0]!.get('page')).toBe('1');
    expect(queries[0]!.get('limit')).toBe('12');

    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    expect(pager).toHaveTextContent('123');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Category 13', {}, slow)).toBeInTheDocument();
    expect(screen.queryByText('Category 01')).not.toBeInTheDocument();
    expect(queries.at(-1)!.get('page')).toBe('2');
    expect(screen.getByRole('button', { name: '2' })).toHaveAttribute('aria-current', 'page');
  });

  it('searches name and description through the API, from page 1, and hides the pager for one page', async () => {
    const queries = serveCategories();
    renderWithProviders(<CategoriesRoute />);
    await screen.findByText('Category 01', {}, slow);
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    expect(await screen.findByText('Category 30', {}, slow)).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Search categories'), {
      target: { value: '  avocado ' },
    });
    await waitFor(() => expect(queries.at(-1)!.get('search')).toBe('avocado'), slow);
    expect(queries.at(-1)!.get('page')).toBe('1');
    await waitFor(() => expect(screen.queryByText('Category 01')).not.toBeInTheDocument(), slow);
    expect(screen.getByText('Category 30')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('says so when no category matches', async () => {
    serveCategories();
    renderWithProviders(<CategoriesRoute />);
    await screen.findByText('Category 01', {}, slow);
    fireEvent.change(screen.getByLabelText('Search categories'), {
      target: { value: 'baobab' },
    });
    expect(await screen.findByText('no category to display...', {}, slow)).toBeInTheDocument();
  });
});
