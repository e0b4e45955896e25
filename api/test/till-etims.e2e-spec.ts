/**
 * A gate sale signed with KRA eTIMS (issue 46) against the OSCU simulator: paid at the till, it is
 * queued and signed as any paid order (cash: payment type 01; M-Pesa: 06), and the till's view of
 * it (its receipt) carries the signature.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startEtimsSimulator, type EtimsSimulator } from '../../tools/etims/simulator';
import {
  ETIMS_DOCUMENTS_COLLECTION,
  type EtimsDocument,
} from '../src/etims/etims-documents.repository';
import { EtimsQueue } from '../src/etims/etims-queue.service';
import { etimsEnv, SANDBOX_CMC_KEY } from './support/etims';
import { bearer, createStaff, UNTHROTTLED } from './support/identity';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import { openTillSession, setTillPin } from './support/till';
import { waitFor } from './support/wait';

describe('eTIMS at the till', () => {
  let sim: EtimsSimulator;
  let t: TestApp;
  let world: ShopWorld;
  let sessionId: string;
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const documents = () => db().collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION);

  beforeAll(async () => {
    sim = await startEtimsSimulator({ cmcKey: SANDBOX_CMC_KEY });
    t = await createTestApp({ name: 'till_etims', env: { ...UNTHROTTLED, ...etimsEnv(sim) } });
    world = await createShopWorld(t, {
      product: {
        name: 'Tomato seedlings',
        price: 10,
        quantity: 10_000,
        fields: { taxType: 'B', itemClassCode: '1015150000' },
      },
    });
    sessionId = await openTillSession(t, world.staff.accessToken, 0);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  /** Sells 30 seedlings (KES 300) paid this way, and answers the sale once its document is signed. */
  async function signedSale(payment: object) {
    const res = await t
      .http()
      .post('/api/till/sales')
      .set(bearer(world.staff.accessToken))
      .send({
        sessionId,
        lines: [{ productId: world.productId, quantity: 30 }],
        payments: [payment],
      })
      .expect(201);
    const source = `order:${res.body.sale.orderId}:sale`;
    await waitFor(
      () => documents().findOne({ _id: source }),
      (d) => !!d,
      20_000,
      100,
    );
    await t.app.get(EtimsQueue).sendDue();
    const doc = (await documents().findOne({ _id: source }))!;
    expect(doc.state).toBe('signed');
    const sale = (
      await t
        .http()
        .get(`/api/till/sales/${res.body.sale.orderId}`)
        .set(bearer(world.staff.accessToken))
        .expect(200)
    ).body.sale;
    return { sale, doc };
  }

  it('signs a cash sale as cash (01), and the receipt carries the signature', async () => {
    const { sale, doc } = await signedSale({ method: 'cash', amount: 300, given: 500 });
    expect(doc.request).toMatchObject({ pmtTyCd: '01', totAmt: 300 });
    expect(sale.etims).toEqual({
      invoiceNumber: expect.any(String) as unknown as string,
      signedAt: expect.any(String) as unknown as string,
      qrUrl: expect.stringMatching(/^https?:/) as unknown as string,
    });
  });

  it('signs a sale paid by an M-Pesa code as M-Pesa (06)', async () => {
    const { doc } = await signedSale({ method: 'mpesa-code', amount: 300, code: 'TLETIMS001' });
    expect(doc.request).toMatchObject({ pmtTyCd: '06' });
  });

  it('answers a void of a signed sale with a credit note', async () => {
    const { sale } = await signedSale({ method: 'cash', amount: 300 });
    const approver = await createStaff(t, world.admin.accessToken, { fullName: 'Grace Wanjiku' });
    await setTillPin(t, approver, '2468');
    await t
      .http()
      .post(`/api/till/sales/${sale.orderId}/void`)
      .set(bearer(world.staff.accessToken))
      .send({ approverId: approver.user._id, pin: '2468', reason: 'Rung up twice' })
      .expect(200);
    const credit = await waitFor(
      () => documents().findOne({ orderId: sale.orderId, kind: 'credit-note' }),
      (d) => !!d,
      20_000,
      100,
    );
    expect(credit).toMatchObject({ original: `order:${sale.orderId}:sale` });
  });

  it('answers a part refund with a credit note of that amount', async () => {
    const { sale } = await signedSale({ method: 'cash', amount: 300 });
    const approver = await createStaff(t, world.admin.accessToken, { fullName: 'Ann Njeri' });
    await setTillPin(t, approver, '1470');
    await t
      .http()
      .post(`/api/till/sales/${sale.orderId}/refund`)
      .set(bearer(world.staff.accessToken))
      .send({ amount: 100, approverId: approver.user._id, pin: '1470', reason: 'Wilted' })
      .expect(200);
    const credit = await waitFor(
      () => documents().findOne({ orderId: sale.orderId, kind: 'credit-note' }),
      (d) => !!d,
      20_000,
      100,
    );
    expect(credit).toMatchObject({ original: `order:${sale.orderId}:sale` });
    expect(credit!.request.totAmt).toBe(100);
  });
});
