/**
 * Invoices on account, issued (issue 44) on the real database: the county's order of issue 42
 * delivered in three tranches is billed by three invoices numbered in sequence, each for what its
 * signed note says arrived at the quoted prices, the first with the delivery fee, due the
 * organisation's payment days later; a clerk issuing again (once, or five at once) answers the one
 * invoice; an undelivered tranche, an ordinary order and terms that say otherwise are refused; a
 * crash's leftovers are issued and numbered by the sweep; another organisation's people see none;
 * an organisation invoiced once for the whole order gets one invoice once all of it arrived.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { INVOICE_MESSAGES as IM, INVOICE_NUMBER_PATTERN } from '@spc/shared-contracts';
import { Types, type Connection } from 'mongoose';
import { InvoiceIssuing } from '../src/invoices/invoice-issuing';
import { addDays } from '../src/common/shop-clock';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import { INVOICE_ISSUE_ROUTES } from './support/invoices-issue';
import { binary, pdfText } from './support/quotations';
import { placeOrder } from './support/shop';
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

interface Invoice {
  id: string;
  number: string;
  state: string;
  organisation: { id: string; name: string; kraPin: string };
  shop: { name: string; kraPin: string };
  orderId: string;
  purchaseNumber: string;
  lpoNumber: string;
  tranche: number | null;
  lines: { line: number; quantity: number; unitPrice: number; amount: number }[];
  fee: number;
  total: number;
  issuedAt: string;
  dueDate: string;
  balance: number;
  overdue: boolean;
}

const numberOf = (i: Invoice) => Number(i.number.slice(4));

describe('invoices issued', () => {
  let t: TestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    t = await createTestApp({ name: 'invoices_issue', env: UNTHROTTLED });
    world = await createShopWorld(t);
  });
  afterAll(() => t.close());

  const http = () => t.http();
  const as = (who: Session) => bearer(who.accessToken);
  const staff = () => as(world.staff);
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;

  const plan = (o: CountyOrder, date: string, lines: object[]) =>
    http()
      .post(`/api/orders/${o.orderId}/tranches`)
      .set(staff())
      .send({ site: site(), date, lines })
      .expect(201);
  const dispatch = (o: CountyOrder, n: number) =>
    http()
      .post(`/api/orders/${o.orderId}/tranches/${n}/dispatch`)
      .set(staff())
      .send({})
      .expect(200);
  const deliver = (o: CountyOrder, n: number, lines?: object[]) =>
    http()
      .post(`/api/orders/${o.orderId}/tranches/${n}/delivery`)
      .set(staff())
      .send({
        signedBy: 'Peter Mwangi',
        signedAt: new Date().toISOString(),
        ...(lines ? { lines } : {}),
      })
      .expect(200);
  const ready = (batchId: string) =>
    http().post(`/api/batches/${batchId}/ready`).set(staff()).send({}).expect(201);
  const invoicesOf = async (o: CountyOrder, who: Session = world.staff) =>
    (await http().get(`/api/orders/${o.orderId}/invoices`).set(as(who)).expect(200)).body
      .invoices as Invoice[];
  const issue = (orderId: string, body: object = {}, who: Session = world.staff) =>
    http().post(`/api/orders/${orderId}/invoices`).set(as(who)).send(body);
  const setInvoicing = (people: TranchePeople, invoicing?: string) =>
    http()
      .put(`/api/organisations/${people.organisationId}/terms`)
      .set(as(world.admin))
      .send({
        paymentDays: 30,
        creditLimit: 50_000_000,
        onAccount: true,
        ...(invoicing ? { invoicing } : {}),
      });

  /** The county's order with both batches ready: its three lines may go out now. */
  async function readyOrder(people: TranchePeople): Promise<CountyOrder> {
    const o = await countyOrder(t, world, people, { onAccount: true });
    await ready(o.first._id);
    await ready(o.second._id);
    return o;
  }

  it("bills each of three tranches when its signed note is recorded: numbered in sequence, what arrived at the quoted price, the fee on the first, due 30 days later; the organisation's people read them", async () => {
    const people = await countyPeople(t, world, { onAccount: true });
    const o = await readyOrder(people);
    await plan(o, today(), [{ ...o.lines.stock, quantity: 200 }]);
    await plan(o, o.first.readyOn, [{ ...o.lines.first, quantity: 12_000 }]);
    await plan(o, o.second.readyOn, [{ ...o.lines.second, quantity: 8_000 }]);
    for (const n of [1, 2, 3]) await dispatch(o, n);
    expect(await invoicesOf(o)).toEqual([]);

    // T1 short: 190 trays of 200 arrived; the invoice bills 190 at KES 1,200, and the fee.
    await deliver(o, 1, [{ ...o.lines.stock, delivered: 190, shortReason: 'Ten trays wilted' }]);
    let invoices = await invoicesOf(o);
    expect(invoices).toHaveLength(1);
    const [first] = invoices;
    expect(first).toMatchObject({
      state: 'Open',
      organisation: { id: people.organisationId },
      orderId: o.orderId,
      purchaseNumber: o.purchaseNumber,
      lpoNumber: o.lpoNumber,
      tranche: 1,
      lines: [{ line: 0, quantity: 190, unitPrice: 1200, amount: 228_000 }],
      fee: 2500,
      total: 230_500,
      balance: 230_500,
      dueDate: addDays(today(), 30),
      overdue: false,
    });
    expect(first!.number).toMatch(INVOICE_NUMBER_PATTERN);
    expect(first!.organisation.kraPin).toMatch(/^[AP]\d{9}[A-Z]$/);

    await deliver(o, 2);
    await deliver(o, 3);
    invoices = await invoicesOf(o);
    expect(invoices.map((i) => [i.tranche, i.fee, i.total])).toEqual([
      [1, 2500, 230_500],
      [2, 0, 300_000],
      [3, 0, 200_000],
    ]);
    expect(invoices[1]!.lines).toEqual([
      expect.objectContaining({ line: 1, quantity: 12_000, unitPrice: 25, amount: 300_000 }),
    ]);
    expect(invoices.map(numberOf)).toEqual([1, 2, 3].map((k) => numberOf(first!) + k - 1));
    expect(new Set(invoices.map((i) => i.dueDate))).toEqual(new Set([addDays(today(), 30)]));

    // The organisation's people read them, in the list and one by one; the shop by organisation.
    expect((await invoicesOf(o, people.buyer)).map((i) => i.id)).toEqual(invoices.map((i) => i.id));
    const mine = await http().get('/api/invoices').set(as(people.buyer)).expect(200);
    expect(mine.body).toMatchObject({ total: 3, page: 1, pages: 1, owed: 730_500 });
    const byOrg = await http()
      .get(`/api/invoices?organisationId=${people.organisationId}&filter=open`)
      .set(staff())
      .expect(200);
    expect(byOrg.body.invoices.map((i: Invoice) => i.number)).toEqual(
      invoices.map((i) => i.number).reverse(),
    );
    expect(
      (await http().get('/api/invoices?filter=overdue').set(staff()).expect(200)).body.total,
    ).toBe(0);
    const one = await http().get(`/api/invoices/${first!.id}`).set(as(people.approver)).expect(200);
    expect(one.body.invoice).toEqual(invoices[0]);

    // Its PDF: both parties, the LPO, the tranche, the total, how to pay.
    const pdf = await http()
      .get(`/api/invoices/${first!.id}/pdf`)
      .set(as(people.buyer))
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`${first!.number}.pdf`);
    const text = await pdfText(pdf.body as Buffer);
    for (const words of [
      `Invoice ${first!.number}`,
      `KRA PIN ${first!.organisation.kraPin}`,
      `LPO number: ${o.lpoNumber}`,
      o.purchaseNumber,
      'Tranche: T1',
      'Gatundu North planting site',
    ])
      expect(text).toContain(words);

    // On the order's timeline, and in the audit trail.
    const audit = await db()
      .collection('audit_logs')
      .find({ action: 'invoice.issued', 'target.id': o.orderId })
      .toArray();
    expect(audit).toHaveLength(3);
  });

  it('answers the one invoice to a clerk issuing again, once or five at once; refuses an undelivered tranche, an ordinary order and bad bodies; the sweep issues and numbers what a crash left', async () => {
    const people = await countyPeople(t, world, { onAccount: true });
    const o = await readyOrder(people);
    await plan(o, today(), [{ ...o.lines.stock, quantity: 200 }]);
    await dispatch(o, 1);

    const early = await issue(o.orderId, { tranche: 1 }).expect(409);
    expect(early.body.message).toBe(IM.trancheNotDelivered('T1'));
    expect((await issue(o.orderId, { tranche: 2 }).expect(404)).body.message).toContain('T2');
    const perTranche = await issue(o.orderId, {}).expect(409);
    expect(perTranche.body.message).toBe(IM.perTrancheTerms);
    for (const body of [{ tranche: 0 }, { tranche: 'T1' }, { tranche: 1.5 }, { other: 1 }])
      expect((await issue(o.orderId, body).expect(400)).body.message).toBeTruthy();
    await http().post('/api/orders/not-an-id/invoices').set(staff()).send({}).expect(400);
    await issue(new Types.ObjectId().toHexString(), {}).expect(404);
    await issue(o.orderId, { tranche: 1 }, people.approver).expect(403);
    expect(await invoicesOf(o)).toEqual([]);

    await deliver(o, 1);
    const [auto] = await invoicesOf(o);
    const again = await issue(o.orderId, { tranche: 1 }).expect(200);
    expect(again.body.invoice).toEqual(auto);

    // A crash between the signed note and its invoice: five clerks at once write one invoice.
    await db().collection('invoices').deleteMany({ orderId: o.orderId });
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => issue(o.orderId, { tranche: 1 })));
    expect(five.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(five.map((r) => r.body.invoice.id)).size).toBe(1);
    expect(new Set(five.map((r) => r.body.invoice.number)).size).toBe(1);
    expect(five[0]!.body.invoice).toMatchObject({ tranche: 1, fee: 2500, total: 242_500 });
    expect(await db().collection('invoices').countDocuments({ orderId: o.orderId })).toBe(1);

    // The sweep: an invoice left unissued is issued, one left without a number is numbered.
    await db().collection('invoices').deleteMany({ orderId: o.orderId });
    const sweep = t.app.get(InvoiceIssuing);
    const later = new Date(Date.now() + 5 * 60_000);
    await sweep.sweep(later);
    const [swept] = await invoicesOf(o);
    expect(swept).toMatchObject({ tranche: 1, total: 242_500 });
    expect(swept!.number).toMatch(INVOICE_NUMBER_PATTERN);
    await db()
      .collection('invoices')
      .updateOne({ _id: new Types.ObjectId(swept!.id) }, { $set: { number: null } });
    await sweep.sweep(later);
    const [renumbered] = await invoicesOf(o);
    expect(renumbered!.id).toBe(swept!.id);
    expect(numberOf(renumbered!)).toBeGreaterThan(numberOf(swept!));
    await sweep.sweep(later);
    expect(await invoicesOf(o)).toEqual([renumbered]);

    // Another organisation's people see none of it, in the same words as a missing invoice.
    const other = await countyPeople(t, world);
    for (const path of [`/api/invoices/${swept!.id}`, `/api/invoices/${swept!.id}/pdf`]) {
      const res = await http().get(path).set(as(other.buyer)).expect(404);
      expect(res.body.message).toBe(IM.notFound);
    }
    await http().get(`/api/orders/${o.orderId}/invoices`).set(as(other.buyer)).expect(404);
    const theirs = await http()
      .get(`/api/invoices?organisationId=${people.organisationId}`)
      .set(as(other.buyer))
      .expect(200);
    expect(theirs.body.total).toBe(0);
    expect((await http().get('/api/invoices').set(as(other.buyer)).expect(200)).body.total).toBe(0);
    await http().get('/api/invoices?filter=late').set(staff()).expect(400);
    await http().get('/api/invoices/nope').set(staff()).expect(400);
    const missing = await http()
      .get(`/api/invoices/${new Types.ObjectId().toHexString()}`)
      .set(staff())
      .expect(404);
    expect(missing.body.message).toBe(IM.notFound);

    // An ordinary order is not invoiced.
    const ordinary = await placeOrder(t, [{ _id: world.productId, quantity: 1 }]).expect(201);
    const refused = await issue(ordinary.body.order._id, {}).expect(409);
    expect(refused.body.message).toBe(IM.notOnQuotation);
  });

  it('invoices an organisation invoiced once for the whole order once all of it arrived; its terms keep their mode when not told', async () => {
    const people = await countyPeople(t, world, { onAccount: true });
    const set = await setInvoicing(people, 'wholeOrder').expect(200);
    expect(set.body.organisation.terms).toMatchObject({ invoicing: 'wholeOrder' });
    const kept = await setInvoicing(people).expect(200);
    expect(kept.body.organisation.terms).toMatchObject({ invoicing: 'wholeOrder' });
    const bad = await setInvoicing(people, 'monthly').expect(400);
    expect(bad.body.message).toBe('invoicing must be one of: perTranche, wholeOrder');

    const o = await readyOrder(people);
    await plan(o, today(), [{ ...o.lines.stock, quantity: 200 }]);
    await plan(o, o.second.readyOn, [
      { ...o.lines.first, quantity: 12_000 },
      { ...o.lines.second, quantity: 8_000 },
    ]);
    await dispatch(o, 1);
    await deliver(o, 1);
    expect(await invoicesOf(o)).toEqual([]);
    expect((await issue(o.orderId, { tranche: 1 }).expect(409)).body.message).toBe(
      IM.wholeOrderTerms,
    );
    expect((await issue(o.orderId, {}).expect(409)).body.message).toBe(IM.orderNotDelivered);

    await dispatch(o, 2);
    await deliver(o, 2);
    const invoices = await invoicesOf(o);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      tranche: null,
      lines: [
        { line: 0, quantity: 200, unitPrice: 1200, amount: 240_000 },
        { line: 1, quantity: 12_000, unitPrice: 25, amount: 300_000 },
        { line: 2, quantity: 8_000, unitPrice: 25, amount: 200_000 },
      ],
      fee: 2500,
      total: 742_500,
      dueDate: addDays(today(), 30),
    });
    const again = await issue(o.orderId, {}).expect(200);
    expect(again.body.invoice.id).toBe(invoices[0]!.id);
  });

  it('answers every invoice route by role: 401 signed out, 403 for roles it is not theirs', async () => {
    const people = await countyPeople(t, world);
    const orderId = new Types.ObjectId().toHexString();
    const id = new Types.ObjectId().toHexString();
    const routes: [string, string, readonly ('customer' | 'staff' | 'admin')[]][] = [
      ['get', '/api/invoices', ['customer', 'staff', 'admin']],
      ['get', `/api/invoices/${id}`, ['customer', 'staff', 'admin']],
      ['get', `/api/invoices/${id}/pdf`, ['customer', 'staff', 'admin']],
      ['get', `/api/orders/${orderId}/invoices`, ['customer', 'staff', 'admin']],
      ['post', `/api/orders/${orderId}/invoices`, ['staff', 'admin']],
    ];
    expect(routes).toHaveLength(INVOICE_ISSUE_ROUTES.length);
    const sessions = { customer: people.buyer, staff: world.staff, admin: world.admin };
    type Call = (p: string) => {
      set(h: object): { send(b: object): Promise<{ status: number }> };
      send(b: object): Promise<{ status: number }>;
    };
    for (const [method, path, allowed] of routes) {
      const anonymous = await (http() as never as Record<string, Call>)[method]!(path).send({});
      expect({ path, status: anonymous.status }).toEqual({ path, status: 401 });
      for (const role of ['customer', 'staff', 'admin'] as const) {
        const res = await (http() as never as Record<string, Call>)[method]!(path)
          .set(as(sessions[role]))
          .send({});
        const expected = allowed.includes(role) ? [200, 404] : [403];
        expect({ path, role, ok: expected.includes(res.status) }).toEqual({ path, role, ok: true });
      }
    }
  });
});
