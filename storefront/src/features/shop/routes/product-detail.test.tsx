import { screen } from '@testing-library/react';
import { createProduct } from '../../../testing/factories';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { ProductDetailRoute } from './product-detail';

const route = { route: '/single/product/:id', path: '/single/product/665f1c2b9d3e4a0012345679' };

describe('product detail', () => {
  it('shows the offer, the struck regular price and the stock left', async () => {
    mockFetch({
      '/api/products/665f1c2b9d3e4a0012345679': () => ({
        body: {
          success: true,
          message: 'ok',
          product: createProduct({ onOffer: true, offerPrice: 300 }),
        },
      }),
    });
    renderWithProviders(<ProductDetailRoute />, route);
    expect(
      await screen.findByRole('heading', { name: 'Hass Avocado Seedling' }),
    ).toBeInTheDocument();
    expect(screen.getByText('offer')).toBeInTheDocument();
    expect(screen.getByText('KES 350').tagName).toBe('S');
    expect(screen.getByText('12 left')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();
  });

  it("shows 'Out of Stock' and a disabled button when none are left", async () => {
    mockFetch({
      '/api/products/665f1c2b9d3e4a0012345679': () => ({
        body: { success: true, message: 'ok', product: createProduct({ productQuantity: 0 }) },
      }),
    });
    renderWithProviders(<ProductDetailRoute />, route);
    expect(await screen.findByText('Out of Stock')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Out Of Stock' })).toBeDisabled();
  });

  it("shows 'Something went wrong...' for a missing product", async () => {
    mockFetch({
      '/api/products/665f1c2b9d3e4a0012345679': () => ({
        status: 404,
        body: { success: false, message: 'Product not found', statusCode: 404 },
      }),
    });
    renderWithProviders(<ProductDetailRoute />, route);
    expect(await screen.findByText('Something went wrong...')).toBeInTheDocument();
  });
});
