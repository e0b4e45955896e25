/**
 * The sales report's daily rollup (api/src/reports/sales-rollup.ts) stays equal to the orders: a
 * payment, then a cancellation with a refund, each shows in the next report after the rollup was
 * built; and money writes (placement, payment, refund) go out with majority write concern.
 */
import { randomBytes } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { CommandStartedEvent, Document } from 'mongodb';
import { withDatabaseName } from '../../tools/db/launcher';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import { guest, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { createTestApp, serverUri, type TestApp } from './support/test-app';

describe('sales rollup and money writes', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let productId: string;
  const writes: { name: string; collection: string; writeConcern?: Document }[] = [];

  beforeAll(async () => {
    const url = new URL(
      withDatabaseName(serverUri(), `e2e_rollup_${randomBytes(3).toString('hex')}`),
    );
    url.searchParams.set('monitorCommands', 'true');
    t = await createTestApp({
      name: 'rollup',
      env: { ...UNTHROTTLED, MONGODB_URI: url.toString() },
    });
    ({ admin, staff, productId } = await createShopWorld(t, {
      product: { price: 250, quantity: 1000 },
    }));
    const connection = t.app.get<Connection>(getConnectionToken());
    connection.getClient().on('commandStarted', (event: CommandStartedEvent) => {
      if (!['insert', 'update', 'findAndModify'].includes(event.commandName)) return;
      writes.push({
        name: event.commandName,
        collection: String(event.command[event.commandName]),
        writeConcern: event.command.writeConcern as Document | undefined,
      });
    });
  });
  afterAll(async () => {
    await t.app.get<Connection>(getConnectionToken()).db?.dropDatabase();
    await t.close();
  });

  const today = () =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Nairobi' }).format(new Date());
  const report = async () =>
    (
      await t
        .http()
        .get(`/api/sales-summary/report?from=${today()}&to=${today()}`)
        .set(bearer(admin.accessToken))
        .expect(200)
    ).body as { totals: { orders: number; revenue: number } };
  const total = async () =>
    (
      (await t.http().get('/api/sales-summary').set(bearer(admin.accessToken)).expect(200))
        .body as { totalSales: number }
    ).totalSales;

  it("follows a payment and a refunded cancellation into the report and the shop's total", async () => {
    const before = await report();
    const totalBefore = await total();
    const order = (
      await placeOrder(t, [{ _id: productId, quantity: 3 }], { guestInfo: guest() }).expect(201)
    ).body.order as { _id: string; totalAmount: number };
    await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } })
      .expect(200);
    expect(await report()).toMatchObject({
      totals: {
        orders: before.totals.orders + 1,
        revenue: before.totals.revenue + order.totalAmount,
      },
    });
    expect(await total()).toBe(totalBefore + order.totalAmount);

    await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Cash', amount: order.totalAmount, reference: 'cash back' } })
      .expect(200);
    expect(await report()).toMatchObject({
      totals: { orders: before.totals.orders, revenue: before.totals.revenue },
    });
    expect(await total()).toBe(totalBefore);
  });

  it("a whole month's products, added up once, follow a payment made after", async () => {
    const month = today().slice(0, 7);
    const [y, m] = month.split('-').map(Number);
    const last = `${month}-${new Date(Date.UTC(y!, m!, 0)).getUTCDate()}`;
    const sold = async () => {
      const body = (
        await t
          .http()
          .get(`/api/sales-summary/report?from=${month}-01&to=${last}`)
          .set(bearer(admin.accessToken))
          .expect(200)
      ).body as {
        totals: { revenue: number };
        topProducts: { productId: string; quantity: number }[];
      };
      return {
        revenue: body.totals.revenue,
        quantity: body.topProducts.find((p) => p.productId === productId)?.quantity ?? 0,
      };
    };
    const pay = async (quantity: number) => {
      const order = (
        await placeOrder(t, [{ _id: productId, quantity }], { guestInfo: guest() }).expect(201)
      ).body.order as { _id: string; totalAmount: number };
      await t
        .http()
        .patch(`/api/orders/complete-payment/${order._id}`)
        .set(bearer(staff.accessToken))
        .send({ paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } })
        .expect(200);
    };
    await pay(4);
    const first = await sold();
    const db = t.app.get<Connection>(getConnectionToken()).db!;
    expect(await db.collection('sales_months').countDocuments({ _id: month as never })).toBe(1);
    await pay(5);
    expect(await sold()).toEqual({
      revenue: first.revenue + 5 * 250,
      quantity: first.quantity + 5,
    });
  });

  it('rebuilds every day once when its rows were written by an older build (days without bookings money)', async () => {
    const order = (
      await placeOrder(t, [{ _id: productId, quantity: 2 }], { guestInfo: guest() }).expect(201)
    ).body.order as { _id: string; totalAmount: number };
    await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } })
      .expect(200);
    const built = await report();
    expect(built.totals.orders).toBeGreaterThan(0);
    // As an older build left them: its state has no version, a day's row has lost its sales.
    const db = t.app.get<Connection>(getConnectionToken()).db!;
    await db
      .collection('sales_rollup_state')
      .updateOne({ _id: 'sales' as never }, { $unset: { version: '' } });
    await db
      .collection('sales_days')
      .updateMany({}, { $set: { orders: 0, revenue: 0, products: [] } });
    expect(await report()).toEqual(built);
  });

  it('writes orders and refunds with majority write concern', async () => {
    writes.length = 0;
    const order = (
      await placeOrder(t, [{ _id: productId, quantity: 1 }], { guestInfo: guest() }).expect(201)
    ).body.order as { _id: string; totalAmount: number };
    await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } })
      .expect(200);
    await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Cash', amount: order.totalAmount, reference: 'cash back' } })
      .expect(200);
    const money = writes.filter((w) => ['orders', 'order_refunds'].includes(w.collection));
    expect(money.some((w) => w.collection === 'orders' && w.name === 'insert')).toBe(true);
    expect(money.some((w) => w.collection === 'order_refunds')).toBe(true);
    for (const write of money) expect(write).toMatchObject({ writeConcern: { w: 'majority' } });
  });
});
