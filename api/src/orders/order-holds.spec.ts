import type { BatchHold } from '../batches/batch-hold';
import type { BatchLineHold } from '../batches/batch-line-hold';
import type { BookingHold } from '../bookings/booking-hold';
import type { ReadyStockHold } from '../inventory/ready-stock-hold';
import { holdsOfCart, OrderHolds, type LineToPlace } from './order-holds';
import type { OrderRecord } from './order.types';

const line = (productId: string, hold: LineToPlace['hold']) =>
  ({ productId, quantity: 2, seedlings: 1, hold }) as LineToPlace;
const stored = (productId: string) => ({ product: { _id: productId }, quantity: 2 });

function setup(batchRefuses = false) {
  const readyStock = {
    hold: jest.fn(async () => [{ productId: 'p1' }]),
    releaseAll: jest.fn(async () => undefined),
  };
  const batchHold = {
    hold: jest.fn(async () => {
      if (batchRefuses) throw new Error('The batch has fewer left');
    }),
  };
  const bookingHold = { heldOn: () => null, releaseAll: jest.fn(async () => undefined) };
  const batchLineHold = { releaseAll: jest.fn(async () => undefined) };
  const holds = new OrderHolds(
    readyStock as unknown as ReadyStockHold,
    batchHold as unknown as BatchHold,
    bookingHold as unknown as BookingHold,
    batchLineHold as unknown as BatchLineHold,
  );
  return { holds, readyStock, batchHold, batchLineHold };
}

describe('OrderHolds at placement (a hold per line)', () => {
  const order = {
    _id: 'o1',
    purchaseNumber: 'SPC-1',
    products: [stored('p1'), stored('p2')],
  } as unknown as OrderRecord;

  it('holds ready stock and a batch in one order, each group by its own hold', async () => {
    const { holds, readyStock, batchHold } = setup();
    const movements = await holds.hold(order, [
      line('p1', { on: 'stock' }),
      line('p2', { on: 'batch', batchId: 'b1' }),
    ]);
    expect(movements).toEqual([{ productId: 'p1' }]);
    expect(readyStock.hold).toHaveBeenCalledWith(
      order,
      [expect.objectContaining({ productId: 'p1' })],
      undefined,
      // A web order never takes stock below zero (only a gate sale does: issue 47).
      false,
    );
    expect(batchHold.hold).toHaveBeenCalledWith(order, 'b1', [
      expect.objectContaining({ productId: 'p2' }),
    ]);
  });

  it('gives back the groups held before a refused one, with their lines only', async () => {
    const { holds, readyStock } = setup(true);
    await expect(
      holds.hold(order, [line('p1', { on: 'stock' }), line('p2', { on: 'batch', batchId: 'b1' })]),
    ).rejects.toThrow('The batch has fewer left');
    expect(readyStock.releaseAll).toHaveBeenCalledWith(
      expect.objectContaining({ _id: 'o1', products: [stored('p1')] }),
      { on: 'stock' },
    );
  });

  it("reads a stored line's own hold: ready stock and two batches in one order", async () => {
    const { holds, readyStock, batchLineHold } = setup();
    const withHolds = {
      ...order,
      booking: null,
      products: [
        { ...stored('p1'), batchId: null },
        { ...stored('p2'), batchId: 'b1' },
        { ...stored('p2'), batchId: 'b2' },
      ],
    } as unknown as OrderRecord;
    await holds.releaseAll(withHolds);
    expect(readyStock.releaseAll).toHaveBeenCalledWith(
      expect.objectContaining({ products: [{ ...stored('p1'), batchId: null }] }),
      { on: 'stock' },
    );
    expect(batchLineHold.releaseAll.mock.calls).toEqual([
      [
        expect.objectContaining({ products: [{ ...stored('p2'), batchId: 'b1' }] }),
        { on: 'batch', batchId: 'b1' },
      ],
      [
        expect.objectContaining({ products: [{ ...stored('p2'), batchId: 'b2' }] }),
        { on: 'batch', batchId: 'b2' },
      ],
    ]);
  });

  it('reads each line of a cart: the batch it names, else ready stock', () => {
    const holdOf = holdsOfCart([{ _id: 'P1' }, { _id: 'p2', batchId: 'B1' }]);
    expect(holdOf({ productId: 'p1' })).toEqual({ on: 'stock' });
    expect(holdOf({ productId: 'p2' })).toEqual({ on: 'batch', batchId: 'b1' });
  });
});
