import { screen } from '@testing-library/react';
import { createLowStockItem, createLowStockList } from '../testing/factories';
import { renderWithProviders, signInAs } from '../testing/render';
import { LowStockTable } from './low-stock-table';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('Low stock only', () => {
  beforeEach(() => {
    signInAs('staff');
    jest
      .spyOn(global, 'fetch')
      .mockImplementation(async () =>
        json(
          200,
          createLowStockList([
            createLowStockItem({ _id: 'a1', productName: 'Avocado Hass', productQuantity: 2 }),
            createLowStockItem({ _id: 'b2', productName: 'Mango Apple', productQuantity: 3 }),
          ]),
        ),
      );
  });
  afterEach(() => jest.restoreAllMocks());

  it('keeps to what the search box asks for', async () => {
    renderWithProviders(<LowStockTable search="mango" />);
    expect(await screen.findByText('Mango Apple')).toBeInTheDocument();
    expect(screen.queryByText('Avocado Hass')).not.toBeInTheDocument();
  });

  it('says when no low-stock product matches', async () => {
    renderWithProviders(<LowStockTable search="kale" />);
    expect(await screen.findByText('No low-stock product matches “kale”.')).toBeInTheDocument();
  });
});
