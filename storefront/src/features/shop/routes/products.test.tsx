import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  createCategory,
  createProduct,
  createProductList,
  type ProductListResponseDto,
} from '../../../testing/factories';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { ProductsRoute } from './products';

const categories = [
  createCategory({ _id: 'c1', name: 'Fruits', productCount: 2, createdAt: '', updatedAt: '' }),
  createCategory({ _id: 'c2', name: 'Flowers', productCount: 0, createdAt: '', updatedAt: '' }),
];

const listing = (overrides: Partial<ProductListResponseDto> = {}) =>
  createProductList({
    products: [
      createProduct(),
      createProduct({
        _id: 'p2',
        productName: 'Mango',
        onOffer: true,
        offerPrice: 200,
        price: 300,
        productQuantity: 4,
      }),
      createProduct({ _id: 'p3', productName: 'Pawpaw', productQuantity: 0 }),
    ],
    categories,
    totalProducts: 3,
    totalsPerCategory: { c1: 3, c2: 0 },
    totalPages: 1,
    totalFilteredProducts: 3,
    page: 1,
    limit: 12,
    priceRange: { min: 20, max: 3500 },
    ...overrides,
  });

const route = { route: '/shop/products' };

describe('product listing', () => {
  it('shows loading, then the cards with counts, offer and stock', async () => {
    mockFetch({ '/api/products': () => ({ body: listing() }) });
    renderWithProviders(<ProductsRoute />, { ...route, path: '/shop/products' });
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { name: 'Hass Avocado Seedling' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'All Products' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Fruits (3)' })).toBeInTheDocument();
    expect(screen.getByText('12 left')).toBeInTheDocument();
    expect(screen.getByText('4 left')).toBeInTheDocument();
    expect(screen.getByText('offer')).toBeInTheDocument();
    expect(screen.getByText('KES 300').tagName).toBe('S');
    expect(screen.getByRole('button', { name: 'Out Of Stock' })).toBeDisabled();
    expect(screen.getAllByText('KES 20')[0]).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('sends search, category, price and page from the query string', async () => {
    const { calls } = mockFetch({ '/api/products': () => ({ body: listing() }) });
    renderWithProviders(<ProductsRoute />, {
      ...route,
      path: '/shop/products?search=mango&category=c1&maxPrice=500&page=2',
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Fruits' })).toBeInTheDocument();
    const url = new URL(calls[0]!.url);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      search: 'mango',
      category: 'c1',
      maxPrice: '500',
      page: '2',
      limit: '12',
    });
  });

  it('shows the empty text of a category', async () => {
    mockFetch({ '/api/products': () => ({ body: listing({ products: [] }) }) });
    renderWithProviders(<ProductsRoute />, { ...route, path: '/shop/products?category=c2' });
    expect(await screen.findByText('No products found for this category.')).toBeInTheDocument();
  });

  it("shows 'Something went wrong...' when the list fails", async () => {
    mockFetch({ '/api/products': () => ({ status: 500, body: { message: 'boom' } }) });
    renderWithProviders(<ProductsRoute />, { ...route, path: '/shop/products' });
    expect(await screen.findByText('Something went wrong...')).toBeInTheDocument();
  });

  it('shows pagination when there is more than one page and changes the page', async () => {
    const { calls } = mockFetch({ '/api/products': () => ({ body: listing({ totalPages: 3 }) }) });
    renderWithProviders(<ProductsRoute />, { ...route, path: '/shop/products' });
    window.scrollTo = jest.fn();
    fireEvent.click(await screen.findByRole('button', { name: 'Page 2' }));
    await screen.findByRole('button', { name: 'Page 2', current: 'page' });
    expect(new URL(calls.at(-1)!.url).searchParams.get('page')).toBe('2');
  });

  it('filters by availability: the long rains, with their dates, each product with its ready day', async () => {
    const { calls } = mockFetch({
      '/api/products': () => ({
        body: listing({
          products: [
            createProduct({
              productQuantity: 0,
              batches: [{ _id: 'b1', readyOn: '2027-03-12', available: 500 }],
            }),
          ],
        }),
      }),
      '/api/bookings/settings': () => ({
        body: {
          success: true,
          message: 'ok',
          depositPercent: 30,
          balanceDays: 7,
          seasons: [
            { key: 'long-rains', name: 'Long rains', from: '2027-03-01', to: '2027-05-31' },
            { key: 'short-rains', name: 'Short rains', from: '2026-10-01', to: '2026-12-31' },
          ],
        },
      }),
    });
    renderWithProviders(<ProductsRoute />, { ...route, path: '/shop/products' });
    await screen.findByRole('heading', { name: 'Hass Avocado Seedling' });
    const select = screen.getByLabelText('Availability');
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Any time',
      'Ready now',
      'Long rains',
      'Short rains',
    ]);
    fireEvent.change(select, { target: { value: 'long-rains' } });
    expect(
      await screen.findByText('Ready for the long rains: 1 March to 31 May 2027'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(new URL(calls.at(-1)!.url).searchParams.get('availability')).toBe('long-rains'),
    );
    expect(screen.getByRole('button', { name: 'Long rains' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByRole('link', { name: 'Ready from 12 March: book' })).toHaveAttribute(
      'href',
      '/single/product/665f1c2b9d3e4a0012345679',
    );
  });

  it('says when nothing is ready for a season', async () => {
    mockFetch({ '/api/products': () => ({ body: listing({ products: [] }) }) });
    renderWithProviders(<ProductsRoute />, {
      ...route,
      path: '/shop/products?availability=short-rains',
    });
    expect(await screen.findByText('Nothing to book for the short rains yet.')).toBeInTheDocument();
  });
});
