/**
 * Orders signed with KRA eTIMS (issue 45) against the OSCU simulator (tools/etims/simulator.ts)
 * and the Daraja simulator: a paid order is signed once though M-Pesa's callback arrives twice,
 * each sale unit registered as its item first (and again when its classification changes); a
 * refund makes a credit note against it, never above it; OSCU offline for a while, then back:
 * every queued document signed once, in order; a rejected item (no classification; KRA's unknown
 * item) fixed and resent under its number; a crash between send and save reconciled without a
 * second invoice; a crash between the payment and the queue found by the sweep, by an index.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startEtimsSimulator, type EtimsSimulator } from '../../tools/etims/simulator';
import {
  ETIMS_DOCUMENTS_COLLECTION,
  type EtimsDocument,
} from '../src/etims/etims-documents.repository';
import { ETIMS_ITEMS_COLLECTION, type EtimsItem } from '../src/etims/etims-items.repository';
import { EtimsItems } from '../src/etims/etims-items.service';
import { EtimsQueue } from '../src/etims/etims-queue.service';
import { OscuClient, oscuTimestamp } from '../src/etims/oscu-client';
import { DELIVERY_ITEM_CLASS, OrderEtims } from '../src/orders/order-etims';
import { OrdersRepository } from '../src/orders/orders.repository';
import { SHOP_ACTOR } from '../src/orders/shop-actor';
import { bearer, registerCustomer, type Session } from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { putProduct } from './support/factories';
import { createProduct, DELIVERY, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { waitFor } from './support/wait';

const PIN = 'P000000000Z';
const CMC_KEY = 'local-cmc-key-not-secret';
const TOMATO_CLASS = '1015150000';
const FLOWER_CLASS = '1015190000';
const registrar = {
  regrId: 'dead',
  regrNm: 'Dead instance',
  modrId: 'dead',
  modrNm: 'Dead instance',
};
const DELIVERY_FEE = 200;

jest.setTimeout(180_000);

let phoneSeq = Math.floor(Math.random() * 80_000_000);
const newPhone = () => `07${10_000_000 + phoneSeq++}`;
const asDaraja = (phone: string) => `254${phone.slice(1)}`;
/** Far enough ahead that every retry's wait is over. */
const later = () => new Date(Date.now() + 2 * 3600_000);

interface Placed {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
  phone: string;
}

/** The stage names of a plan, every level down (rejected plans left out), as backoffice-explain reads them. */
function stagesOf(plan: unknown, found: string[] = []): string[] {
  if (!plan || typeof plan !== 'object') return found;
  if (Array.isArray(plan)) {
    for (const p of plan) stagesOf(p, found);
    return found;
  }
  for (const [key, value] of Object.entries(plan)) {
    if (key === 'rejectedPlans' || key === 'command') continue;
    if (key === 'stage' && typeof value === 'string') found.push(value);
    else stagesOf(value, found);
  }
  return found;
}

describe('eTIMS: orders signed', () => {
  let sim: EtimsSimulator;
  let m: MpesaTestApp;
  let db: Connection;
  let queue: EtimsQueue;
  let signing: OrderEtims;
  let items: EtimsItems;
  let kra: OscuClient;
  let staff: Session;
  let admin: Session;
  let tomatoId: string;
  let categoryId: string;

  const documents = () => db.collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION);
  const doc = async (source: string) => documents().findOne({ _id: source });
  const docsOf = (orderId: string) => documents().find({ orderId }).sort({ invcNo: 1 }).toArray();
  const invoicesOf = (trdInvcNo: string) => sim.invoices().filter((i) => i.trdInvcNo === trdInvcNo);
  const simItem = (itemCd: string) => sim.state.branches.get(`${PIN}/00`)?.items.get(itemCd);

  async function order(productId: string, quantity: number, phone = newPhone()): Promise<Placed> {
    const res = await placeOrder(m.t, [{ _id: productId, quantity }], {
      guestInfo: { ...DELIVERY, phoneNumber: phone },
    }).expect(201);
    return { ...(res.body.order as Placed), phone };
  }

  const payCash = (o: Placed) =>
    m.t
      .http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: o.totalAmount } })
      .expect(200);

  const orderAsStaff = async (id: string) =>
    (await m.t.http().get(`/api/orders/${id}`).set(bearer(staff.accessToken)).expect(200)).body
      .order;

  /** The document of a source, once it is in one of `states` (else the test fails here). */
  const settled = async (source: string, states = ['signed']): Promise<EtimsDocument> => {
    const found = await waitFor(
      () => doc(source),
      (d) => !!d && states.includes(d.state),
      30_000,
      100,
    );
    if (!found || !states.includes(found.state))
      throw new Error(
        `${source} is ${found?.state ?? 'not queued'}, not ${states.join(' or ')} (${found?.lastMessage ?? ''})`,
      );
    return found!;
  };

  beforeAll(async () => {
    sim = await startEtimsSimulator({ cmcKey: CMC_KEY });
    m = await createMpesaTestApp('etimso', {
      ETIMS_ENV: 'sandbox-local',
      ETIMS_BASE_URL: sim.apiUrl,
      ETIMS_TOKEN_URL: sim.tokenUrl,
      ETIMS_PORTAL_URL: sim.portalUrl,
      ETIMS_TIMEOUT_MS: '4000',
      // The suite drives the sender itself (and each enqueue's background pass).
      ETIMS_SEND_EVERY_MS: '3600000',
      ETIMS_RETRY_MS: '60000',
    });
    db = m.t.app.get<Connection>(getConnectionToken());
    queue = m.t.app.get(EtimsQueue);
    signing = m.t.app.get(OrderEtims);
    items = m.t.app.get(EtimsItems);
    let category: { _id: string };
    ({
      admin,
      staff,
      productId: tomatoId,
      category,
    } = await createShopWorld(m.t, {
      product: {
        price: 450,
        quantity: 10_000,
        name: 'Tomato seedlings',
        fields: { taxType: 'B', itemClassCode: TOMATO_CLASS },
      },
    }));
    categoryId = category._id;
    // Delivery to Kiambu (the test address) costs KES 200: the fee is a line of its own.
    await m.t
      .http()
      .post('/api/delivery/zones')
      .set(bearer(admin.accessToken))
      .send({ name: 'Kiambu', fee: DELIVERY_FEE, days: 2, areas: [{ county: 'Kiambu' }] })
      .expect(201);
    kra = new OscuClient({
      baseUrl: sim.apiUrl,
      tokenUrl: sim.tokenUrl,
      consumerKey: 'k',
      consumerSecret: 's',
      tin: PIN,
      bhfId: '00',
      deviceSerial: 'SPC-LOCAL-0001',
      cmcKey: CMC_KEY,
      timeoutMs: 5000,
    });
  }, 120_000);

  afterAll(async () => {
    await m?.close();
    await sim?.close();
  });

  afterEach(() => sim.setScenario('accepted'));

  let signedOrder: Placed;

  it('signs a paid order once, though M-Pesa’s callback arrives twice: its item registered first, the delivery fee a line', async () => {
    const o = await order(tomatoId, 2);
    expect(o.totalAmount).toBe(900 + DELIVERY_FEE);
    m.sim.setScenario('duplicate-callback', asDaraja(o.phone));
    const push = await m.t
      .http()
      .post('/api/payments/mpesa/stk-push')
      .send({ purchaseNumber: o.purchaseNumber, phoneNumber: o.phone })
      .expect(200);
    const done = await m.sim.settled(push.body.checkoutRequestId as string);
    expect(done.callbacksSent).toBe(2);
    const paid = await waitFor(
      () => orderAsStaff(o._id),
      (x) => x.paymentStatus === 'Paid',
      20_000,
      100,
    );

    const signed = await settled(`order:${o._id}:sale`);
    // Whatever arrives again (the event, the sweep) finds the same document.
    const record = (await m.t.app.get(OrdersRepository).findAnyById(o._id))!;
    expect(await signing.signPaid(record)).toBe(false);
    expect(await signing.sweep()).toBe(0);
    expect(await docsOf(o._id)).toHaveLength(1);
    const received = invoicesOf(o.purchaseNumber);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ resends: 0, invcNo: signed.invcNo });

    expect(signed.request).toMatchObject({
      rcptTyCd: 'S',
      pmtTyCd: '06',
      trdInvcNo: o.purchaseNumber,
      orgInvcNo: 0,
      // The tax point is the payment.
      cfmDt: oscuTimestamp(new Date(paid.paidAt)),
      totAmt: 1100,
      taxblAmtB: 1100,
      custTin: null,
    });
    const [seedlings, delivery] = signed.request.itemList;
    expect(seedlings).toMatchObject({
      itemCd: expect.stringMatching(/^KE2NTU\d{7}$/),
      itemClsCd: TOMATO_CLASS,
      itemNm: 'Tomato seedlings, Single seedling',
      qty: 2,
      prc: 450,
      taxTyCd: 'B',
      totAmt: 900,
    });
    expect(delivery).toMatchObject({
      itemCd: expect.stringMatching(/^KE3NTU\d{7}$/),
      itemClsCd: DELIVERY_ITEM_CLASS,
      itemNm: 'Delivery',
      qty: 1,
      prc: DELIVERY_FEE,
      taxTyCd: 'B',
    });
    // Each item registered once, as the sale names it; the simulator refuses an unregistered one.
    expect(simItem(seedlings!.itemCd)).toMatchObject({
      itemClsCd: TOMATO_CLASS,
      taxTyCd: 'B',
      itemTyCd: '2',
      dftPrc: 450,
    });
    expect(simItem(delivery!.itemCd)).toMatchObject({
      itemTyCd: '3',
      itemClsCd: DELIVERY_ITEM_CLASS,
    });
    const item = await db
      .collection<EtimsItem>(ETIMS_ITEMS_COLLECTION)
      .findOne({ itemCd: seedlings!.itemCd });
    expect(item).toMatchObject({
      key: `product:${tomatoId}:${tomatoId}`,
      registered: {
        itemClsCd: TOMATO_CLASS,
        taxTyCd: 'B',
        itemNm: 'Tomato seedlings, Single seedling',
      },
      registering: null,
    });
    expect(signed.signature?.qrUrl).toContain(signed.signature!.rcptSign);
    signedOrder = o;
  });

  it('makes a credit note of a refund against the sale, never above what is left of it (400)', async () => {
    const o = signedOrder;
    const sale = (await doc(`order:${o._id}:sale`))!;
    await m.t
      .http()
      .patch(`/api/orders/cancel/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Cash', amount: o.totalAmount, reference: 'cash back' } })
      .expect(200);
    const credit = await waitFor(
      async () => (await docsOf(o._id)).find((d) => d.kind === 'credit-note'),
      (d) => d?.state === 'signed',
      30_000,
      100,
    );
    expect(credit!._id).toMatch(/^refund:/);
    expect(credit).toMatchObject({
      original: sale._id,
      orgInvcNo: sale.invcNo,
      request: { rcptTyCd: 'R', orgInvcNo: sale.invcNo, totAmt: 1100, rfdRsnCd: '06' },
    });
    expect(credit!.invcNo).toBeGreaterThan(sale.invcNo);
    expect(sim.invoices().filter((i) => i.invcNo === credit!.invcNo)).toEqual([
      expect.objectContaining({ rcptTyCd: 'R', orgInvcNo: sale.invcNo, resends: 0 }),
    ]);

    // Nothing is left of the sale to credit: a further credit note is a 400, nothing written.
    const before = await documents().countDocuments();
    await expect(
      queue.enqueue({
        source: 'refund:test-over',
        kind: 'credit-note',
        original: sale._id,
        trdInvcNo: `${o.purchaseNumber}-X`,
        paymentType: '01',
        at: new Date(),
        lines: [sale.input.lines[0]!].map((l) => ({ ...l, qty: 1 })),
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(await documents().countDocuments()).toBe(before);
  });

  it('OSCU offline for a while, then back: every paid order signed once, in order', async () => {
    sim.setScenario('offline');
    const batch: Placed[] = [];
    for (let i = 0; i < 3; i++) {
      const o = await order(tomatoId, 1);
      await payCash(o);
      batch.push(o);
    }
    const queued = await waitFor(
      async () => Promise.all(batch.map((o) => doc(`order:${o._id}:sale`))),
      (ds) => ds.every((d) => d?.state === 'queued'),
      20_000,
      100,
    );
    await queue.sendDue();
    const head = (await doc(queued[0]!._id))!;
    expect(head).toMatchObject({ state: 'queued', lastCode: null });
    expect(head.attempts).toBeGreaterThanOrEqual(1);
    expect(invoicesOf(batch[0]!.purchaseNumber)).toEqual([]);

    sim.setScenario('accepted');
    expect(await queue.sendDue(later())).toBe(3);
    const numbers = queued.map((d) => d!.invcNo);
    expect(numbers).toEqual([numbers[0]!, numbers[0]! + 1, numbers[0]! + 2]);
    const received = batch.map((o) => invoicesOf(o.purchaseNumber));
    for (const r of received) expect(r).toEqual([expect.objectContaining({ resends: 0 })]);
    // Received in number order: KRA's receipt counter rises with the invoice number.
    const counters = received.map((r) => r[0]!.signature.totRcptNo);
    expect([...counters].sort((a, b) => a - b)).toEqual(counters);
    for (const d of queued)
      expect(await doc(d!._id)).toMatchObject({ state: 'signed', request: { pmtTyCd: '01' } });
    expect(sim.gaps()).toEqual({ [`${PIN}/00`]: [] });
  });

  it('keeps a sale of a product without a classification failed with why, and signs it once the product is fixed and it is resent', async () => {
    const bare = await createShopWorldProduct('Marigold seedlings');
    const o = await order(bare, 3);
    await payCash(o);
    const source = `order:${o._id}:sale`;
    const failed = await settled(source, ['failed']);
    expect(failed).toMatchObject({ lastCode: null, attempts: 0 });
    expect(failed.lastMessage).toContain('"Marigold seedlings" has no item classification code');
    expect(invoicesOf(o.purchaseNumber)).toEqual([]);
    expect(await queue.list(['failed'])).toContainEqual(expect.objectContaining({ _id: source }));

    // Resent before the fix: said again, nothing changes.
    await expect(queue.resendRebuilt(source)).rejects.toMatchObject({ status: 400 });
    expect(await doc(source)).toMatchObject({ state: 'failed', invcNo: failed.invcNo });

    await putProduct(m.t, staff.accessToken, bare, { itemClassCode: FLOWER_CLASS }).expect(200);
    await queue.resendRebuilt(source);
    const signed = await settled(source);
    expect(signed).toMatchObject({ invcNo: failed.invcNo, request: { invcNo: failed.invcNo } });
    expect(signed.request.itemList[0]).toMatchObject({ itemClsCd: FLOWER_CLASS, qty: 3 });
    expect(invoicesOf(o.purchaseNumber)).toHaveLength(1);
    expect(simItem(signed.request.itemList[0]!.itemCd)).toMatchObject({ itemClsCd: FLOWER_CLASS });
  });

  it('keeps KRA’s refusal of an unknown item, and signs it resent; a changed classification is registered again before the sale', async () => {
    sim.setScenario('unknown-item', { times: 1 });
    const o = await order(tomatoId, 1);
    await payCash(o);
    const source = `order:${o._id}:sale`;
    const failed = await settled(source, ['failed']);
    expect(failed).toMatchObject({ lastCode: '910' });
    expect(failed.lastMessage).toMatch(/itemCd KE2NTU\d{7} is not registered/);
    await queue.resendRebuilt(source);
    expect(await settled(source)).toMatchObject({ invcNo: failed.invcNo, lastCode: '000' });

    // The product moves to another class: the next sale registers its item again first (the
    // simulator refuses a sale in a class other than the registration's).
    await putProduct(m.t, staff.accessToken, tomatoId, { itemClassCode: FLOWER_CLASS }).expect(200);
    const next = await order(tomatoId, 1);
    await payCash(next);
    const signed = await settled(`order:${next._id}:sale`);
    const itemCd = signed.request.itemList[0]!.itemCd;
    expect(itemCd).toBe(failed.request.itemList[0]!.itemCd);
    expect(simItem(itemCd)).toMatchObject({ itemClsCd: FLOWER_CLASS });
    await putProduct(m.t, staff.accessToken, tomatoId, { itemClassCode: TOMATO_CLASS }).expect(200);
  });

  it('reconciles a crash between send and save: the same number resent, KRA’s first signature kept, no second invoice', async () => {
    sim.setScenario('offline');
    const o = await order(tomatoId, 1);
    await payCash(o);
    const source = `order:${o._id}:sale`;
    await settled(source, ['queued']);
    await queue.sendDue();
    sim.setScenario('accepted');
    // The dead instance's attempt: its items registered, KRA signed it, it died before saving.
    const request = (await doc(source))!.request;
    expect(await items.ensureRegistered(kra, request.itemList, registrar)).toMatchObject({
      kind: 'ok',
    });
    expect(await kra.sendSale(request)).toMatchObject({ kind: 'signed' });
    await documents().updateOne(
      { _id: source },
      {
        $set: {
          state: 'sending',
          sender: 'dead-instance',
          leaseUntil: new Date(Date.now() - 1000),
        },
      },
    );
    await queue.sendDue(later());
    const first = invoicesOf(o.purchaseNumber)[0]!.signature;
    expect(await doc(source)).toMatchObject({
      state: 'signed',
      lastCode: '994',
      sender: null,
      signature: { rcptSign: first.rcptSign, rcptNo: first.rcptNo },
    });
    expect(invoicesOf(o.purchaseNumber)).toEqual([
      expect.objectContaining({ resends: 1, conflictingResends: 0 }),
    ]);
  });

  it('queues by the sweep a paid order a crash kept from the queue, by an index, once', async () => {
    const o = await order(tomatoId, 1);
    // The instance dies between the payment's write and the queue: the listener never queues.
    const spy = jest.spyOn(queue, 'enqueue').mockRejectedValueOnce(new Error('crashed'));
    try {
      await payCash(o);
      await waitFor(
        async () => spy.mock.calls.length,
        (n) => n >= 1,
        10_000,
        50,
      );
    } finally {
      spy.mockRestore();
    }
    const source = `order:${o._id}:sale`;
    expect(await doc(source)).toBeNull();
    expect(await signing.sweep()).toBe(1);
    expect(await signing.sweep()).toBe(0);
    const signed = await settled(source);
    expect(signed.request).toMatchObject({ pmtTyCd: '01', trdInvcNo: o.purchaseNumber });
    expect(invoicesOf(o.purchaseNumber)).toHaveLength(1);

    // The sweep's read is served by an index, never a collection scan.
    const since = new Date(Date.now() - 7 * 86_400_000);
    const explained = await db.db!.command({
      explain: {
        find: 'orders',
        filter: { paymentStatus: 'Paid', paidAt: { $gte: since } },
        sort: { paidAt: 1 },
        limit: 200,
      },
      verbosity: 'queryPlanner',
    });
    const stages = stagesOf(explained);
    expect(stages.length).toBeGreaterThan(0);
    expect(stages).not.toContain('COLLSCAN');
  });

  it('allocates each sale unit’s item code once, gap-free, however many ask at once', async () => {
    const keys = ['a', 'b', 'c', 'd'].map((k) => `product:test-${k}:unit`);
    const codes = await Promise.all([...keys, ...keys].map((key) => items.codeOf(key, '2', 100)));
    expect(codes.slice(0, 4)).toEqual(codes.slice(4));
    const numbers = codes.slice(0, 4).map((c) => Number(c!.slice(-7)));
    expect(new Set(numbers).size).toBe(4);
    const all = await db
      .collection<EtimsItem>(ETIMS_ITEMS_COLLECTION)
      .find({})
      .sort({ seq: 1 })
      .toArray();
    expect(all.map((i) => i.seq)).toEqual(all.map((_, i) => i + 1));
  });

  it('signs a booking’s deposit when it is received and the balance when it is paid, adding up to the order', async () => {
    const batch = (
      await m.t
        .http()
        .post('/api/batches')
        .set(bearer(staff.accessToken))
        .send({
          productId: tomatoId,
          sownOn: new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10),
          readyOn: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
          started: 100,
        })
        .expect(201)
    ).body.batch as { _id: string };
    const phone = newPhone();
    const placed = await placeOrder(
      m.t,
      [{ _id: tomatoId, quantity: 3, batchId: batch._id } as never],
      {
        guestInfo: { ...DELIVERY, phoneNumber: phone },
      },
    ).expect(201);
    const o = placed.body.order as Placed & { booking: { deposit: number; balance: number } };
    const { deposit } = o.booking;
    expect(deposit).toBeGreaterThan(0);
    await m.t
      .http()
      .post(`/api/orders/${o._id}/booking/deposit`)
      .set(bearer(staff.accessToken))
      .send({ transactionCode: 'TDEPOSIT01', amount: deposit })
      .expect(200);
    const signedDeposit = await waitFor(
      async () => (await docsOf(o._id)).find((d) => d._id.startsWith(`order:${o._id}:deposit:`)),
      (d) => d?.state === 'signed',
      30_000,
      100,
    );
    expect(signedDeposit).toMatchObject({
      state: 'signed',
      request: { rcptTyCd: 'S', totAmt: deposit },
    });
    expect(await doc(`order:${o._id}:balance`)).toBeNull();

    // The balance paid at the desk: the rest is signed, once.
    await m.t
      .http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: o.totalAmount - deposit } })
      .expect(200);
    const balance = await settled(`order:${o._id}:balance`);
    expect(balance.request).toMatchObject({ totAmt: o.totalAmount - deposit, pmtTyCd: '01' });
    expect(balance.invcNo).toBeGreaterThan(signedDeposit!.invcNo);
    expect(await docsOf(o._id)).toHaveLength(2);
    expect(await signing.sweep()).toBe(0);
  });

  it('signs by the sweep a booking’s deposit and a refund whose listeners a crash lost, once', async () => {
    // The listeners die after the money moved (the instance crashed before it queued anything).
    const lost = jest.spyOn(queue, 'enqueue').mockRejectedValue(new Error('the instance stopped'));
    let o: Placed & { booking: { deposit: number } };
    try {
      const batch = (
        await m.t
          .http()
          .post('/api/batches')
          .set(bearer(staff.accessToken))
          .send({
            productId: tomatoId,
            sownOn: new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10),
            readyOn: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
            started: 100,
          })
          .expect(201)
      ).body.batch as { _id: string };
      o = (
        await placeOrder(m.t, [{ _id: tomatoId, quantity: 2, batchId: batch._id } as never], {
          guestInfo: { ...DELIVERY, phoneNumber: newPhone() },
        }).expect(201)
      ).body.order;
      await m.t
        .http()
        .post(`/api/orders/${o._id}/booking/deposit`)
        .set(bearer(staff.accessToken))
        .send({ transactionCode: 'TLOSTDEP01', amount: o.booking.deposit })
        .expect(200);
      const paid = await order(tomatoId, 1);
      await payCash(paid);
      await m.t
        .http()
        .patch(`/api/orders/cancel/${paid._id}`)
        .set(bearer(staff.accessToken))
        .send({ refund: { method: 'Cash', amount: paid.totalAmount, reference: 'cash back' } })
        .expect(200);
      expect(await docsOf(o._id)).toEqual([]);
      expect(await docsOf(paid._id)).toEqual([]);
      lost.mockRestore();

      await signing.sweep();
      const deposit = (await docsOf(o._id)).filter((d) => d._id.includes(':deposit:'));
      expect(deposit).toEqual([
        expect.objectContaining({
          request: expect.objectContaining({ totAmt: o.booking.deposit }),
        }),
      ]);
      const docs = await docsOf(paid._id);
      expect(docs.map((d) => d.kind)).toEqual(['sale', 'credit-note']);
      expect(docs[1]).toMatchObject({
        original: docs[0]!._id,
        request: { totAmt: paid.totalAmount },
      });

      // Swept again: nothing more.
      const count = await documents().countDocuments();
      await signing.sweep();
      expect(await documents().countDocuments()).toBe(count);
    } finally {
      lost.mockRestore();
    }
  });

  it('credits a booking’s refund once against its deposit and its balance, however often its listener runs (a crash midway)', async () => {
    const o = await affectedBooking();
    // The instance dies after the first credit note: the second original is not credited yet.
    const enqueue = queue.enqueue.bind(queue);
    let credits = 0;
    const spy = jest.spyOn(queue, 'enqueue').mockImplementation(async (input) => {
      if (input.kind === 'credit-note' && ++credits === 2) throw new Error('crashed');
      return enqueue(input);
    });
    try {
      await m.t
        .http()
        .post(`/api/orders/${o._id}/booking/refund`)
        .set(bearer(staff.accessToken))
        .expect(200);
      await waitFor(
        async () => credits,
        (n) => n >= 2,
        20_000,
        100,
      );
    } finally {
      spy.mockRestore();
    }
    const creditNotes = async () => (await docsOf(o._id)).filter((d) => d.kind === 'credit-note');
    expect(await creditNotes()).toHaveLength(1);

    // The listener runs again (a retry, a later refund's event), twice: the rest, once.
    const record = (await m.t.app.get(OrdersRepository).findAnyById(o._id))!;
    expect(record.refundOut.length).toBeGreaterThan(0);
    for (let run = 0; run < 2; run++)
      await signing.onBookingRefunded({ order: record, actor: SHOP_ACTOR });
    const notes = await creditNotes();
    const sales = (await docsOf(o._id)).filter((d) => d.kind === 'sale');
    expect(sales).toHaveLength(2);
    expect(notes.map((n) => n.original).sort()).toEqual(sales.map((d) => d._id).sort());
    for (const d of sales)
      expect(notes.find((n) => n.original === d._id)!.request.totAmt).toBe(d.request.totAmt);
    expect(notes.reduce((n, d) => n + Math.round(d.request.totAmt * 100), 0)).toBe(
      o.amountPaid * 100,
    );
  });

  it('registers a customer’s own refund as the shop, never the customer, with KRA', async () => {
    const customer = await registerCustomer(m.t, { fullName: 'Achieng Otieno' });
    const o = await affectedBooking({ token: customer.accessToken, paidInFull: false });
    await m.t
      .http()
      .post(`/api/orders/${o._id}/booking/refund`)
      .set(bearer(customer.accessToken))
      .expect(200);
    const notes = await waitFor(
      async () => (await docsOf(o._id)).filter((d) => d.kind === 'credit-note'),
      (ds) => ds.length === 1,
      20_000,
      100,
    );
    expect(notes).toHaveLength(1);
    for (const note of notes) {
      expect(note.input.by ?? null).toBeNull();
      expect(note.request).toMatchObject({ regrNm: 'system', modrNm: 'system' });
      expect(JSON.stringify(note)).not.toContain('Achieng');
    }
  });

  /**
   * A booking (a customer's when `token` is given) whose deposit was paid (and its balance, unless
   * told), each signed, whose batch then failed: affected, to be refunded.
   */
  async function affectedBooking({
    token,
    paidInFull = true,
  }: { token?: string; paidInFull?: boolean } = {}): Promise<Placed & { amountPaid: number }> {
    const batch = (
      await m.t
        .http()
        .post('/api/batches')
        .set(bearer(staff.accessToken))
        .send({
          productId: tomatoId,
          sownOn: new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10),
          readyOn: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
          started: 100,
        })
        .expect(201)
    ).body.batch as { _id: string };
    const placed = await placeOrder(
      m.t,
      [{ _id: tomatoId, quantity: 3, batchId: batch._id } as never],
      { token, guestInfo: { ...DELIVERY, phoneNumber: newPhone() } },
    ).expect(201);
    const o = placed.body.order as Placed & { booking: { deposit: number } };
    await m.t
      .http()
      .post(`/api/orders/${o._id}/booking/deposit`)
      .set(bearer(staff.accessToken))
      .send({
        transactionCode: `TD${String(phoneSeq++).padStart(8, '0')}`,
        amount: o.booking.deposit,
      })
      .expect(200);
    if (paidInFull)
      await m.t
        .http()
        .patch(`/api/orders/complete-payment/${o._id}`)
        .set(bearer(staff.accessToken))
        .send({
          paymentMethod: 'Cash',
          paymentDetails: { amount: o.totalAmount - o.booking.deposit },
        })
        .expect(200);
    await waitFor(
      async () => (await docsOf(o._id)).filter((d) => d.state === 'signed'),
      (ds) => ds.length === (paidInFull ? 2 : 1),
      30_000,
      100,
    );
    await m.t
      .http()
      .post(`/api/batches/${batch._id}/fail`)
      .set(bearer(staff.accessToken))
      .send({ note: 'Damping off' })
      .expect(201);
    return { ...o, amountPaid: paidInFull ? o.totalAmount : o.booking.deposit };
  }

  /** A product taxed at the shop's default, with no classification code. */
  async function createShopWorldProduct(name: string): Promise<string> {
    const product = await createProduct(m.t, staff.accessToken, categoryId, {
      productName: name,
      price: 120,
      initialPrice: 120,
      productQuantity: 500,
    });
    return product._id;
  }
});
