/**
 * The dispatch desk: the work queue's counts, the list's queue/sort/phone/date filters, bulk
 * actions through the order pipeline, and the CSV export, each with who may call it.
 */
import { Types } from 'mongoose';
import { BULK_ORDERS_MAX } from '@spc/shared-contracts';
import { shopDay, addDays } from '../src/common/shop-clock';
import { bearer, registerCustomer, UNTHROTTLED, type Session } from './support/identity';
import { DELIVERY, placeOrder, stockOf } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

interface Counts {
  toConfirmPayment: number;
  toDispatch: number;
  inTransit: number;
  toComplete: number;
  all: number;
}

describe('the dispatch desk', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let customer: Session;
  let productId: string;
  let price: number;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp({ name: 'order_desk', env: UNTHROTTLED });
    ({ admin, staff, productId } = await createShopWorld(t, {
      product: { price: 150, quantity: 100_000 },
    }));
    customer = await registerCustomer(t);
    price = 150;
  });
  afterAll(() => t.close());

  /** A guest order of its own (unique name unless given), `quantity` seedlings. */
  async function order(guest: Partial<typeof DELIVERY> = {}, quantity = 1) {
    seq++;
    const res = await placeOrder(t, [{ _id: productId, quantity }], {
      guestInfo: { ...DELIVERY, fullName: `Desk Customer ${seq}`, ...guest },
    }).expect(201);
    return res.body.order as { _id: string; purchaseNumber: string; totalAmount: number };
  }
  const asStaff = (method: 'patch' | 'put', url: string) =>
    t.http()[method](url).set(bearer(staff.accessToken));
  const pay = (o: { _id: string; totalAmount: number }) =>
    asStaff('patch', `/api/orders/complete-payment/${o._id}`)
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: o.totalAmount } })
      .expect(200);
  const ship = (id: string) => asStaff('patch', `/api/orders/inTransit/${id}`).expect(200);
  const deliver = (id: string) =>
    asStaff('patch', '/api/orders/confirm-delivery').send({ orderId: id }).expect(200);
  const cancel = (id: string) => asStaff('patch', `/api/orders/cancel/${id}`).expect(200);
  const counts = async (token = staff.accessToken): Promise<Counts> =>
    (await t.http().get('/api/orders/queue').set(bearer(token)).expect(200)).body.counts;
  const list = (query: string, token = staff.accessToken) =>
    t.http().get(`/api/orders?${query}`).set(bearer(token));
  const bulk = (body: object, token = staff.accessToken) =>
    t.http().post('/api/orders/bulk').set(bearer(token)).send(body);
  const statusOf = async (id: string) =>
    (await t.http().get(`/api/orders/${id}`).set(bearer(staff.accessToken)).expect(200)).body.order
      .orderStatus as string;

  describe('the work queue', () => {
    it('counts each bucket as the desk defines it, for staff and admin alike', async () => {
      const before = await counts();
      await order(); // unpaid, pending: to confirm payment
      const paid = await order(); // paid, processing: to dispatch
      await pay(paid);
      const paidOut = await order(); // paid, in transit
      await pay(paidOut);
      await ship(paidOut._id);
      const unpaidOut = await order(); // unpaid, in transit: to confirm payment and in transit
      await ship(unpaidOut._id);
      const delivered = await order(); // paid and delivered: to complete
      await pay(delivered);
      await ship(delivered._id);
      await deliver(delivered._id);
      const cancelled = await order(); // cancelled: in no bucket
      await cancel(cancelled._id);
      const completed = await order(); // completed: in no bucket
      await pay(completed);
      await ship(completed._id);
      await asStaff('patch', `/api/orders/complete-order/${completed._id}`).expect(200);

      const after = await counts();
      expect({
        toConfirmPayment: after.toConfirmPayment - before.toConfirmPayment,
        toDispatch: after.toDispatch - before.toDispatch,
        inTransit: after.inTransit - before.inTransit,
        toComplete: after.toComplete - before.toComplete,
        all: after.all - before.all,
      }).toEqual({ toConfirmPayment: 2, toDispatch: 1, inTransit: 2, toComplete: 1, all: 7 });
      expect(await counts(admin.accessToken)).toEqual(after);

      const toDispatch = await list('queue=toDispatch&limit=100').expect(200);
      expect(toDispatch.body.totalOrders).toBe(after.toDispatch);
      expect(toDispatch.body.orders.map((o: { _id: string }) => o._id)).toContain(paid._id);
      for (const o of toDispatch.body.orders) {
        expect(o.paymentStatus).toBe('Paid');
        expect(['Pending', 'Processing']).toContain(o.orderStatus);
      }
      const toConfirm = await list('queue=toConfirmPayment&limit=100').expect(200);
      expect(toConfirm.body.totalOrders).toBe(after.toConfirmPayment);
      expect(toConfirm.body.orders.map((o: { _id: string }) => o._id)).toEqual(
        expect.arrayContaining([unpaidOut._id]),
      );
      expect(toConfirm.body.orders.map((o: { _id: string }) => o._id)).not.toContain(cancelled._id);
    });

    it('is for staff and admin only', async () => {
      await t.http().get('/api/orders/queue').expect(401);
      await t.http().get('/api/orders/queue').set(bearer(customer.accessToken)).expect(403);
      await list('queue=everything').expect(400);
    });
  });

  describe('list filters and sorting', () => {
    it('finds an order by its phone however the clerk types it', async () => {
      const mine = await order({ phoneNumber: '0733 444 556' });
      for (const typed of ['+254733444556', '0733444556', '733-444', '0733 444 556']) {
        const res = await list(`search=${encodeURIComponent(typed)}`).expect(200);
        expect(res.body.orders.map((o: { _id: string }) => o._id)).toContain(mine._id);
      }
      const other = await list(`search=${encodeURIComponent('0799 999 999')}`).expect(200);
      expect(other.body.orders.map((o: { _id: string }) => o._id)).not.toContain(mine._id);
    });

    it('sorts by total and by date, both ways, and keeps the other filters', async () => {
      const name = `Sorted Buyer ${Date.now()}`;
      const small = await order({ fullName: name }, 1);
      const large = await order({ fullName: name }, 5);
      const middle = await order({ fullName: name }, 3);
      const ids = (res: { body: { orders: { _id: string }[] } }) =>
        res.body.orders.map((o) => o._id);
      const q = `search=${encodeURIComponent(name)}`;
      expect(ids(await list(`${q}&sortBy=totalAmount&sortOrder=asc`).expect(200))).toEqual([
        small._id,
        middle._id,
        large._id,
      ]);
      expect(ids(await list(`${q}&sortBy=totalAmount&sortOrder=desc`).expect(200))).toEqual([
        large._id,
        middle._id,
        small._id,
      ]);
      expect(ids(await list(`${q}&sortBy=orderDate&sortOrder=asc`).expect(200))).toEqual([
        small._id,
        large._id,
        middle._id,
      ]);
      expect(ids(await list(q).expect(200))).toEqual([middle._id, large._id, small._id]);
      expect(large.totalAmount).toBe(5 * price);
      await list('sortBy=price').expect(400);
      await list('sortOrder=up').expect(400);
    });

    it("takes from and to as the shop's days (Nairobi), both included", async () => {
      const mine = await order({ fullName: `Dated Buyer ${Date.now()}` });
      const today = shopDay(new Date());
      const has = async (query: string) =>
        (await list(`${query}&limit=100`).expect(200)).body.orders.some(
          (o: { _id: string }) => o._id === mine._id,
        );
      expect(await has(`from=${today}&to=${today}`)).toBe(true);
      expect(await has(`from=${addDays(today, 1)}`)).toBe(false);
      expect(await has(`to=${addDays(today, -1)}`)).toBe(false);
    });
  });

  describe('bulk actions', () => {
    it('moves the orders it may in transit in one call and lists the one refused, with its reason', async () => {
      const [a, b, c] = [await order(), await order(), await order()];
      await cancel(c._id);
      const res = await bulk({ action: 'inTransit', orderIds: [a._id, b._id, c._id] }).expect(200);
      expect(res.body).toMatchObject({
        success: true,
        message: '2 orders done, 1 order refused',
        action: 'inTransit',
        done: 2,
        refused: [
          {
            _id: c._id,
            purchaseNumber: c.purchaseNumber,
            code: 'ILLEGAL_TRANSITION',
            message: 'This order is cancelled; only pending or processing orders can be sent out',
          },
        ],
      });
      expect(res.body.doneOrders).toEqual([
        { _id: a._id, purchaseNumber: a.purchaseNumber, orderStatus: 'InTransit' },
        { _id: b._id, purchaseNumber: b.purchaseNumber, orderStatus: 'InTransit' },
      ]);
      expect(await statusOf(a._id)).toBe('InTransit');
      expect(await statusOf(c._id)).toBe('Cancelled');

      // Audited per order, as one by one.
      const log = await t
        .http()
        .get('/api/audit-logs?limit=20')
        .set(bearer(admin.accessToken))
        .expect(200);
      const sent = log.body.filter((e: { action: string }) => e.action === 'order.inTransit');
      const texts = sent.map((e: { message: string }) => e.message).join('\n');
      expect(texts).toContain(a.purchaseNumber);
      expect(texts).toContain(b.purchaseNumber);
      expect(texts).not.toContain(c.purchaseNumber);
    });

    it('confirms deliveries and names an id no order has', async () => {
      const [a, b] = [await order(), await order()];
      await ship(a._id);
      const ghost = new Types.ObjectId().toString();
      const res = await bulk({ action: 'confirmDelivery', orderIds: [a._id, b._id, ghost] }).expect(
        200,
      );
      expect(res.body.done).toBe(1);
      expect(res.body.refused).toEqual([
        {
          _id: b._id,
          purchaseNumber: b.purchaseNumber,
          code: 'ILLEGAL_TRANSITION',
          message: 'This order is pending; only an order in transit can be marked delivered',
        },
        { _id: ghost, purchaseNumber: null, code: 'NOT_FOUND', message: 'No order with this id' },
      ]);
      expect(await statusOf(a._id)).toBe('Delivered');
    });

    it('cancels unpaid orders, returning their stock, and refuses a paid one until its refund is recorded', async () => {
      const stock = await stockOf(t, productId);
      const unpaid = await order({}, 2);
      const paid = await order({}, 1);
      await pay(paid);
      const res = await bulk({ action: 'cancel', orderIds: [unpaid._id, paid._id] }).expect(200);
      expect(res.body.done).toBe(1);
      expect(res.body.refused).toEqual([
        expect.objectContaining({
          _id: paid._id,
          purchaseNumber: paid.purchaseNumber,
          code: 'CONFLICT',
          message: expect.stringContaining('To cancel it, record the refund'),
        }),
      ]);
      expect(await statusOf(unpaid._id)).toBe('Cancelled');
      expect(await statusOf(paid._id)).toBe('Processing');
      expect(await stockOf(t, productId)).toBe(stock - 1);
    });

    it('is for staff only: a customer or an admin (whose order screens are view-only) gets 403, and nothing changes', async () => {
      const o = await order();
      await t
        .http()
        .post('/api/orders/bulk')
        .send({ action: 'cancel', orderIds: [o._id] })
        .expect(401);
      await bulk({ action: 'cancel', orderIds: [o._id] }, customer.accessToken).expect(403);
      await bulk({ action: 'cancel', orderIds: [o._id] }, admin.accessToken).expect(403);
      expect(await statusOf(o._id)).toBe('Pending');
    });

    it('refuses a malformed batch with 400 and changes nothing', async () => {
      const o = await order();
      const tooMany = Array.from({ length: BULK_ORDERS_MAX + 1 }, () =>
        new Types.ObjectId().toString(),
      );
      const cases: [object, string][] = [
        [{ action: 'fulfil', orderIds: [o._id] }, 'action must be one of'],
        [{ action: 'cancel', orderIds: [] }, 'Select at least one order'],
        [{ action: 'cancel', orderIds: [o._id, o._id] }, 'Each order may be listed only once'],
        [{ action: 'cancel', orderIds: [o._id, 'nope'] }, 'valid order id'],
        [{ action: 'cancel', orderIds: [...tooMany, o._id] }, `At most ${BULK_ORDERS_MAX}`],
        [{ action: 'cancel', orderIds: o._id }, 'orderIds must be a list'],
        [{ action: 'cancel', orderIds: [{ $ne: null }] }, 'valid order id'],
      ];
      for (const [body, message] of cases) {
        const res = await bulk(body).expect(400);
        // The message, or the field errors it summarises, says what is wrong.
        expect(JSON.stringify(res.body)).toContain(message);
      }
      expect(await statusOf(o._id)).toBe('Pending');
    });
  });

  describe('the CSV export', () => {
    it("leaves no formula for Excel in locales that split on ';' (a;=1+1)", async () => {
      const tag = `semi${Date.now()}`;
      const o = await order({
        fullName: 'Mary;@SUM(A1)',
        streetAddress: 'Kamakis;=1+1',
        email: `${tag}@example.co.ke`,
      });
      const res = await t
        .http()
        .get(`/api/orders/export.csv?search=${encodeURIComponent(tag)}`)
        .set(bearer(staff.accessToken))
        .expect(200);
      const line = res.text.split('\n').find((l) => l.startsWith(o.purchaseNumber))!;
      expect(line).toContain("Kamakis;'=1+1");
      // Every cell Excel makes of it when it splits on ';' (and on ',') starts as text.
      for (const cell of line.split(/[;,]/)) expect(cell).not.toMatch(/^[\s"]*[=+@]/);
    });

    it('writes the filtered orders as CSV with a dated name, a name like =HYPERLINK(...) made harmless', async () => {
      const evil = '=HYPERLINK("http://evil.example/x","Click me")';
      const tag = `exp${Date.now()}`;
      const bad = await order({ fullName: evil, email: `${tag}.a@example.co.ke` });
      const plain = await order(
        { fullName: 'Wambui Njeri', email: `${tag}.b@example.co.ke`, phoneNumber: '0711000222' },
        2,
      );
      await pay(plain);
      await order({ fullName: 'Not In This Export' });
      const res = await t
        .http()
        .get(
          `/api/orders/export.csv?search=${encodeURIComponent(tag)}&sortBy=orderDate&sortOrder=asc`,
        )
        .set(bearer(staff.accessToken))
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const today = shopDay(new Date());
      expect(res.headers['content-disposition']).toBe(`attachment; filename="orders-${today}.csv"`);
      const lines = res.text.trimEnd().split('\n');
      expect(lines[0]).toBe(
        'Purchase number,Order date (Nairobi),Customer,Phone,E-mail,County,Sub-county,Ward,Street address,Products,Items,Subtotal (KES),Delivery (KES),Total (KES),Deposit (KES),Balance (KES),Payment status,Payment method,Transaction code,Paid at (Nairobi),Order status,Fulfillment status',
      );
      expect(lines).toHaveLength(3);
      // The formula is quoted text starting with an apostrophe; quotes are doubled.
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example/x"",""Click me"")"`);
      expect(lines[1]!.startsWith(`${bad.purchaseNumber},`)).toBe(true);
      expect(lines[1]).toMatch(/,Pending,,,,Pending,Unfulfilled$/);
      expect(lines[2]).toContain(`${plain.purchaseNumber},${today}`);
      expect(lines[2]).toContain(
        `Wambui Njeri,0711000222,${tag}.b@example.co.ke,Kiambu,Ruiru,Gitothua,"Kamakis, near the stage",`,
      );
      expect(lines[2]).toMatch(
        new RegExp(` x 2"?,2,${2 * price},0,${2 * price},,,Paid,Cash,,\\d{4}-`),
      );
      expect(lines[2]).toMatch(/,Processing,Unfulfilled$/);
      expect(res.text).not.toContain('Not In This Export');

      // A date range names the file by its days; the admin may export too.
      const ranged = await t
        .http()
        .get(`/api/orders/export.csv?from=${today}&to=${today}&queue=toConfirmPayment`)
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(ranged.headers['content-disposition']).toBe(
        `attachment; filename="orders-${today}_to_${today}.csv"`,
      );
      expect(ranged.text).toContain(bad.purchaseNumber);
      expect(ranged.text).not.toContain(plain.purchaseNumber);
    });

    it('is for staff and admin only, and takes the list filters by their rules', async () => {
      await t.http().get('/api/orders/export.csv').expect(401);
      await t.http().get('/api/orders/export.csv').set(bearer(customer.accessToken)).expect(403);
      const bad = await t
        .http()
        .get('/api/orders/export.csv?from=2026-02-31')
        .set(bearer(staff.accessToken))
        .expect(400);
      expect(bad.body.message).toContain('from must be a date');
    });
  });
});
