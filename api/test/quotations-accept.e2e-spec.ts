/**
 * Accepting quotations, on the real database (issue 42): the county's 30,000 seedlings from ready
 * stock and two growing batches, revised once and accepted with an LPO, make one order holding the
 * stock and the batches; the credit limit refuses the next acceptance and the quotation is sent
 * again; staff accept on the buyer's written word; an LPO number is used once; a claim left by a
 * crash is settled on the next read.
 *
 * These need the orders' side (OrderFromQuotationService.place, built beside this suite): until it
 * is merged, `place` answers 501 and every test here but the last fails at its acceptance.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { QUOTATION_MESSAGES as QM, type QuotationView } from '@spc/shared-contracts';
import { addDays, shopDay } from '../src/common/shop-clock';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import {
  approvedOrganisation,
  quotationOf,
  site,
  trayProduct,
  type Buyers,
  type TrayProduct,
} from './support/quotations';
import { stockOf } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

const today = () => shopDay(new Date());

interface Batch {
  _id: string;
  available: number;
  booked: number;
}

describe('accepting quotations', () => {
  let t: TestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    t = await createTestApp({ name: 'quotations_accept', env: UNTHROTTLED });
    world = await createShopWorld(t);
  });
  afterAll(() => t.close());

  const as = (s: Session) => bearer(s.accessToken);
  const staff = () => as(world.staff);
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const read = async (id: string, who: Session = world.staff) =>
    quotationOf(await t.http().get(`/api/quotations/${id}`).set(as(who)).expect(200));
  const newBatch = async (productId: string, started: number) =>
    (
      await t
        .http()
        .post('/api/batches')
        .set(staff())
        .send({
          productId,
          sownOn: addDays(today(), -20),
          readyOn: addDays(today(), 45),
          started,
          note: 'Tunnel 4',
        })
        .expect(201)
    ).body.batch as Batch;
  const batchOf = async (id: string) =>
    (await t.http().get(`/api/batches/${id}`).set(staff()).expect(200)).body.batch as Batch;
  const setTerms = (org: string, creditLimit: number) =>
    t
      .http()
      .put(`/api/organisations/${org}/terms`)
      .set(as(world.admin))
      .send({ paymentDays: 30, creditLimit, onAccount: true })
      .expect(200);

  type Line = { productId: string; unitId: string; quantity: number; batchId?: string };
  /** Asked for by the buyer, priced by staff (`price` per line, else the defaults) and sent. */
  async function quoted(buyers: Buyers, lines: Line[], prices?: number[]): Promise<QuotationView> {
    const q = quotationOf(
      await t.http().post('/api/quotations').set(as(buyers.buyer)).send({ lines }).expect(201),
    );
    await price(q._id, lines, prices);
    return quotationOf(
      await t.http().post(`/api/quotations/${q._id}/send`).set(staff()).expect(201),
    );
  }
  const price = (id: string, lines: Line[], prices?: number[]) =>
    t
      .http()
      .put(`/api/quotations/${id}/draft`)
      .set(staff())
      .send({
        lines: lines.map((l, i) => (prices ? { ...l, unitPrice: prices[i] } : l)),
        delivery: site(addDays(today(), 50)),
        deliveryFee: 20_000,
        validUntil: addDays(today(), 30),
      })
      .expect(200);
  const accept = (id: string, who: Session, version: number, lpoNumber: string) =>
    t.http().post(`/api/quotations/${id}/accept`).set(as(who)).send({ version, lpoNumber });

  it("accepts the county's 30,000 seedlings (ready stock and two growing batches), revised once, with an LPO: one order holds them all; the credit limit refuses the next", async () => {
    const county = await approvedOrganisation(t, world);
    const tray: TrayProduct = await trayProduct(t, world, 10_000, 'Croton megalocarpus');
    const [early, late] = [
      await newBatch(tray.productId, 12_000),
      await newBatch(tray.productId, 9_000),
    ];
    const lines: Line[] = [
      { productId: tray.productId, unitId: tray.trayId, quantity: 200 }, // 10,000 ready
      { productId: tray.productId, unitId: tray.trayId, quantity: 240, batchId: early._id }, // 12,000
      { productId: tray.productId, unitId: tray.singleId, quantity: 8000, batchId: late._id }, // 8,000
    ];
    const q = await quoted(county, lines);
    await t
      .http()
      .post(`/api/quotations/${q._id}/ask-changes`)
      .set(as(county.approver))
      .send({ text: 'Our budget line is KES 900,000 for the seedlings' })
      .expect(201);
    await price(q._id, lines, [1100, 1100, 22]);
    const v2 = quotationOf(
      await t.http().post(`/api/quotations/${q._id}/send`).set(staff()).expect(201),
    );
    const total = 200 * 1100 + 240 * 1100 + 8000 * 22 + 20_000;
    expect(v2.versions.map((v) => [v.version, v.total])).toEqual([
      [1, expect.any(Number)],
      [2, total],
    ]);
    await setTerms(county.org._id, total + 50_000);

    // Version 1 is no longer the one to accept.
    expect(
      (await accept(q._id, county.approver, 1, 'KCG/LPO/2026/0412').expect(409)).body.message,
    ).toBe(QM.notLatest);
    const res = await accept(q._id, county.approver, 2, '  KCG/LPO/2026/0412 ').expect(201);
    const accepted = res.body.quotation as QuotationView;
    expect(accepted.status).toBe('accepted');
    expect(accepted.acceptance).toMatchObject({
      version: 2,
      lpoNumber: 'KCG/LPO/2026/0412',
      acceptedBy: county.approver.user.fullName,
      byShop: false,
      orderId: res.body.order._id,
      purchaseNumber: res.body.order.purchaseNumber,
    });
    expect(res.body.order.totalAmount).toBe(total);
    // The order holds the ready stock and each batch its line.
    expect(await stockOf(t, tray.productId)).toBe(0);
    expect((await batchOf(early._id)).available).toBe(0);
    expect((await batchOf(late._id)).available).toBe(1000);
    const order = await t.http().get(`/api/orders/${res.body.order._id}`).set(staff()).expect(200);
    expect(order.body.order.purchaseNumber).toBe(res.body.order.purchaseNumber);

    // The next acceptance would pass the credit limit: refused, the quotation sent again, nothing held.
    const small = await trayProduct(t, world, 5000, 'Markhamia lutea');
    const next = await quoted(county, [
      { productId: small.productId, unitId: small.trayId, quantity: 100 },
    ]);
    const refused = await accept(next._id, county.approver, 1, 'KCG/LPO/2026/0413').expect(409);
    expect(refused.body).toMatchObject({ code: 'CREDIT_LIMIT' });
    expect((await read(next._id)).status).toBe('sent');
    expect((await read(next._id)).acceptance).toBeNull();
    expect(await stockOf(t, small.productId)).toBe(5000);
  });

  it("lets staff accept on the buyer's written word, placing the order for the buyer who asked; an LPO number is used once per organisation", async () => {
    const ngo = await approvedOrganisation(t, world, 'Green Belt Schools');
    await setTerms(ngo.org._id, 10_000_000);
    const tray = await trayProduct(t, world, 5000, 'Prunus africana');
    const first = await quoted(ngo, [
      { productId: tray.productId, unitId: tray.trayId, quantity: 10 },
    ]);
    const res = await accept(first._id, world.staff, 1, 'GBS-LPO-77').expect(201);
    expect(res.body.quotation.acceptance).toMatchObject({
      byShop: true,
      acceptedBy: world.staff.user.fullName,
    });
    const second = await quoted(ngo, [
      { productId: tray.productId, unitId: tray.trayId, quantity: 10 },
    ]);
    const taken = await accept(second._id, ngo.approver, 1, 'gbs-lpo-77').expect(409);
    expect(taken.body).toMatchObject({ code: 'LPO_TAKEN', message: QM.lpoTaken });
    expect((await read(second._id)).status).toBe('sent');
  });

  it('makes one order of two accepts at once: the other is refused 409', async () => {
    const org = await approvedOrganisation(t, world, 'Nyeri Water Trust');
    await setTerms(org.org._id, 10_000_000);
    const tray = await trayProduct(t, world, 5000, 'Cordia africana');
    const q = await quoted(org, [{ productId: tray.productId, unitId: tray.trayId, quantity: 4 }]);
    const answers = await Promise.all([
      accept(q._id, org.approver, 1, 'NWT-1'),
      accept(q._id, world.staff, 1, 'NWT-1'),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const after = await read(q._id);
    expect(after.status).toBe('accepted');
    expect(after.acceptance?.orderId).toBe(answers.find((r) => r.status === 201)!.body.order._id);
    expect(await stockOf(t, tray.productId)).toBe(5000 - 4 * 50);
  });

  it('settles a claim left by a crash on the next read: accepted with the order already made', async () => {
    const org = await approvedOrganisation(t, world, 'Kitui Farmers Co-operative');
    await setTerms(org.org._id, 10_000_000);
    const tray = await trayProduct(t, world, 5000, 'Melia volkensii');
    const q = await quoted(org, [{ productId: tray.productId, unitId: tray.trayId, quantity: 4 }]);
    const res = await accept(q._id, org.approver, 1, 'KFC-1').expect(201);
    // As if the API had stopped between the order and the quotation's mark: claimed two minutes ago.
    await db()
      .collection('quotations')
      .updateOne(
        { _id: new Types.ObjectId(q._id) },
        {
          $set: {
            status: 'accepting',
            'acceptance.orderId': null,
            'acceptance.purchaseNumber': null,
            'acceptance.acceptedAt': new Date(Date.now() - 120_000),
          },
        },
      );
    const settled = await read(q._id, org.approver);
    expect(settled.status).toBe('accepted');
    expect(settled.acceptance?.orderId).toBe(res.body.order._id);
    expect(await stockOf(t, tray.productId)).toBe(5000 - 4 * 50);
  });

  it('gives a claim left by a crash back when the orders refuse it: sent again (runs before the merge too)', async () => {
    const org = await approvedOrganisation(t, world, 'Machakos Churches Trust');
    const tray = await trayProduct(t, world, 100, 'Casuarina equisetifolia');
    // 10 trays of 50: more than the 100 seedlings in stock (a quotation holds none).
    const q = await quoted(org, [{ productId: tray.productId, unitId: tray.trayId, quantity: 10 }]);
    await db()
      .collection('quotations')
      .updateOne(
        { _id: new Types.ObjectId(q._id) },
        {
          $set: {
            status: 'accepting',
            acceptance: {
              version: 1,
              lpoNumber: 'MCT-9',
              lpoKey: 'MCT-9',
              acceptedAt: new Date(Date.now() - 120_000),
              acceptedById: org.approver.user._id,
              acceptedByName: org.approver.user.fullName,
              acceptedByRole: 'customer',
              byShop: false,
              orderId: null,
              purchaseNumber: null,
            },
          },
        },
      );
    const settled = await read(q._id, org.approver);
    expect(settled.status).toBe('sent');
    expect(settled.acceptance).toBeNull();
    const trail = await t
      .http()
      .get('/api/audit-logs?action=quotation.accept-undone&limit=100')
      .set(as(world.admin))
      .expect(200);
    expect(
      (trail.body as { message: string; target?: { id: string } }[]).find(
        (e) => e.target?.id === q._id,
      )?.message,
    ).toContain('given back');
    // The claim's LPO number is free again.
    const raw = await db()
      .collection('quotations')
      .findOne({ _id: new Types.ObjectId(q._id) });
    expect(raw?.acceptance).toBeNull();
    expect(await stockOf(t, tray.productId)).toBe(100);
  });
});
