/**
 * The orders lists' totals and the work queue's counts come from the order counts' rollup
 * (orders/order-count-rollup.ts), not from counting the orders: after every kind of write
 * (placement, payment, each status step, a bulk step, cancellations, deletes, a booking and its
 * deposit, a customer's cancellation, an order moved to another day), on either of two API
 * instances sharing the database, each tab's and filter's total is what a count of the orders
 * gives, at once.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { Types } from 'mongoose';
import {
  inQueue,
  ORDER_QUEUES,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type OrderQueue,
  type OrderStatus,
  type PaymentStatus,
} from '@spc/shared-contracts';
import { addDays, shopDay, startOfShopDay } from '../src/common/shop-clock';
import { bearer, type Session } from './support/identity';
import { guest, placeOrder } from './support/shop';
import type { TestApp } from './support/test-app';
import { startTwoInstances, type TwoInstances } from './support/two-instances';

interface Filter {
  status?: OrderStatus;
  paymentStatus?: PaymentStatus;
  queue?: OrderQueue;
  from?: string;
  to?: string;
}
interface PlacedOrder {
  _id: string;
  totalAmount: number;
}

describe('order counts from the rollup, on two instances', () => {
  let two: TwoInstances;
  let staff: Session;
  let admin: Session;

  beforeAll(async () => {
    two = await startTwoInstances('order_counts');
    ({ staff, admin } = two.world);
  });
  afterAll(() => two.close());

  const db = () => two.a.app.get<Connection>(getConnectionToken()).db!;
  const today = () => shopDay(new Date());

  /** Every tab and filter the back office offers, and a few of them together. */
  const filters = (): Filter[] => [
    {},
    ...ORDER_QUEUES.map((queue) => ({ queue })),
    ...ORDER_STATUSES.map((status) => ({ status })),
    ...PAYMENT_STATUSES.map((paymentStatus) => ({ paymentStatus })),
    { status: 'Pending', paymentStatus: 'Paid' },
    { queue: 'toDispatch', paymentStatus: 'Pending' },
    { queue: 'inTransit', paymentStatus: 'Paid' },
    { from: today(), to: today() },
    { from: addDays(today(), -40), to: addDays(today(), -1) },
    { to: addDays(today(), -1), status: 'Pending' },
    { from: addDays(today(), -12), to: addDays(today(), -8) },
    { from: addDays(today(), -22), to: addDays(today(), -18) },
    { from: addDays(today(), 1) },
  ];

  /** What a count of the placed orders gives for the filter (read straight from the database). */
  async function counted(filter: Filter): Promise<number> {
    const orders = await db()
      .collection('orders')
      .find({ placement: 'placed' })
      .project<{ orderStatus: OrderStatus; paymentStatus: PaymentStatus; orderDate: Date }>({
        orderStatus: 1,
        paymentStatus: 1,
        orderDate: 1,
      })
      .toArray();
    return orders.filter(
      (o) =>
        (!filter.status || o.orderStatus === filter.status) &&
        (!filter.paymentStatus || o.paymentStatus === filter.paymentStatus) &&
        (!filter.queue || inQueue(o, filter.queue)) &&
        (!filter.from || o.orderDate >= startOfShopDay(filter.from)) &&
        (!filter.to || o.orderDate < startOfShopDay(addDays(filter.to, 1))),
    ).length;
  }

  /** The ids of the placed orders matching the filter, in the list's order (ties by id). */
  async function listed(
    filter: Filter,
    sortBy: 'orderDate' | 'totalAmount',
    sortOrder: 'asc' | 'desc',
  ): Promise<string[]> {
    const orders = await db()
      .collection('orders')
      .find({ placement: 'placed' })
      .project<{
        _id: Types.ObjectId;
        orderStatus: OrderStatus;
        paymentStatus: PaymentStatus;
        orderDate: Date;
        totalAmount: number;
      }>({ orderStatus: 1, paymentStatus: 1, orderDate: 1, totalAmount: 1 })
      .toArray();
    const key = (o: { _id: Types.ObjectId; orderDate: Date; totalAmount: number }) =>
      `${sortBy === 'orderDate' ? o.orderDate.toISOString() : String(o.totalAmount).padStart(12, '0')} ${String(o._id)}`;
    return orders
      .filter(
        (o) =>
          (!filter.status || o.orderStatus === filter.status) &&
          (!filter.paymentStatus || o.paymentStatus === filter.paymentStatus) &&
          (!filter.queue || inQueue(o, filter.queue)) &&
          (!filter.from || o.orderDate >= startOfShopDay(filter.from)) &&
          (!filter.to || o.orderDate < startOfShopDay(addDays(filter.to, 1))),
      )
      .sort((a, b) =>
        sortOrder === 'desc' ? key(b).localeCompare(key(a)) : key(a).localeCompare(key(b)),
      )
      .map((o) => String(o._id));
  }

  /** Each filter's total and the queue's counts on this instance, against a count of the orders. */
  async function expectTotalsRight(t: TestApp, step: string): Promise<void> {
    const answered: Record<string, number> = {};
    const truth: Record<string, number> = {};
    for (const filter of filters()) {
      const name = JSON.stringify(filter);
      const res = await t
        .http()
        .get('/api/orders')
        .query({ ...filter, limit: 1 })
        .set(bearer(staff.accessToken))
        .expect(200);
      answered[name] = res.body.totalOrders;
      expect(res.body.totalIsLowerBound).toBe(false);
      truth[name] = await counted(filter);
    }
    const queue = (
      await t.http().get('/api/orders/queue').set(bearer(staff.accessToken)).expect(200)
    ).body.counts as Record<OrderQueue | 'all', number>;
    for (const q of [...ORDER_QUEUES, 'all'] as const) {
      answered[`queue counts: ${q}`] = queue[q];
      truth[`queue counts: ${q}`] = await counted(q === 'all' ? {} : { queue: q });
    }
    expect({ step, totals: answered }).toEqual({ step, totals: truth });
  }
  /** Both instances, right after the write, each asked first in turn. */
  async function expectBothRight(step: string): Promise<void> {
    await expectTotalsRight(two.a, `${step} (read on a)`);
    await expectTotalsRight(two.b, `${step} (read on b)`);
  }

  const place = async (t: TestApp, quantity = 1): Promise<PlacedOrder> =>
    (
      await placeOrder(t, [{ _id: two.world.productId, quantity }], { guestInfo: guest() }).expect(
        201,
      )
    ).body.order as PlacedOrder;
  const asStaff = (t: TestApp, method: 'patch' | 'post', url: string) =>
    t.http()[method](url).set(bearer(staff.accessToken));
  const pay = (t: TestApp, o: PlacedOrder) =>
    asStaff(t, 'patch', `/api/orders/complete-payment/${o._id}`)
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: o.totalAmount } })
      .expect(200);

  const moveBack = (o: PlacedOrder, days: number) =>
    db()
      .collection('orders')
      .updateOne(
        { _id: new Types.ObjectId(o._id) },
        { $set: { orderDate: new Date(Date.now() - days * 86_400_000), updatedAt: new Date() } },
      );

  it('match a count of the orders after every kind of write, read on either instance at once', async () => {
    const { a, b } = two;
    await expectBothRight('before any order');

    const [first, second, third, fourth, fifth] = [
      await place(a),
      await place(b, 2),
      await place(a, 3),
      await place(b),
      await place(a),
    ];
    await expectBothRight('five placed');
    // Orders moved to other days by a write the API did not make (as the demo seed backdates its
    // orders): the day that counted each and the day that does now are both recounted.
    await moveBack(fourth, 10);
    await moveBack(fifth, 11);
    await moveBack(third, 20);
    await expectBothRight('three orders moved back 10, 11 and 20 days');

    await pay(b, first);
    await expectBothRight('a payment');
    await asStaff(a, 'patch', `/api/orders/inTransit/${first._id}`).expect(200);
    await expectBothRight('in transit');
    await asStaff(b, 'patch', '/api/orders/confirm-delivery')
      .send({ orderId: first._id })
      .expect(200);
    await expectBothRight('delivered');
    await asStaff(a, 'patch', `/api/orders/complete-order/${first._id}`).expect(200);
    await expectBothRight('completed');

    await asStaff(b, 'post', '/api/orders/bulk')
      .send({ action: 'inTransit', orderIds: [second._id, third._id] })
      .expect(200);
    await expectBothRight('two sent out at once');

    await asStaff(a, 'patch', `/api/orders/cancel/${fourth._id}`).expect(200);
    await expectBothRight('a cancellation');
    await b
      .http()
      .delete(`/api/orders/delete/${fourth._id}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    await expectBothRight('a cancelled order deleted');
    await a
      .http()
      .delete(`/api/orders/delete/${fifth._id}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    await expectBothRight('a pending order deleted');

    const customer = await two.world.createCustomer();
    const own = (
      await placeOrder(b, [{ _id: two.world.productId, quantity: 1 }], {
        token: customer.accessToken,
        guestInfo: guest(),
      }).expect(201)
    ).body.order as PlacedOrder;
    await expectBothRight("a customer's order");
    await a
      .http()
      .patch(`/api/orders/cancel/${own._id}`)
      .set(bearer(customer.accessToken))
      .expect(200);
    await expectBothRight('cancelled by its customer');

    const batch = (
      await asStaff(a, 'post', '/api/batches')
        .send({
          productId: two.world.productId,
          sownOn: addDays(today(), -10),
          readyOn: addDays(today(), 60),
          started: 100,
        })
        .expect(201)
    ).body.batch as { _id: string };
    const booking = (
      await placeOrder(
        b,
        [{ _id: two.world.productId, quantity: 4, batchId: batch._id } as never],
        {
          guestInfo: guest(),
        },
      ).expect(201)
    ).body.order as PlacedOrder & { booking: { deposit: number } };
    await expectBothRight('a booking');
    await asStaff(a, 'post', `/api/orders/${booking._id}/booking/deposit`)
      .send({ transactionCode: 'TK4COUNTS1', amount: booking.booking.deposit })
      .expect(200);
    await expectBothRight("a booking's deposit");

    // Moved again: the day that counted it is recounted though no order of it changed.
    await moveBack(third, 25);
    await expectBothRight('that order moved back 25 days');

    // Every page of each list by date and by total, both ways, two at a time: each order once,
    // in the list's order (a page is read from the days, or totals, the rollup says hold it).
    for (const filter of filters())
      for (const sortBy of ['orderDate', 'totalAmount'] as const)
        for (const sortOrder of ['desc', 'asc'] as const) {
          const seen: string[] = [];
          for (let page = 1; page <= 20; page++) {
            const res = await b
              .http()
              .get('/api/orders')
              .query({ ...filter, sortBy, sortOrder, limit: 2, page })
              .set(bearer(staff.accessToken))
              .expect(200);
            seen.push(...res.body.orders.map((o: { _id: string }) => o._id));
            if (page >= res.body.totalPages) break;
          }
          const list = { filter, sortBy, sortOrder };
          expect({ ...list, seen }).toEqual({
            ...list,
            seen: await listed(filter, sortBy, sortOrder),
          });
        }
    // Some 40 s alone; a clean-clone run with every lane beside it has passed 120 s.
  }, 300_000);

  it('stay right when both instances refresh at once, many times, amid writes', async () => {
    const { a, b } = two;
    const placed = await Promise.all([place(a), place(b), place(a), place(b)]);
    const ask = (t: TestApp) =>
      t.http().get('/api/orders/queue').set(bearer(staff.accessToken)).expect(200);
    // Writes on both while both read: each read starts a refresh, or waits for the next one.
    await Promise.all([
      ...placed.map((o, i) => pay(i % 2 ? a : b, o)),
      ...Array.from({ length: 12 }, (_, i) => ask(i % 2 ? a : b)),
    ]);
    await Promise.all([
      ...placed.map((o, i) =>
        asStaff(i % 2 ? b : a, 'patch', `/api/orders/inTransit/${o._id}`).expect(200),
      ),
      ...Array.from({ length: 12 }, (_, i) => ask(i % 2 ? b : a)),
    ]);
    await expectBothRight('paid and sent out while both read');
  });
});
