/**
 * `seed:years` writes orders behind the API's back, each with its own past `updatedAt`, so the
 * rollups refreshed from "the orders changed since the last refresh" would never see them: on a
 * shop whose order counts and sales report were already read, a reseed must leave both counting
 * every order it wrote (it clears both rollups' states, so each is rebuilt on its next read).
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { seedYears } from '../../tools/seed-years/seed-years';
import { bearer, type Session } from './support/identity';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

describe('seed:years on a shop already read', () => {
  let t: TestApp;
  let admin: Session;
  const day = (daysAgo: number) =>
    new Date(Date.now() + 3 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const get = async (path: string) =>
    (await t.http().get(path).set(bearer(admin.accessToken)).expect(200)).body;
  const report = async () =>
    (await get(`/api/sales-summary/report?from=${day(90)}&to=${day(0)}`)) as {
      totals: { orders: number; revenue: number };
    };

  beforeAll(async () => {
    t = await createTestApp({ name: 'seed_years' });
    ({ admin } = await createShopWorld(t, { product: { price: 120, quantity: 1000 } }));
  });
  afterAll(() => t.close());

  it('leaves the orders lists and the sales report counting every order it wrote', async () => {
    // Both rollups built, and their states written, by a first read of an empty shop.
    expect((await get('/api/orders?page=1&limit=20')).totalOrders).toBe(0);
    expect((await get('/api/orders/queue')).counts.all).toBe(0);
    expect((await report()).totals.orders).toBe(0);

    const db = t.app.get<Connection>(getConnectionToken()).db!;
    await seedYears(db, { orders: 120, customers: 20, days: 60, seed: 5, batch: 500 });
    const placed = await db.collection('orders').countDocuments({ placement: 'placed' });
    const completed = await db
      .collection('orders')
      .countDocuments({ placement: 'placed', orderStatus: 'Completed' });
    expect(placed).toBeGreaterThan(100);

    const all = await get('/api/orders?page=1&limit=20');
    expect({ total: all.totalOrders, lowerBound: all.totalIsLowerBound }).toEqual({
      total: placed,
      lowerBound: false,
    });
    expect((await get('/api/orders/queue')).counts.all).toBe(placed);
    expect((await get('/api/orders?status=Completed')).totalOrders).toBe(completed);
    const sales = await report();
    expect(sales.totals.orders).toBeGreaterThan(0);
    expect(sales.totals.revenue).toBeGreaterThan(0);
  });
});
