/**
 * Every sweep is claimed: two API instances (two Nest applications in this process, on one
 * database, writing e-mail to one outbox folder, texting through one gateway) run the same sweep at
 * the same moment, and each unit of work (a customer's notice, an interrupted placement's undo, an
 * interrupted stock return) is done, logged and sent once.
 */
import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { BatchesService } from '../src/batches/batches.service';
import { BookingLifeService } from '../src/bookings/booking-life.service';
import { InventoryService } from '../src/inventory/inventory.service';
import { OrderBookings } from '../src/bookings/booking-orders';
import { OrderReconciler } from '../src/orders/order-reconciler';
import { OrderStock } from '../src/orders/order-stock';
import { addDays, shopDay } from '../src/common/shop-clock';
import { bearer } from './support/identity';
import { decoded, outbox } from './support/mail';
import { DELIVERY, guest, placeOrder } from './support/shop';
import type { ShopWorld } from './support/shop-world';
import type { TestApp } from './support/test-app';
import { startTwoInstances, type TwoInstances } from './support/two-instances';
import { sleep, waitFor } from './support/wait';

interface Booking {
  _id: string;
  purchaseNumber: string;
  booking: { deposit: number };
  guestInfo: { phoneNumber: string; email: string };
}

describe('two API instances run the same sweep at once: each unit of work is done once', () => {
  let two: TwoInstances;
  let dataDir: string;
  let a: TestApp;
  let b: TestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    two = await startTwoInstances('two_sweeps');
    ({ a, b, world, dataDir } = two);
  }, 90_000);
  afterAll(() => two?.close());

  const db = () => a.app.get<Connection>(getConnectionToken()).db!;
  const inDays = (n: number) => addDays(shopDay(new Date()), n);
  const productQuantity = async (id: string) =>
    (await db()
      .collection('products')
      .findOne({ _id: new Types.ObjectId(id) }))!.productQuantity as number;

  it("20 bookings owed their 'balance due' notice, swept by both instances at once: one e-mail and one SMS each", async () => {
    const staff = bearer(world.staff.accessToken);
    const batch = (
      await a
        .http()
        .post('/api/batches')
        .set(staff)
        .send({
          productId: world.productId,
          sownOn: inDays(-10),
          readyOn: inDays(60),
          started: 500,
        })
        .expect(201)
    ).body.batch as { _id: string };
    const bookings: Booking[] = [];
    for (let i = 0; i < 20; i++) {
      const placed = await placeOrder(
        a,
        [{ _id: world.productId, quantity: 2, batchId: batch._id } as never],
        { guestInfo: guest() },
      ).expect(201);
      const o = placed.body.order as Booking;
      await a
        .http()
        .post(`/api/orders/${o._id}/booking/deposit`)
        .set(staff)
        .send({
          transactionCode: `SWP${randomBytes(4).toString('hex').toUpperCase()}`,
          amount: o.booking.deposit,
        })
        .expect(200);
      bookings.push(o);
    }
    // The batch's ready step moved them all to "Balance due" and stopped before telling anyone
    // (a crash): the notice is owed, and the sweep catches it up.
    await db()
      .collection('orders')
      .updateMany(
        { _id: { $in: bookings.map((o) => new Types.ObjectId(o._id)) } },
        {
          $set: {
            'booking.state': 'Balance due',
            'booking.readyAt': new Date(),
            'booking.balanceDueBy': inDays(7),
            'booking.noticeDue': true,
          },
        },
      );

    await Promise.all([
      a.app.get(BookingLifeService).sweep(),
      b.app.get(BookingLifeService).sweep(),
    ]);

    const balanceMails = (o: Booking) =>
      outbox(dataDir)
        .map(decoded)
        .filter(
          (m) =>
            m.includes(`To: ${o.guestInfo.email}`) &&
            m.includes(`balance due for booking ${o.purchaseNumber}`),
        );
    const msisdn = (o: Booking) => `+254${o.guestInfo.phoneNumber.slice(1)}`;
    const balanceTexts = (o: Booking) =>
      two.sms.outbox.filter(
        (s) => s.to === msisdn(o) && /are ready\. Pay the balance/.test(s.message),
      );
    // Sent promptly; then time for any second copy to arrive.
    await waitFor(
      async () => bookings.every((o) => balanceMails(o).length > 0 && balanceTexts(o).length > 0),
      (all) => all,
      10_000,
      100,
    );
    await sleep(1500);
    const counts = bookings.map((o) => ({
      booking: o.purchaseNumber,
      emails: balanceMails(o).length,
      texts: balanceTexts(o).length,
    }));
    expect(counts).toEqual(
      bookings.map((o) => ({ booking: o.purchaseNumber, emails: 1, texts: 1 })),
    );
    // Nothing is owed any more.
    expect(
      await db()
        .collection('orders')
        .countDocuments({ 'booking.noticeDue': true, 'booking.batchId': batch._id }),
    ).toBe(0);
  });

  it('a move a crash cut off is finished by one of them: the new hold given back once', async () => {
    const staff = bearer(world.staff.accessToken);
    const newBatch = async (readyIn: number) =>
      (
        await a
          .http()
          .post('/api/batches')
          .set(staff)
          .send({
            productId: world.productId,
            sownOn: inDays(-10),
            readyOn: inDays(readyIn),
            started: 10,
          })
          .expect(201)
      ).body.batch as { _id: string };
    const batch = await newBatch(30);
    const next = await newBatch(90);
    const placed = await placeOrder(
      a,
      [{ _id: world.productId, quantity: 2, batchId: batch._id } as never],
      { guestInfo: guest() },
    ).expect(201);
    const o = placed.body.order as Booking;
    await a
      .http()
      .post(`/api/batches/${batch._id}/fail`)
      .set(staff)
      .send({ note: 'frost' })
      .expect(201);
    // What a crash right after taking the new hold leaves: the move claimed, the seedlings held.
    const bookings = a.app.get(OrderBookings);
    expect(await bookings.claimMove((await bookings.find(o._id))!, next._id)).toBe(true);
    await a.app.get(BatchesService).hold(next._id, world.productId, o._id, 2);
    const releases = jest.spyOn(BatchesService.prototype, 'release');
    try {
      const later = new Date(Date.now() + 120_000);
      const finished = await Promise.all([
        a.app.get(BookingLifeService).finishMoves(later),
        b.app.get(BookingLifeService).finishMoves(later),
      ]);
      expect({
        finished: finished[0] + finished[1],
        released: releases.mock.calls.filter(([, orderId]) => orderId === o._id).length,
      }).toEqual({ finished: 1, released: 1 });
    } finally {
      releases.mockRestore();
    }
    const view = await a.http().get(`/api/batches/${next._id}`).set(staff).expect(200);
    expect(view.body.batch.available).toBe(10);
  });

  describe('the order reconcilers', () => {
    let warn: jest.SpyInstance;
    let releases: jest.SpyInstance;
    let returns: jest.SpyInstance;

    beforeEach(() => {
      warn = jest.spyOn(Logger.prototype, 'warn');
      releases = jest.spyOn(OrderStock.prototype, 'releaseAll');
      returns = jest.spyOn(OrderStock.prototype, 'returnStock');
    });
    afterEach(() => jest.restoreAllMocks());

    const reconcileBoth = () =>
      Promise.all([
        a.app.get(OrderReconciler).reconcile({ olderThanMs: 1000 }),
        b.app.get(OrderReconciler).reconcile({ olderThanMs: 1000 }),
      ]);
    const warned = (text: string) =>
      warn.mock.calls.filter(([message]) => String(message).includes(text)).length;

    it('an interrupted undo of a placement is finished by one of them: stock back once, one log line', async () => {
      const product = await world.createProduct({ quantity: 10 });
      const orderId = new Types.ObjectId();
      const purchaseNumber = `SPDUNDO${randomBytes(2).toString('hex').toUpperCase()}`;
      // A placement given up by a reconciler that then crashed: `undoing`, its stock still reserved.
      await db()
        .collection('orders')
        .insertOne({
          _id: orderId,
          purchaseNumber,
          placedBy: null,
          guestInfo: { ...DELIVERY },
          products: [
            {
              productId: product._id,
              productName: product.productName,
              productImage: '',
              unitPrice: 100,
              quantity: 3,
              lineTotal: 300,
            },
          ],
          subtotal: 300,
          shippingFee: 0,
          totalAmount: 300,
          orderStatus: 'Pending',
          paymentStatus: 'Pending',
          fulfillmentStatus: 'Unfulfilled',
          orderDate: new Date(Date.now() - 5000),
          estimatedDeliveryDate: new Date(),
          placement: 'undoing',
          ledgerSettled: false,
          stockReturn: 'none',
          createdAt: new Date(Date.now() - 5000),
          updatedAt: new Date(Date.now() - 5000),
        });
      expect(
        await a.app.get(InventoryService).reserveStock(product._id, orderId.toString(), 3),
      ).toBe(true);
      expect(await productQuantity(product._id)).toBe(7);

      await reconcileBoth();

      expect(await productQuantity(product._id)).toBe(10);
      expect(await db().collection('orders').countDocuments({ _id: orderId })).toBe(0);
      expect({
        undone: releases.mock.calls.filter(([o]) => (o as { _id: string })._id === `${orderId}`)
          .length,
        logged: warned(`Undid the interrupted placement of ${purchaseNumber}`),
      }).toEqual({ undone: 1, logged: 1 });
    });

    it('an interrupted stock return is finished by one of them: each line back once, one log line', async () => {
      const product = await world.createProduct({ quantity: 10 });
      const placed = await placeOrder(a, [{ _id: product._id, quantity: 4 }], {
        guestInfo: guest(),
      }).expect(201);
      const order = placed.body.order as { _id: string; purchaseNumber: string };
      expect(await productQuantity(product._id)).toBe(6);
      // A cancellation cut off before its stock came back.
      await db()
        .collection('orders')
        .updateOne(
          { _id: new Types.ObjectId(order._id) },
          {
            $set: {
              orderStatus: 'Cancelled',
              stockReturn: 'pending',
              updatedAt: new Date(Date.now() - 5000),
            },
          },
        );

      await reconcileBoth();

      expect(await productQuantity(product._id)).toBe(10);
      expect({
        returned: returns.mock.calls.filter(([o]) => (o as { _id: string })._id === order._id)
          .length,
        logged: warned(`Finished the interrupted stock return of ${order.purchaseNumber}`),
      }).toEqual({ returned: 1, logged: 1 });
    });
  });
});
