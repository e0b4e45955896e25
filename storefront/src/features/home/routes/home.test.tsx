import { act, render, screen, waitFor } from '@testing-library/react';
import { createProduct, createProductList } from '../../../testing/factories';
import type { Product } from '../../../lib/types';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { DEFAULT_HERO_SLIDES } from '../components/hero-carousel';
import { Stars, Testimonials } from '../components/testimonials';
import { HomeRoute } from './home';

const listing = (products: Product[]) => createProductList({ products, limit: 8 });

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

describe("the shop's own pictures", () => {
  const heroImages = () =>
    screen.getAllByTestId('hero-slide').map((slide) => slide.querySelector('img, video'));

  it('replace the drawings once uploaded; the drawings show meanwhile, in the same boxes', async () => {
    let answer!: (value: { body: unknown }) => void;
    mockFetch({
      '/api/products': () => ({ body: listing([]) }),
      '/api/site-pictures': () =>
        new Promise((resolve) => (answer = resolve)) as unknown as Promise<never>,
    });
    renderWithProviders(<HomeRoute />);
    expect(heroImages().map((el) => el!.getAttribute('src'))).toEqual(
      DEFAULT_HERO_SLIDES.map((s) => s.image),
    );
    const drawnCollection = screen.getAllByRole('article')[3]!.querySelector('img')!;
    const drawing = drawnCollection.getAttribute('src');

    await waitFor(() => expect(answer).toBeDefined());
    answer({
      body: {
        success: true,
        message: 'Site pictures retrieved',
        pictures: {
          'hero-2': { url: '/api/uploads/site/hero-2/abc-1200.webp', width: 1200, height: 600 },
          'collection-fruits': { url: '/api/uploads/site/collection-fruits/def-600.webp' },
        },
      },
    });
    await waitFor(() =>
      expect(heroImages()[1]).toHaveAttribute(
        'src',
        expect.stringMatching(/\/api\/uploads\/site\/hero-2\/abc-1200\.webp$/),
      ),
    );
    // The other slides keep their drawings; the photo takes the drawing's box.
    expect(heroImages()[0]).toHaveAttribute('src', DEFAULT_HERO_SLIDES[0]!.image);
    expect(heroImages()[2]).toHaveAttribute('src', DEFAULT_HERO_SLIDES[2]!.image);
    expect(heroImages()[1]).toHaveAttribute('width', '1200');
    expect(heroImages()[1]).toHaveAttribute('height', '600');
    const fruits = screen.getAllByRole('article')[3]!.querySelector('img')!;
    expect(fruits.getAttribute('src')).toMatch(/collection-fruits\/def-600\.webp$/);
    expect(fruits.getAttribute('src')).not.toBe(drawing);
    expect(fruits).toHaveAttribute('width', '300');
  });

  it('play a hero clip with the uploaded picture as its poster', async () => {
    mockFetch({
      '/api/products': () => ({ body: listing([]) }),
      '/api/site-pictures': () => ({
        body: {
          success: true,
          message: 'Site pictures retrieved',
          pictures: {
            'hero-1': {
              url: '/api/uploads/site/hero-1/abc-1200.webp',
              video: 'https://cdn.example.co.ke/rows.mp4',
            },
          },
        },
      }),
    });
    renderWithProviders(<HomeRoute />);
    await waitFor(() => expect(heroImages()[0]!.tagName).toBe('VIDEO'));
    expect(heroImages()[0]).toHaveAttribute('src', 'https://cdn.example.co.ke/rows.mp4');
    expect(heroImages()[0]!.getAttribute('poster')).toMatch(/hero-1\/abc-1200\.webp$/);
  });

  it('keep the drawings when the pictures cannot be loaded', async () => {
    const { calls } = mockFetch({ '/api/products': () => ({ body: listing([]) }) });
    renderWithProviders(<HomeRoute />);
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/api/site-pictures'))).toBe(true));
    expect(heroImages().map((el) => el!.getAttribute('src'))).toEqual(
      DEFAULT_HERO_SLIDES.map((s) => s.image),
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
