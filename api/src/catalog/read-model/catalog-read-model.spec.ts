import type { FastifyReply } from 'fastify';
import type { ProductView } from '../catalog.types';
import type { ProductListQueryDto } from '../dto/product.dto';
import { CatalogReadModel, type RemoteChanges } from './catalog-read-model';
import { CatalogueEvents } from './catalogue-events';
import type { SnapshotLoader, SnapshotProduct } from './catalogue-snapshot';

const product = (id: string, price: number, quantity = 5, stockSeq = 1): SnapshotProduct => ({
  view: {
    _id: id,
    effectivePrice: price,
    productQuantity: quantity,
    category: { _id: 'c', name: 'C' },
  } as ProductView,
  searchName: id,
  searchDescription: '',
  bookable: [],
  stockSeq,
});

function setup(
  load: SnapshotLoader,
  options: { reloadAfterMs?: number; now?: () => number; remote?: RemoteChanges } = {},
) {
  const events = new CatalogueEvents();
  let heard!: () => void;
  const model = new CatalogReadModel(
    load,
    async () => [],
    events,
    options.remote &&
      ((onHeard) => {
        heard = onHeard;
        return options.remote!;
      }),
    options.reloadAfterMs,
    options.now,
  );
  return { model, events, heard: () => heard() };
}

const query = (q: Partial<ProductListQueryDto> = {}) => q as ProductListQueryDto;

describe('CatalogReadModel: the catalogue held', () => {
  it('loads once for concurrent readers and serves from memory until the catalogue changes', async () => {
    let loads = 0;
    const { model, events } = setup(async () => {
      loads += 1;
      return { products: [product('a', 100), product('b', 300)], categories: [] };
    });
    const [one, two] = await Promise.all([model.current(), model.current()]);
    expect(loads).toBe(1);
    expect(one).toBe(two);
    expect(one.priceRange).toEqual({ min: 100, max: 300 });
    await model.current();
    expect(loads).toBe(1);
    events.changed();
    await model.current();
    expect(loads).toBe(2);
  });

  it('answers a product page from memory without waiting only while current', async () => {
    let now = 0;
    let due = false;
    const remote = {
      changed: jest.fn(),
      flush: jest.fn(),
      lookForChanges: () => (due ? Promise.resolve() : undefined),
    };
    const { model, events } = setup(
      async () => ({ products: [product('a', 100)], categories: [] }),
      { reloadAfterMs: 60_000, now: () => now, remote },
    );
    expect(model.preparedProduct('a')).toBeUndefined();
    await model.current();
    const bytes = model.preparedProduct('a');
    expect(JSON.parse(bytes!.toString())).toMatchObject({
      success: true,
      message: 'Product retrieved',
      product: { _id: 'a' },
    });
    expect(model.preparedProduct('a')).toBe(bytes);
    due = true;
    expect(model.preparedProduct('a')).toBeUndefined();
    due = false;
    events.changed();
    expect(model.preparedProduct('a')).toBeUndefined();
    await model.current();
    expect(model.preparedProduct('a')).toBeDefined();
    now += 60_000;
    expect(model.preparedProduct('a')).toBeUndefined();
  });

  it('gives placement a product held only while current, never waiting for a load', async () => {
    let now = 0;
    let due = false;
    let loads = 0;
    const remote = {
      changed: jest.fn(),
      flush: jest.fn(),
      lookForChanges: () => (due ? Promise.resolve() : undefined),
    };
    const { model, events } = setup(
      async () => {
        loads += 1;
        return { products: [product('a', 100, 5)], categories: [] };
      },
      { reloadAfterMs: 60_000, now: () => now, remote },
    );
    expect(model.heldProduct('a')).toBeUndefined();
    expect(loads).toBe(0);
    await model.current();
    expect(model.heldProduct('a')).toMatchObject({ _id: 'a', effectivePrice: 100 });
    expect(model.heldProduct('b')).toBeUndefined();
    // An order's stock change is applied in place: still current, with the new stock.
    events.stockMoved('a', { quantity: 3, seq: 2 });
    expect(model.heldProduct('a')?.productQuantity).toBe(3);
    // Another instance's change may be waiting, or this one's own edit: the caller reads the database.
    due = true;
    expect(model.heldProduct('a')).toBeUndefined();
    due = false;
    events.changed();
    expect(model.heldProduct('a')).toBeUndefined();
    expect(loads).toBe(1);
    await model.current();
    expect(model.heldProduct('a')).toBeDefined();
    now += 60_000;
    expect(model.heldProduct('a')).toBeUndefined();
  });

  it('applies stock changes in place without reloading, and answers the new stock', async () => {
    let loads = 0;
    const { model, events } = setup(async () => {
      loads += 1;
      return { products: [product('a', 100, 5)], categories: [] };
    });
    await model.current();
    const before = model.preparedProduct('a');
    events.stockMoved('a', { quantity: 3, seq: 2 });
    expect((await model.current()).byId.get('a')!.view.productQuantity).toBe(3);
    expect(JSON.parse(model.preparedProduct('a')!.toString()).product.productQuantity).toBe(3);
    expect(model.preparedProduct('a')).not.toBe(before);
    events.stockMoved('a', { quantity: 0, seq: 3 });
    expect((await model.current()).byId.get('a')!.view.productQuantity).toBe(0);
    expect(loads).toBe(1);
  });

  it('takes a stock change only when it is newer than the stock it holds', async () => {
    const { model, events } = setup(async () => ({
      products: [product('a', 100, 5, 3)],
      categories: [],
    }));
    const stock = async () => (await model.current()).byId.get('a')!.view.productQuantity;
    expect(await stock()).toBe(5);
    // The load read the product after this change was written: it shows it already.
    events.stockMoved('a', { quantity: 4, seq: 3 });
    expect(await stock()).toBe(5);
    events.stockMoved('a', { quantity: 7, seq: 5 });
    expect(await stock()).toBe(7);
    // An earlier change heard late (its write answered first, its word came second).
    events.stockMoved('a', { quantity: 6, seq: 4 });
    expect(await stock()).toBe(7);
    expect(model.preparedProduct('a')!.toString()).toContain('"productQuantity":7');
  });

  it('takes the stock and sequence a reload reads as they are, then newer changes only', async () => {
    // A stock change written (10 -> 11, movement 2); a reload reads it before its word arrives.
    let inDatabase = product('a', 100, 10, 1);
    const { model, events } = setup(async () => ({ products: [inDatabase], categories: [] }));
    const stock = async () => (await model.current()).byId.get('a')!.view.productQuantity;
    expect(await stock()).toBe(10);
    inDatabase = product('a', 100, 11, 2);
    events.changed(); // a clerk's price change: the next read loads again
    expect(await stock()).toBe(11);
    events.stockMoved('a', { quantity: 11, seq: 2 }); // the word, late: applied once, not twice
    expect(await stock()).toBe(11);
    // A reload shows the database as it is, even behind what was held (a restore).
    events.stockMoved('a', { quantity: 9, seq: 4 });
    expect(await stock()).toBe(9);
    inDatabase = product('a', 100, 30, 3);
    events.changed();
    expect(await stock()).toBe(30);
    events.stockMoved('a', { quantity: 28, seq: 4 });
    expect(await stock()).toBe(28);
  });

  it('reads again after the reload time, answering the old catalogue until the new one is loaded', async () => {
    let now = 0;
    let loads = 0;
    let release!: () => void;
    const { model } = setup(
      async () => {
        loads += 1;
        if (loads === 2) await new Promise<void>((r) => (release = r));
        return { products: [product(`p${loads}`, 100)], categories: [] };
      },
      { reloadAfterMs: 1000, now: () => now },
    );
    const first = await model.current();
    now = 999;
    expect(await model.current()).toBe(first);
    now = 1000;
    expect(await model.current()).toBe(first);
    expect(await model.current()).toBe(first);
    expect(loads).toBe(2);
    release();
    await new Promise((r) => setImmediate(r));
    const second = await model.current();
    expect(second.byId.has('p2')).toBe(true);
    expect(loads).toBe(2);
  });

  it('spaces periodic reloads by ten times the last load', async () => {
    let now = 0;
    let loads = 0;
    const { model } = setup(
      async () => {
        loads += 1;
        now += 500; // each load takes 500 ms
        return { products: [], categories: [] };
      },
      { reloadAfterMs: 1000, now: () => now },
    );
    await model.current();
    now = 4999;
    await model.current();
    expect(loads).toBe(1);
    now = 5000;
    await model.current();
    expect(loads).toBe(2);
  });

  it('keeps answering the old catalogue when a periodic reload fails', async () => {
    let now = 0;
    let loads = 0;
    const { model } = setup(
      async () => {
        loads += 1;
        if (loads === 2) throw new Error('database away');
        return { products: [product(`p${loads}`, 100)], categories: [] };
      },
      { reloadAfterMs: 1000, now: () => now },
    );
    const first = await model.current();
    now = 1000;
    expect(await model.current()).toBe(first);
    await new Promise((r) => setImmediate(r));
    expect(await model.current()).toBe(first);
    await new Promise((r) => setImmediate(r));
    expect((await model.current()).byId.has('p3')).toBe(true);
  });

  it('does not keep a load that may have missed a stock change made while it ran', async () => {
    let loads = 0;
    let release!: () => void;
    const { model, events } = setup(async () => {
      loads += 1;
      if (loads === 1) await new Promise<void>((r) => (release = r));
      return { products: [product('a', 100, 5)], categories: [] };
    });
    const first = model.current();
    await new Promise((r) => setImmediate(r));
    events.stockMoved('a', { quantity: 4, seq: 2 });
    release();
    await first;
    await model.current();
    expect(loads).toBe(2);
  });
});

describe('CatalogReadModel: list pages', () => {
  const catalogue: SnapshotLoader = async () => ({
    products: [product('a', 100), product('b', 300)],
    categories: [],
  });

  it('computes a page once per version, as bytes, and prepares its URL until a change', async () => {
    const { model, events } = setup(catalogue);
    const first = await model.list(query({ search: 'A' }));
    expect(await model.list(query({ search: ' a ' }))).toBe(first);
    expect(JSON.parse(first.bytes.toString())).toMatchObject({
      success: true,
      message: 'Products retrieved',
      totalFilteredProducts: 1,
    });
    model.prepare('/api/products?search=A', first);
    expect(model.preparedList('/api/products?search=A')).toBe(first.bytes);
    expect(model.preparedList('/api/products?search=a')).toBeUndefined();
    events.stockMoved('a', { quantity: 4, seq: 2 });
    expect(model.preparedCount).toBe(0);
    expect(model.preparedList('/api/products?search=A')).toBeUndefined();
    expect(await model.list(query({ search: 'a' }))).not.toBe(first);
  });

  it('does not keep or prepare a page computed across a change (it may predate it)', async () => {
    const { model, events } = setup(catalogue);
    await model.current();
    const pending = model.list(query());
    events.changed(); // a write lands while the list is being computed
    const answer = await pending;
    model.prepare('/api/products', answer);
    expect(model.preparedCount).toBe(0);
    expect(await model.list(query())).not.toBe(answer);
  });

  it('shares one computation between concurrent requests for one page, not across a change', async () => {
    let loads = 0;
    const { model, events } = setup(async () => {
      loads += 1;
      return catalogue();
    });
    const [one, two] = await Promise.all([model.list(query()), model.list(query())]);
    expect(one).toBe(two);
    const first = model.list(query());
    events.changed();
    const [a, b] = await Promise.all([first, model.list(query())]);
    expect(a).not.toBe(b);
    expect(loads).toBe(2);
  });

  it('sends bytes with the JSON content type', async () => {
    const { model } = setup(catalogue);
    const type = jest.fn();
    const reply = { type } as unknown as FastifyReply;
    const answer = await model.list(query());
    expect(model.sendList(reply, answer)).toBe(answer.bytes);
    expect(type).toHaveBeenCalledWith('application/json; charset=utf-8');
  });
});

describe('CatalogReadModel with other instances', () => {
  function remote() {
    let pending: Promise<void> | undefined;
    return {
      changed: jest.fn(),
      lookForChanges: jest.fn(() => pending),
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
    const changes = remote();
    const { events, heard } = setup(async () => ({ products: [], categories: [] }), {
      remote: changes,
    });
    events.changed();
    events.stockMoved('a', { quantity: 6, seq: 2 });
    expect(changes.changed).toHaveBeenCalledTimes(2);
    heard();
    expect(changes.changed).toHaveBeenCalledTimes(2);
  });

  it("reads the catalogue again when another instance's change is heard before a read", async () => {
    let loads = 0;
    const changes = remote();
    const { model, heard } = setup(
      async () => {
        loads += 1;
        return { products: [product(`p${loads}`, 100)], categories: [] };
      },
      { remote: changes },
    );
    const first = await model.list(query());
    model.prepare('/api/products', first);
    changes.lookThen(heard);
    expect(model.preparedList('/api/products')).toBeUndefined();
    const second = await model.list(query());
    expect(second.page.products[0]!._id).toBe('p2');
    expect(loads).toBe(2);
  });
});
