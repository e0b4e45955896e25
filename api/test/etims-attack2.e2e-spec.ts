/**
 * KRA eTIMS attacked again (issue 45): the paths built last (refunds' credit notes waiting for their
 * sale, the back office's resend and rebuild, invoices on account signed) against a live API on
 * the test database and the OSCU simulator, as a careless clerk would go at them. Each test is
 * named for what the shop should do, and was written failing: one per hole found.
 */
import { randomInt } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startEtimsSimulator, type EtimsSimulator } from '../../tools/etims/simulator';
import {
  ETIMS_DOCUMENTS_COLLECTION,
  type EtimsDocument,
} from '../src/etims/etims-documents.repository';
import { EtimsQueue } from '../src/etims/etims-queue.service';
import { EtimsStock } from '../src/etims/etims-stock.service';
import { OrderEtims } from '../src/orders/order-etims';
import { etimsEnv, SANDBOX_CMC_KEY } from './support/etims';
import { createProduct, putProduct } from './support/factories';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import { guest } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import { countyOrder, countyPeople, site, today, type CountyOrder } from './support/tranches';
import { waitFor } from './support/wait';

jest.setTimeout(180_000);

const TOMATO_CLASS = '1015150000';
/** Far enough ahead that every retry's wait is over. */
const later = () => new Date(Date.now() + 2 * 3600_000);

interface Placed {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
}

/** A PIN of the right form no other test uses: A (a person), 9 digits, a letter. */
const personPin = () => `A${String(randomInt(1e9)).padStart(9, '0')}${'QWXZ'[randomInt(4)]}`;

/** The app, the simulator and the documents, with the waits every test here needs. */
function etimsWorld(name: string) {
  const s = {} as {
    sim: EtimsSimulator;
    t: TestApp;
    world: ShopWorld;
    staff: Session;
    db: Connection;
    queue: EtimsQueue;
  };
  const documents = () => s.db.collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION);

  /** The document of a source once it is in one of `states` (the sender driven), else null. */
  async function reaches(source: string, states: string[]): Promise<EtimsDocument | null> {
    const found = await waitFor(
      async () => {
        await s.queue.sendDue(later());
        return documents().findOne({ _id: source });
      },
      (d) => !!d && states.includes(d.state),
      30_000,
      200,
    );
    return found && states.includes(found.state) ? found : null;
  }

  const resend = (source: string, body: unknown) =>
    s.t
      .http()
      .post(`/api/etims/documents/${encodeURIComponent(source)}/resend`)
      .set(bearer(s.staff.accessToken))
      .send(body as object);

  beforeAll(async () => {
    s.sim = await startEtimsSimulator({ cmcKey: SANDBOX_CMC_KEY });
    s.t = await createTestApp({ name, env: { ...UNTHROTTLED, ...etimsEnv(s.sim) } });
    s.db = s.t.app.get<Connection>(getConnectionToken());
    s.queue = s.t.app.get(EtimsQueue);
    s.world = await createShopWorld(s.t, {
      product: {
        price: 450,
        quantity: 10_000,
        name: 'Tomato seedlings',
        fields: { taxType: 'B', itemClassCode: TOMATO_CLASS },
      },
    });
    s.staff = s.world.staff;
  }, 120_000);

  afterAll(async () => {
    await s.t?.close();
    await s.sim?.close();
  });

  afterEach(() => s.sim.setScenario('accepted'));

  return { s, documents, reaches, resend };
}

describe('eTIMS attacked again: refunds, resends', () => {
  const { s, documents, reaches, resend } = etimsWorld('etimsattack2');
  const http = () => s.t.http();
  const saleOf = (o: Placed) => `order:${o._id}:sale`;

  /** A guest's paid (cash) order of one tomato seedling, naming them by a PIN KRA refuses once. */
  async function refusedSale(): Promise<Placed> {
    // What an earlier test resent goes first, so KRA's one refusal is this sale's.
    await s.queue.sendDue(later());
    s.sim.setScenario('invalid-buyer-pin', { times: 1 });
    const placed = await http()
      .post('/api/orders')
      .send({
        guestInfo: guest(),
        products: [{ _id: s.world.productId, quantity: 1 }],
        kraPin: personPin(),
      })
      .expect(201);
    const o = placed.body.order as Placed;
    await http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(s.staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: o.totalAmount } })
      .expect(200);
    const sale = await reaches(saleOf(o), ['failed', 'signed']);
    expect({ state: sale?.state, lastCode: sale?.lastCode }).toEqual({
      state: 'failed',
      lastCode: '910',
    });
    return o;
  }

  it('a resend with a PIN of only spaces is a 400 naming buyerPin, and keeps the buyer (only an empty PIN removes them)', async () => {
    const o = await refusedSale();
    const before = (await documents().findOne({ _id: saleOf(o) }))!;
    // The spellings that are no PIN at all: refused, or (null) the same as none given.
    for (const body of [{ buyerPin: 0 }, { buyerPin: false }, { buyerPin: '\u200b' }])
      await resend(saleOf(o), body).expect(400);
    expect((await documents().findOne({ _id: saleOf(o) }))!.state).toBe('failed');
    // A clerk's stray space in the PIN box is not the "Remove the buyer" button.
    const spaces = await resend(saleOf(o), { buyerPin: ' ' });
    expect({
      status: spaces.status,
      buyer: (await documents().findOne({ _id: saleOf(o) }))!.input.buyer,
    }).toEqual({
      status: 400,
      buyer: before.input.buyer,
    });
  });

  it("a refund's credit note that waited for its sale is signed with the sale's lines as KRA signed them (a tax type fixed at the sale's resend)", async () => {
    const o = await refusedSale();
    await http()
      .patch(`/api/orders/cancel/${o._id}`)
      .set(bearer(s.staff.accessToken))
      .send({ refund: { method: 'Cash', amount: o.totalAmount, reference: 'cash back' } })
      .expect(200);
    const waiting = await waitFor(
      () => documents().findOne({ orderId: o._id, kind: 'credit-note' }),
      (d) => !!d,
      10_000,
      100,
    );
    expect(waiting).not.toBeNull();
    // The clerk finds the seedlings were exempt all along, fixes the product and resends the sale.
    await putProduct(s.t, s.staff.accessToken, s.world.productId, { taxType: 'A' }).expect(200);
    try {
      await resend(saleOf(o), { buyerPin: '' }).expect(200);
      const sale = (await reaches(saleOf(o), ['signed']))!;
      expect(sale.request.itemList.map((l) => l.taxTyCd)).toEqual(['A']);
      const credit = (await reaches(waiting!._id, ['signed', 'failed']))!;
      expect(credit.state).toBe('signed');
      // A whole refund credits what the sale charged: the same lines, the same tax (none).
      expect({
        taxTypes: credit.request.itemList.map((l) => l.taxTyCd),
        totTaxAmt: credit.request.totTaxAmt,
        totAmt: credit.request.totAmt,
      }).toEqual({
        taxTypes: sale.request.itemList.map((l) => l.taxTyCd),
        totTaxAmt: sale.request.totTaxAmt,
        totAmt: sale.request.totAmt,
      });
    } finally {
      await putProduct(s.t, s.staff.accessToken, s.world.productId, { taxType: 'B' }).expect(200);
    }
  });
  it('a refund of a sale held back for a missing classification is queued and waits for its sale; once the sale is fixed and signed, it is signed', async () => {
    await s.queue.sendDue(later());
    const product = await createProduct(s.t, s.staff.accessToken, s.world.category._id, {
      taxType: 'B',
      productQuantity: 100,
    });
    const placed = await http()
      .post('/api/orders')
      .send({ guestInfo: guest(), products: [{ _id: product._id, quantity: 1 }] })
      .expect(201);
    const o = placed.body.order as Placed;
    await http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(s.staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: o.totalAmount } })
      .expect(200);
    expect((await reaches(saleOf(o), ['failed']))?.lastMessage).toContain('classification');
    await http()
      .patch(`/api/orders/cancel/${o._id}`)
      .set(bearer(s.staff.accessToken))
      .send({ refund: { method: 'Cash', amount: o.totalAmount, reference: 'cash back' } })
      .expect(200);
    // Days later the clerk sets the classification and resends the sale.
    await putProduct(s.t, s.staff.accessToken, product._id, {
      itemClassCode: TOMATO_CLASS,
    }).expect(200);
    await resend(saleOf(o), {}).expect(200);
    await reaches(saleOf(o), ['signed']);
    await s.t.app.get(OrderEtims).sweep(new Date(Date.now() + 3 * 86_400_000));
    const credit = await waitFor(
      async () => {
        await s.queue.sendDue(later());
        return documents().findOne({ orderId: o._id, kind: 'credit-note' });
      },
      (d) => d?.state === 'signed',
      15_000,
      200,
    );
    expect({ state: credit?.state, totAmt: credit?.request.totAmt }).toEqual({
      state: 'signed',
      totAmt: o.totalAmount,
    });
  });
});

describe('eTIMS attacked again: invoices on account', () => {
  const { s, documents, reaches, resend } = etimsWorld('etimsattack2_invoices');
  const http = () => s.t.http();
  const staff = () => bearer(s.staff.accessToken);

  /** The county's order on account, its product classified, T1 (200 trays) delivered. */
  async function delivered(): Promise<CountyOrder> {
    const who = await countyPeople(s.t, s.world, { onAccount: true });
    const o = await countyOrder(s.t, s.world, who, { onAccount: true });
    await Promise.all(
      [o.first._id, o.second._id].map((b) =>
        http().post(`/api/batches/${b}/ready`).set(staff()).send({}).expect(201),
      ),
    );
    await putProduct(s.t, s.staff.accessToken, o.acacia._id, {
      taxType: 'B',
      itemClassCode: TOMATO_CLASS,
    }).expect(200);
    await http()
      .post(`/api/orders/${o.orderId}/tranches`)
      .set(staff())
      .send({ site: site(), date: today(), lines: [{ ...o.lines.stock, quantity: 200 }] })
      .expect(201);
    await http()
      .post(`/api/orders/${o.orderId}/tranches/1/dispatch`)
      .set(staff())
      .send({})
      .expect(200);
    await http()
      .post(`/api/orders/${o.orderId}/tranches/1/delivery`)
      .set(staff())
      .send({ signedBy: 'Peter Mwangi', signedAt: new Date().toISOString() })
      .expect(200);
    return o;
  }

  it('an invoice on account KRA refused cannot be resent with its organisation removed (a credit sale names who owes it): 400, the buyer kept', async () => {
    s.sim.setScenario('invalid-buyer-pin', { times: 1 });
    const o = await delivered();
    const invoices = await http().get(`/api/orders/${o.orderId}/invoices`).set(staff()).expect(200);
    const source = `invoice:${invoices.body.invoices[0].id}`;
    const failed = (await reaches(source, ['failed']))!;
    expect(failed.request.pmtTyCd).toBe('02');
    const removed = await resend(source, { buyerPin: '' });
    const doc = (await documents().findOne({ _id: source }))!;
    expect({ status: removed.status, custTin: doc.request.custTin }).toEqual({
      status: 400,
      custTin: failed.request.custTin,
    });
  });
  it("an invoice's credit note that waited for the invoice is signed with the invoice's lines as KRA signed them (a tax type fixed at its resend)", async () => {
    await s.queue.sendDue(later());
    s.sim.setScenario('invalid-buyer-pin', { times: 1 });
    const o = await delivered();
    const invoices = await http().get(`/api/orders/${o.orderId}/invoices`).set(staff()).expect(200);
    const invoice = invoices.body.invoices[0] as { id: string; total: number };
    const source = `invoice:${invoice.id}`;
    expect((await reaches(source, ['failed']))?.lastCode).toBe('910');
    const given = await http()
      .post(`/api/invoices/${invoice.id}/credit-notes`)
      .set(staff())
      .send({ reason: 'return', amount: invoice.total, note: 'All returned' })
      .expect(201);
    const note = given.body.invoice.creditNotes[0] as { id: string };
    // The clerk finds the acacia was exempt all along, fixes it and resends the invoice.
    await putProduct(s.t, s.staff.accessToken, o.acacia._id, { taxType: 'A' }).expect(200);
    await resend(source, {}).expect(200);
    const signed = (await reaches(source, ['signed']))!;
    const credit = (await reaches(`creditnote:${note.id}`, ['signed', 'failed']))!;
    expect({
      state: credit.state,
      taxTypes: credit.request.itemList.map((l) => l.taxTyCd),
      totTaxAmt: credit.request.totTaxAmt,
    }).toEqual({
      state: 'signed',
      taxTypes: signed.request.itemList.map((l) => l.taxTyCd),
      totTaxAmt: signed.request.totTaxAmt,
    });
  });
  it('a whole invoice credited for its price (no seedling came back) is no return of stock to KRA', async () => {
    const o = await delivered();
    const invoices = await http().get(`/api/orders/${o.orderId}/invoices`).set(staff()).expect(200);
    const invoice = invoices.body.invoices[0] as { id: string; total: number };
    const sale = (await reaches(`invoice:${invoice.id}`, ['signed']))!;
    const given = await http()
      .post(`/api/invoices/${invoice.id}/credit-notes`)
      .set(staff())
      .send({ reason: 'price', amount: invoice.total, note: 'Waived: late delivery' })
      .expect(201);
    const note = given.body.invoice.creditNotes[0] as { id: string };
    await reaches(`creditnote:${note.id}`, ['signed']);
    await s.t.app.get(EtimsStock).sweep(later());
    const atKra = [...s.sim.state.branches.values()].flatMap((b) => [
      ...b.stockMovements.values(),
    ]) as { sarTyCd: string; orgSarNo: number }[];
    // The 200 trays left the beds and stayed with the county: out, never back in.
    expect(atKra.filter((m) => m.orgSarNo === sale.invcNo).map((m) => m.sarTyCd)).toEqual([]);
  });
});
