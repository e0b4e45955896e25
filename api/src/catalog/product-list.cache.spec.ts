import type { ProductListPage } from './catalog.types';
import { ProductListCache } from './product-list.cache';

const page = (totalProducts: number) => ({ totalProducts }) as ProductListPage;

describe('ProductListCache', () => {
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  it('computes an answer once and serves it until it expires', async () => {
    const cache = new ProductListCache(30_000, 10, clock);
    const compute = jest.fn().mockResolvedValue(page(1));
    await cache.getOrCompute('q', compute);
    now += 29_999;
    expect(await cache.getOrCompute('q', compute)).toEqual(page(1));
    expect(compute).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.getOrCompute('q', compute);
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('forgets everything on clear', async () => {
    const cache = new ProductListCache(30_000, 10, clock);
    await cache.getOrCompute('a', async () => page(1));
    await cache.getOrCompute('b', async () => page(1));
    cache.clear();
    expect(cache.size).toBe(0);
    expect(await cache.getOrCompute('a', async () => page(2))).toEqual(page(2));
  });

  it('does not keep an answer computed across a write (it may predate the write)', async () => {
    const cache = new ProductListCache(30_000, 10, clock);
    let finish!: (value: ProductListPage) => void;
    const pending = cache.getOrCompute('q', () => new Promise((resolve) => (finish = resolve)));
    cache.clear(); // a write lands while the list is being read
    finish(page(1));
    await pending;
    expect(cache.get('q')).toBeUndefined();
  });

  it('holds at most its bound, dropping the oldest entry first', async () => {
    const cache = new ProductListCache(30_000, 3, clock);
    for (const key of ['a', 'b', 'c', 'd']) await cache.getOrCompute(key, async () => page(1));
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('d')).toEqual(page(1));
  });
});

describe('ProductListCache single flight', () => {
  it('shares one computation between concurrent requests for the same list', async () => {
    const cache = new ProductListCache();
    let computations = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const compute = async () => {
      computations += 1;
      await gate;
      return { products: [] } as never;
    };
    const all = Promise.all([
      cache.getOrCompute('k', compute),
      cache.getOrCompute('k', compute),
      cache.getOrCompute('k', compute),
    ]);
    release();
    await all;
    expect(computations).toBe(1);
  });

  it('does not share a computation started before a write', async () => {
    const cache = new ProductListCache();
    let computations = 0;
    const compute = async () => {
      computations += 1;
      return { products: [] } as never;
    };
    const first = cache.getOrCompute('k', compute);
    cache.clear();
    await Promise.all([first, cache.getOrCompute('k', compute)]);
    expect(computations).toBe(2);
  });
});

describe('ProductListCache with a change feed (several API instances)', () => {
  function feed() {
    let pending: Promise<void> | undefined;
    return {
      changed: jest.fn(),
      beforeRead: jest.fn(() => pending),
      flush: jest.fn(() => Promise.resolve()),
      /** The next read waits for this look at the other instances, which runs `onLook` first. */
      lookThen(onLook: () => void) {
        pending = Promise.resolve().then(() => {
          onLook();
          pending = undefined;
        });
      },
    };
  }

  it("announces this instance's writes and stock changes, not what it hears from others", () => {
    const cache = new ProductListCache();
    const changes = feed();
    cache.attachFeed(changes);
    cache.clear();
    cache.clearLists();
    expect(changes.changed).toHaveBeenCalledTimes(2);
    cache.forgetAll();
    expect(changes.changed).toHaveBeenCalledTimes(2);
  });

  it("drops its lists and tells the snapshot when another instance's change is heard before a read", async () => {
    const cache = new ProductListCache();
    const changes = feed();
    cache.attachFeed(changes);
    const snapshotInvalidated = jest.fn();
    cache.onCatalogChange(snapshotInvalidated);
    await cache.getOrCompute('k', async () => page(1));

    changes.lookThen(() => cache.forgetAll());
    expect(await cache.getOrCompute('k', async () => page(2))).toEqual(page(2));
    expect(snapshotInvalidated).toHaveBeenCalledTimes(1);
    expect(changes.beforeRead).toHaveBeenCalledTimes(2);
  });
});
