import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { Types } from 'mongoose';
import {
  bearer,
  createStaff,
  registerCustomer,
  signInAdmin,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { createCategory, createProduct, placeOrder } from './support/shop';
import { createTestApp, type TestApp } from './support/test-app';

describe('sales summary and report', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;

  beforeAll(async () => {
    t = await createTestApp({ name: 'reports', env: UNTHROTTLED });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken);
  });
  afterAll(() => t.close());

  async function paidOrder(price: number, quantity: number, paidAt?: Date) {
    const category = await createCategory(t, staff.accessToken);
    const p = await createProduct(t, staff.accessToken, category._id, {
      price,
      productQuantity: 100,
    });
    const order = (await placeOrder(t, [{ _id: p._id, quantity }]).expect(201)).body.order;
    await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } })
      .expect(200);
    if (paidAt) {
      const db = t.app.get<Connection>(getConnectionToken()).db!;
      await db
        .collection('orders')
        .updateOne({ _id: new Types.ObjectId(order._id) }, { $set: { paidAt } });
    }
    return { order, product: p };
  }

  it('counts paid orders by the day and week they were paid, in Nairobi time', async () => {
    const before = (
      await t.http().get('/api/sales-summary').set(bearer(admin.accessToken)).expect(200)
    ).body;
    await paidOrder(300, 2); // today: 600
    const unpaid = await (async () => {
      const category = await createCategory(t, staff.accessToken);
      const p = await createProduct(t, staff.accessToken, category._id, { price: 999 });
      return (await placeOrder(t, [{ _id: p._id, quantity: 1 }]).expect(201)).body.order;
    })();
    void unpaid;
    await paidOrder(100, 1, new Date('2020-01-15T10:00:00Z')); // long ago: only in the total
    const after = (
      await t.http().get('/api/sales-summary').set(bearer(admin.accessToken)).expect(200)
    ).body;
    expect(after.success).toBe(true);
    expect(after.dailySales - before.dailySales).toBe(600);
    expect(after.weeklySales - before.weeklySales).toBe(600);
    expect(after.totalSales - before.totalSales).toBe(700);
  });

  it('reports a daily series with empty days, top products and totals', async () => {
    const a = await paidOrder(500, 3, new Date('2025-03-10T06:00:00Z')); // 1,500 on 2025-03-10
    await paidOrder(200, 1, new Date('2025-03-11T20:59:00Z')); // 23:59 Nairobi, still the 11th
    await paidOrder(200, 1, new Date('2025-03-11T21:01:00Z')); // 00:01 Nairobi on the 12th
    const res = await t
      .http()
      .get('/api/sales-summary/report')
      .query({ from: '2025-03-09', to: '2025-03-12' })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(res.body.series).toEqual([
      { date: '2025-03-09', orders: 0, revenue: 0 },
      { date: '2025-03-10', orders: 1, revenue: 1500 },
      { date: '2025-03-11', orders: 1, revenue: 200 },
      { date: '2025-03-12', orders: 1, revenue: 200 },
    ]);
    expect(res.body.totals).toEqual({
      orders: 3,
      revenue: 1900,
      averageOrderValue: 633,
      refunds: { orders: 0, amount: 0 },
    });
    expect(res.body.topProducts[0]).toEqual({
      productId: a.product._id,
      productName: a.product.productName,
      quantity: 3,
      revenue: 1500,
    });
  });

  it('refuses bad ranges and is admin only', async () => {
    await t
      .http()
      .get('/api/sales-summary/report')
      .query({ from: '2025-03-12', to: '2025-03-01' })
      .set(bearer(admin.accessToken))
      .expect(400);
    await t
      .http()
      .get('/api/sales-summary/report')
      .query({ from: '2025-13-01', to: '2025-03-01' })
      .set(bearer(admin.accessToken))
      .expect(400);
    await t
      .http()
      .get('/api/sales-summary/report')
      .query({ from: '2020-01-01', to: '2025-01-01' })
      .set(bearer(admin.accessToken))
      .expect(400);
    await t.http().get('/api/sales-summary').set(bearer(staff.accessToken)).expect(403);
    const customer = await registerCustomer(t);
    await t.http().get('/api/sales-summary').set(bearer(customer.accessToken)).expect(403);
    await t.http().get('/api/sales-summary').expect(401);
  });
});

describe('locations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ name: 'locations' });
  });
  afterAll(() => t.close());

  it('lists the 47 counties with sub-counties and wards, publicly and cacheably', async () => {
    const res = await t.http().get('/api/locations/counties').expect(200);
    expect(res.body.counties).toHaveLength(47);
    const kiambu = res.body.counties.find((c: { name: string }) => c.name === 'Kiambu');
    expect(kiambu.code).toBe('022');
    const ruiru = kiambu.sub_counties.find((s: { name: string }) => s.name === 'Ruiru');
    expect(ruiru.wards).toEqual(expect.arrayContaining(['Gitothua', 'Biashara']));
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const names = res.body.counties.map((c: { name: string }) => c.name);
    expect(new Set(names).size).toBe(47);
  });
});
