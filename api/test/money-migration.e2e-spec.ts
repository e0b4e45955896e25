/**
 * The money-ledger migration (issue 38) on a database of the old shape: orders paid at the desk, in
 * cash, by M-Pesa Express and by the paybill (in parts, over-paid and the excess sent back), a
 * booking's deposit and balance, cancelled orders with their refunds sent by M-Pesa or given back in
 * cash, payments waiting in the inbox or reversed from it. Written as the API wrote them before the
 * ledger, migrated twice; then every payment is one entry, money:check agrees, and the back office
 * can refund a migrated order.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Db } from 'mongodb';
import { Types, type Connection } from 'mongoose';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { migrateMoneyLedger } from '../src/money/migrations/money-ledger.migration';
import { bearer } from './support/identity';
import { placeOrder, guest } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

/** A document keyed by a string, as the M-Pesa records are. */
type StringIdDoc = { _id: string } & Record<string, unknown>;

const MPESA = { completedById: 'mpesa-express', completedByName: 'M-Pesa Express' };
const PAYER = '254712000333';

describe('money ledger migration', () => {
  let t: TestApp;
  let world: ShopWorld;
  let base: Record<string, unknown>;
  let seq = 0;
  const db = () => t.app.get<Connection>(getConnectionToken()).db! as unknown as Db;

  beforeAll(async () => {
    t = await createTestApp({ name: 'money_migration' });
    world = await createShopWorld(t, { product: { price: 500, quantity: 1000 } });
    // An order as the API stores it, to copy: the old shape differs only in its money.
    const res = await placeOrder(t, [{ _id: world.productId, quantity: 2 }], {
      guestInfo: guest(),
    }).expect(201);
    base = (await db()
      .collection('orders')
      .findOne({ _id: new Types.ObjectId(res.body.order._id as string) }))!;
  }, 60_000);
  afterAll(() => t.close());

  /** An order of the old shape: KES 1,000, with the money fields given. */
  async function oldOrder(money: Record<string, unknown>): Promise<{ id: string; pn: string }> {
    const _id = new Types.ObjectId();
    const pn = `SPDMG${String(++seq).padStart(6, '0')}`;
    // Not the copied order's open-order slots, search keys or ledger credits: the old shape had none.
    const { holdSlots: _slots, contactKeys: _keys, moneyCredits: _credits, ...shape } = base;
    await db()
      .collection('orders')
      .insertOne({
        ...shape,
        _id,
        purchaseNumber: pn,
        subtotal: 1000,
        shippingFee: 0,
        totalAmount: 1000,
        orderStatus: 'Pending',
        paymentStatus: 'Pending',
        paymentMethod: null,
        paymentDetails: null,
        paidAt: null,
        amountPaid: 0,
        ...money,
      });
    return { id: _id.toHexString(), pn };
  }

  const clerk = () => ({
    completedById: world.staff.user._id,
    completedByName: world.staff.user.fullName,
  });
  const paid = (method: 'Mpesa' | 'Cash', code: string, amount = 1000, by = clerk()) => ({
    orderStatus: 'Processing',
    paymentStatus: 'Paid',
    paymentMethod: method,
    paidAt: new Date(),
    paymentDetails: {
      amount,
      transactionCode: code,
      timePaid: new Date(),
      ...by,
      ...(method === 'Mpesa' && code ? { receiptKey: code } : {}),
    },
  });

  /** A paybill payment as the API recorded it before the ledger. */
  const paybill = (
    transId: string,
    amount: number,
    order: { id: string; pn: string } | null,
    more = {},
  ) =>
    db()
      .collection<StringIdDoc>('mpesa_c2b_payments')
      .insertOne({
        _id: transId,
        amount,
        account: order?.pn ?? 'seedlings',
        phone: PAYER,
        payerName: 'WANJIRU',
        paidAt: new Date(),
        shortcode: '174379',
        status: order ? 'matched' : 'inbox',
        reason: order ? '' : 'No open order has the account number "seedlings"',
        orderId: order?.id ?? null,
        purchaseNumber: order?.pn ?? null,
        matchedBy: order ? 'account' : null,
        excess: 0,
        refundId: null,
        confirmations: 1,
        queryConversationId: `AG_${transId}`,
        queries: 1,
        lastQueriedAt: new Date(),
        createdAt: new Date(),
        updatedAt: new Date(),
        ...more,
      });

  const transfer = (
    id: string,
    method: 'reversal' | 'b2c',
    amount: number,
    orderId: string | null,
    original: string,
  ) =>
    db()
      .collection<StringIdDoc>('mpesa_refunds')
      .insertOne({
        _id: id,
        method,
        amount,
        orderId,
        purchaseNumber: null,
        originalTransId: original,
        phone: method === 'b2c' ? PAYER : '',
        status: 'sent',
        attempts: 1,
        originatorConversationId: `OC_${id}`,
        conversationId: `AG_${id}`,
        resultCode: '0',
        resultDesc: 'The service request is processed successfully.',
        transactionId: `QT${String(++seq).padStart(8, '0')}`,
        requestedByName: 'Grace Njeri',
        claimedAt: new Date(),
        createdAt: new Date(),
        updatedAt: new Date(),
      });

  const refund = (
    orderId: string,
    pn: string,
    method: 'Mpesa' | 'Cash',
    amount: number,
    send: boolean,
  ) =>
    db()
      .collection('order_refunds')
      .insertOne({
        orderId,
        purchaseNumber: pn,
        method,
        amount,
        reference: send ? '' : 'cash given back',
        ...(send ? { sendByMpesa: true } : {}),
        refundedById: world.staff.user._id,
        refundedByName: world.staff.user.fullName,
        refundedAt: new Date(),
      });

  const entry = (id: string) =>
    db().collection<StringIdDoc>('money_entries').findOne({ _id: id }) as Promise<Record<
      string,
      unknown
    > | null>;
  const order = (id: string) =>
    db()
      .collection('orders')
      .findOne({ _id: new Types.ObjectId(id) }) as Promise<Record<string, unknown>>;

  it('moves every payment, refund and paybill record into the ledger, once, and money:check agrees', async () => {
    // Paid at the desk with a code, in cash, and by a prompt.
    const desk = await oldOrder(paid('Mpesa', 'QDESK00001'));
    const cash = await oldOrder(paid('Cash', ''));
    const stk = await oldOrder(paid('Mpesa', 'QSTK000001', 1000, MPESA));
    await db()
      .collection<StringIdDoc>('mpesa_pushes')
      .insertOne({
        _id: 'ws_CO_2611202612000001',
        merchantRequestId: 'm-1',
        orderId: stk.id,
        purchaseNumber: stk.pn,
        phone: PAYER,
        amount: 1000,
        status: 'paid',
        message: 'Payment received. Thank you!',
        receipt: 'QSTK000001',
        receipts: ['QSTK000001'],
        receiptDisputed: false,
        callbackCount: 1,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
    // The paybill in two parts, over-paid by KES 100, the excess sent back by B2C.
    const twoParts = await oldOrder({
      ...paid('Mpesa', 'QPB0000002', 1000, MPESA),
      amountPaid: 1100,
      mpesaCredits: [
        { transId: 'QPB0000001', amount: 600, at: new Date() },
        { transId: 'QPB0000002', amount: 500, at: new Date() },
      ],
    });
    await paybill('QPB0000001', 600, twoParts);
    await paybill('QPB0000002', 500, twoParts, { excess: 100, refundId: 'excess:QPB0000002' });
    await transfer('excess:QPB0000002', 'b2c', 100, twoParts.id, 'QPB0000002');
    // Part-paid by the paybill, still pending.
    const part = await oldOrder({
      amountPaid: 300,
      mpesaCredits: [{ transId: 'QPB0000003', amount: 300, at: new Date() }],
    });
    await paybill('QPB0000003', 300, part);
    // A booking: its deposit recorded by a clerk, its balance paid at the desk.
    const booking = await oldOrder({
      ...paid('Mpesa', 'QBAL000001', 700),
      amountPaid: 1000,
      mpesaCredits: [{ transId: 'QDEP000001', amount: 300, at: new Date() }],
      booking: {
        ...(base.booking as object),
        batchId: new Types.ObjectId().toHexString(),
        productName: 'Hass avocado',
        readyOn: '2027-01-10',
        depositPercent: 30,
        deposit: 300,
        balance: 700,
        state: 'Paid',
        depositPaidAt: new Date(),
        depositReceipt: 'QDEP000001',
        balancePaidAt: new Date(),
      },
    });
    // Cancelled: paid by the paybill, refunded by a reversal; paid in cash, refunded in cash.
    const reversed = await oldOrder({
      ...paid('Mpesa', 'QPB0000004', 1000, MPESA),
      orderStatus: 'Cancelled',
      amountPaid: 1000,
      mpesaCredits: [{ transId: 'QPB0000004', amount: 1000, at: new Date() }],
    });
    await paybill('QPB0000004', 1000, reversed);
    await refund(reversed.id, reversed.pn, 'Mpesa', 1000, true);
    await transfer(`order:${reversed.id}`, 'reversal', 1000, reversed.id, 'QPB0000004');
    const cashBack = await oldOrder({ ...paid('Cash', ''), orderStatus: 'Cancelled' });
    await refund(cashBack.id, cashBack.pn, 'Cash', 1000, false);
    // In the inbox; and one given back from it.
    await paybill('QPB0000005', 250, null);
    await paybill('QPB0000006', 400, null, { status: 'refund', refundId: 'payment:QPB0000006' });
    await transfer('payment:QPB0000006', 'reversal', 400, null, 'QPB0000006');

    // Before: the old money is nowhere in the ledger, and the check says so; a refund is refused.
    const before = await checkMoneyLedger(db());
    expect(before.problems).toEqual(
      expect.arrayContaining([
        `order ${desk.pn} is Paid with KES 0 of KES 1,000 received`,
        `paybill payment QPB0000003 is matched to order ${part.id} but has no entry`,
      ]),
    );
    const refused = await t
      .http()
      .patch(`/api/orders/cancel/${desk.id}`)
      .set(bearer(world.staff.accessToken))
      .send({ refund: { method: 'Mpesa', amount: 1000, reference: 'QBACK00001' } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/run the migration/);

    const first = await migrateMoneyLedger(db());
    expect(first).toMatchObject({ migrated: 8, entriesIn: 12, entriesOut: 4, notes: [] });
    const snapshot = async () => ({
      entries: await db().collection('money_entries').find().sort({ _id: 1 }).toArray(),
      orders: await db()
        .collection('orders')
        .find({}, { projection: { moneyCredits: 1, amountPaid: 1 } })
        .sort({ _id: 1 })
        .toArray(),
    });
    const after = await snapshot();
    // Twice: nothing more.
    expect(await migrateMoneyLedger(db())).toEqual({
      migrated: 0,
      alreadyMigrated: 8,
      entriesIn: 0,
      entriesOut: 0,
      notes: [],
    });
    expect(await snapshot()).toEqual(after);

    expect(await entry(`desk-mpesa:${desk.id}`)).toMatchObject({
      direction: 'in',
      kind: 'desk-mpesa',
      code: 'QDESK00001',
      amount: 1000,
      state: 'credited',
      orderId: desk.id,
      byName: world.staff.user.fullName,
    });
    expect(await entry(`cash:${cash.id}`)).toMatchObject({ kind: 'cash', amount: 1000 });
    expect(await entry('stk:ws_CO_2611202612000001')).toMatchObject({
      kind: 'mpesa-express',
      code: 'QSTK000001',
      payer: PAYER,
      orderId: stk.id,
    });
    expect(await order(twoParts.id)).toMatchObject({
      amountPaid: 1100,
      moneyCredits: [
        { entry: 'c2b:QPB0000001', amount: 600, deposit: 0, balance: 600, excess: 0 },
        { entry: 'c2b:QPB0000002', amount: 500, deposit: 0, balance: 400, excess: 100 },
      ],
    });
    expect(await entry('c2b:QPB0000002')).toMatchObject({
      returned: 100,
      returnable: 400,
      returns: [{ out: 'excess:QPB0000002', amount: 100 }],
    });
    expect(await entry('excess:QPB0000002')).toMatchObject({
      direction: 'out',
      kind: 'b2c',
      amount: 100,
      of: 'c2b:QPB0000002',
      payer: PAYER,
      purpose: 'excess',
      send: true,
      transfer: 'excess:QPB0000002',
    });
    expect(await order(part.id)).toMatchObject({ amountPaid: 300, paymentStatus: 'Pending' });
    expect(await order(booking.id)).toMatchObject({
      amountPaid: 1000,
      moneyCredits: [
        { amount: 300, deposit: 300, balance: 0, excess: 0 },
        { entry: `desk-mpesa:${booking.id}`, amount: 700, deposit: 0, balance: 700 },
      ],
    });
    expect(await db().collection('money_entries').findOne({ code: 'QDEP000001' })).toMatchObject({
      kind: 'desk-mpesa',
      amount: 300,
      orderId: booking.id,
    });
    const back = await db()
      .collection('money_entries')
      .findOne({ orderId: reversed.id, direction: 'out' });
    expect(await order(reversed.id)).toMatchObject({ refundOut: [back!._id] });
    expect(back).toMatchObject({
      kind: 'reversal',
      amount: 1000,
      of: 'c2b:QPB0000004',
      purpose: 'refund',
      send: true,
      transfer: `order:${reversed.id}`,
    });
    expect(
      await db().collection('money_entries').findOne({ orderId: cashBack.id, direction: 'out' }),
    ).toMatchObject({ kind: 'cash', amount: 1000, send: false, reference: 'cash given back' });
    expect(await entry('c2b:QPB0000005')).toMatchObject({ state: 'open', orderId: null });
    expect(await entry('payment:QPB0000006')).toMatchObject({
      kind: 'reversal',
      purpose: 'inbox',
      transfer: 'payment:QPB0000006',
    });

    // Every order, entry and M-Pesa record agrees.
    expect((await checkMoneyLedger(db())).problems).toEqual([]);

    // What the back office sees, and a migrated paid order refunded as any other.
    const detail = await t
      .http()
      .get(`/api/orders/${twoParts.id}/detail`)
      .set(bearer(world.staff.accessToken))
      .expect(200);
    expect(detail.body.money).toMatchObject({ received: 1100, refunded: 100, refundable: 1000 });
    await t
      .http()
      .patch(`/api/orders/cancel/${desk.id}`)
      .set(bearer(world.staff.accessToken))
      .send({ refund: { method: 'Mpesa', amount: 1000, reference: 'QBACK00001' } })
      .expect(200);
    expect((await checkMoneyLedger(db())).problems).toEqual([]);
  }, 120_000);

  it('keeps one code on one entry: a code two orders were paid with before the ledger is named for a person to check', async () => {
    const first = await oldOrder({
      amountPaid: 400,
      mpesaCredits: [{ transId: 'QDUP000001', amount: 400, at: new Date() }],
    });
    await paybill('QDUP000001', 400, first);
    const second = await oldOrder(paid('Mpesa', 'QDUP000001'));
    const migrated = await migrateMoneyLedger(db());
    expect(migrated.notes).toEqual([
      `the code QDUP000001 is on a payment of order ${first.pn} and of order ${second.pn}: counted twice before the ledger; the second is kept without the code, check the M-Pesa statement`,
    ]);
    expect(await entry(`desk-mpesa:${second.id}`)).toMatchObject({
      amount: 1000,
      reference: 'QDUP000001',
    });
    expect((await entry(`desk-mpesa:${second.id}`))!.code).toBeUndefined();
    // The check does not let it pass: the second order's code is the first order's payment.
    expect((await checkMoneyLedger(db())).problems).toEqual([
      `entry desk-mpesa:${second.id} is an M-Pesa payment without its code: one code may count twice`,
      `order ${second.pn} was paid with QDUP000001, whose entry c2b:QDUP000001 is 'credited' to ${first.id}`,
    ]);
  }, 60_000);
});
