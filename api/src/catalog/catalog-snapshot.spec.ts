import type { ProductView } from './catalog.types';
import { CatalogSnapshot, type SnapshotProduct } from './catalog-snapshot';

const product = (id: string, price: number, quantity = 5): SnapshotProduct => ({
  view: { _id: id, effectivePrice: price, productQuantity: quantity } as ProductView,
  searchText: id,
});

describe('CatalogSnapshot', () => {
  it('loads once for concurrent readers and serves from memory until invalidated', async () => {
    let loads = 0;
    const snapshot = new CatalogSnapshot(async () => {
      loads += 1;
      return { products: [product('a', 100), product('b', 300)], categories: [] };
    });
    const [one, two] = await Promise.all([snapshot.current(), snapshot.current()]);
    expect(loads).toBe(1);
    expect(one).toBe(two);
    expect(one.priceRange).toEqual({ min: 100, max: 300 });
    await snapshot.current();
    expect(loads).toBe(1);
    snapshot.invalidate();
    await snapshot.current();
    expect(loads).toBe(2);
  });

  it('is peeked at without waiting only while current', async () => {
    let now = 0;
    let due = false;
    const snapshot = new CatalogSnapshot(
      async () => ({ products: [product('a', 100)], categories: [] }),
      60_000,
      () => now,
    );
    snapshot.syncBeforeRead(() => (due ? Promise.resolve() : undefined));
    expect(snapshot.peek()).toBeUndefined();
    const loaded = await snapshot.current();
    expect(snapshot.peek()).toBe(loaded);
    due = true;
    expect(snapshot.peek()).toBeUndefined();
    due = false;
    snapshot.invalidate();
    expect(snapshot.peek()).toBeUndefined();
    await snapshot.current();
    expect(snapshot.peek()).toBeDefined();
    now += 60_000;
    expect(snapshot.peek()).toBeUndefined();
  });

  it('applies stock changes in place without reloading', async () => {
    let loads = 0;
    const snapshot = new CatalogSnapshot(async () => {
      loads += 1;
      return { products: [product('a', 100, 5)], categories: [] };
    });
    await snapshot.current();
    snapshot.adjustStock('a', -2);
    expect((await snapshot.current()).byId.get('a')!.view.productQuantity).toBe(3);
    snapshot.adjustStock('a', -10);
    expect((await snapshot.current()).byId.get('a')!.view.productQuantity).toBe(0);
    expect(loads).toBe(1);
  });

  it('reads again after the TTL, answering the old snapshot until the new one is loaded', async () => {
    let now = 0;
    let loads = 0;
    let release!: () => void;
    const snapshot = new CatalogSnapshot(
      async () => {
        loads += 1;
        if (loads === 2) await new Promise<void>((r) => (release = r));
        return { products: [product(`p${loads}`, 100)], categories: [] };
      },
      1000,
      () => now,
    );
    const first = await snapshot.current();
    now = 999;
    expect(await snapshot.current()).toBe(first);
    now = 1000;
    // Past the TTL: the reload starts, and readers get the old snapshot meanwhile (no waiting).
    expect(await snapshot.current()).toBe(first);
    expect(await snapshot.current()).toBe(first);
    expect(loads).toBe(2);
    release();
    await new Promise((r) => setImmediate(r));
    const second = await snapshot.current();
    expect(second.byId.has('p2')).toBe(true);
    expect(loads).toBe(2);
  });

  it('spaces periodic reloads by ten times the last load', async () => {
    let now = 0;
    let loads = 0;
    const snapshot = new CatalogSnapshot(
      async () => {
        loads += 1;
        now += 500; // each load takes 500 ms
        return { products: [], categories: [] };
      },
      1000,
      () => now,
    );
    await snapshot.current();
    now = 4999;
    await snapshot.current();
    expect(loads).toBe(1);
    now = 5000;
    await snapshot.current();
    expect(loads).toBe(2);
  });

  it('makes readers wait for the new load after a change, not for a periodic one', async () => {
    let loads = 0;
    const snapshot = new CatalogSnapshot(async () => {
      loads += 1;
      return { products: [product(`p${loads}`, 100)], categories: [] };
    });
    await snapshot.current();
    snapshot.invalidate();
    expect((await snapshot.current()).byId.has('p2')).toBe(true);
  });

  it('keeps answering the old snapshot when a periodic reload fails', async () => {
    let now = 0;
    let loads = 0;
    const snapshot = new CatalogSnapshot(
      async () => {
        loads += 1;
        if (loads === 2) throw new Error('database away');
        return { products: [product(`p${loads}`, 100)], categories: [] };
      },
      1000,
      () => now,
    );
    const first = await snapshot.current();
    now = 1000;
    expect(await snapshot.current()).toBe(first);
    await new Promise((r) => setImmediate(r));
    expect(await snapshot.current()).toBe(first);
    await new Promise((r) => setImmediate(r));
    expect((await snapshot.current()).byId.has('p3')).toBe(true);
  });

  it('does not keep a load that may have missed a stock change made while it ran', async () => {
    let loads = 0;
    let release!: () => void;
    const snapshot = new CatalogSnapshot(async () => {
      loads += 1;
      if (loads === 1) await new Promise<void>((r) => (release = r));
      return { products: [product('a', 100, 5)], categories: [] };
    });
    const first = snapshot.current();
    await new Promise((r) => setImmediate(r));
    snapshot.adjustStock('a', -1);
    release();
    await first;
    await snapshot.current();
    expect(loads).toBe(2);
  });
});
