import { screen, within } from '@testing-library/react';
import { createLowStockItem, createLowStockList, type LowStockItem } from '../testing/factories';
import { renderWithProviders, signInAs } from '../testing/render';
import { LowStockTile } from './low-stock-tile';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function answer(status: number, products: LowStockItem[] = []) {
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    if (url.pathname !== '/api/stock/low') return json(404, { success: false, message: 'No' });
    if (status !== 200)
      return json(status, { success: false, statusCode: status, message: 'Down' });
    return json(200, createLowStockList(products));
  });
}

describe('Low stock tile', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  it('counts the products low or out, as a tile leading to the products list filtered to them', async () => {
    answer(200, [
      createLowStockItem({
        _id: 'a1',
        productName: 'Avocado Hass',
        productQuantity: 0,
        level: 'out',
      }),
      createLowStockItem({ _id: 'b2', productName: 'Mango Apple', productQuantity: 3 }),
    ]);
    renderWithProviders(<LowStockTile />);
    const tile = await screen.findByRole('link', { name: 'Low stock 2' });
    expect(tile).toHaveAttribute('href', '/manage/products?lowStock=1');
    expect(within(tile).getByText('2')).toBeInTheDocument();
    // A count, not a list: the tile never grows with the number of products.
    expect(within(tile).queryByText('Mango Apple')).not.toBeInTheDocument();
  });

  it('shows 0 when nothing is low, and says so when the count cannot be loaded', async () => {
    answer(200);
    const { unmount } = renderWithProviders(<LowStockTile />);
    expect(await screen.findByRole('link', { name: 'Low stock 0' })).toBeInTheDocument();
    unmount();
    jest.restoreAllMocks();
    answer(500);
    renderWithProviders(<LowStockTile />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Low stock could not be loaded');
  });
});
