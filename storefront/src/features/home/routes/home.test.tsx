import { act, render, screen } from '@testing-library/react';
import { createProduct, mockFetch, renderWithProviders } from '../../../testing/render';
import { Stars, Testimonials } from '../components/testimonials';
import { HomeRoute } from './home';

const listing = (products: unknown[]) => ({
  success: true,
  message: 'ok',
  products,
  categories: [],
  totalProducts: products.length,
  totalsPerCategory: {},
  totalPages: 1,
  totalFilteredProducts: products.length,
  page: 1,
  limit: 8,
  priceRange: { min: 0, max: 0 },
});

describe('home page', () => {
  it('shows the hero, five collections and the featured seedlings', async () => {
    mockFetch({ '/api/products': () => ({ body: listing([createProduct()]) }) });
    renderWithProviders(<HomeRoute />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Premium Quality Seedlings',
    );
    expect(screen.getByRole('link', { name: 'Shop Now' })).toHaveAttribute(
      'href',
      '/shop/products',
    );
    expect(screen.getAllByRole('link', { name: /^Shop now, / })).toHaveLength(5);
    expect(
      await screen.findByRole('heading', { name: 'Hass Avocado Seedling' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'GO TO SHOP' })).toBeInTheDocument();
  });

  it("says 'No products found.' when there are no featured seedlings", async () => {
    mockFetch({ '/api/products': () => ({ body: listing([]) }) });
    renderWithProviders(<HomeRoute />);
    expect(await screen.findByText('No products found.')).toBeInTheDocument();
  });

  it('lets the hero carousel be paused', () => {
    mockFetch({ '/api/products': () => ({ body: listing([]) }) });
    renderWithProviders(<HomeRoute />);
    const pause = screen.getByRole('button', { name: 'Pause carousel' });
    act(() => pause.click());
    expect(screen.getByRole('button', { name: 'Play carousel' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });
});

describe('testimonials', () => {
  it('draws full, half and empty stars', () => {
    const { container } = render(<Stars rating={3.5} />);
    const kinds = Array.from(container.querySelectorAll('[data-star]')).map((s) =>
      s.getAttribute('data-star'),
    );
    expect(kinds).toEqual(['full', 'full', 'full', 'half', 'empty']);
    expect(screen.getByRole('img', { name: '3.5 out of 5 stars' })).toBeInTheDocument();
  });

  it('moves to the next testimonial every 3 s', () => {
    jest.useFakeTimers();
    render(<Testimonials />);
    expect(screen.getByText(/Wanjiku K\./)).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(3000));
    expect(screen.getByText(/Otieno M\./)).toBeInTheDocument();
    jest.useRealTimers();
  });
});
