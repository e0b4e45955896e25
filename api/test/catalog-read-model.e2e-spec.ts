/**
 * The catalogue in memory shows the stock the database holds, on one instance or two: after a
 * burst of orders where most give their stock back, every instance's product page shows the
 * database's stock within a second, and still does 10 s later.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { StockLedgerRepository } from '../src/inventory/stock-ledger.repository';
import { createCategory, createProduct } from './support/factories';
import { bearer, signInAdmin, UNTHROTTLED } from './support/identity';
import { placeOrder, stockOf } from './support/shop';
import { createTestApp, type TestApp } from './support/test-app';
import { sleep, waitFor } from './support/wait';

const ROUNDS = 4;
const ORDERS_PER_BURST = 16;
const SCARCE = 5;
/**
 * How much longer than usual a stock change waits between its write and the word to the catalogue
 * (its movement's copy to the ledger): long enough for a clerk's edit and a reload to land inside.
 */
const GAP_MS = 300;

const ENV = { ...UNTHROTTLED, CATALOG_SYNC_INTERVAL_MS: '200' };

/**
 * The gap between a stock write and its announcement, widened on each instance (a test hook on the
 * ledger's copy, which runs between the two), and a way to wait until one is open.
 */
class StockGap {
  private opened?: () => void;

  widen(t: TestApp): void {
    const ledger = t.app.get(StockLedgerRepository, { strict: false });
    const copy = ledger.copyMovements.bind(ledger);
    jest.spyOn(ledger, 'copyMovements').mockImplementation(async (...args) => {
      this.opened?.();
      await sleep(GAP_MS);
      return copy(...args);
    });
  }

  /** Resolves when the next stock change has been written but not yet announced. */
  next(): Promise<void> {
    return new Promise((resolve) => (this.opened = resolve));
  }
}

async function databaseStock(t: TestApp, id: string): Promise<number> {
  const doc = await t.app
    .get<Connection>(getConnectionToken())
    .collection('products')
    .findOne({ _id: new Types.ObjectId(id) }, { projection: { productQuantity: 1 } });
  return doc!.productQuantity as number;
}

/** Each instance's public stock of each product, beside the database's. */
async function shownAndHeld(instances: TestApp[], ids: string[]) {
  const held = await Promise.all(ids.map((id) => databaseStock(instances[0]!, id)));
  const shown = await Promise.all(
    instances.map((t) => Promise.all(ids.map((id) => stockOf(t, id)))),
  );
  return { held, shown };
}

const agree = ({ held, shown }: { held: number[]; shown: number[][] }) =>
  shown.every((row) => row.every((q, i) => q === held[i]));

/** What every instance shows: the database's stock, for each instance. */
const expected = ({ held, shown }: { held: number[]; shown: number[][] }) => shown.map(() => held);

/**
 * Rounds of a burst of two-line orders (a plentiful product and a scarce one, so most orders give
 * their stock back), split across the instances while shoppers read both product pages on each.
 * Once a stock change is in its gap, a clerk changes another product's offer on each instance,
 * and the catalogue is read again there: that reload lands inside the gap. Answers the products of
 * every round.
 */
async function bursts(instances: TestApp[], gap: StockGap, admin: string, categoryId: string) {
  const all: string[] = [];
  const other = await createProduct(instances[0]!, admin, categoryId, { price: 500 });
  for (let round = 0; round < ROUNDS; round++) {
    const plentiful = await createProduct(instances[0]!, admin, categoryId, {
      productQuantity: 500,
    });
    const scarce = await createProduct(instances[0]!, admin, categoryId, {
      productQuantity: SCARCE,
    });
    const ids = [plentiful._id, scarce._id];
    all.push(...ids);
    let ordering = true;
    const shoppers = instances.map(async (t) => {
      while (ordering) await Promise.all(ids.map((id) => stockOf(t, id)));
    });
    const clerk = (async () => {
      await gap.next();
      for (const t of instances) {
        await t
          .http()
          .patch(`/api/products/apply-offer/${other._id}`)
          .set(bearer(admin))
          .send({ offerPrice: 400 + round })
          .expect(200);
        await stockOf(t, plentiful._id);
      }
    })();
    const orders = await Promise.all(
      Array.from({ length: ORDERS_PER_BURST }, (_, i) =>
        placeOrder(instances[i % instances.length]!, [
          { _id: plentiful._id, quantity: 1 },
          { _id: scarce._id, quantity: 1 },
        ]),
      ),
    );
    ordering = false;
    await Promise.all([...shoppers, clerk]);
    expect(orders.filter((o) => o.status === 201)).toHaveLength(SCARCE);
    const seen = await waitFor(() => shownAndHeld(instances, ids), agree, 1000, 100);
    expect(seen.shown).toEqual(expected(seen));
  }
  return all;
}

describe('catalogue stock after a burst of orders', () => {
  describe('on one instance', () => {
    let t: TestApp;
    let admin: string;
    let categoryId: string;
    const gap = new StockGap();

    beforeAll(async () => {
      t = await createTestApp({ name: 'catalog_read_model', env: ENV });
      gap.widen(t);
      admin = (await signInAdmin(t)).accessToken;
      categoryId = (await createCategory(t, admin))._id;
    });
    afterAll(() => t.close());

    it('shows the database stock within a second, and still 10 s later', async () => {
      const ids = await bursts([t], gap, admin, categoryId);
      await sleep(10_000);
      const later = await shownAndHeld([t], ids);
      expect(later.shown).toEqual(expected(later));
    }, 120_000);
  });

  describe('on two instances sharing the database', () => {
    let a: TestApp;
    let b: TestApp;
    let admin: string;
    let categoryId: string;
    const gap = new StockGap();

    beforeAll(async () => {
      a = await createTestApp({ name: 'catalog_read_model_two', env: ENV });
      b = await createTestApp({
        name: 'catalog_read_model_two',
        env: ENV,
        databaseName: a.databaseName,
      });
      gap.widen(a);
      gap.widen(b);
      admin = (await signInAdmin(a)).accessToken;
      categoryId = (await createCategory(a, admin))._id;
    });
    afterAll(async () => {
      await b?.app.close();
      await a?.close();
    });

    it('shows the database stock on each within a second, and still 10 s later', async () => {
      const ids = await bursts([a, b], gap, admin, categoryId);
      await sleep(10_000);
      const later = await shownAndHeld([a, b], ids);
      expect(later.shown).toEqual(expected(later));
    }, 180_000);
  });
});
