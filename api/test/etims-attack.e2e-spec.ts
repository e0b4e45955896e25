/**
 * KRA eTIMS attacked (issue 45): a shopper's KRA PIN and the shop's signing against a live API on
 * the test database and the OSCU simulator (tools/etims/simulator.ts), as an outside tester, a
 * dishonest customer or a careless clerk would go at them. Each test was written failing, one per
 * hole found; each is named for what the shop now does instead.
 */
import { randomInt } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startEtimsSimulator, type EtimsSimulator } from '../../tools/etims/simulator';
import {
  ETIMS_DOCUMENTS_COLLECTION,
  type EtimsDocument,
} from '../src/etims/etims-documents.repository';
import { PersonalDataOwners } from '../src/privacy/personal-data-owners';
import { etimsEnv, SANDBOX_CMC_KEY } from './support/etims';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { binary, pdfText } from './support/quotations';
import { guest } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';

jest.setTimeout(120_000);

const TOMATO_CLASS = '1015150000';

interface Placed {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
}

/** A PIN of the right form no other test uses: A (a person), 9 digits, a letter. */
const personPin = () => `A${String(randomInt(1e9)).padStart(9, '0')}${'QWXZ'[randomInt(4)]}`;

describe('eTIMS attacked: buyer PINs and signing', () => {
  let sim: EtimsSimulator;
  let t: TestApp;
  let world: ShopWorld;
  let staff: Session;
  let db: Connection;

  const http = () => t.http();
  const documents = () => db.collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION);
  const saleOf = (o: Placed) => `order:${o._id}:sale`;

  /** A guest's order of one tomato seedling with these body fields (a PIN, a name). */
  async function place(body: Record<string, unknown>, details = guest()): Promise<Placed> {
    const res = await http()
      .post('/api/orders')
      .send({ guestInfo: details, products: [{ _id: world.productId, quantity: 1 }], ...body })
      .expect(201);
    return res.body.order as Placed;
  }

  const payCash = (o: Placed) =>
    http()
      .patch(`/api/orders/complete-payment/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: o.totalAmount } })
      .expect(200);

  /** The document of a source once it is in one of `states`, else null. */
  async function settled(source: string, states: string[]): Promise<EtimsDocument | null> {
    const found = await waitFor(
      () => documents().findOne({ _id: source }),
      (d) => !!d && states.includes(d.state),
      20_000,
      100,
    );
    return found && states.includes(found.state) ? found : null;
  }

  beforeAll(async () => {
    sim = await startEtimsSimulator({ cmcKey: SANDBOX_CMC_KEY });
    t = await createTestApp({ name: 'etimsattack', env: { ...UNTHROTTLED, ...etimsEnv(sim) } });
    db = t.app.get<Connection>(getConnectionToken());
    world = await createShopWorld(t, {
      product: {
        price: 450,
        quantity: 10_000,
        name: 'Tomato seedlings',
        fields: { taxType: 'B', itemClassCode: TOMATO_CLASS },
      },
    });
    staff = world.staff;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  afterEach(() => sim.setScenario('accepted'));

  it("a refund's credit note waits for the sale it credits to be signed, and is then signed against it", async () => {
    sim.setScenario('invalid-buyer-pin', { times: 1 });
    const o = await place({ kraPin: personPin() });
    await payCash(o);
    const sale = (await settled(saleOf(o), ['failed']))!;
    await http()
      .patch(`/api/orders/cancel/${o._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Cash', amount: o.totalAmount, reference: 'cash back' } })
      .expect(200);
    const credit = await waitFor(
      () => documents().findOne({ orderId: o._id, kind: 'credit-note' }),
      (d) => !!d && d.state !== 'queued' && d.state !== 'sending',
      10_000,
      100,
    );
    expect(credit).not.toBeNull();
    // Its sale is not signed (KRA has no invoice numbered sale.invcNo): the credit note must wait.
    expect(sim.invoices().filter((i) => i.invcNo === sale.invcNo)).toEqual([]);
    expect({
      state: credit!.state,
      lastCode: credit!.lastCode,
      lastMessage: credit!.lastMessage,
    }).toEqual({
      state: 'queued',
      lastCode: null,
      lastMessage: null,
    });
  });

  it('the receipt PDF of a shopper who gave a KRA PIN names them and their PIN', async () => {
    const pin = personPin();
    const o = await place({ kraPin: pin }, guest({ fullName: 'Otieno Were' }));
    await payCash(o);
    expect(await settled(saleOf(o), ['signed'])).toMatchObject({ request: { custTin: pin } });
    const res = await http()
      .get(`/api/orders/${o._id}/receipt.pdf`)
      .set(bearer(staff.accessToken))
      .buffer(true)
      .parse(binary)
      .expect(200);
    const text = await pdfText(res.body as Buffer);
    expect(text).toContain(o.purchaseNumber);
    expect(text).toContain(pin);
  });

  it('the back-office resend of a sale held back for a missing tax type is refused (400), never signed at an invented 16 %', async () => {
    const admin = bearer(world.admin.accessToken);
    await http().put('/api/tax/settings').set(admin).send({ defaultTaxType: 'D' }).expect(200);
    const untyped = await world.createProduct({
      price: 200,
      quantity: 100,
      name: 'Kale seedlings',
      fields: { itemClassCode: TOMATO_CLASS },
    });
    await http().put('/api/tax/settings').set(admin).send({ defaultTaxType: null }).expect(200);
    try {
      const res = await http()
        .post('/api/orders')
        .send({ guestInfo: guest(), products: [{ _id: untyped._id, quantity: 1 }] })
        .expect(201);
      const o = res.body.order as Placed;
      await payCash(o);
      const failed = await settled(saleOf(o), ['failed']);
      expect(failed?.lastMessage).toContain('has no tax type');
      // Nothing fixed: the clerk presses resend.
      const resent = await http()
        .post(`/api/etims/documents/${encodeURIComponent(saleOf(o))}/resend`)
        .set(bearer(staff.accessToken))
        .send({});
      const after = await settled(saleOf(o), ['signed', 'failed']);
      expect({
        status: resent.status,
        state: after?.state,
        signedTaxTypes:
          after?.state === 'signed' ? after.request.itemList.map((l) => l.taxTyCd) : [],
      }).toEqual({ status: 400, state: 'failed', signedTaxTypes: [] });
      expect(sim.invoices().filter((i) => i.trdInvcNo === o.purchaseNumber)).toEqual([]);
    } finally {
      await http().put('/api/tax/settings').set(admin).send({ defaultTaxType: 'B' }).expect(200);
    }
  });

  it("erasure takes the buyer's PIN out of KRA's refusal (lastMessage), on the document and in the back office's queue", async () => {
    const pin = personPin();
    const name = 'Wanjiru Kamau';
    sim.setScenario('invalid-buyer-pin');
    const o = await place({ kraPin: pin }, guest({ fullName: name }));
    await payCash(o);
    const failed = await settled(saleOf(o), ['failed']);
    expect(failed).toMatchObject({ lastCode: '910', request: { custTin: pin } });

    await t.app.get(PersonalDataOwners, { strict: false }).erase(
      {
        accountId: null,
        orderIds: [o._id],
        purchaseNumbers: [o.purchaseNumber],
        phones: [],
        emails: [],
        names: [name],
        otherIds: [],
        proven: { emails: [], phones: [] },
      },
      'guest-request',
    );

    const kept = JSON.stringify(await documents().findOne({ _id: saleOf(o) }));
    const queue = await http()
      .get('/api/etims/documents')
      .query({ state: 'failed' })
      .set(bearer(staff.accessToken))
      .expect(200);
    expect({ document: kept.includes(pin), backOffice: queue.text.includes(pin) }).toEqual({
      document: false,
      backOffice: false,
    });
  });

  it("KRA's refusal of a buyer's PIN is logged without the PIN", async () => {
    const pin = personPin();
    const logged: string[] = [];
    const spies = (['log', 'warn', 'error'] as const).map((level) =>
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => {
        logged.push(String(args[0]));
      }),
    );
    try {
      sim.setScenario('invalid-buyer-pin');
      const o = await place({ kraPin: pin });
      await payCash(o);
      expect(await settled(saleOf(o), ['failed'])).not.toBeNull();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(logged.filter((line) => line.includes(pin))).toEqual([]);
  });

  it('a well-formed buyer PIN that KRA does not know can be taken off, and the sale is signed naming no one', async () => {
    sim.setScenario('invalid-buyer-pin');
    const o = await place({ kraPin: personPin() });
    await payCash(o);
    const failed = await settled(saleOf(o), ['failed']);
    expect(failed).toMatchObject({ lastCode: '910' });

    // The clerk's fix: the sale without the shopper's bogus PIN, as an anonymous sale (an empty
    // PIN is "none" at checkout too). KRA signs a sale naming no buyer.
    const resent = await http()
      .post(`/api/etims/documents/${encodeURIComponent(saleOf(o))}/resend`)
      .set(bearer(staff.accessToken))
      .send({ buyerPin: '' });
    expect({ status: resent.status, message: resent.body.message }).toMatchObject({ status: 200 });
    expect(await settled(saleOf(o), ['signed'])).toMatchObject({
      invcNo: failed!.invcNo,
      request: { custTin: null },
    });
  });

  it('a paid order of a product deleted before its payment is still signed, under the classification and tax type it had', async () => {
    const marigold = await world.createProduct({
      price: 300,
      quantity: 100,
      name: 'Marigold seedlings',
      fields: { taxType: 'B', itemClassCode: TOMATO_CLASS },
    });
    const res = await http()
      .post('/api/orders')
      .send({ guestInfo: guest(), products: [{ _id: marigold._id, quantity: 1 }] })
      .expect(201);
    const o = res.body.order as Placed;
    await http()
      .delete(`/api/products/delete/${marigold._id}`)
      .set(bearer(world.admin.accessToken))
      .expect(200);
    await payCash(o);
    const first = await settled(saleOf(o), ['failed', 'signed']);
    expect(first).not.toBeNull();
    if (first!.state === 'failed') {
      // The clerk's only tool: resend. Nothing in the shop can give the line its class back.
      await http()
        .post(`/api/etims/documents/${encodeURIComponent(saleOf(o))}/resend`)
        .set(bearer(staff.accessToken))
        .send({});
    }
    const after = await documents().findOne({ _id: saleOf(o) });
    expect({ state: after?.state, lastMessage: after?.lastMessage }).toEqual({
      state: 'signed',
      lastMessage: null,
    });
  });
});

describe('eTIMS attacked: a booking paid by M-Pesa and the paybill', () => {
  let sim: EtimsSimulator;
  let m: MpesaTestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    sim = await startEtimsSimulator({ cmcKey: SANDBOX_CMC_KEY });
    // The prompt's outcome comes by its callback alone (no status query in between).
    m = await createMpesaTestApp('etimsattackbk', {
      ...etimsEnv(sim),
      MPESA_RECONCILE_AFTER_MS: '600000',
    });
    world = await createShopWorld(m.t, {
      product: {
        price: 450,
        quantity: 10_000,
        name: 'Tomato seedlings',
        fields: { taxType: 'B', itemClassCode: TOMATO_CLASS },
      },
    });
    await waitFor(
      async () => m.sim.c2b.registrations.length,
      (n) => n > 0,
      10_000,
      100,
    );
  }, 120_000);

  afterAll(async () => {
    await m?.close();
    await sim?.close();
  });

  it("two deposit payments credited out of their M-Pesa time order get their own trader's numbers, -D1 and -D2", async () => {
    const staff = bearer(world.staff.accessToken);
    const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    const batch = (
      await m.t
        .http()
        .post('/api/batches')
        .set(staff)
        .send({ productId: world.productId, sownOn: day(-10), readyOn: day(60), started: 100 })
        .expect(201)
    ).body.batch as { _id: string };
    const phone = guest().phoneNumber;
    const placed = await m.t
      .http()
      .post('/api/orders')
      .send({
        guestInfo: guest({ phoneNumber: phone }),
        products: [{ _id: world.productId, quantity: 4, batchId: batch._id }],
      })
      .expect(201);
    const o = placed.body.order as Placed & { booking: { deposit: number } };
    expect(o.booking.deposit).toBeGreaterThan(100);
    const daraja = `254${phone.slice(1)}`;

    // The shopper pays the deposit's prompt; M-Pesa's callback is late.
    m.sim.setScenario({ result: 'success', lateCallbackMs: 6000 }, daraja);
    const push = await m.t
      .http()
      .post('/api/payments/mpesa/stk-push')
      .send({ purchaseNumber: o.purchaseNumber, phoneNumber: phone })
      .expect(200);
    // Meanwhile (a later second by M-Pesa's clock) a relative pays KES 100 by the paybill.
    await new Promise((r) => setTimeout(r, 1500));
    await m.sim.payBill({ account: o.purchaseNumber, amount: 100, phone: daraja });
    await m.sim.settled(push.body.checkoutRequestId as string, 20_000);

    const deposits = await waitFor(
      () =>
        m.t.app
          .get<Connection>(getConnectionToken())
          .collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION)
          .find({ _id: { $regex: `^order:${o._id}:deposit:` } })
          .toArray(),
      (ds) => ds.length >= 2,
      20_000,
      100,
    );
    expect(deposits).toHaveLength(2);
    const numbers = deposits.map((d) => d.trdInvcNo).sort();
    expect(numbers).toEqual([`${o.purchaseNumber}-D1`, `${o.purchaseNumber}-D2`]);
  });
});
