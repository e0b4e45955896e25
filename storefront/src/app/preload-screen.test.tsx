import { render, screen, waitFor } from '@testing-library/react';
import { createProduct, createProductList } from '../testing/factories';
import { mockFetch } from '../testing/render';
import { App } from './app';
import { createQueryClient } from './provider';
import { preloadScreen } from './router';

const pictured = (id: string, name: string) =>
  createProduct({
    _id: id,
    productName: name,
    productImage: `/api/uploads/products/${id}.webp`,
    productImages: {
      '320': `/api/uploads/products/${id}-320.webp`,
      '640': `/api/uploads/products/${id}-640.webp`,
    },
  });

const preloads = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')].map(
    (l) => ({
      href: l.getAttribute('href'),
      srcset: l.getAttribute('imagesrcset'),
      sizes: l.getAttribute('imagesizes'),
      priority: l.getAttribute('fetchpriority'),
    }),
  );

beforeEach(() => {
  document.head.innerHTML = '';
  localStorage.clear();
});

describe('the first screen of a visit', () => {
  it("asks for the shop's first row of pictures once the list is in, as the cards then show them", async () => {
    const products = [pictured('p1', 'Terere'), pictured('p2', 'Mango'), pictured('p3', 'Pawpaw')];
    mockFetch({ '/api/products': () => ({ body: createProductList({ products }) }) });
    window.history.pushState({}, '', '/shop/products');
    const client = createQueryClient();
    await preloadScreen(client, window.location);
    await waitFor(() => expect(preloads()).toHaveLength(2));

    render(<App client={client} />);
    const images = await screen.findAllByRole('img', { name: /Terere|Mango|Pawpaw/ });
    // Each preload names the picture exactly as its card's <img> does: the browser fetches it once.
    expect(preloads()).toEqual(
      images.slice(0, 2).map((img) => ({
        href: img.getAttribute('src'),
        srcset: img.getAttribute('srcset'),
        sizes: img.getAttribute('sizes'),
        priority: 'high',
      })),
    );
    expect(preloads()[0]!.srcset).toContain('p1-320.webp 320w');
  });

  it("asks for a product page's picture once the product is in; nothing for one without a picture", async () => {
    const product = pictured('p1', 'Terere');
    mockFetch({
      '/api/products/p1': () => ({ body: { success: true, message: 'ok', product } }),
      '/api/products/p2': () => ({
        body: { success: true, message: 'ok', product: createProduct({ _id: 'p2' }) },
      }),
    });
    window.history.pushState({}, '', '/single/product/p1');
    const client = createQueryClient();
    await preloadScreen(client, window.location);
    await waitFor(() => expect(preloads()).toHaveLength(1));
    const { unmount } = render(<App client={client} />);
    const img = await screen.findByRole('img', { name: 'Terere' });
    expect(preloads()).toEqual([
      {
        href: img.getAttribute('src'),
        srcset: img.getAttribute('srcset'),
        sizes: img.getAttribute('sizes'),
        priority: 'high',
      },
    ]);
    unmount();

    document.head.innerHTML = '';
    window.history.pushState({}, '', '/single/product/p2');
    await preloadScreen(createQueryClient(), window.location);
    await new Promise((r) => setTimeout(r, 50));
    expect(preloads()).toEqual([]);
  });
});
