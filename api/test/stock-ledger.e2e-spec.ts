/**
 * The stock ledger against the real database: every stock change writes exactly one movement in
 * the same atomic update as the stock, so the ledger sums to the stock (also after 100 concurrent
 * orders and their cancellations, and after a crash between a stock change and its copy); losses
 * and counts by staff; low stock and the daily digest; the reconciliation check (`stock:check`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type request from 'supertest';
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { withDatabaseName } from '../../tools/db/launcher';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { LowStockDigest } from '../src/inventory/low-stock.digest';
import { stockUpdate } from '../src/inventory/stock-ledger';
import { StockLedgerReconciler } from '../src/inventory/stock-ledger.reconciler';
import {
  createCategory,
  createProduct,
  putProduct,
  tempUploadsDir,
  type ProductBody,
} from './support/factories';
import {
  bearer,
  createStaff,
  registerCustomer,
  signInAdmin,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { DELIVERY, placeOrder, stockOf } from './support/shop';
import { STOCK_ROUTES } from './support/stock';
import { createTestApp, serverUri, type TestApp } from './support/test-app';

interface Movement {
  _id: string;
  seq: number;
  reason: string;
  change: number;
  quantityAfter: number;
  note: string;
  by: { id: string; fullName: string; role: string } | null;
  orderId: string | null;
  purchaseNumber: string | null;
  at: string;
}

const WORKSPACE = path.resolve(__dirname, '../..');

describe('stock ledger', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let customer: Session;
  let categoryId: string;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'spc-ledger-'));

  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const product = (overrides: Record<string, string | number | boolean> = {}) =>
    createProduct(t, admin.accessToken, categoryId, overrides);
  const page = async (id: string, query = '') =>
    (
      await t
        .http()
        .get(`/api/stock/products/${id}/movements${query}`)
        .set(bearer(staff.accessToken))
        .expect(200)
    ).body as {
      movements: Movement[];
      total: number;
      totalPages: number;
      stock: { level: string };
    };
  /** Every movement of a product, oldest first. */
  const ledgerOf = async (id: string): Promise<Movement[]> => {
    const all: Movement[] = [];
    for (let n = 1; ; n += 1) {
      const body = await page(id, `?limit=100&page=${n}`);
      all.push(...body.movements);
      if (n >= body.totalPages) break;
    }
    return all.reverse();
  };
  /** The ledger sums to the stock, and each movement's quantity after is the running sum. */
  const expectBalanced = async (id: string) => {
    const ledger = await ledgerOf(id);
    let running = 0;
    for (const m of ledger) {
      running += m.change;
      expect({ seq: m.seq, quantityAfter: m.quantityAfter }).toEqual({
        seq: m.seq,
        quantityAfter: running,
      });
    }
    expect(running).toBe(await stockOf(t, id));
    return ledger;
  };
  const loss = (id: string, body: object, token = staff.accessToken) =>
    t.http().post(`/api/stock/products/${id}/losses`).set(bearer(token)).send(body);
  const count = (id: string, body: object, token = staff.accessToken) =>
    t.http().post(`/api/stock/products/${id}/counts`).set(bearer(token)).send(body);

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({
      name: 'stock_ledger',
      env: {
        ...UNTHROTTLED,
        UPLOADS_DIR: uploads.dir,
        DATA_DIR: dataDir,
        LOW_STOCK_THRESHOLD: '5',
        // 100 placements at once on a loaded CI machine: none is undone as abandoned meanwhile.
        ORDER_RECONCILE_AFTER_MS: '300000',
      },
    });
    await t.app.get(StockLedgerReconciler).startup;
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken, { fullName: 'Peter Mwangi' });
    customer = await registerCustomer(t);
    categoryId = (await createCategory(t, admin.accessToken, { name: 'Fruit trees' }))._id;
  });
  afterAll(async () => {
    await t.close();
    await uploads.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends no low-stock digest while nothing is low, and one a day (to staff) once something is', async () => {
    const digest = t.app.get(LowStockDigest);
    // 08:00 in Nairobi, after the default hour (07:00).
    const morning = new Date('2026-03-02T05:00:00Z');
    expect(await digest.sendIfDue(morning)).toBe(0);
    const low = await product({ productName: 'Digest Avocado Hass', productQuantity: 2 });
    // 06:00 in Nairobi: not yet.
    expect(await digest.sendIfDue(new Date('2026-03-02T03:00:00Z'))).toBe(0);
    expect(await digest.sendIfDue(morning)).toBe(2); // the admin and Peter
    expect(await digest.sendIfDue(morning)).toBe(0); // the day is claimed: never twice
    const outbox = path.join(dataDir, 'outbox');
    const mails = readdirSync(outbox).map((f) => readFileSync(path.join(outbox, f), 'utf8'));
    const digests = mails.filter((m) => m.includes('Subject: Low stock on 2026-03-02'));
    expect(digests).toHaveLength(2);
    expect(digests[0]).toContain('Digest Avocado Hass: 2 left (low at 5 or fewer)');
    expect(digests[0]).toContain(`/manage/products/${low._id}/stock`);
  });

  it('writes exactly one movement for every stock-changing call, each with who, why and the order', async () => {
    const item = await product({ productName: 'Mango (Apple)', productQuantity: 20 });
    const expectNext = async (expected: Partial<Movement>) => {
      const ledger = await expectBalanced(item._id);
      expect(ledger.length).toBe(seen + 1);
      seen = ledger.length;
      const last = ledger.at(-1)!;
      expect(last).toEqual(expect.objectContaining(expected));
      return last;
    };
    let seen = 0;
    await expectNext({ reason: 'opening', change: 20, quantityAfter: 20 });

    const asStaff = bearer(staff.accessToken);
    await t
      .http()
      .patch(`/api/products/update-stock/${item._id}`)
      .set(asStaff)
      .send({ productQuantity: 30 })
      .expect(200);
    const restock = await expectNext({ reason: 'restock', change: 10, quantityAfter: 30 });
    expect(restock.by).toEqual({ id: staff.user._id, fullName: 'Peter Mwangi', role: 'staff' });

    await t.http().patch(`/api/products/check-stock/${item._id}`).set(asStaff).expect(200);
    await expectNext({ reason: 'out_of_stock', change: -30, quantityAfter: 0 });

    await putProduct(t, staff.accessToken, item._id, { productQuantity: 12 }).expect(200);
    await expectNext({ reason: 'correction', change: 12, quantityAfter: 12 });

    const lost = await loss(item._id, { quantity: 3, reason: 'died', note: 'frost' }).expect(201);
    expect(lost.body.message).toBe('Loss recorded');
    expect(lost.body.product.productQuantity).toBe(9);
    await expectNext({ reason: 'died', change: -3, quantityAfter: 9, note: 'frost' });

    await count(item._id, { countedQuantity: 7, note: 'Monday count' }).expect(201);
    await expectNext({ reason: 'correction', change: -2, quantityAfter: 7, note: 'Monday count' });

    const placed = await placeOrder(t, [{ _id: item._id, quantity: 2 }], {
      token: customer.accessToken,
      guestInfo: DELIVERY,
    }).expect(201);
    const order = placed.body.order;
    await expectNext({
      reason: 'sale',
      change: -2,
      quantityAfter: 5,
      orderId: order._id,
      purchaseNumber: order.purchaseNumber,
      by: expect.objectContaining({ id: customer.user._id, role: 'customer' }),
    });

    await t.http().patch(`/api/orders/cancel/${order._id}`).set(asStaff).send({}).expect(200);
    await expectNext({ reason: 'return', change: 2, quantityAfter: 7, orderId: order._id });

    // Calls that leave the stock as it is write nothing: a price change, a count that agrees.
    await putProduct(t, staff.accessToken, item._id, { price: 260 }).expect(200);
    await count(item._id, { countedQuantity: 7 }).expect(201);
    expect((await ledgerOf(item._id)).length).toBe(seen);

    const guest = await placeOrder(t, [{ _id: item._id, quantity: 1 }]).expect(201);
    await expectNext({ reason: 'sale', change: -1, by: null, orderId: guest.body.order._id });
  });

  it('credits an order’s stock return to whoever cancelled it: staff, or the customer themselves', async () => {
    const item = await product({ productQuantity: 10 });
    const returnOf = async (orderId: string) =>
      (await ledgerOf(item._id)).find((m) => m.reason === 'return' && m.orderId === orderId);
    const staffMember = { id: staff.user._id, fullName: 'Peter Mwangi', role: 'staff' };

    // A guest's order cancelled at the desk: the return is the staff member's, not the guest's.
    const guest = (await placeOrder(t, [{ _id: item._id, quantity: 2 }]).expect(201)).body.order;
    await t
      .http()
      .patch(`/api/orders/cancel/${guest._id}`)
      .set(bearer(staff.accessToken))
      .send({})
      .expect(200);
    expect((await returnOf(guest._id))?.by).toEqual(staffMember);

    // An unpaid order deleted by an admin is cancelled first: its return is the admin's.
    const deleted = (await placeOrder(t, [{ _id: item._id, quantity: 1 }]).expect(201)).body.order;
    await t
      .http()
      .delete(`/api/orders/delete/${deleted._id}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    expect((await returnOf(deleted._id))?.by).toEqual(
      expect.objectContaining({ id: admin.user._id, role: 'admin' }),
    );

    // A customer cancelling their own order is credited with its return.
    const own = (
      await placeOrder(t, [{ _id: item._id, quantity: 3 }], {
        token: customer.accessToken,
        guestInfo: DELIVERY,
      }).expect(201)
    ).body.order;
    await t
      .http()
      .patch(`/api/orders/cancel/${own._id}`)
      .set(bearer(customer.accessToken))
      .send({})
      .expect(200);
    expect((await returnOf(own._id))?.by).toEqual(
      expect.objectContaining({ id: customer.user._id, role: 'customer' }),
    );
    expect(await stockOf(t, item._id)).toBe(10);
    await expectBalanced(item._id);
  });

  it('shows the movements newest first, filtered by reason, a page at a time', async () => {
    const item = await product({ productQuantity: 50 });
    await loss(item._id, { quantity: 1, reason: 'died' }).expect(201);
    await loss(item._id, { quantity: 2, reason: 'damaged' }).expect(201);
    await loss(item._id, { quantity: 3, reason: 'given_away', note: 'school' }).expect(201);
    await count(item._id, { countedQuantity: 40 }).expect(201);

    const all = await page(item._id);
    expect(all.movements.map((m) => m.reason)).toEqual([
      'correction',
      'given_away',
      'damaged',
      'died',
      'opening',
    ]);
    expect(all.movements.map((m) => m.quantityAfter)).toEqual([40, 44, 47, 49, 50]);
    expect((await page(item._id, '?reason=died')).movements.map((m) => m.change)).toEqual([-1]);
    const losses = await page(item._id, '?reason=loss');
    expect(losses.total).toBe(3);
    expect((await page(item._id, '?reason=damaged,correction')).total).toBe(2);
    const second = await page(item._id, '?limit=2&page=2');
    expect(second.movements.map((m) => m.reason)).toEqual(['damaged', 'died']);
    expect(second).toEqual(expect.objectContaining({ total: 5, totalPages: 3 }));
    await t
      .http()
      .get(`/api/stock/products/${item._id}/movements?reason=stolen`)
      .set(bearer(staff.accessToken))
      .expect(400);
  });

  it('refuses bad losses and counts with a clear message, changing nothing', async () => {
    const item = await product({ productQuantity: 4 });
    const before = await ledgerOf(item._id);
    const cases: [object, number, string][] = [
      [
        { quantity: 0, reason: 'died' },
        400,
        'The quantity lost must be a whole number of at least 1',
      ],
      [
        { quantity: 1.5, reason: 'died' },
        400,
        'The quantity lost must be a whole number of at least 1',
      ],
      [
        { quantity: 1, reason: 'stolen' },
        400,
        'Choose why the stock was lost: died, damaged or given away',
      ],
      [
        { quantity: 1, reason: 'died', note: 'x'.repeat(501) },
        400,
        'The note can be at most 500 characters',
      ],
      [
        { quantity: 1, reason: 'died', productQuantity: 99 },
        400,
        'property productQuantity should not exist',
      ],
      [
        { quantity: 5, reason: 'died' },
        409,
        'Only 4 in stock: a loss cannot take the stock below 0',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await loss(item._id, body).expect(status);
      expect(JSON.stringify(res.body.message)).toContain(message);
    }
    await count(item._id, { countedQuantity: -1 }).expect(400);
    await count(item._id, { countedQuantity: '3' }).expect(400);
    await loss('665f1c2b9d3e4a0012345678', { quantity: 1, reason: 'died' }).expect(404);
    await loss('not-an-id', { quantity: 1, reason: 'died' }).expect(400);
    expect(await ledgerOf(item._id)).toEqual(before);
    expect(await stockOf(t, item._id)).toBe(4);

    // A note is kept as written, even one that looks like a database expression.
    await loss(item._id, { quantity: 4, reason: 'damaged', note: '$productQuantity' }).expect(201);
    expect((await ledgerOf(item._id)).at(-1)).toEqual(
      expect.objectContaining({ note: '$productQuantity', quantityAfter: 0 }),
    );
  });

  it('lets only staff and admins see the ledger and record losses and counts', async () => {
    const item = await product({ productQuantity: 10 });
    const requests: Record<(typeof STOCK_ROUTES)[number], object | undefined> = {
      'GET /api/stock/low': undefined,
      'GET /api/stock/products/{id}/movements': undefined,
      'POST /api/stock/products/{id}/losses': { quantity: 1, reason: 'died' },
      'POST /api/stock/products/{id}/counts': { countedQuantity: 8 },
      'PATCH /api/stock/products/{id}/threshold': { lowStockThreshold: 3 },
    };
    const call = (route: (typeof STOCK_ROUTES)[number], token?: string) => {
      const [method, template] = route.split(' ') as [string, string];
      const url = template.replace('{id}', item._id);
      const http = t.http() as unknown as Record<string, (u: string) => request.Test>;
      const req = http[method.toLowerCase()]!(url);
      if (token) req.set(bearer(token));
      const body = requests[route];
      return body ? req.send(body) : req;
    };
    for (const route of STOCK_ROUTES) {
      await call(route).expect(401);
      await call(route, customer.accessToken).expect(403);
    }
    expect(await stockOf(t, item._id)).toBe(10);
    expect((await ledgerOf(item._id)).length).toBe(1);
    for (const token of [staff.accessToken, admin.accessToken])
      for (const route of STOCK_ROUTES) {
        const res = await call(route, token);
        expect({ route, status: res.status < 300 }).toEqual({ route, status: true });
      }
    // Each role recorded one loss of 1 and one count of 8.
    expect(await stockOf(t, item._id)).toBe(8);
  });

  it('writes an audit entry in words for every loss and count', async () => {
    const item = await product({ productName: 'Mango (Ngowe)', productQuantity: 12 });
    await loss(item._id, { quantity: 3, reason: 'died', note: 'frost' }).expect(201);
    await count(item._id, { countedQuantity: 7 }).expect(201);
    const res = await t
      .http()
      .get('/api/audit-logs?limit=10')
      .set(bearer(admin.accessToken))
      .expect(200);
    const messages = (res.body as { message: string; performedBy: { id: string } }[])
      .filter((e) => e.performedBy.id === staff.user._id)
      .map((e) => e.message);
    expect(messages).toContain('Peter Mwangi recorded 3 Mango (Ngowe) seedlings as died: frost');
    expect(messages).toContain(
      'Peter Mwangi counted 7 seedlings of Mango (Ngowe) (the stock said 9: 2 fewer)',
    );
  });

  it('lists products low or out of stock, by their own threshold or the default', async () => {
    const low = await product({ productName: 'Low Tree Tomato', productQuantity: 3 });
    const out = await product({ productName: 'Out Passion Purple', productQuantity: 1 });
    const own = await product({ productName: 'Own Threshold Lemon', productQuantity: 20 });
    const fine = await product({ productName: 'Plenty Macadamia', productQuantity: 20 });
    await t
      .http()
      .patch(`/api/products/check-stock/${out._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    const threshold = await t
      .http()
      .patch(`/api/stock/products/${own._id}/threshold`)
      .set(bearer(staff.accessToken))
      .send({ lowStockThreshold: 25 })
      .expect(200);
    expect(threshold.body.stock).toEqual({ lowStockThreshold: 25, threshold: 25, level: 'low' });
    await t
      .http()
      .patch(`/api/stock/products/${own._id}/threshold`)
      .set(bearer(staff.accessToken))
      .send({ lowStockThreshold: -1 })
      .expect(400);

    const res = await t.http().get('/api/stock/low').set(bearer(staff.accessToken)).expect(200);
    const byId = new Map(
      (res.body.products as { _id: string; level: string; threshold: number }[]).map((p) => [
        p._id,
        p,
      ]),
    );
    expect(byId.get(low._id)).toEqual(expect.objectContaining({ level: 'low', threshold: 5 }));
    expect(byId.get(out._id)).toEqual(expect.objectContaining({ level: 'out' }));
    expect(byId.get(own._id)).toEqual(expect.objectContaining({ level: 'low', threshold: 25 }));
    expect(byId.has(fine._id)).toBe(false);
    expect(res.body.defaultThreshold).toBe(5);
    expect(res.body.products[0].level).toBe('out');

    await t
      .http()
      .patch(`/api/stock/products/${own._id}/threshold`)
      .set(bearer(staff.accessToken))
      .send({ lowStockThreshold: null })
      .expect(200);
    const after = await t.http().get('/api/stock/low').set(bearer(staff.accessToken)).expect(200);
    expect(after.body.products.some((p: ProductBody) => p._id === own._id)).toBe(false);
  });

  it('sums to the stock after 100 concurrent orders and their cancellations', async () => {
    const scarce = await product({ productName: 'Scarce Grafted Avocado', productQuantity: 75 });
    const plenty = await product({ productName: 'Plenty Kei Apple', productQuantity: 1000 });
    // Two lines each: the second fails once the scarce one sells out, and gives back the first.
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        placeOrder(
          t,
          [
            { _id: plenty._id, quantity: 2 },
            { _id: scarce._id, quantity: 1 },
          ],
          { guestInfo: { ...DELIVERY, phoneNumber: `07220${String(i).padStart(5, '0')}` } },
        ),
      ),
    );
    const placed = answers.filter((r) => r.status === 201).map((r) => r.body.order._id as string);
    // Every answer is placed or sold out (any other is shown with its message).
    const soldOut = (r: (typeof answers)[number]) =>
      r.status === 409 && r.body.code === 'OUT_OF_STOCK';
    expect(answers.filter((r) => r.status !== 201 && !soldOut(r)).map((r) => r.body)).toEqual([]);
    expect(placed).toHaveLength(75);
    expect(await stockOf(t, scarce._id)).toBe(0);
    expect(await stockOf(t, plenty._id)).toBe(1000 - 2 * 75);
    await expectBalanced(scarce._id);
    await expectBalanced(plenty._id);

    for (let i = 0; i < placed.length; i += 25) {
      const cancels = await Promise.all(
        placed
          .slice(i, i + 25)
          .map((id) =>
            t.http().patch(`/api/orders/cancel/${id}`).set(bearer(staff.accessToken)).send({}),
          ),
      );
      expect(cancels.map((r) => r.status)).toEqual(cancels.map(() => 200));
    }
    expect(await stockOf(t, scarce._id)).toBe(75);
    expect(await stockOf(t, plenty._id)).toBe(1000);
    const scarceLedger = await expectBalanced(scarce._id);
    expect(scarceLedger.filter((m) => m.reason === 'sale')).toHaveLength(75);
    expect(scarceLedger.filter((m) => m.reason === 'return')).toHaveLength(75);
    const plentyLedger = await expectBalanced(plenty._id);
    expect(plentyLedger.filter((m) => m.reason === 'sale')).toHaveLength(100);
    // 75 cancelled plus 25 given back when their scarce line found none left.
    expect(plentyLedger.filter((m) => m.reason === 'return')).toHaveLength(100);
    const check = await checkStockLedger(db());
    expect(check.differences).toEqual([]);
  }, 300_000);

  it('finishes a movement a crash left inside its product, and opens ledgers of older products once', async () => {
    const item = await product({ productQuantity: 10 });
    const products = db().collection('products');
    // Killed after the stock change (with its movement) and before the copy to the ledger:
    const cut = stockUpdate({ by: -4 }, { reason: 'damaged', note: 'crash' });
    await products.updateOne({ _id: new Types.ObjectId(item._id) }, cut.pipeline);
    // ... and killed after a copy, before the product forgot it:
    const copied = stockUpdate({ by: -1 }, { reason: 'died', note: 'crash 2' });
    await products.updateOne({ _id: new Types.ObjectId(item._id) }, copied.pipeline);
    const waiting = (await products.findOne({ _id: new Types.ObjectId(item._id) }))!
      .pendingMovements as { _id: string }[];
    expect(waiting.map((m) => m._id)).toEqual([cut.movementId, copied.movementId]);
    await db()
      .collection('stock_movements')
      .insertOne({ ...waiting[1], productId: item._id, productName: item.productName } as never);
    // Already equal while waiting: the waiting movements are part of the ledger.
    const mid = (await checkStockLedger(db())).rows.find((r) => r.productId === item._id)!;
    expect(mid).toEqual(expect.objectContaining({ stock: 5, ledger: 5, waiting: 2 }));

    // A product from before the ledger (written straight to the database):
    const oldId = new Types.ObjectId();
    await products.insertOne({
      _id: oldId,
      productName: 'Old Loquat',
      productDescription: '',
      price: 100,
      initialPrice: 100,
      offerPrice: 0,
      onOffer: false,
      effectivePrice: 100,
      productQuantity: 17,
      category: new Types.ObjectId(categoryId),
      searchText: 'old loquat\n',
      createdAt: new Date(),
      updatedAt: new Date(),
    });

    const reconciler = t.app.get(StockLedgerReconciler);
    await reconciler.pass(true);
    await reconciler.pass(true);
    const ledger = await expectBalanced(item._id);
    expect(ledger.slice(-2).map((m) => [m.reason, m.change, m.quantityAfter])).toEqual([
      ['damaged', -4, 6],
      ['died', -1, 5],
    ]);
    expect(
      (await products.findOne({ _id: new Types.ObjectId(item._id) }))!.pendingMovements,
    ).toEqual([]);
    const opened = await ledgerOf(oldId.toHexString());
    expect(opened.map((m) => [m.reason, m.change, m.quantityAfter])).toEqual([['opening', 17, 17]]);
  });

  it('stock:check prints each product and exits non-zero on a difference', async () => {
    const item = await product({ productName: 'Checked Guava', productQuantity: 6 });
    const env = {
      ...process.env,
      MONGODB_URI: withDatabaseName(serverUri(), t.databaseName),
      STOCK_CHECK_DIFF_ONLY: '0',
    };
    const run = () =>
      spawnSync('npx', ['tsx', 'tools/stock/check.ts'], { cwd: WORKSPACE, env, encoding: 'utf8' });
    const ok = run();
    expect(ok.stdout).toContain(
      `ok   Checked Guava (${item._id}): stock 6, ledger 6 in 1 movements`,
    );
    expect(ok.status).toBe(0);
    // A stock changed behind the ledger's back:
    await db()
      .collection('products')
      .updateOne({ _id: new Types.ObjectId(item._id) }, { $inc: { productQuantity: 2 } });
    const bad = run();
    expect(bad.stdout).toContain(`DIFF Checked Guava (${item._id}): stock 8, ledger 6`);
    expect(bad.status).toBe(1);
    await db()
      .collection('products')
      .updateOne({ _id: new Types.ObjectId(item._id) }, { $inc: { productQuantity: -2 } });
  }, 120_000);
});
