import { fireEvent, screen, within } from '@testing-library/react';
import { useCartStore } from '../../../stores/cart-store';
import { createProduct, createSaleUnit } from '../../../testing/factories';
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

  describe('the price follows the chosen unit', () => {
    const single = createSaleUnit({
      _id: '665f1c2b9d3e4a0012345679',
      name: 'Single seedling',
      seedlings: 1,
      price: 350,
      tiers: [{ minQuantity: 10, price: 300 }],
    });
    const serve = (units = [single, createSaleUnit({ offerPrice: 14000 })]) =>
      mockFetch({
        '/api/products/665f1c2b9d3e4a0012345679': () => ({
          body: {
            success: true,
            message: 'ok',
            product: createProduct({
              productQuantity: 1000,
              price: units[0]!.price,
              onOffer: units[0]!.offerPrice > 0,
              offerPrice: units[0]!.offerPrice,
              units,
            }),
          },
        }),
      });
    /** The price under the product's name, with what a screen reader says beside the figures. */
    const priceHeading = () => document.querySelector<HTMLElement>('.detail-body > .price')!;

    beforeEach(() => {
      localStorage.clear();
      useCartStore.setState({ userId: '', cartItems: [], totalAmount: 0 });
    });

    it("shows the single seedling's price, then a tray on offer with its regular price struck through", async () => {
      serve();
      renderWithProviders(<ProductDetailRoute />, route);
      await screen.findByRole('radio', { name: /Tray of 50/ });
      expect(priceHeading()).toHaveTextContent(/^KES 350 · Single seedling$/);
      expect(screen.queryByText('offer')).not.toBeInTheDocument();
      expect(screen.getByText('10+ seedlings: KES 300 each')).toBeInTheDocument();

      fireEvent.click(screen.getByRole('radio', { name: /Tray of 50/ }));
      expect(priceHeading()).toHaveTextContent(
        /^Offer price KES 14,000, regular price KES 15,000 · Tray of 50$/,
      );
      expect(within(priceHeading()).getByText('KES 15,000').tagName).toBe('S');
      expect(screen.getByText('offer')).toBeInTheDocument();
      expect(screen.queryByText('10+ seedlings: KES 300 each')).not.toBeInTheDocument();

      fireEvent.click(screen.getByRole('button', { name: 'More trays' }));
      fireEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
      const lines = useCartStore.getState().cartItems;
      expect(lines.map((l) => [l.unit?.name, l.price, l.quantity])).toEqual([
        ['Tray of 50', 14000, 2],
      ]);

      fireEvent.click(screen.getByRole('radio', { name: /Single seedling/ }));
      expect(priceHeading()).toHaveTextContent(/^KES 350 · Single seedling$/);
      expect(screen.queryByText('offer')).not.toBeInTheDocument();
    });

    it('shows a tray without an offer at its price alone when the single seedling is on offer', async () => {
      serve([{ ...single, offerPrice: 320 }, createSaleUnit()]);
      renderWithProviders(<ProductDetailRoute />, route);
      await screen.findByRole('radio', { name: /Tray of 50/ });
      expect(priceHeading()).toHaveTextContent(
        /^Offer price KES 320, regular price KES 350 · Single seedling$/,
      );
      fireEvent.click(screen.getByRole('radio', { name: /Tray of 50/ }));
      expect(priceHeading()).toHaveTextContent(/^KES 15,000 · Tray of 50$/);
      expect(priceHeading().querySelector('s')).toBeNull();
    });
  });

  describe('bookings of growing batches', () => {
    const trays = createProduct({
      productQuantity: 100,
      units: [
        {
          _id: '665f1c2b9d3e4a0012345679',
          name: 'Single seedling',
          seedlings: 1,
          price: 350,
          offerPrice: 0,
          sku: '',
          minQuantity: 1,
          step: 1,
          tiers: [],
        },
        {
          _id: 'u-tray',
          name: 'Tray of 50',
          seedlings: 50,
          price: 15000,
          offerPrice: 0,
          sku: '',
          minQuantity: 1,
          step: 1,
          tiers: [],
        },
      ],
    });
    const withBatches = {
      ...trays,
      batches: [
        { _id: 'b1', readyOn: '2027-03-12', available: 120 },
        { _id: 'b2', readyOn: '2027-04-02', available: 30 },
      ],
    };
    const serve = () =>
      mockFetch({
        '/api/products/665f1c2b9d3e4a0012345679': () => ({
          body: { success: true, message: 'ok', product: withBatches },
        }),
        '/api/bookings/settings': () => ({
          body: { success: true, message: 'ok', depositPercent: 30, balanceDays: 7, seasons: [] },
        }),
      });

    beforeEach(() => {
      localStorage.clear();
      useCartStore.setState({ userId: '', cartItems: [], totalAmount: 0 });
    });

    it('shows what is ready now and each batch with its ready day, deposit and room per unit', async () => {
      serve();
      renderWithProviders(<ProductDetailRoute />, route);
      expect(await screen.findByText('Ready now: 100 seedlings')).toBeInTheDocument();
      expect(
        await screen.findByText('Ready from 12 March: book with a 30 % deposit'),
      ).toBeInTheDocument();
      expect(screen.getByText('Ready from 2 April: book with a 30 % deposit')).toBeInTheDocument();
      expect(screen.getByText('120 seedlings left to book')).toBeInTheDocument();
      fireEvent.click(screen.getByRole('radio', { name: /Tray of 50/ }));
      expect(screen.getByText('Ready now: 2 trays')).toBeInTheDocument();
      // 120 seedlings hold 2 whole trays, 30 none.
      expect(screen.getByText('2 trays left to book')).toBeInTheDocument();
      expect(screen.getByText('No trays left to book')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Book for 2 April' })).toBeDisabled();
    });

    it('books 2 trays of a batch as a cart line apart from ready-now lines', async () => {
      serve();
      renderWithProviders(<ProductDetailRoute />, route);
      fireEvent.click(await screen.findByRole('radio', { name: /Tray of 50/ }));
      fireEvent.click(screen.getByRole('button', { name: 'More trays' }));
      fireEvent.click(screen.getByRole('button', { name: 'Book for 12 March' }));
      fireEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
      const lines = useCartStore.getState().cartItems;
      expect(lines.map((l) => [l.unit?.name, l.quantity, l.booking?.batchId])).toEqual([
        ['Tray of 50', 2, 'b1'],
        ['Tray of 50', 2, undefined],
      ]);
      expect(await screen.findByText(/booked for 12 March: in your cart/)).toBeInTheDocument();
      // A third tray is more than the batch holds: its Book button says so and waits.
      fireEvent.click(screen.getByRole('button', { name: 'More trays' }));
      expect(screen.getByText('Only 2 trays left to book for 12 March')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Book for 12 March' })).toBeDisabled();
    });
  });
});
