/**
 * The stock movements KRA asks for after the sales they follow (issue 45, docs/etims.md "Stock"),
 * against the OSCU simulator: a signed sale's seedlings go out once (`insertStockIO` type 11, its
 * delivery fee left out), followed by what is left of the item (`saveStockMaster`); a sale
 * credited in whole (a cancelled order's refund) brings them back (03); OSCU offline leaves the
 * movement waiting, and a crash between its send and its save is answered as a duplicate, never
 * recorded twice.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startEtimsSimulator, type EtimsSimulator } from '../../tools/etims/simulator';
import {
  ETIMS_DOCUMENTS_COLLECTION,
  type EtimsDocument,
} from '../src/etims/etims-documents.repository';
import { EtimsQueue } from '../src/etims/etims-queue.service';
import { ETIMS_STOCK_COLLECTION, type EtimsStockMove } from '../src/etims/etims-stock.repository';
import { EtimsStock, returnKey } from '../src/etims/etims-stock.service';
import { etimsEnv, SANDBOX_CMC_KEY as CMC_KEY, SANDBOX_PIN as PIN } from './support/etims';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import { DELIVERY, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';

jest.setTimeout(180_000);

/** Far enough ahead that every retry's wait is over. */
const later = () => new Date(Date.now() + 2 * 3600_000);

describe('eTIMS stock movements', () => {
  let sim: EtimsSimulator;
  let t: TestApp;
  let db: Connection;
  let queue: EtimsQueue;
  let stock: EtimsStock;
  let staff: Session;
  let admin: Session;
  let productId: string;
  let trayId: string;

  const documents = () => db.collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION);
  const moves = () => db.collection<EtimsStockMove>(ETIMS_STOCK_COLLECTION);
  const branch = () => sim.state.branches.get(`${PIN}/00`)!;
  /** What KRA recorded under a movement number (the simulator keeps one per number). */
  const atKra = (sarNo: number) => branch().stockMovements.get(sarNo) as Record<string, unknown>;

  /** A guest's order of `trays` trays of 50, paid in cash at the counter; its sale once signed. */
  async function signedSale(trays: number): Promise<{ orderId: string; sale: EtimsDocument }> {
    const line = { _id: productId, unitId: trayId, quantity: trays };
    const placed = await placeOrder(t, [line], { guestInfo: DELIVERY });
    expect(placed.status).toBe(201);
    const order = placed.body.order as { _id: string; totalAmount: number };
    await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } })
      .expect(200);
    const source = `order:${order._id}:sale`;
    await waitFor(
      () => documents().findOne({ _id: source }),
      (d) => !!d,
      20_000,
      100,
    );
    await queue.sendDue();
    const sale = (await documents().findOne({ _id: source }))!;
    expect(sale.state).toBe('signed');
    return { orderId: order._id, sale };
  }

  beforeAll(async () => {
    sim = await startEtimsSimulator({ cmcKey: CMC_KEY });
    t = await createTestApp({ name: 'etims_stock', env: { ...UNTHROTTLED, ...etimsEnv(sim) } });
    db = t.app.get<Connection>(getConnectionToken());
    queue = t.app.get(EtimsQueue);
    stock = t.app.get(EtimsStock);
    let product: { _id: string };
    ({ staff, admin, product } = await createShopWorld(t, {
      product: {
        name: 'Tomato seedlings',
        price: 10,
        quantity: 10_000,
        fields: {
          taxType: 'B',
          itemClassCode: '1015150000',
          units: JSON.stringify([
            { name: 'Single seedling', seedlings: 1 },
            { name: 'Tray of 50', seedlings: 50, price: 450 },
          ]),
        },
      },
    }));
    productId = product._id;
    trayId = (product as unknown as { units: { _id: string; seedlings: number }[] }).units.find(
      (u) => u.seedlings === 50,
    )!._id;
    await t
      .http()
      .post('/api/delivery/zones')
      .set(bearer(admin.accessToken))
      .send({ name: 'Kiambu', fee: 200, days: 2, areas: [{ county: 'Kiambu' }] })
      .expect(201);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  afterEach(() => sim.setScenario('accepted'));

  it("tells KRA a signed sale's seedlings went out once, the delivery left out, and what is left of the item", async () => {
    const { sale } = await signedSale(3);
    expect(sale.request.itemList).toHaveLength(2); // the trays and the delivery fee

    expect(await stock.sweep()).toBe(1);
    const tray = sale.request.itemList.find((l) => l.itemNm.includes('Tray of 50'))!;
    expect(atKra(sale.invcNo)).toMatchObject({
      sarNo: sale.invcNo,
      orgSarNo: 0,
      regTyCd: 'A',
      sarTyCd: '11',
      ocrnDt: sale.request.salesDt,
      totItemCnt: 1,
      totAmt: 1350,
      itemList: [expect.objectContaining({ itemSeq: 1, itemCd: tray.itemCd, qty: 3 })],
    });
    // 10,000 seedlings less 150: 197 trays of 50 left.
    expect(branch().stockMaster.get(tray.itemCd)).toBe(197);
    expect(await moves().findOne({ _id: sale._id })).toMatchObject({
      state: 'sent',
      lastCode: '000',
      sarNo: sale.invcNo,
    });

    // Swept again (and by a second sweep reading the same documents): nothing new at KRA.
    const before = branch().stockMovements.size;
    expect(await stock.sweep()).toBe(0);
    expect(branch().stockMovements.size).toBe(before);
    expect(await moves().countDocuments({ document: sale._id })).toBe(1);
  });

  it('brings the seedlings back when the sale is credited in whole (a cancelled order refunded)', async () => {
    const { orderId, sale } = await signedSale(2);
    await stock.sweep();
    await t
      .http()
      .patch(`/api/orders/cancel/${orderId}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Cash', amount: sale.request.totAmt, reference: 'cash back' } })
      .expect(200);
    const credit = await waitFor(
      () => documents().findOne({ original: sale._id }),
      (d) => !!d,
      20_000,
      100,
    );
    await queue.sendDue();
    expect((await documents().findOne({ _id: credit!._id }))!.state).toBe('signed');

    expect(await stock.sweep()).toBe(1);
    const tray = sale.request.itemList.find((l) => l.itemNm.includes('Tray of 50'))!;
    expect(atKra(credit!.invcNo)).toMatchObject({
      sarNo: credit!.invcNo,
      orgSarNo: sale.invcNo,
      sarTyCd: '03',
      itemList: [expect.objectContaining({ itemCd: tray.itemCd, qty: 2 })],
    });
    expect(await moves().findOne({ _id: returnKey(sale._id) })).toMatchObject({ state: 'sent' });
    // The cancelled order's 100 seedlings are back in stock, and KRA is told what is left.
    const left = branch().stockMaster.get(tray.itemCd)!;
    const product = await t.http().get(`/api/products/${productId}`).expect(200);
    const seedlings = (product.body.product ?? product.body).productQuantity as number;
    expect(left).toBe(Math.floor(seedlings / 50));
  });

  it('keeps a movement waiting while OSCU is offline, and records it once though a crash kept its answer from being saved', async () => {
    const { sale } = await signedSale(1);
    sim.setScenario('offline');
    expect(await stock.sweep()).toBe(0);
    expect(await moves().findOne({ _id: sale._id })).toMatchObject({
      state: 'queued',
      attempts: 1,
    });
    expect(atKra(sale.invcNo)).toBeUndefined();

    sim.setScenario('accepted');
    expect(await stock.sweep(later())).toBe(1);
    expect(atKra(sale.invcNo)).toMatchObject({ sarTyCd: '11' });

    // A crash after KRA recorded it and before the save: sent again under its number.
    await moves().updateOne({ _id: sale._id }, { $set: { state: 'queued' } });
    const before = branch().stockMovements.size;
    expect(await stock.sweep(later())).toBe(1);
    expect(branch().stockMovements.size).toBe(before);
    expect(await moves().findOne({ _id: sale._id })).toMatchObject({
      state: 'sent',
      lastCode: '994',
    });
  });
});
