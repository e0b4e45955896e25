/**
 * Orders from accepted quotations (issue 42), on the real database: the orders' side of an
 * acceptance, called as the quotations module calls it. One order per quotation (also when asked
 * twice at once), its lines at the agreed prices, each held by its own hold (ready stock and two
 * growing batches in one order), none of the caps on anonymous unpaid orders but the
 * organisation's credit limit (claimed atomically, given back when the order is cancelled or
 * paid), and 409 SHORT naming the batches that could grow what is short, nothing held.
 */
import { QUOTATION_MESSAGES, type QuotationShortLine } from '@spc/shared-contracts';
import { runSaga } from '../src/common/saga';
import { OrderFromQuotationService } from '../src/orders/order-from-quotation.service';
import { OrderPlacementService } from '../src/orders/order-placement.service';
import { placementSteps } from '../src/orders/order-placement-steps';
import { quotationPlan, quotationRun } from '../src/orders/order-quotation-plan';
import { bearer, UNTHROTTLED } from './support/identity';
import {
  approvedOrganisation as approved,
  newAcacia,
  newBatch as batch,
  quotationRequest as request,
  refusal,
  type Acacia,
  type BatchView,
} from './support/quotation-orders';
import { DELIVERY, stockOf } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

describe('orders from accepted quotations', () => {
  let t: TestApp;
  let world: ShopWorld;
  /** Sold singly and by the tray of 50 (KES 1,500 a tray in the shop). */
  let acacia: Acacia;

  const staff = () => bearer(world.staff.accessToken);
  const service = () => t.app.get(OrderFromQuotationService);
  const newProduct = (quantity: number) => newAcacia(world, quantity);
  const newBatch = (productId: string, started: number, readyIn: number) =>
    batch(t, world, productId, started, readyIn);
  const approvedOrganisation = (creditLimit: number) => approved(t, world, creditLimit);
  const batchOf = async (id: string) =>
    (await t.http().get(`/api/batches/${id}`).set(staff()).expect(200)).body.batch as BatchView;
  const orderOf = async (id: string) =>
    (await t.http().get(`/api/orders/${id}`).set(staff()).expect(200)).body.order;

  beforeAll(async () => {
    t = await createTestApp({
      name: 'quotation_orders',
      env: {
        ...UNTHROTTLED,
        // The shipped caps on anonymous unpaid orders (the test app lifts them for other suites).
        ORDER_MAX_UNITS_PER_LINE: '1000',
        ORDER_MAX_UNITS_PER_ORDER: '2000',
        ORDER_MAX_OPEN_UNPAID: '2',
        ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '4000',
      },
    });
    world = await createShopWorld(t);
  });
  afterAll(() => t.close());

  /** 10,000 seedlings of ready stock in trays, 12,000 and 8,000 on two growing batches. */
  async function countyWorld() {
    acacia = await newProduct(15_000);
    const first = await newBatch(acacia._id, 20_000, 60);
    const second = await newBatch(acacia._id, 10_000, 90);
    const lines = [
      {
        productId: acacia._id,
        unitId: acacia.trayId,
        quantity: 200,
        unitPrice: 1200,
        batchId: null,
      },
      {
        productId: acacia._id,
        unitId: acacia.singleId,
        quantity: 12_000,
        unitPrice: 25,
        batchId: first._id,
      },
      {
        productId: acacia._id,
        unitId: acacia.singleId,
        quantity: 8_000,
        unitPrice: 25,
        batchId: second._id,
      },
    ];
    return { first, second, lines };
  }

  it('makes 30,000 seedlings across ready stock and two growing batches one order holding all three', async () => {
    const { first, second, lines } = await countyWorld();
    const org = await approvedOrganisation(5_000_000);
    const asked = request(org, lines);

    const order = await service().place(asked);

    // As a clerk reads it: the agreed prices (not the shop's KES 1,500 a tray), the LPO.
    const seen = await orderOf(order._id);
    expect(seen).toMatchObject({
      orderStatus: 'Pending',
      paymentStatus: 'Pending',
      subtotal: 200 * 1200 + 20_000 * 25,
      shippingFee: 2500,
      totalAmount: 200 * 1200 + 20_000 * 25 + 2500,
      booking: null,
    });
    expect(seen.products.map((l: { unitPrice: number; quantity: number }) => l.unitPrice)).toEqual([
      1200, 25, 25,
    ]);
    expect(seen.quotation).toEqual({
      quotationId: asked.quotationId,
      organisationId: org.organisationId,
      lpoNumber: asked.lpoNumber,
      lpoScan: null,
    });
    expect(seen.products.map((l: { batchId: string | null }) => l.batchId)).toEqual([
      null,
      first._id,
      second._id,
    ]);
    expect({ ...order.quotation, lpoScan: null }).toEqual(seen.quotation);
    expect(order.placedBy).toBe(org.approver.user._id);

    // Ready stock: 10,000 seedlings sold out of 15,000, on the ledger under the order's number.
    expect(await stockOf(t, acacia._id)).toBe(5_000);
    const ledger = (
      await t
        .http()
        .get(`/api/stock/products/${acacia._id}/movements?limit=100`)
        .set(staff())
        .expect(200)
    ).body.movements as { reason: string; change: number; purchaseNumber: string | null }[];
    expect(ledger.filter((m) => m.purchaseNumber === order.purchaseNumber)).toEqual([
      expect.objectContaining({ reason: 'sale', change: -10_000 }),
    ]);
    // Both batches hold the order's seedlings, and say which order holds them.
    const held = (seedlings: number) => ({
      orders: [
        expect.objectContaining({
          orderId: order._id,
          purchaseNumber: order.purchaseNumber,
          seedlings,
        }),
      ],
      bookings: [],
    });
    expect(await batchOf(first._id)).toMatchObject({
      booked: 12_000,
      available: 8_000,
      ...held(12_000),
    });
    expect(await batchOf(second._id)).toMatchObject({
      booked: 8_000,
      available: 2_000,
      ...held(8_000),
    });

    // Sent out only once every batch it holds is ready; then both holds leave as its sale.
    const dispatch = () =>
      t.http().patch(`/api/orders/inTransit/${order._id}`).set(staff()).send({});
    const early = await dispatch();
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('not ready yet');
    const ready = (id: string) =>
      t.http().post(`/api/batches/${id}/ready`).set(staff()).send({}).expect(201);
    await ready(first._id);
    expect((await dispatch()).status).toBe(409);
    await ready(second._id);
    // What the order did not hold went into ready stock: 8,000 and 2,000.
    expect(await stockOf(t, acacia._id)).toBe(15_000);
    expect((await dispatch()).status).toBe(200);
    expect(await batchOf(first._id)).toMatchObject({ quantity: 0, booked: 0, orders: [] });
    expect(await batchOf(second._id)).toMatchObject({ quantity: 0, booked: 0, orders: [] });
    expect(await stockOf(t, acacia._id)).toBe(15_000);
  });

  it('answers the same order when the same quotation is accepted twice at once, and again later', async () => {
    const { first, second, lines } = await countyWorld();
    const org = await approvedOrganisation(5_000_000);
    const asked = request(org, lines);
    const [a, b] = await Promise.all([service().place(asked), service().place({ ...asked })]);
    expect(b._id).toBe(a._id);
    expect((await service().place(asked))._id).toBe(a._id);
    expect(await stockOf(t, acacia._id)).toBe(5_000);
    expect((await batchOf(first._id)).booked).toBe(12_000);
    expect((await batchOf(second._id)).booked).toBe(8_000);
  });

  it('places the quotation again after a crash cut its placement off: what the crash held is given back once', async () => {
    const { first, second, lines } = await countyWorld();
    const total = 200 * 1200 + 20_000 * 25 + 2500;
    const org = await approvedOrganisation(total);
    const asked = request(org, lines);
    // The placement's steps up to its lines held, as a process that died then leaves them: the
    // order `reserving`, the stock reserved, both batches held, the credit claimed.
    const deps = service()['deps'];
    const steps = placementSteps(deps, quotationPlan(deps, asked));
    const upTo = steps.findIndex((s) => s.name === 'hold the lines') + 1;
    const cut = quotationRun(asked, asked.lpoNumber);
    await runSaga(steps.slice(0, upTo), cut);
    expect(await stockOf(t, acacia._id)).toBe(5_000);
    expect((await batchOf(first._id)).booked).toBe(12_000);

    // Accepted again: it waits for the reconciler to undo the dead placement, then places anew.
    const again = service().place(asked);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.app.get(OrderPlacementService).reconcile({ olderThanMs: 0 });
    const order = await again;
    expect(order._id).not.toBe(cut.order!._id);
    expect(order.placement).toBe('placed');
    expect(await stockOf(t, acacia._id)).toBe(5_000);
    expect(await batchOf(first._id)).toMatchObject({ booked: 12_000, available: 8_000 });
    expect(await batchOf(second._id)).toMatchObject({ booked: 8_000, available: 2_000 });
    // Its credit claimed once: the limit (one order's total) refuses a shilling more.
    const more = [
      { productId: acacia._id, unitId: acacia.singleId, quantity: 1, unitPrice: 1, batchId: null },
    ];
    expect((await refusal(service().place(request(org, more, { deliveryFee: 0 })))).body).toEqual({
      message: QUOTATION_MESSAGES.creditLimit(total, 0),
      code: 'CREDIT_LIMIT',
    });
  });

  it('refuses the acceptance past the credit limit, and lets only one of two at once pass it', async () => {
    acacia = await newProduct(10_000);
    const line = (quantity: number) => [
      { productId: acacia._id, unitId: acacia.singleId, quantity, unitPrice: 30, batchId: null },
    ];
    // Each order: 1,000 × 30 + 2,500 = KES 32,500 against a limit of KES 50,000.
    const org = await approvedOrganisation(50_000);
    await service().place(request(org, line(1000)));
    const next = request(org, line(1000));
    const refused = await refusal(service().place(next));
    expect(refused).toEqual({
      status: 409,
      body: { message: QUOTATION_MESSAGES.creditLimit(50_000, 17_500), code: 'CREDIT_LIMIT' },
    });
    expect(await stockOf(t, acacia._id)).toBe(9_000);
    const orders = await t.http().get(`/api/orders?search=${next.lpoNumber}`).set(staff());
    expect(orders.body.orders ?? []).toEqual([]);

    const pair = await approvedOrganisation(50_000);
    const answers = await Promise.allSettled([
      service().place(request(pair, line(1000))),
      service().place(request(pair, line(1000))),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = answers.find((a) => a.status === 'rejected') as PromiseRejectedResult;
    expect((lost.reason as { getResponse(): { code: string } }).getResponse().code).toBe(
      'CREDIT_LIMIT',
    );
    expect(await stockOf(t, acacia._id)).toBe(8_000);
  });

  it('refuses lines stock and batches do not cover with SHORT, naming the batches that could grow them, holding nothing', async () => {
    acacia = await newProduct(500);
    const small = await newBatch(acacia._id, 1_000, 45);
    const big = await newBatch(acacia._id, 30_000, 120);
    const org = await approvedOrganisation(5_000_000);
    const asked = request(org, [
      {
        productId: acacia._id,
        unitId: acacia.singleId,
        quantity: 2_000,
        unitPrice: 30,
        batchId: null,
      },
      {
        productId: acacia._id,
        unitId: acacia.singleId,
        quantity: 3_000,
        unitPrice: 25,
        batchId: small._id,
      },
    ]);
    const refused = await refusal(service().place(asked));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'SHORT', message: QUOTATION_MESSAGES.short });
    const lines = refused.body.lines as QuotationShortLine[];
    expect(lines).toEqual([
      expect.objectContaining({
        source: { kind: 'stock' },
        seedlings: 2_000,
        available: 500,
        batches: [
          { _id: small._id, readyOn: small.readyOn, available: 1_000 },
          { _id: big._id, readyOn: big.readyOn, available: 30_000 },
        ],
      }),
      expect.objectContaining({
        source: { kind: 'batch', batchId: small._id },
        seedlings: 3_000,
        available: 1_000,
        batches: [{ _id: big._id, readyOn: big.readyOn, available: 30_000 }],
      }),
    ]);
    // Nothing held, nothing written.
    expect(await stockOf(t, acacia._id)).toBe(500);
    expect((await batchOf(small._id)).available).toBe(1_000);
    expect((await batchOf(big._id)).available).toBe(30_000);
    // The same quotation accepted again, covered now, makes its order.
    const covered = await service().place({
      ...asked,
      lines: [
        { ...asked.lines[1]!, quantity: 1_000 },
        { ...asked.lines[0]!, quantity: 500 },
      ],
    });
    expect(covered.quotation?.quotationId).toBe(asked.quotationId);
  });

  it('refuses an LPO number the organisation used already, however it is cased or spaced', async () => {
    acacia = await newProduct(10_000);
    const line = [
      {
        productId: acacia._id,
        unitId: acacia.singleId,
        quantity: 100,
        unitPrice: 30,
        batchId: null,
      },
    ];
    const org = await approvedOrganisation(5_000_000);
    await service().place(request(org, line, { lpoNumber: 'lpo 2026/114' }));
    const again = await refusal(service().place(request(org, line, { lpoNumber: ' LPO2026/114' })));
    expect(again).toEqual({
      status: 409,
      body: { message: QUOTATION_MESSAGES.lpoTaken, code: 'LPO_TAKEN' },
    });
    expect(await stockOf(t, acacia._id)).toBe(9_900);
    // Another organisation's LPO numbers are its own.
    const other = await approvedOrganisation(5_000_000);
    await service().place(request(other, line, { lpoNumber: 'LPO 2026/114' }));
  });

  it('gives the stock and both batch holds back once when the order is cancelled, and frees its credit; payment frees it too', async () => {
    const { first, second, lines } = await countyWorld();
    const total = 200 * 1200 + 20_000 * 25 + 2500;
    const org = await approvedOrganisation(total);
    const order = await service().place(request(org, lines));
    const small = [
      {
        productId: acacia._id,
        unitId: acacia.singleId,
        quantity: 10,
        unitPrice: 30,
        batchId: null,
      },
    ];
    expect((await refusal(service().place(request(org, small)))).body.code).toBe('CREDIT_LIMIT');

    await t.http().patch(`/api/orders/cancel/${order._id}`).set(staff()).send({}).expect(200);
    expect(await stockOf(t, acacia._id)).toBe(15_000);
    expect(await batchOf(first._id)).toMatchObject({ booked: 0, available: 20_000 });
    expect(await batchOf(second._id)).toMatchObject({ booked: 0, available: 10_000 });
    // Given back once: cancelled again, or the crash recovery's pass, moves nothing.
    await t.http().patch(`/api/orders/cancel/${order._id}`).set(staff()).send({}).expect(409);
    await t.app.get(OrderPlacementService).reconcile({ olderThanMs: 0 });
    expect(await stockOf(t, acacia._id)).toBe(15_000);
    expect((await batchOf(first._id)).available).toBe(20_000);
    expect((await batchOf(second._id)).available).toBe(10_000);

    // Its credit is free again: the small order passes, and once paid frees its own.
    const paidLater = await service().place(request(org, small));
    await t
      .http()
      .patch(`/api/orders/complete-payment/${paidLater._id}`)
      .set(staff())
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: paidLater.totalAmount } })
      .expect(200);
    await service().place(request(org, lines));
  });

  it("still refuses an ordinary shopper's line of 1,001 seedlings", async () => {
    const res = await t
      .http()
      .post('/api/orders')
      .send({ guestInfo: DELIVERY, products: [{ _id: world.productId, quantity: 1001 }] })
      .expect(400);
    expect(res.body.message).toContain('at most 1000');
  });
});
