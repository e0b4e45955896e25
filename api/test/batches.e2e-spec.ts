/**
 * Batches of seedlings still growing and the bookings placed against them, on the real database:
 * a batch is never booked past what it holds (200 shoppers at once for 50 seedlings), bad bookings
 * and batch steps are refused with a clear message and change nothing, losses/ready/fail move
 * seedlings through the stock ledger so it sums to the stock and to each batch, and a booking
 * undone after a crash, cancelled or expired gives its seedlings back to the batch.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { BatchDeskService } from '../src/batches/batch-desk.service';
import { BatchesRepository } from '../src/batches/batches.repository';
import { BatchesService } from '../src/batches/batches.service';
import { OrderExpiry } from '../src/orders/order-expiry.service';
import { OrderPlacementService } from '../src/orders/order-placement.service';
import { addDays, shopDay } from '../src/common/shop-clock';
import type request from 'supertest';
import { BATCH_ROUTES, PUBLIC_BATCH_ROUTES } from './support/batches';
import { bearer, registerCustomer, UNTHROTTLED } from './support/identity';
import { guest, stockOf } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

interface Batch {
  _id: string;
  productId: string;
  sownOn: string;
  readyOn: string;
  started: number;
  lost: number;
  booked: number;
  available: number;
  quantity: number;
  status: string;
  bookings: { orderId: string; purchaseNumber: string; seedlings: number; state: string }[];
}

const today = () => shopDay(new Date());

describe('batches and bookings', () => {
  let t: TestApp;
  let world: ShopWorld;

  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const staff = () => bearer(world.staff.accessToken);
  const newBatch = async (productId: string, started: number, readyIn: number | string = 60) => {
    const res = await t
      .http()
      .post('/api/batches')
      .set(staff())
      .send({
        productId,
        sownOn: addDays(today(), -10),
        readyOn: typeof readyIn === 'string' ? readyIn : addDays(today(), readyIn),
        started,
        note: 'Tunnel 3',
      })
      .expect(201);
    return res.body.batch as Batch;
  };
  const batchOf = async (id: string) =>
    (await t.http().get(`/api/batches/${id}`).set(staff()).expect(200)).body.batch as Batch;
  const book = (
    lines: { _id: string; quantity: number; batchId?: string; unitId?: string }[],
    guestInfo: object = guest(),
  ) => t.http().post('/api/orders').send({ guestInfo, products: lines });
  const orderOf = async (id: string) =>
    (await t.http().get(`/api/orders/${id}`).set(staff()).expect(200)).body.order;
  /** The batch's ledger (`batch:<id>` in the stock ledger) sums to what it holds. */
  const batchLedger = async (id: string) => {
    const rows = await db()
      .collection('stock_movements')
      .find({ productId: `batch:${id}` })
      .sort({ seq: 1 })
      .toArray();
    return rows as unknown as { reason: string; change: number; seq: number }[];
  };
  const expectBalanced = async () => {
    const check = await checkStockLedger(db());
    expect(check.differences).toEqual([]);
    expect(check.overbooked).toEqual([]);
  };

  beforeAll(async () => {
    t = await createTestApp({
      name: 'batches',
      env: { ...UNTHROTTLED, ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '1000000' },
    });
    await t.app.get(OrderPlacementService).startup;
    world = await createShopWorld(t, { product: { quantity: 40, price: 150 } });
  });
  afterAll(() => t.close());

  it('makes a batch with its sowing on the ledger, and refuses bad ones changing nothing', async () => {
    const before = await db().collection('batches').countDocuments();
    const bad: [object, number, string][] = [
      [
        { sownOn: '2027-03-10', readyOn: '2027-03-01', started: 10 },
        400,
        'The ready date cannot be before the sowing date',
      ],
      [{ sownOn: '2027-01-10', readyOn: '2027-03-01', started: 0 }, 400, 'seedlings started'],
      [{ sownOn: '2027-02-30', readyOn: '2027-03-01', started: 5 }, 400, 'sownOn must be a day'],
      [
        {
          sownOn: '2027-01-10',
          readyOn: '2027-03-01',
          started: 5,
          productId: '665f1c2b9d3e4a0012345678',
        },
        404,
        'Product not found',
      ],
    ];
    for (const [body, status, message] of bad) {
      const res = await t
        .http()
        .post('/api/batches')
        .set(staff())
        .send({ productId: world.productId, ...body })
        .expect(status);
      expect(JSON.stringify(res.body.message)).toContain(message);
    }
    await t
      .http()
      .post('/api/batches')
      .send({ productId: world.productId, sownOn: '2027-01-10', readyOn: '2027-03-01', started: 5 })
      .expect(401);
    expect(await db().collection('batches').countDocuments()).toBe(before);

    const batch = await newBatch(world.productId, 120);
    expect(batch).toEqual(
      expect.objectContaining({ started: 120, lost: 0, booked: 0, available: 120, quantity: 120 }),
    );
    expect(batch.status).toBe('Growing');
    expect(await batchLedger(batch._id)).toEqual([
      expect.objectContaining({ reason: 'sown', change: 120, seq: 1 }),
    ]);
    const audit = await db().collection('audit_logs').findOne({ action: 'batch.create' });
    expect(audit?.target).toEqual(expect.objectContaining({ type: 'batch', id: batch._id }));

    // Only a growing batch's ready date may change, never to before its sowing.
    await t
      .http()
      .patch(`/api/batches/${batch._id}`)
      .set(staff())
      .send({ readyOn: addDays(today(), -30) })
      .expect(400);
    const moved = await t
      .http()
      .patch(`/api/batches/${batch._id}`)
      .set(staff())
      .send({ readyOn: addDays(today(), 70) })
      .expect(200);
    expect(moved.body.batch.readyOn).toBe(addDays(today(), 70));
    await expectBalanced();
  });

  it('books exactly 50 of a batch of 50 when 200 shoppers book at once', async () => {
    const product = await world.createProduct({ quantity: 0, price: 200, name: 'Hass avocado' });
    const batch = await newBatch(product._id, 50);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        book([{ _id: product._id, quantity: 1, batchId: batch._id }]),
      ),
    );
    const placed = answers.filter((r) => r.status === 201);
    expect(answers.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.body)).toEqual(
      [],
    );
    expect(placed).toHaveLength(50);
    for (const refused of answers.filter((r) => r.status === 409))
      expect(refused.body.message).toBe('Only 0 seedlings left to book in this batch');

    const order = placed[0]!.body.order;
    expect(order.booking).toEqual(
      expect.objectContaining({
        batchId: batch._id,
        productName: 'Hass avocado',
        readyOn: batch.readyOn,
        depositPercent: 30,
        deposit: Math.round((order.totalAmount * 30) / 100),
        balance: order.totalAmount - Math.round((order.totalAmount * 30) / 100),
        state: 'Deposit due',
      }),
    );
    const after = await batchOf(batch._id);
    expect(after).toEqual(
      expect.objectContaining({ booked: 50, available: 0, status: 'Sold out' }),
    );
    expect(after.bookings).toHaveLength(50);
    // Ready stock is untouched: bookings hold against the batch.
    expect(await stockOf(t, product._id)).toBe(0);
    const bookable = await t
      .http()
      .get(`/api/bookable-batches?productId=${product._id}`)
      .expect(200);
    expect(bookable.body.batches).toEqual([]);
    await expectBalanced();
  }, 300_000);

  it('books trays: the unit’s seedlings are held, its prices and deposit apply', async () => {
    const trays = await world.createProduct({
      quantity: 0,
      price: 40,
      fields: {
        units: JSON.stringify([
          { name: 'Single seedling', seedlings: 1 },
          { name: 'Tray of 50', seedlings: 50, price: 1500 },
        ]),
      },
    });
    const tray = (trays as unknown as { units: { _id: string; seedlings: number }[] }).units.find(
      (u) => u.seedlings === 50,
    )!;
    const batch = await newBatch(trays._id, 120);
    const line = (quantity: number) => ({
      _id: trays._id,
      unitId: tray._id,
      quantity,
      batchId: batch._id,
    });
    const placed = (await book([line(2)]).expect(201)).body.order;
    expect(placed.subtotal).toBe(3000);
    expect(placed.booking.deposit).toBe(Math.round((placed.totalAmount * 30) / 100));
    expect(await batchOf(batch._id)).toEqual(
      expect.objectContaining({ booked: 100, available: 20 }),
    );
    const refused = await book([line(1)]).expect(409);
    expect(refused.body.message).toBe('Only 20 seedlings left to book in this batch');
    await expectBalanced();
  });

  it('refuses bad bookings with a clear message, changing nothing', async () => {
    const product = await world.createProduct({ quantity: 30, price: 100 });
    const other = await world.createProduct({ quantity: 30, price: 100 });
    const batch = await newBatch(product._id, 20);
    const second = await newBatch(product._id, 20, 90);
    const otherBatch = await newBatch(other._id, 20);
    const failed = await newBatch(product._id, 20);
    await t
      .http()
      .post(`/api/batches/${failed._id}/fail`)
      .set(staff())
      .send({ note: 'hail' })
      .expect(201);
    const due = await newBatch(product._id, 20, 0); // ready today: no longer bookable
    const ordersBefore = await db().collection('orders').countDocuments();
    const oneBatch =
      'A booking holds seedlings of one batch: order ready-now seedlings and other batches separately';
    const cases: [object[], number, string][] = [
      [
        [
          { _id: product._id, quantity: 1, batchId: batch._id },
          { _id: other._id, quantity: 1 },
        ],
        400,
        oneBatch,
      ],
      [
        [
          { _id: product._id, quantity: 1, batchId: batch._id },
          { _id: product._id, quantity: 1, batchId: second._id },
        ],
        400,
        oneBatch,
      ],
      [
        [{ _id: product._id, quantity: 21, batchId: batch._id }],
        409,
        'Only 20 seedlings left to book in this batch',
      ],
      [[{ _id: product._id, quantity: 1, batchId: failed._id }], 409, 'This batch failed'],
      [
        [{ _id: product._id, quantity: 1, batchId: due._id }],
        400,
        'This batch is ready: order its seedlings as ready stock',
      ],
      [
        [{ _id: product._id, quantity: 1, batchId: otherBatch._id }],
        400,
        'This batch is not a batch of this product',
      ],
      [[{ _id: product._id, quantity: 1, batchId: 'nope' }], 400, 'batchId must be the id'],
    ];
    for (const [lines, status, message] of cases) {
      const res = await book(lines as never).expect(status);
      expect(JSON.stringify(res.body.message)).toContain(message);
    }
    expect(await db().collection('orders').countDocuments()).toBe(ordersBefore);
    expect(await batchOf(batch._id)).toEqual(expect.objectContaining({ booked: 0, available: 20 }));
    expect(await stockOf(t, product._id)).toBe(30);
    // A ready batch cannot be made ready or failed again; a failed one neither.
    await t.http().post(`/api/batches/${failed._id}/ready`).set(staff()).expect(409);
    await t
      .http()
      .post(`/api/batches/${failed._id}/fail`)
      .set(staff())
      .send({ note: 'x' })
      .expect(409);
    await expectBalanced();
  });

  it("refuses a loss whose reason is null or not one of the form's, changing nothing (fuzz)", async () => {
    const product = await world.createProduct({ quantity: 5, price: 100 });
    const batch = await newBatch(product._id, 100);
    for (const reason of [null, 'stolen', 7, '']) {
      const res = await t
        .http()
        .post(`/api/batches/${batch._id}/losses`)
        .set(staff())
        .send({ quantity: 20, note: 'damping off', reason });
      expect({ reason, status: res.status }).toEqual({ reason, status: 400 });
    }
    const res = await t.http().get(`/api/batches/${batch._id}`).set(staff()).expect(200);
    expect(res.body.batch ?? res.body).toEqual(expect.objectContaining({ lost: 0, quantity: 100 }));
    await expectBalanced();
  });

  it('moves seedlings through the ledger on losses, ready and fail, summing to stock and to each batch', async () => {
    const product = await world.createProduct({ quantity: 5, price: 100 });
    const batch = await newBatch(product._id, 100);
    const first = (await book([{ _id: product._id, quantity: 20, batchId: batch._id }]).expect(201))
      .body.order;
    const second = (
      await book([{ _id: product._id, quantity: 10, batchId: batch._id }]).expect(201)
    ).body.order;

    const lossOf = (id: string, quantity: number) =>
      t
        .http()
        .post(`/api/batches/${id}/losses`)
        .set(staff())
        .send({ quantity, note: 'damping off' });
    expect((await lossOf(batch._id, 10).expect(201)).body.batch).toEqual(
      expect.objectContaining({ lost: 10, quantity: 90, booked: 30, available: 60 }),
    );
    const tooMuch = await lossOf(batch._id, 91).expect(409);
    expect(tooMuch.body.message).toBe(
      'Only 90 seedlings are in this batch: a loss cannot take it below 0',
    );
    // 75 more lost: 15 left for 30 booked. The earliest booking (20) no longer fits, so it and
    // every later one are affected.
    await lossOf(batch._id, 75).expect(201);
    expect((await orderOf(first._id)).booking).toEqual(
      expect.objectContaining({ state: 'Affected', problem: 'short' }),
    );
    expect((await orderOf(second._id)).booking.state).toBe('Affected');
    // Not ready while its affected bookings still hold more than it has.
    const short = await t.http().post(`/api/batches/${batch._id}/ready`).set(staff()).expect(409);
    expect(short.body.message).toBe(
      '30 seedlings are booked but the batch holds 15: move or refund the affected bookings first',
    );
    await expectBalanced();

    // Ready: what no booking holds goes into ready stock; the bookings' seedlings stay.
    const grow = await newBatch(product._id, 50);
    await book([{ _id: product._id, quantity: 8, batchId: grow._id }]).expect(201);
    const ready = await t.http().post(`/api/batches/${grow._id}/ready`).set(staff()).expect(201);
    expect(ready.body.batch).toEqual(
      expect.objectContaining({ status: 'Ready', quantity: 8, booked: 8, available: 0 }),
    );
    expect(await stockOf(t, product._id)).toBe(5 + 42);
    await t.http().post(`/api/batches/${grow._id}/ready`).set(staff()).expect(409);
    expect(await stockOf(t, product._id)).toBe(5 + 42);
    expect((await batchLedger(grow._id)).map((m) => [m.reason, m.change])).toEqual([
      ['sown', 50],
      ['batch-ready', -42],
    ]);
    const productMoves = await db()
      .collection('stock_movements')
      .find({ productId: product._id, reason: 'batch-ready' })
      .toArray();
    expect(productMoves.map((m) => m.change)).toEqual([42]);
    // A ready batch is no longer bookable.
    const late = await book([{ _id: product._id, quantity: 1, batchId: grow._id }]).expect(400);
    expect(late.body.message).toBe('This batch is ready: order its seedlings as ready stock');

    // Fail: everything the batch holds is lost; its bookings are affected.
    const doomed = await newBatch(product._id, 30);
    const hit = (await book([{ _id: product._id, quantity: 4, batchId: doomed._id }]).expect(201))
      .body.order;
    const failed = await t
      .http()
      .post(`/api/batches/${doomed._id}/fail`)
      .set(staff())
      .send({ note: 'hail' })
      .expect(201);
    expect(failed.body.batch).toEqual(
      expect.objectContaining({ status: 'Failed', quantity: 0, available: 0 }),
    );
    expect((await orderOf(hit._id)).booking).toEqual(
      expect.objectContaining({ state: 'Affected', problem: 'failed' }),
    );
    expect((await batchLedger(doomed._id)).map((m) => [m.reason, m.change])).toEqual([
      ['sown', 30],
      ['died', -30],
    ]);
    const actions = await db()
      .collection('audit_logs')
      .find({ 'target.id': { $in: [batch._id, grow._id, doomed._id] } })
      .toArray();
    expect(new Set(actions.map((a) => a.action))).toEqual(
      new Set(['batch.create', 'batch.loss', 'batch.ready', 'batch.fail']),
    );
    await expectBalanced();
  });

  it('gives the hold back when a placement is undone after a crash', async () => {
    const product = await world.createProduct({ quantity: 0, price: 100 });
    const batch = await newBatch(product._id, 10);
    const orderId = new Types.ObjectId();
    // What a crash between "seedlings held" and "order placed" leaves behind.
    await db()
      .collection('orders')
      .insertOne({
        _id: orderId,
        purchaseNumber: 'SPDCRASHB32',
        placedBy: null,
        guestInfo: guest(),
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
        placement: 'reserving',
        ledgerSettled: false,
        stockReturn: 'none',
        booking: {
          batchId: batch._id,
          productName: product.productName,
          readyOn: batch.readyOn,
          depositPercent: 30,
          deposit: 90,
          balance: 210,
          state: 'Deposit due',
        },
        createdAt: new Date(Date.now() - 5000),
        updatedAt: new Date(Date.now() - 5000),
      });
    await t.app.get(BatchesService).hold(batch._id, product._id, orderId.toString(), 3);
    expect(await batchOf(batch._id)).toEqual(expect.objectContaining({ booked: 3, available: 7 }));

    await t.app.get(OrderPlacementService).reconcile({ olderThanMs: 1000 });
    expect(await batchOf(batch._id)).toEqual(expect.objectContaining({ booked: 0, available: 10 }));
    expect(await db().collection('orders').countDocuments({ _id: orderId })).toBe(0);
    await t.app.get(OrderPlacementService).reconcile({ olderThanMs: 1000 });
    expect(await batchOf(batch._id)).toEqual(expect.objectContaining({ booked: 0, available: 10 }));
    await expectBalanced();
  });

  it('finishes a ready batch a crash cut off before its seedlings reached ready stock, once', async () => {
    const product = await world.createProduct({ quantity: 2, price: 100 });
    const batch = await newBatch(product._id, 12);
    await book([{ _id: product._id, quantity: 5, batchId: batch._id }]).expect(201);
    // Killed after the batch became Ready (its movement written inside it, not yet copied) and
    // before the product got the seedlings:
    const repository = t.app.get(BatchesRepository);
    const ready = await repository.markReady(batch._id, { reason: 'batch-ready' });
    expect(ready).toEqual(expect.objectContaining({ status: 'Ready', readyStock: 'pending' }));
    await db()
      .collection('batches')
      .updateOne(
        { _id: new Types.ObjectId(batch._id) },
        { $set: { 'pendingMovements.$[].at': new Date(Date.now() - 60_000) } },
      );
    expect(await stockOf(t, product._id)).toBe(2);

    // The reconciler (this call, or its timer's pass running beside it) moves them, once.
    const batches = t.app.get(BatchesService);
    for (let i = 0; i < 50 && (await stockOf(t, product._id)) === 2; i++) {
      await batches.reconcile();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await batches.reconcile();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await stockOf(t, product._id)).toBe(2 + 7);
    expect(await batchOf(batch._id)).toEqual(
      expect.objectContaining({ status: 'Ready', quantity: 5, booked: 5 }),
    );
    expect((await batchLedger(batch._id)).map((m) => [m.reason, m.change])).toEqual([
      ['sown', 12],
      ['batch-ready', -7],
    ]);
    await expectBalanced();
  });

  it('tells the bookings of a batch step a crash cut off before they heard of it', async () => {
    const product = await world.createProduct({ quantity: 0, price: 100 });
    const batch = await newBatch(product._id, 10);
    const order = (await book([{ _id: product._id, quantity: 2, batchId: batch._id }]).expect(201))
      .body.order;
    // Killed after the batch failed (in one update with "bookings to be told") and before the
    // bookings' life heard of it:
    await t.app
      .get(BatchesService)
      .markFailed(
        { id: world.staff.user._id, role: 'staff', fullName: world.staff.user.fullName },
        batch._id,
        'hail',
      );
    expect((await orderOf(order._id)).booking.state).toBe('Deposit due');

    const desk = t.app.get(BatchDeskService);
    await desk.tellUntold(0);
    expect((await orderOf(order._id)).booking).toEqual(
      expect.objectContaining({ state: 'Affected', problem: 'failed' }),
    );
    const stored = await db()
      .collection('batches')
      .findOne({ _id: new Types.ObjectId(batch._id) });
    expect(stored?.pendingTell).toBeNull();
  });

  it('lists batches by ready date with booked against available, filtered by status', async () => {
    const product = await world.createProduct({ quantity: 0, price: 100 });
    const later = await newBatch(product._id, 5, 80);
    const sooner = await newBatch(product._id, 8, 40);
    await book([{ _id: product._id, quantity: 5, batchId: later._id }]).expect(201);
    await book([{ _id: product._id, quantity: 3, batchId: sooner._id }]).expect(201);
    const list = async (query: string) =>
      (await t.http().get(`/api/batches?productId=${product._id}${query}`).set(staff()).expect(200))
        .body;
    const all = await list('');
    expect(all.total).toBe(2);
    expect(
      all.items.map((b: Batch & { bookings: number }) => [
        b._id,
        b.booked,
        b.available,
        b.bookings,
      ]),
    ).toEqual([
      [sooner._id, 3, 5, 1],
      [later._id, 5, 0, 1],
    ]);
    expect(all.items[1].status).toBe('Sold out');
    const soldOut = await list('&status=Sold%20out');
    expect(soldOut.items.map((b: Batch) => b._id)).toEqual([later._id]);
    const growing = await list('&status=Growing');
    expect(growing.items.map((b: Batch) => b._id)).toEqual([sooner._id]);
    const window = await list(`&readyTo=${addDays(today(), 50)}`);
    expect(window.items.map((b: Batch) => b._id)).toEqual([sooner._id]);
    await t.http().get('/api/batches?status=Sprouting').set(staff()).expect(400);
    const detail = await batchOf(later._id);
    expect(detail.bookings).toEqual([
      expect.objectContaining({ seedlings: 5, state: 'Deposit due', customer: 'Achieng Otieno' }),
    ]);
  });

  it('returns a cancelled or expired deposit-due booking’s seedlings to its batch, once', async () => {
    const product = await world.createProduct({ quantity: 0, price: 100 });
    const batch = await newBatch(product._id, 10);
    const cancelled = (
      await book([{ _id: product._id, quantity: 4, batchId: batch._id }]).expect(201)
    ).body.order;
    const expiring = (
      await book([{ _id: product._id, quantity: 5, batchId: batch._id }]).expect(201)
    ).body.order;
    expect((await batchOf(batch._id)).available).toBe(1);

    await t.http().patch(`/api/orders/cancel/${cancelled._id}`).set(staff()).send({}).expect(200);
    expect(await batchOf(batch._id)).toEqual(expect.objectContaining({ booked: 5, available: 5 }));
    await t.http().patch(`/api/orders/cancel/${cancelled._id}`).set(staff()).send({});
    expect((await batchOf(batch._id)).available).toBe(5);

    // Expiry: the unpaid deposit is older than UNPAID_ORDER_EXPIRY_HOURS (24 by default).
    const expired = await t.app
      .get(OrderExpiry)
      .expireUnpaid(new Date(Date.now() + 25 * 3_600_000));
    expect(expired).toBeGreaterThanOrEqual(1);
    expect((await orderOf(expiring._id)).orderStatus).toBe('Cancelled');
    expect(await batchOf(batch._id)).toEqual(expect.objectContaining({ booked: 0, available: 10 }));
    // What a ready batch held for an expired deposit goes into ready stock.
    const ripe = await newBatch(product._id, 10);
    const late = (await book([{ _id: product._id, quantity: 2, batchId: ripe._id }]).expect(201))
      .body.order;
    await t.http().post(`/api/batches/${ripe._id}/ready`).set(staff()).expect(201);
    expect(await stockOf(t, product._id)).toBe(8);
    await t.http().patch(`/api/orders/cancel/${late._id}`).set(staff()).send({}).expect(200);
    expect(await stockOf(t, product._id)).toBe(10);
    expect(await batchOf(ripe._id)).toEqual(expect.objectContaining({ quantity: 0, booked: 0 }));
    await expectBalanced();
  });

  it('shows each product’s bookable batches and filters the list by availability', async () => {
    const seasons = (await t.http().get('/api/bookings/settings').expect(200)).body.seasons as {
      key: string;
      from: string;
      to: string;
    }[];
    // A ready day inside the coming season, after today.
    const inSeason = (key: string) => {
      const s = seasons.find((x) => x.key === key)!;
      return s.from > today() ? s.from : addDays(today(), 1);
    };
    const longRains = await world.createProduct({ quantity: 0, name: 'Grevillea long rains' });
    const shortRains = await world.createProduct({ quantity: 0, name: 'Cypress short rains' });
    const readyNow = await world.createProduct({ quantity: 5, name: 'Kei apple ready now' });
    const batch = await newBatch(longRains._id, 6, inSeason('long-rains'));
    await newBatch(shortRains._id, 6, inSeason('short-rains'));

    const page = async (query: string) =>
      (
        (await t.http().get(`/api/products?limit=100&${query}`).expect(200)).body.products as {
          _id: string;
        }[]
      ).map((p) => p._id);
    const shown = (await t.http().get(`/api/products/${longRains._id}`).expect(200)).body.product;
    expect(shown.batches).toEqual([{ _id: batch._id, readyOn: batch.readyOn, available: 6 }]);
    const long = await page('availability=long-rains');
    expect(long).toContain(longRains._id);
    expect(long).not.toContain(readyNow._id);
    const now = await page('availability=now');
    expect(now).toContain(readyNow._id);
    expect(now).not.toContain(longRains._id);
    expect(await page('availability=short-rains')).toContain(shortRains._id);
    const bad = await t.http().get('/api/products?availability=someday').expect(400);
    expect(JSON.stringify(bad.body.message)).toContain('availability must be one of');

    // Booked out: no longer bookable, no longer in the season's list.
    await book([{ _id: longRains._id, quantity: 6, batchId: batch._id }]).expect(201);
    expect(
      (await t.http().get(`/api/products/${longRains._id}`).expect(200)).body.product.batches,
    ).toEqual([]);
    expect(await page('availability=long-rains')).not.toContain(longRains._id);
  });

  it('lets only staff and admins work on batches, and anyone read what is bookable', async () => {
    const customer = await registerCustomer(t);
    const product = await world.createProduct({ quantity: 0 });
    const bodies: Record<(typeof BATCH_ROUTES)[number], object | undefined> = {
      'GET /api/batches': undefined,
      'POST /api/batches': {
        productId: product._id,
        sownOn: today(),
        readyOn: addDays(today(), 30),
        started: 10,
      },
      'GET /api/batches/{id}': undefined,
      'PATCH /api/batches/{id}': { note: 'moved to tunnel 4' },
      'POST /api/batches/{id}/losses': { quantity: 1, note: 'slug' },
      'POST /api/batches/{id}/ready': undefined,
      'POST /api/batches/{id}/fail': { note: 'hail' },
    };
    const call = async (route: (typeof BATCH_ROUTES)[number], token?: string) => {
      const [method, template] = route.split(' ') as [string, string];
      // A fresh batch each call: ready and fail happen once.
      const url = template.replace('{id}', (await newBatch(product._id, 10))._id);
      const http = t.http() as unknown as Record<string, (u: string) => request.Test>;
      const req = http[method.toLowerCase()]!(url);
      if (token) req.set(bearer(token));
      const body = bodies[route];
      return body ? req.send(body) : req;
    };
    for (const route of BATCH_ROUTES) {
      expect({ route, status: (await call(route)).status }).toEqual({ route, status: 401 });
      expect({ route, status: (await call(route, customer.accessToken)).status }).toEqual({
        route,
        status: 403,
      });
      for (const token of [world.staff.accessToken, world.admin.accessToken]) {
        const res = await call(route, token);
        expect({ route, status: res.status < 300 }).toEqual({ route, status: true });
      }
    }
    for (const route of PUBLIC_BATCH_ROUTES) await t.http().get(route.split(' ')[1]!).expect(200);
  });

  it('answers the booking settings and the seasons to come', async () => {
    const res = await t.http().get('/api/bookings/settings').expect(200);
    expect(res.body).toEqual(expect.objectContaining({ depositPercent: 30, balanceDays: 7 }));
    const [long, short] = res.body.seasons;
    expect(long).toEqual(expect.objectContaining({ key: 'long-rains', name: 'Long rains' }));
    expect(long.from.slice(5)).toBe('03-01');
    expect(long.to >= today()).toBe(true);
    expect(short).toEqual(expect.objectContaining({ key: 'short-rains', name: 'Short rains' }));
    expect(short.to.slice(5)).toBe('12-31');
  });
});
