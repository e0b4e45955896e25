/**
 * Invoices on account signed with KRA eTIMS (issue 45) against the OSCU simulator: an invoice is
 * signed once when it is issued (the clerk issuing again finds the same document), as a credit
 * sale (`02`) to the organisation's PIN, its lines the tranche's delivered lines and the fee; its
 * detail and PDF carry the control unit's number; a credit note is signed against it, never above
 * what is left; the sweep queues an invoice a crash left unqueued; an organisation's PIN of the
 * wrong form refuses the invoice; with eTIMS off nothing is queued.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { INVOICE_MESSAGES as IM } from '@spc/shared-contracts';
import { ObjectId } from 'mongodb';
import type { Connection } from 'mongoose';
import { startEtimsSimulator, type EtimsSimulator } from '../../tools/etims/simulator';
import {
  ETIMS_DOCUMENTS_COLLECTION,
  type EtimsDocument,
} from '../src/etims/etims-documents.repository';
import { EtimsQueue } from '../src/etims/etims-queue.service';
import { InvoiceEtims } from '../src/invoices/invoice-etims';
import { OrderEtims } from '../src/orders/order-etims';
import { OrdersRepository } from '../src/orders/orders.repository';
import { etimsEnv, SANDBOX_CMC_KEY } from './support/etims';
import { putProduct } from './support/factories';
import { bearer, UNTHROTTLED } from './support/identity';
import { binary, pdfText } from './support/quotations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import {
  countyOrder,
  countyPeople,
  site,
  today,
  type CountyOrder,
  type TranchePeople,
} from './support/tranches';
import { waitFor } from './support/wait';

jest.setTimeout(180_000);

const ACACIA_CLASS = '1015150000';
/** Far enough ahead that every retry's wait is over. */
const later = () => new Date(Date.now() + 2 * 3600_000);

interface InvoiceBody {
  id: string;
  number: string;
  total: number;
  organisation: { kraPin: string; name: string };
  creditNotes: { id: string; number: string; amount: number }[];
}

/** Who bills whom: the shop's world, the county's people and the order on account, delivered. */
function invoicing(get: () => { t: TestApp; world: ShopWorld }) {
  const http = () => get().t.http();
  const staff = () => bearer(get().world.staff.accessToken);
  const readyOn = (o: CountyOrder) =>
    Promise.all(
      [o.first._id, o.second._id].map((b) =>
        http().post(`/api/batches/${b}/ready`).set(staff()).send({}).expect(201),
      ),
    );

  /** The county's order on account, its product classified; T1 (200 trays) on its way. */
  async function dispatched(people?: TranchePeople): Promise<CountyOrder> {
    const { t, world } = get();
    const who = people ?? (await countyPeople(t, world, { onAccount: true }));
    const o = await countyOrder(t, world, who, { onAccount: true });
    await readyOn(o);
    await putProduct(t, world.staff.accessToken, o.acacia._id, {
      taxType: 'B',
      itemClassCode: ACACIA_CLASS,
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
    return o;
  }

  const deliver = (o: CountyOrder) =>
    http()
      .post(`/api/orders/${o.orderId}/tranches/1/delivery`)
      .set(staff())
      .send({ signedBy: 'Peter Mwangi', signedAt: new Date().toISOString() })
      .expect(200);

  const issue = (o: CountyOrder) =>
    http().post(`/api/orders/${o.orderId}/invoices`).set(staff()).send({ tranche: 1 });

  const invoicesOf = async (o: CountyOrder) =>
    (await http().get(`/api/orders/${o.orderId}/invoices`).set(staff()).expect(200)).body
      .invoices as InvoiceBody[];

  return { http, staff, dispatched, deliver, issue, invoicesOf };
}

describe('eTIMS: invoices on account signed', () => {
  let sim: EtimsSimulator;
  let t: TestApp;
  let world: ShopWorld;
  let db: Connection;
  let queue: EtimsQueue;
  let signing: InvoiceEtims;
  const { http, staff, dispatched, deliver, issue, invoicesOf } = invoicing(() => ({ t, world }));

  const documents = () => db.collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION);
  const received = (trdInvcNo: string) => sim.invoices().filter((i) => i.trdInvcNo === trdInvcNo);

  /** The document of a source once KRA signed it (else the test fails here, saying its state). */
  async function signed(source: string): Promise<EtimsDocument> {
    const found = await waitFor(
      async () => {
        await queue.sendDue(later());
        return documents().findOne({ _id: source });
      },
      (d) => d?.state === 'signed',
      30_000,
      200,
    );
    if (found?.state !== 'signed')
      throw new Error(`${source} is ${found?.state ?? 'not queued'} (${found?.lastMessage ?? ''})`);
    return found;
  }

  beforeAll(async () => {
    sim = await startEtimsSimulator({ cmcKey: SANDBOX_CMC_KEY });
    t = await createTestApp({ name: 'etims_invoices', env: { ...UNTHROTTLED, ...etimsEnv(sim) } });
    world = await createShopWorld(t);
    db = t.app.get<Connection>(getConnectionToken());
    queue = t.app.get(EtimsQueue);
    signing = t.app.get(InvoiceEtims);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  let invoice: InvoiceBody;

  it('signs an invoice once when it is issued, though issued again: a credit sale to the organisation, the tranche’s lines and the fee; its detail and PDF show the control unit’s number', async () => {
    const o = await dispatched();
    await deliver(o);
    [invoice] = await invoicesOf(o);
    expect(invoice).toBeDefined();
    expect((await issue(o).expect(200)).body.invoice.id).toBe(invoice.id);

    const doc = await signed(`invoice:${invoice.id}`);
    expect(await signing.sweep(later())).toBe(0);
    expect(await documents().countDocuments({ trdInvcNo: invoice.number })).toBe(1);
    expect(received(invoice.number)).toHaveLength(1);
    expect(doc).toMatchObject({ kind: 'sale', orderId: o.orderId });
    // The orders' signing leaves an order on account to its invoices, even once it is paid.
    const record = (await t.app.get(OrdersRepository).findAnyById(o.orderId))!;
    expect(
      await t.app.get(OrderEtims).signPaid({ ...record, paidAt: new Date().toISOString() }),
    ).toBe(false);
    expect(await documents().countDocuments({ orderId: o.orderId })).toBe(1);
    expect(doc.request).toMatchObject({
      rcptTyCd: 'S',
      pmtTyCd: '02',
      custTin: invoice.organisation.kraPin,
      custNm: invoice.organisation.name,
      totAmt: invoice.total,
    });
    // 200 trays at the quoted KES 1,200, and the delivery fee on the first invoice.
    expect(doc.request.itemList.map((i) => [i.itemNm, i.qty, i.prc])).toEqual([
      [expect.stringContaining('Tray of 50'), 200, 1200],
      ['Delivery', 1, invoice.total - 240_000],
    ]);

    const detail = await http().get(`/api/invoices/${invoice.id}`).set(staff()).expect(200);
    const [view] = detail.body.etims;
    expect(view).toMatchObject({ kind: 'invoice', trdInvcNo: invoice.number, state: 'signed' });
    expect(view.cuInvoiceNo).toBe(String(doc.signature!.rcptNo));
    expect(view.signature).toBeTruthy();
    expect(view.qrUrl).toBeTruthy();
    const pdf = await http()
      .get(`/api/invoices/${invoice.id}/pdf`)
      .set(staff())
      .buffer(true)
      .parse(binary)
      .expect(200);
    const text = await pdfText(pdf.body as Buffer);
    expect(text).toContain(`CU invoice number: ${view.cuInvoiceNo}`);
    expect(text).toContain(view.signature);
    expect(text).not.toContain('eTIMS pending');
  });

  it('signs a credit note against its invoice, a share of its lines; one above what is left is refused and queues nothing', async () => {
    const given = await http()
      .post(`/api/invoices/${invoice.id}/credit-notes`)
      .set(staff())
      .send({ reason: 'short', amount: 1200, note: 'One tray wilted' })
      .expect(201);
    const [note] = (given.body.invoice as InvoiceBody).creditNotes;
    const original = (await documents().findOne({ _id: `invoice:${invoice.id}` }))!;
    const doc = await signed(`creditnote:${note!.id}`);
    expect(doc).toMatchObject({
      kind: 'credit-note',
      original: `invoice:${invoice.id}`,
      orgInvcNo: original.invcNo,
    });
    expect(doc.request).toMatchObject({
      rcptTyCd: 'R',
      pmtTyCd: '02',
      rfdRsnCd: '01',
      totAmt: 1200,
      custTin: invoice.organisation.kraPin,
    });

    const before = await documents().countDocuments();
    const left = invoice.total - 1200;
    await http()
      .post(`/api/invoices/${invoice.id}/credit-notes`)
      .set(staff())
      .send({ reason: 'price', amount: left + 1, note: 'Too much' })
      .expect(409);
    expect(await documents().countDocuments()).toBe(before);
  });

  it('the sweep queues an issued invoice a crash left unqueued, by an index, once', async () => {
    // An invoice of the same order written and numbered, its announcement lost to a crash.
    const invoices = db.collection('invoices');
    const first = (await invoices.findOne({ _id: new ObjectId(invoice.id) }))!;
    const _id = new ObjectId();
    await invoices.insertOne({
      ...first,
      _id,
      trancheKey: 'T9',
      number: `${first.number}-X`,
      carriesFee: false,
      settlements: [],
    });
    expect(await documents().findOne({ _id: `invoice:${_id.toHexString()}` })).toBeNull();
    expect(await signing.sweep(later())).toBe(1);
    await signed(`invoice:${_id.toHexString()}`);
    expect(await signing.sweep(later())).toBe(0);

    // The sweep's read (InvoicesRepository.issuedSince) walks an index, not the collection.
    const plan = await invoices
      .find({ issuedAt: { $gte: new Date(Date.now() - 7 * 86_400_000) } })
      .sort({ issuedAt: 1, _id: 1 })
      .limit(200)
      .explain();
    const stages = JSON.stringify(plan.queryPlanner.winningPlan);
    expect(stages).toContain('IXSCAN');
    expect(stages).not.toContain('COLLSCAN');
  });

  it("keeps KRA's refusal of an organisation's PIN; the PIN corrected on the organisation and resent, it is signed once under its number", async () => {
    const people = await countyPeople(t, world, { onAccount: true });
    const o = await dispatched(people);
    sim.setScenario('invalid-buyer-pin', { times: 1 });
    await deliver(o);
    const [refused] = await invoicesOf(o);
    const source = `invoice:${refused!.id}`;
    const failed = await waitFor(
      async () => {
        await queue.sendDue(later());
        return documents().findOne({ _id: source });
      },
      (d) => d?.state === 'failed',
      30_000,
      200,
    );
    expect(failed).toMatchObject({ state: 'failed', lastCode: '910' });

    const pin = `P0${String(Date.now()).slice(-8)}Q`;
    await http()
      .patch(`/api/organisations/${people.organisationId}`)
      .set(bearer(world.admin.accessToken))
      .send({ kraPin: pin })
      .expect(200);
    await http()
      .post(`/api/etims/documents/${encodeURIComponent(source)}/resend`)
      .set(staff())
      .send({})
      .expect(200);
    const doc = await signed(source);
    expect(doc.invcNo).toBe(failed!.invcNo);
    expect(doc.request).toMatchObject({ custTin: pin, receipt: { custTin: pin } });
    expect(received(refused!.number).filter((i) => i.signature)).toHaveLength(1);
  });

  it('refuses an invoice for an organisation whose KRA PIN is of the wrong form (400), and issues none', async () => {
    const people = await countyPeople(t, world, { onAccount: true });
    const o = await dispatched(people);
    await db
      .collection('organisations')
      .updateOne({ _id: new ObjectId(people.organisationId) }, { $set: { kraPin: 'P05123' } });
    await deliver(o);
    expect(await invoicesOf(o)).toEqual([]);
    const refused = await issue(o).expect(400);
    expect(refused.body.message).toBe(IM.organisationKraPinInvalid('P05123'));
    expect(await invoicesOf(o)).toEqual([]);
    expect(await documents().countDocuments({ orderId: o.orderId })).toBe(0);
  });
});

describe('eTIMS off: invoices on account', () => {
  let t: TestApp;
  let world: ShopWorld;
  const { http, staff, dispatched, deliver, invoicesOf } = invoicing(() => ({ t, world }));

  beforeAll(async () => {
    t = await createTestApp({ name: 'etims_invoices_off', env: UNTHROTTLED });
    world = await createShopWorld(t);
  }, 120_000);
  afterAll(() => t?.close());

  it('queues nothing for an issued invoice or its credit note', async () => {
    const o = await dispatched();
    await deliver(o);
    const [invoice] = await invoicesOf(o);
    await http()
      .post(`/api/invoices/${invoice!.id}/credit-notes`)
      .set(staff())
      .send({ reason: 'return', amount: 1000, note: 'Returned' })
      .expect(201);
    expect(await t.app.get(InvoiceEtims).sweep(later())).toBe(0);
    const db = t.app.get<Connection>(getConnectionToken());
    expect(await db.collection(ETIMS_DOCUMENTS_COLLECTION).countDocuments()).toBe(0);
    const detail = await http().get(`/api/invoices/${invoice!.id}`).set(staff()).expect(200);
    expect(detail.body.etims).toEqual([]);
  });
});
