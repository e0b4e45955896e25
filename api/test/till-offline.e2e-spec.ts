/**
 * The till keeps selling when the network drops (issue 47), against the real database and the
 * Daraja simulator: sales made offline arrive later, each under its own Idempotency-Key (kept with
 * no expiry), at the till's time and prices; sent again, however often and however long after,
 * they answer the first sale (stock and money once). An M-Pesa code taken offline counts as money
 * only when its C2B confirmation waits unclaimed in the inbox; otherwise the sale needs attention.
 * A gate sale is a hand-over: it takes stock below zero, flagged short, until counted again.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { STOCK_SHORT_LABEL, TILL_MESSAGES } from '@spc/shared-contracts';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { shopDay } from '../src/common/shop-clock';
import { stockUpdate } from '../src/inventory/stock-ledger';
import { bearer, createStaff, type Session } from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { guest, placeOrder, stockOf } from './support/shop';
import { openTillSession, setTillPin } from './support/till';
import { waitFor } from './support/wait';

type Payment = { method: string; amount: number; given?: number; code?: string };
type Line = { productId: string; quantity: number; unitId?: string };
type Price = { productId: string; unitId?: string; unitPrice: number };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let codeSeq = 0;
const newCode = () =>
  `TO${(Date.now() + codeSeq++).toString(36).toUpperCase().slice(-7)}${codeSeq % 10}`;
let phoneSeq = Math.floor(Math.random() * 80_000_000);
const newMsisdn = () => `2547${String(10_000_000 + phoneSeq++).slice(-8)}`;

describe('offline sales at the till (issue 47)', () => {
  let m: MpesaTestApp;
  let world: ShopWorld;
  let grace: Session & { password: string };
  let sessionId: string;
  let productId: string;
  const db = () => m.t.app.get<Connection>(getConnectionToken()).db!;
  const http = () => m.t.http();
  const staff = () => bearer(world.staff.accessToken);
  let keySeq = 0;
  const newKey = () => `offline-${Date.now()}-${keySeq++}`;

  beforeAll(async () => {
    m = await createMpesaTestApp('till_offline');
    world = await createShopWorld(m.t);
    grace = await createStaff(m.t, world.admin.accessToken, { fullName: 'Grace Wanjiku' });
    await setTillPin(m.t, world.staff, '1357');
    await setTillPin(m.t, grace, '2468');
    productId = (await world.createProduct({ quantity: 5_000, price: 100 }))._id;
    sessionId = await openTillSession(m.t, world.staff.accessToken, 1000);
    // The till was opened on Friday and went offline over the weekend.
    await db()
      .collection('till_sessions')
      .updateOne(
        { _id: new Types.ObjectId(sessionId) },
        { $set: { openedAt: new Date(Date.now() - 5 * DAY) } },
      );
  }, 120_000);
  afterAll(() => m.close());

  const send = (
    body: {
      lines: Line[];
      payments: Payment[];
      offline?: { soldAt: string; prices: Price[] };
      sessionId?: string;
    },
    key: string | null = newKey(),
    token = staff(),
  ) => {
    let req = http().post('/api/till/sales').set(token);
    if (key) req = req.set('Idempotency-Key', key);
    return req.send({ sessionId, ...body });
  };
  const offline = (
    quantity: number,
    soldAt: Date,
    o: { price?: number; payments?: Payment[]; product?: string; session?: string } = {},
  ) => {
    const price = o.price ?? 100;
    const product = o.product ?? productId;
    return {
      sessionId: o.session ?? sessionId,
      lines: [{ productId: product, quantity }],
      payments: o.payments ?? [{ method: 'cash', amount: quantity * price }],
      offline: { soldAt: soldAt.toISOString(), prices: [{ productId: product, unitPrice: price }] },
    };
  };
  const gateOrders = () => db().collection('orders').countDocuments({ channel: 'gate' });
  const movementCount = () => db().collection('stock_movements').countDocuments();
  const entriesOf = (orderId: string) =>
    db().collection('money_entries').find({ orderId }).toArray();
  const cashUp = async (id = sessionId) =>
    (await http().get(`/api/till/sessions/${id}`).set(staff()).expect(200)).body.cashUp;
  const mpesaExpected = async () =>
    (await cashUp()).methods.find((x: { method: string }) => x.method === 'mpesa').expected;
  /** The buyer's paybill payment as M-Pesa confirms it (the simulator answers its status query). */
  const confirmC2b = async (code: string, amount: number) => {
    await waitFor(
      async () => m.sim.c2b.registrations.length,
      (n) => n > 0,
      10_000,
      100,
    );
    const paid = await m.sim.payBill({
      account: 'GATE',
      amount,
      transId: code,
      phone: newMsisdn(),
      validate: false,
    });
    expect(paid.completed).toBe(true);
    const entry = await waitFor(
      () => db().collection('money_entries').findOne({ code }),
      (e) => !!e && !e.unconfirmed,
      10_000,
    );
    expect(entry).toMatchObject({ kind: 'paybill', amount, state: 'open' });
    // Confirmed, it is matched against the orders (`matching`) before it waits in the inbox.
    const payment = await waitFor(
      () =>
        db()
          .collection('mpesa_c2b_payments')
          .findOne({ _id: code as never }),
      (p) => p?.status === 'inbox',
      10_000,
    );
    expect(payment?.status).toBe('inbox');
  };
  const expectLedgersBalanced = async () => {
    expect((await checkStockLedger(db())).differences).toEqual([]);
    expect((await checkMoneyLedger(db())).problems).toEqual([]);
  };

  it('20 offline sales, sent again twice (once all at once): 20 orders, stock and money once each, the first answers', async () => {
    const now = Date.now();
    const stockBefore = await stockOf(m.t, productId);
    const orders = await gateOrders();
    const sales = Array.from({ length: 20 }, (_, i) => ({
      key: newKey(),
      // One of them from 3 days ago; one at the till's older price (110, KES 100 now).
      body: offline(i + 1, new Date(i === 7 ? now - 3 * DAY : now - (20 - i) * 60_000), {
        price: i === 11 ? 110 : 100,
      }),
    }));
    const first = [];
    for (const s of sales) {
      const res = await send(s.body, s.key);
      expect(res.status).toBe(201);
      first.push(res.body.sale);
    }
    const together = await Promise.all(sales.map((s) => send(s.body, s.key)));
    const again = [];
    for (const s of sales) again.push(await send(s.body, s.key));
    for (const replay of [...together, ...again]) expect(replay.status).toBe(200);
    const ids = (xs: { orderId: string; purchaseNumber: string }[]) =>
      xs.map((x) => [x.orderId, x.purchaseNumber]);
    expect(ids(together.map((r) => r.body.sale))).toEqual(ids(first));
    expect(ids(again.map((r) => r.body.sale))).toEqual(ids(first));

    expect(await gateOrders()).toBe(orders + 20);
    const orderIds = first.map((s) => s.orderId);
    const quantities = sales.map((_, i) => i + 1);
    for (const [i, id] of orderIds.entries()) {
      const moved = await db().collection('stock_movements').find({ orderId: id }).toArray();
      expect(moved.map((x) => x.change)).toEqual([-quantities[i]!]);
      const entries = await entriesOf(id);
      expect(entries.map((e) => [e.kind, e.amount])).toEqual([
        ['cash', quantities[i]! * (i === 11 ? 110 : 100)],
      ]);
    }
    const taken = quantities.reduce((n, q) => n + q, 0);
    expect(await stockOf(m.t, productId)).toBe(stockBefore - taken);

    // The 3-day-old sale is dated when the till sold it and counted on its own day.
    const old = first[7];
    expect(old.offline.soldAt).toBe(sales[7]!.body.offline.soldAt);
    expect(old.at).toBe(sales[7]!.body.offline.soldAt);
    const day = shopDay(new Date(sales[7]!.body.offline.soldAt));
    const report = await waitFor(
      async () =>
        (
          await http()
            .get(`/api/sales-summary/report?from=${day}&to=${day}`)
            .set(bearer(world.admin.accessToken))
            .expect(200)
        ).body,
      (r) => JSON.stringify(r).includes(`"${day}"`) && (r.totals?.revenue ?? 0) >= 800,
      10_000,
    );
    const daily = JSON.stringify(report);
    expect(daily).toContain(day);
    expect(report.totals.revenue).toBeGreaterThanOrEqual(800);

    // The till's price kept (the buyer paid it) and written to the audit trail.
    expect(first[11]).toMatchObject({ total: 12 * 110, state: 'paid' });
    expect(first[11].lines[0].unitPrice).toBe(110);
    const audit = await db()
      .collection('audit_logs')
      .findOne({ action: 'till.offline-prices', 'target.id': first[11].orderId });
    expect(String(audit?.message)).toContain('KES 110');
    await expectLedgersBalanced();
  }, 180_000);

  it('a gate sale and a web order racing for the last trays: exactly one is refused or short, a count clears the flag', async () => {
    for (let round = 0; round < 4; round++) {
      const last = (await world.createProduct({ quantity: 5, price: 100 }))._id;
      const lines = [{ productId: last, quantity: 4 }];
      const [gate, web] = await Promise.all([
        send({ lines, payments: [{ method: 'cash', amount: 400 }] }),
        placeOrder(m.t, [{ _id: last, quantity: 4 }], { guestInfo: guest() }),
      ]);
      expect(gate.status).toBe(201);
      const webRefused = web.status === 409;
      if (!webRefused) expect(web.status).toBe(201);
      // Exactly one of the two: the web order refused, or the gate sale short.
      expect([round, webRefused !== gate.body.sale.short]).toEqual([round, true]);
      const product = await db()
        .collection('products')
        .findOne({ _id: new Types.ObjectId(last) });
      if (gate.body.sale.short) {
        expect(product).toMatchObject({ productQuantity: -3, stockShort: true });
        const moved = await http()
          .get(`/api/stock/products/${last}/movements`)
          .set(bearer(world.admin.accessToken))
          .expect(200);
        const sale = moved.body.movements.find(
          (x: { orderId: string }) => x.orderId === gate.body.sale.orderId,
        );
        expect(sale).toMatchObject({ change: -4, quantityAfter: -3, short: true });
        const attention = (await cashUp()).attention.find(
          (a: { orderId: string }) => a.orderId === gate.body.sale.orderId,
        );
        expect(attention).toMatchObject({ short: true, reasons: [], offline: false });
      } else {
        expect(product).toMatchObject({ productQuantity: 1 });
        expect(web.body.message).toContain('Only 1 left');
        // Made short on purpose: a second gate sale takes the last 4 below zero.
        const more = await send({ lines, payments: [{ method: 'cash', amount: 400 }] });
        expect(more.body.sale.short).toBe(true);
      }
      // Shoppers see none; the shop refuses it in its out-of-stock words.
      expect(await stockOf(m.t, last)).toBe(0);
      const after = await placeOrder(m.t, [{ _id: last, quantity: 1 }], { guestInfo: guest() });
      expect([after.status, after.body.code, after.body.message]).toEqual([
        409,
        'OUT_OF_STOCK',
        expect.stringContaining('out of stock'),
      ]);
      expect((await checkStockLedger(db())).differences).toEqual([]);
      // A count of the shed clears the flag.
      await http()
        .post(`/api/stock/products/${last}/counts`)
        .set(bearer(world.admin.accessToken))
        .send({ countedQuantity: 10, note: 'Counted after the gate sold short' })
        .expect(201);
      const counted = await db()
        .collection('products')
        .findOne({ _id: new Types.ObjectId(last) });
      expect(counted).toMatchObject({ productQuantity: 10, stockShort: false });
      expect(await stockOf(m.t, last)).toBe(10);
      const web2 = await placeOrder(m.t, [{ _id: last, quantity: 2 }], { guestInfo: guest() });
      expect(web2.status).toBe(201);
    }
    expect(STOCK_SHORT_LABEL).toContain('count');
    await expectLedgersBalanced();
  }, 180_000);

  it('stock:check accepts a negative stock only when it is flagged short', async () => {
    const item = (await world.createProduct({ quantity: 2, price: 100 }))._id;
    const products = db().collection('products');
    // Below zero with its movement (the ledger balances), but not flagged: a failure.
    const cut = stockUpdate({ by: -5 }, { reason: 'damaged', note: 'drill' });
    await products.updateOne({ _id: new Types.ObjectId(item) }, cut.pipeline);
    const unflagged = await checkStockLedger(db());
    expect(unflagged.differences.map((d) => [d.productId, d.stock, d.short])).toEqual([
      [item, -3, false],
    ]);
    await products.updateOne({ _id: new Types.ObjectId(item) }, { $set: { stockShort: true } });
    expect((await checkStockLedger(db())).differences).toEqual([]);
    await http()
      .post(`/api/stock/products/${item}/counts`)
      .set(bearer(world.admin.accessToken))
      .send({ countedQuantity: 0 })
      .expect(201);
    expect((await checkStockLedger(db())).differences).toEqual([]);
  });

  it('an M-Pesa code taken offline and not confirmed is flagged, not counted; confirmed later, settle counts it once', async () => {
    const code = newCode();
    const expected = await mpesaExpected();
    const res = await send(
      offline(3, new Date(Date.now() - HOUR), {
        payments: [{ method: 'mpesa-code', amount: 300, code }],
      }),
    );
    expect(res.status).toBe(201);
    const sale = res.body.sale;
    expect(sale).toMatchObject({
      state: 'needs-attention',
      paid: 0,
      needsAttention: { reasons: ['code-unconfirmed'], unpaid: 300, code },
    });
    expect(await entriesOf(sale.orderId)).toEqual([]);
    expect(await mpesaExpected()).toBe(expected);
    const listed = (await cashUp()).attention.find(
      (a: { orderId: string }) => a.orderId === sale.orderId,
    );
    expect(listed).toMatchObject({ unpaid: 300, reasons: ['code-unconfirmed'], offline: true });
    // The order routes keep refusing a gate sale.
    await http()
      .post(`/api/payments/mpesa/c2b/${code}/assign`)
      .set(staff())
      .send({ purchaseNumber: sale.purchaseNumber })
      .expect((r) => expect([404, 409]).toContain(r.status));

    // Safaricom's confirmation arrives (the buyer's paybill payment): settle counts it, once.
    await confirmC2b(code, 300);
    const settle = () =>
      http()
        .post(`/api/till/sales/${sale.orderId}/settle`)
        .set(staff())
        .send({ sessionId, payments: [{ method: 'mpesa-code', amount: 300, code }] });
    // Sent twice at once (a double tap): both answer the sale paid, the code counted once.
    const [a, b] = await Promise.all([settle(), settle()]);
    for (const r of [a, b])
      expect([r.status, r.body.sale]).toEqual([
        200,
        expect.objectContaining({ state: 'paid', paid: 300, needsAttention: null }),
      ]);
    const entries = await entriesOf(sale.orderId);
    expect(entries.map((e) => [e.kind, e.amount, e.state])).toEqual([['paybill', 300, 'credited']]);
    expect(await mpesaExpected()).toBe(expected + 300);
    const third = await settle();
    expect([third.status, third.body.message]).toEqual([409, TILL_MESSAGES.notAttention]);
    expect((await cashUp()).attention.map((x: { orderId: string }) => x.orderId)).not.toContain(
      sale.orderId,
    );
    await expectLedgersBalanced();
  }, 60_000);

  it('a code confirmed before the sale arrives pays it; a code in the ledger is code-taken, another amount code-amount', async () => {
    const confirmed = newCode();
    await confirmC2b(confirmed, 200);
    const paid = await send(
      offline(2, new Date(Date.now() - HOUR), {
        payments: [{ method: 'mpesa-code', amount: 200, code: confirmed }],
      }),
    );
    expect(paid.body.sale).toMatchObject({ state: 'paid', paid: 200, needsAttention: null });

    // A code already in the money ledger (a sale made online with it): not money for this one.
    const taken = newCode();
    await send({
      lines: [{ productId, quantity: 1 }],
      payments: [{ method: 'mpesa-code', amount: 100, code: taken }],
    }).expect(201);
    const twice = await send(
      offline(1, new Date(Date.now() - HOUR), {
        payments: [{ method: 'mpesa-code', amount: 100, code: taken }],
      }),
    );
    expect(twice.body.sale).toMatchObject({
      state: 'needs-attention',
      needsAttention: { reasons: ['code-taken'], unpaid: 100, code: taken },
    });
    expect(await entriesOf(twice.body.sale.orderId)).toEqual([]);

    const wrong = newCode();
    await confirmC2b(wrong, 500);
    const amount = await send(
      offline(3, new Date(Date.now() - HOUR), {
        payments: [
          { method: 'cash', amount: 100 },
          { method: 'mpesa-code', amount: 200, code: wrong },
        ],
      }),
    );
    expect(amount.body.sale).toMatchObject({
      state: 'needs-attention',
      paid: 100,
      needsAttention: { reasons: ['code-amount'], unpaid: 200, code: wrong },
    });
    // Still in the inbox, unclaimed.
    expect(
      (
        await db()
          .collection('mpesa_c2b_payments')
          .findOne({ _id: wrong as never })
      )?.status,
    ).toBe('inbox');
    // The inbox keeps refusing to assign a payment to a gate sale (only the till changes it).
    const assign = await http()
      .post(`/api/payments/mpesa/c2b/${wrong}/assign`)
      .set(staff())
      .send({ purchaseNumber: amount.body.sale.purchaseNumber });
    expect([assign.status, assign.body.message]).toEqual([409, TILL_MESSAGES.gateSaleAtTill]);
    // Settled in cash instead: paid.
    const cash = await http()
      .post(`/api/till/sales/${amount.body.sale.orderId}/settle`)
      .set(staff())
      .send({ sessionId, payments: [{ method: 'cash', amount: 200 }] });
    expect([cash.status, cash.body.sale?.state]).toEqual([200, 'paid']);
    // A sale needing attention can be voided with the second PIN.
    const voidable = await send(
      offline(1, new Date(Date.now() - HOUR), {
        payments: [{ method: 'mpesa-code', amount: 100, code: newCode() }],
      }),
    );
    const stock = await stockOf(m.t, productId);
    const voided = await http()
      .post(`/api/till/sales/${voidable.body.sale.orderId}/void`)
      .set(staff())
      .send({ approverId: grace.user._id, pin: '2468', reason: 'Code never came' });
    expect([voided.status, voided.body.sale?.state]).toEqual([200, 'voided']);
    expect(await stockOf(m.t, productId)).toBe(stock + 1);
    await expectLedgersBalanced();
  }, 60_000);

  it('refuses each bad offline sale with a 4xx in words, changing nothing', async () => {
    const now = Date.now();
    const before = { orders: await gateOrders(), moves: await movementCount() };
    const base = offline(2, new Date(now - HOUR));
    const cases: [string, object, string | null, number, string][] = [
      ['no key', base, null, 400, TILL_MESSAGES.offlineNeedsKey],
      [
        '31 days old',
        offline(2, new Date(now - 31 * DAY)),
        newKey(),
        400,
        TILL_MESSAGES.offlineTooOld,
      ],
      [
        'in the future',
        offline(2, new Date(now + 10 * 60_000)),
        newKey(),
        400,
        TILL_MESSAGES.offlineInFuture,
      ],
      [
        'before the session',
        offline(2, new Date(now - 6 * DAY)),
        newKey(),
        400,
        TILL_MESSAGES.offlineBeforeSession,
      ],
      [
        'no ISO time',
        { ...base, offline: { ...base.offline, soldAt: 'yesterday' } },
        newKey(),
        400,
        'offline.soldAt must be an ISO time',
      ],
      [
        'no price',
        { ...base, offline: { ...base.offline, prices: [] } },
        newKey(),
        400,
        TILL_MESSAGES.offlinePrices,
      ],
      [
        'two prices',
        {
          ...base,
          offline: { ...base.offline, prices: [...base.offline.prices, ...base.offline.prices] },
        },
        newKey(),
        400,
        TILL_MESSAGES.offlinePrices,
      ],
      [
        'another product',
        {
          ...base,
          offline: {
            ...base.offline,
            prices: [{ productId: new Types.ObjectId().toHexString(), unitPrice: 100 }],
          },
        },
        newKey(),
        400,
        TILL_MESSAGES.offlinePrices,
      ],
      [
        'half off',
        offline(2, new Date(now - HOUR), { price: 49 }),
        newKey(),
        400,
        'is off by more than half or double',
      ],
      [
        'double',
        offline(2, new Date(now - HOUR), { price: 201 }),
        newKey(),
        400,
        'is off by more than half or double',
      ],
      [
        'a prompt',
        offline(2, new Date(now - HOUR), { payments: [{ method: 'mpesa-express', amount: 200 }] }),
        newKey(),
        400,
        TILL_MESSAGES.offlineMethod,
      ],
    ];
    for (const [name, body, key, status, words] of cases) {
      const res = await send(body as never, key);
      expect([name, res.status, res.body.message]).toEqual([
        name,
        status,
        expect.stringContaining(words),
      ]);
    }
    expect({ orders: await gateOrders(), moves: await movementCount() }).toEqual(before);
  }, 60_000);

  it('a closed session refuses a new offline sale (409) but a sale made answers as the first even after the close', async () => {
    const own = await openTillSession(m.t, grace.accessToken, 0);
    const key = newKey();
    const body = offline(2, new Date(Date.now() - 60_000), { session: own });
    const made = await send(body, key, bearer(grace.accessToken)).expect(201);
    await http()
      .post(`/api/till/sessions/${own}/close`)
      .set(bearer(grace.accessToken))
      .send({ countedCash: 200 })
      .expect((r) => expect(r.status).toBeLessThan(300));
    const orders = await gateOrders();
    const replay = await send(body, key, bearer(grace.accessToken));
    expect([replay.status, replay.body.sale.orderId]).toEqual([200, made.body.sale.orderId]);
    const fresh = await send(
      offline(1, new Date(Date.now() - 60_000), { session: own }),
      newKey(),
      bearer(grace.accessToken),
    );
    expect([fresh.status, fresh.body.message]).toEqual([409, TILL_MESSAGES.sessionClosed]);
    expect(await gateOrders()).toBe(orders);
  });

  it('a key used 25 hours earlier still answers the first sale; till sale keys have no TTL', async () => {
    const key = newKey();
    const body = offline(2, new Date(Date.now() - 2 * HOUR));
    const made = await send(body, key).expect(201);
    const stored = await db()
      .collection('till_sale_keys')
      .updateOne(
        { key: { $regex: `:${key}$` } },
        { $set: { createdAt: new Date(Date.now() - 25 * HOUR) } },
      );
    expect(stored.modifiedCount).toBe(1);
    const orders = await gateOrders();
    const replay = await send(body, key);
    expect([replay.status, replay.body.sale.orderId, replay.body.sale.purchaseNumber]).toEqual([
      200,
      made.body.sale.orderId,
      made.body.sale.purchaseNumber,
    ]);
    const other = await send(offline(3, new Date(Date.now() - 2 * HOUR)), key);
    expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await gateOrders()).toBe(orders);
    const indexes = await db().collection('till_sale_keys').indexes();
    expect(indexes.filter((i) => i.expireAfterSeconds !== undefined)).toEqual([]);
    expect(indexes.some((i) => i.unique && i.key.key === 1)).toBe(true);
    // An online sale's key lives there too.
    const onlineKey = newKey();
    await send(
      { lines: [{ productId, quantity: 1 }], payments: [{ method: 'cash', amount: 100 }] },
      onlineKey,
    ).expect(201);
    expect(
      await db()
        .collection('till_sale_keys')
        .countDocuments({ key: { $regex: `:${onlineKey}$` } }),
    ).toBe(1);
  });
});
