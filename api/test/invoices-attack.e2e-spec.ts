/**
 * Invoices on account attacked as an outside tester would (issue 44): references and certificates
 * sent twice at once, by two clerks, spelled otherwise and replayed after success; amounts that are
 * not whole shillings, zero, negative, huge or just above the balance; credit notes that together
 * exceed the invoice; paybill accounts in several spellings and one M-Pesa code confirmed twice at
 * once; the organisation's people on the clerks' routes and on another organisation's invoices;
 * the credit-limit claim reduced once per settlement; statements with bad periods, formats and
 * formula-looking references in the CSV. Each refusal changes nothing; money:check agrees.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { ObjectId, type Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { shopDay } from '../src/common/shop-clock';
import { insertOpenInvoice, organisationsOnAccount } from './support/invoice-settlements';
import { bearer, type Session } from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import {
  priceAndSend,
  quotationOf,
  trayProduct,
  type Buyers,
  type TrayProduct,
} from './support/quotations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { countyOrder, countyPeople, site, today as shopToday } from './support/tranches';
import { waitFor } from './support/wait';

interface StoredInvoice {
  _id: ObjectId;
  number: string;
  organisationId: string;
  orderId: string;
  total: number;
  paid: number;
  withheld: number;
  credited: number;
  excess: number;
  balance: number;
  state: string;
  settlements: { id: string; kind: string; amount: number; excess: number; reference: string }[];
}

let phoneSeq = Math.floor(Math.random() * 80_000_000);
const newPhone = () => `2547${String(10_000_000 + phoneSeq++).slice(-8)}`;

describe('invoices: attacked', () => {
  let m: MpesaTestApp;
  let world: ShopWorld;
  let db: Db;
  let org: Buyers;
  let other: Buyers;
  let tray: TrayProduct;
  let staff: Session;
  let admin: Session;
  let seq = 500;

  const as = (s: Session) => bearer(s.accessToken);
  const http = () => m.t.http();
  const invoices = () => db.collection<StoredInvoice>('invoices');
  const entries = () => db.collection<{ _id: string; invoiceId?: string }>('money_entries');
  const today = () => shopDay(new Date());
  const read = async (id: ObjectId) => (await invoices().findOne({ _id: id }))!;

  /** A numbered, open whole-order invoice of `owner` (of a made-up order unless told). */
  async function newInvoice(
    total: number,
    over: { orderId?: string; owner?: Buyers } = {},
  ): Promise<StoredInvoice> {
    return insertOpenInvoice<StoredInvoice>(
      db,
      (over.owner ?? org).org,
      total,
      ++seq,
      over.orderId,
    );
  }

  const post = (inv: { _id: ObjectId }, what: string, body: unknown, who = staff) =>
    http()
      .post(`/api/invoices/${inv._id.toString()}/${what}`)
      .set(as(who))
      .send(body as object);
  const pay = (inv: StoredInvoice, amount: unknown, reference: string, extra: object = {}) =>
    post(inv, 'payments', { amount, reference, paidOn: today(), ...extra });
  const entriesOf = (inv: StoredInvoice) =>
    entries().find({ invoiceId: inv._id.toString() }).toArray();

  /** What must not move when a request is refused: the invoice and the ledger. */
  async function unchanged(inv: StoredInvoice, act: () => Promise<unknown>) {
    const before = await read(inv._id);
    const count = await entries().countDocuments();
    await act();
    expect(await read(inv._id)).toEqual(before);
    expect(await entries().countDocuments()).toBe(count);
  }

  /** An accepted order on account of `org` and its credit-limit claim. */
  async function orderOnAccount(): Promise<{
    order: { _id: string; totalAmount: number };
    claim: () => Promise<number | undefined>;
  }> {
    const lines = [{ productId: tray.productId, unitId: tray.trayId, quantity: 20 }];
    const q = quotationOf(
      await http().post('/api/quotations').set(as(org.buyer)).send({ lines }).expect(201),
    );
    await priceAndSend(m.t, staff, q._id, lines);
    const accepted = await http()
      .post(`/api/quotations/${q._id}/accept`)
      .set(as(org.approver))
      .send({ version: 1, lpoNumber: `KCG/LPO/2026/${++seq}` })
      .expect(201);
    const order = accepted.body.order as { _id: string; totalAmount: number };
    const claim = async () =>
      (
        (await db.collection('credit_limit_use').findOne({ _id: org.org._id as never })) as {
          orders: { orderId: string; amount: number }[];
        } | null
      )?.orders.find((o) => o.orderId === order._id)?.amount;
    return { order, claim };
  }

  beforeAll(async () => {
    m = await createMpesaTestApp('invoices_attack');
    world = await createShopWorld(m.t);
    ({ staff, admin } = world);
    db = m.t.app.get<Connection>(getConnectionToken()).db as unknown as Db;
    tray = await trayProduct(m.t, world, 5000);
    [org, other] = await organisationsOnAccount(m, world, [
      'Machakos County Government',
      'Kitui County Government',
    ]);
  });
  afterAll(() => m.close());

  it('one bank reference: two clerks at once on two invoices, five spellings (case, blanks, dashes), a replay after success: counted once; another organisation may use it', async () => {
    const a = await newInvoice(20_000);
    const b = await newInvoice(20_000);
    const twoClerks = await Promise.all([
      pay(a, 1_000, 'EQ-778-1'),
      post(b, 'payments', { amount: 1_000, reference: 'eq 7781', paidOn: today() }, admin),
    ]);
    expect(twoClerks.map((r) => r.status).sort()).toEqual([201, 409]);
    const lost = twoClerks.find((r) => r.status === 409)!;
    expect(lost.body.code).toBe('REFERENCE_USED');

    const c = await newInvoice(20_000);
    const spellings = [' eq7781 ', 'EQ 7781', 'Eq-7781', 'EQ–7781', 'e q 7 7 8 1'];
    const five = await Promise.all(spellings.map((r) => pay(c, 1_000, r)));
    expect(five.map((r) => r.status)).toEqual([409, 409, 409, 409, 409]);
    expect(five.every((r) => r.body.code === 'REFERENCE_USED')).toBe(true);

    // Replayed after success, on the same invoice with the same amount: refused, counted once.
    const winner = twoClerks[0]!.status === 201 ? a : b;
    await unchanged(winner, async () => {
      expect((await pay(winner, 1_000, 'EQ-778-1')).status).toBe(409);
    });
    const paid = [await read(a._id), await read(b._id), await read(c._id)];
    expect(paid.map((i) => i.paid).sort()).toEqual([0, 0, 1_000]);
    expect(paid.reduce((n, i) => n + i.settlements.length, 0)).toBe(1);

    // A certificate the same way, and another organisation's own EQ-7781 and certificate.
    const w = await Promise.all(
      ['KRA/WHT/0042', 'kra/wht/0042 ', 'KRA / WHT / 0042'].map((certificate) =>
        post(c, 'withholding', { amount: 100, certificate }),
      ),
    );
    expect(w.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await read(c._id)).withheld).toBe(100);
    const theirs = await newInvoice(5_000, { owner: other });
    await pay(theirs, 1_000, 'EQ7781').expect(201);
    await post(theirs, 'withholding', { amount: 100, certificate: 'KRA/WHT/0042' }).expect(201);
  });

  it('amounts: not whole, zero, negative, strings, huge, just above the balance: refused, nothing changes; the exact balance with excess: true leaves no excess', async () => {
    const inv = await newInvoice(10_000);
    await unchanged(inv, async () => {
      for (const amount of [0, -1, -10_000, 0.5, 99.99, '100', '1e3', 1e12, 1e21, null, true, []]) {
        const res = await pay(inv, amount, `AMT-${String(amount)}`);
        expect({ amount, status: res.status }).toEqual({ amount, status: 400 });
      }
      const above = await pay(inv, 10_001, 'AMT-ABOVE');
      expect(above.status).toBe(409);
      expect(above.body.code).toBe('ABOVE_BALANCE');
      const wht = await post(inv, 'withholding', { amount: 10_001, certificate: 'W-ABOVE' });
      expect([wht.status, wht.body.code]).toEqual([409, 'ABOVE_BALANCE']);
      const whtExcess = await post(inv, 'withholding', {
        amount: 10_001,
        certificate: 'W-ABOVE',
        excess: true,
      });
      expect(whtExcess.status).toBe(400);
      for (const amount of [0, -5, 2.5, '50', 1e12]) {
        const res = await post(inv, 'credit-notes', { reason: 'short', amount, note: 'n' });
        expect({ amount, status: res.status }).toEqual({ amount, status: 400 });
      }
      const cn = await post(inv, 'credit-notes', { reason: 'short', amount: 10_001, note: 'n' });
      expect([cn.status, cn.body.code]).toEqual([409, 'ABOVE_INVOICE']);
    });
    const exact = await pay(inv, 10_000, 'AMT-EXACT', { excess: true }).expect(201);
    expect(exact.body.invoice).toMatchObject({ state: 'Paid', paid: 10_000, excess: 0 });
    // Paid: a payment without excess: true is refused, tax withheld too.
    await unchanged(await read(inv._id), async () => {
      expect((await pay(inv, 1, 'AMT-AFTER')).body.code).toBe('CONFLICT');
      expect((await post(inv, 'withholding', { amount: 1, certificate: 'W-AFTER' })).status).toBe(
        409,
      );
    });
  });

  it('two credit notes at once that together exceed the invoice: one passes, nothing else moves', async () => {
    const inv = await newInvoice(10_000);
    const both = await Promise.all(
      [6_000, 6_000, 6_000].map((amount) =>
        post(inv, 'credit-notes', { reason: 'return', amount, note: 'returned' }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const after = await read(inv._id);
    expect(after).toMatchObject({ credited: 6_000, balance: 4_000, state: 'Open' });
    expect(after.settlements).toHaveLength(1);
    // What is left may still be credited, and no more.
    await post(inv, 'credit-notes', { reason: 'price', amount: 4_000, note: 'price' }).expect(201);
    await unchanged(await read(inv._id), async () => {
      const more = await post(inv, 'credit-notes', { reason: 'price', amount: 1, note: 'p' });
      expect(more.body.code).toBe('ABOVE_INVOICE');
    });
  });

  it('paybill: an invoice number in several spellings counts each payment once; one M-Pesa code confirmed twice at once counts once; above the balance is an excess; money:check agrees', async () => {
    const inv = await newInvoice(9_000);
    const n = Number(inv.number.slice(4));
    const spellings = [`inv ${n}`, `INV${String(n).padStart(6, '0')}`, ` Inv-${n} `];
    for (const account of spellings) {
      const p = await m.sim.payBill({ account, amount: 1_000, phone: newPhone() });
      expect({ account, completed: p.completed }).toEqual({ account, completed: true });
    }
    await waitFor(
      () => read(inv._id),
      (i) => i.paid === 3_000,
      15_000,
      100,
    );

    // One transaction's confirmation, twice at once (no validation: Daraja replays it as it likes).
    const transId = `TA${Date.now().toString(36).toUpperCase().slice(-8)}`;
    await Promise.all(
      [1, 2].map(() =>
        m.sim.payBill({
          account: inv.number,
          amount: 2_000,
          phone: newPhone(),
          transId,
          validate: false,
        } as never),
      ),
    );
    const twice = await waitFor(
      () => read(inv._id),
      (i) => i.paid >= 5_000,
      15_000,
      100,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await read(inv._id)).paid).toBe(5_000);
    expect(twice.settlements.filter((s) => s.reference === transId)).toHaveLength(1);

    // Above the balance: the balance settled, the rest an excess; then the number is closed.
    await m.sim.payBill({ account: ` inv-${n}`, amount: 6_500, phone: newPhone() });
    const paid = await waitFor(
      () => read(inv._id),
      (i) => i.state === 'Paid',
      15_000,
      100,
    );
    expect(paid).toMatchObject({ paid: 9_000, excess: 2_500, balance: 0 });
    const late = await m.sim.payBill({ account: inv.number, amount: 100, phone: newPhone() });
    expect(late.completed).toBe(false);
    // Another organisation's invoice number: paybill has no identity, it is counted on that invoice.
    const theirs = await newInvoice(1_000, { owner: other });
    await m.sim.payBill({ account: theirs.number, amount: 1_000, phone: newPhone() });
    await waitFor(
      () => read(theirs._id),
      (i) => i.state === 'Paid',
      15_000,
      100,
    );
    expect((await read(inv._id)).settlements).toHaveLength(5);
    await waitFor(
      () => entriesOf(inv),
      (list) => list.length === 5 && list.every((e) => (e as { split?: unknown }).split),
      10_000,
      100,
    );
    expect((await checkMoneyLedger(db)).problems).toEqual([]);
  });

  it('the credit-limit claim goes down once per settlement however often it is replayed; a short delivery credited and the rest paid makes the order Paid', async () => {
    const { order, claim } = await orderOnAccount();
    expect(await claim()).toBe(order.totalAmount);
    const inv = await newInvoice(order.totalAmount, { orderId: order._id });
    await pay(inv, 1_000, 'CL-1').expect(201);
    expect(await claim()).toBe(order.totalAmount - 1_000);
    expect((await pay(inv, 1_000, 'cl 1')).status).toBe(409);
    await m.sim.payBill({ account: inv.number, amount: 2_000, phone: newPhone(), replays: 4 });
    await waitFor(
      () => read(inv._id),
      (i) => i.paid === 3_000,
      15_000,
      100,
    );
    await waitFor(claim, (c) => c === order.totalAmount - 3_000, 10_000, 100);
    await post(inv, 'credit-notes', { reason: 'short', amount: 500, note: 'one short' }).expect(
      201,
    );
    expect(await claim()).toBe(order.totalAmount - 3_500);
    const ordered = async () =>
      (await http().get(`/api/orders/${order._id}`).set(as(staff)).expect(200)).body.order as {
        paymentStatus: string;
      };
    expect((await ordered()).paymentStatus).toBe('Pending');
    await pay(inv, order.totalAmount - 3_500, 'CL-2').expect(201);
    expect(
      (await waitFor(ordered, (o) => o.paymentStatus === 'Paid', 10_000, 100)).paymentStatus,
    ).toBe('Paid');
    expect(await waitFor(claim, (c) => c === undefined, 10_000, 100)).toBeUndefined();
  });

  it('an order delivered in part (more of it still to plan) is not Paid when its one invoice is settled; its claim stays for the rest', async () => {
    const people = await countyPeople(m.t, world, { onAccount: true });
    await http()
      .put(`/api/organisations/${people.organisationId}/terms`)
      .set(as(admin))
      .send({ paymentDays: 30, creditLimit: 50_000_000, onAccount: true })
      .expect(200);
    const o = await countyOrder(m.t, world, people, { onAccount: true });
    const clerk = () => as(staff);
    // Only the ready-stock line goes now; the two batch lines are still to plan.
    await http()
      .post(`/api/orders/${o.orderId}/tranches`)
      .set(clerk())
      .send({ site: site(), date: shopToday(), lines: [{ ...o.lines.stock, quantity: 200 }] })
      .expect(201);
    await http()
      .post(`/api/orders/${o.orderId}/tranches/1/dispatch`)
      .set(clerk())
      .send({})
      .expect(200);
    await http()
      .post(`/api/orders/${o.orderId}/tranches/1/delivery`)
      .set(clerk())
      .send({ signedBy: 'Peter Mwangi', signedAt: new Date().toISOString() })
      .expect(200);
    const t1 = await waitFor(
      () => invoices().findOne({ orderId: o.orderId }),
      (i) => !!i?.number,
      10_000,
      100,
    );
    await pay(t1!, t1!.total, 'PART-T1').expect(201);
    expect((await read(t1!._id)).state).toBe('Paid');
    await new Promise((r) => setTimeout(r, 500));
    const order = (await http().get(`/api/orders/${o.orderId}`).set(clerk()).expect(200)).body
      .order as { paymentStatus: string; totalAmount: number };
    expect(order.paymentStatus).toBe('Pending');
    const use = (await db
      .collection('credit_limit_use')
      .findOne({ _id: people.organisationId as never })) as {
      orders: { orderId: string; amount: number }[];
    } | null;
    expect(use?.orders.find((c) => c.orderId === o.orderId)?.amount).toBe(
      order.totalAmount - t1!.total,
    );

    // A cancelled tranche is not invoiced, by hand or at once by five clerks.
    await http()
      .post(`/api/orders/${o.orderId}/tranches`)
      .set(clerk())
      .send({ site: site(), date: o.first.readyOn, lines: [{ ...o.lines.first, quantity: 100 }] })
      .expect(201);
    await http()
      .post(`/api/orders/${o.orderId}/tranches/2/cancel`)
      .set(clerk())
      .send({})
      .expect(200);
    const five = await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        http().post(`/api/orders/${o.orderId}/invoices`).set(clerk()).send({ tranche: 2 }),
      ),
    );
    expect(five.map((r) => r.status)).toEqual([409, 409, 409, 409, 409]);
    expect(await invoices().countDocuments({ orderId: o.orderId })).toBe(1);
  });

  it("the organisation's people: 403 on every clerk's route, even the approver; 404 for another organisation's invoice, order and statement; their list only their own", async () => {
    const { order } = await orderOnAccount();
    const mine = await newInvoice(4_000, { orderId: order._id });
    const theirs = await newInvoice(4_000, { owner: other });
    await unchanged(mine, async () => {
      for (const who of [org.approver, org.buyer]) {
        expect((await pay(mine, 4_000, 'OWN-1').set(as(who))).status).toBe(403);
        for (const [what, body] of [
          ['payments', { amount: 4_000, reference: 'OWN-1', paidOn: today() }],
          ['withholding', { amount: 100, certificate: 'OWN-C' }],
          ['credit-notes', { reason: 'short', amount: 4_000, note: 'ours' }],
        ] as const)
          expect((await post(mine, what, body, who)).status).toBe(403);
        const issue = await http().post(`/api/orders/${order._id}/invoices`).set(as(who)).send({});
        expect(issue.status).toBe(403);
      }
    });
    for (const path of [
      `/api/invoices/${theirs._id.toString()}`,
      `/api/invoices/${theirs._id.toString()}/pdf`,
      `/api/orders/${theirs.orderId}/invoices`,
      `/api/orders/${order._id}/invoices`,
      `/api/organisations/${org.org._id}/statement`,
      `/api/organisations/${org.org._id}/statement?format=csv`,
    ]) {
      const who =
        path.includes(order._id) || path.includes(org.org._id) ? other.approver : org.approver;
      const res = await http().get(path).set(as(who));
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    for (const q of ['', `?organisationId=${other.org._id}`, '?filter=open']) {
      const list = await http().get(`/api/invoices${q}`).set(as(org.approver)).expect(200);
      const ids = (list.body.invoices as { organisation: { id: string } }[]).map(
        (i) => i.organisation.id,
      );
      expect({ q, others: ids.filter((id) => id !== org.org._id) }).toEqual({ q, others: [] });
    }
    await http().get(`/api/invoices/${mine._id.toString()}`).set(as(org.buyer)).expect(200);
  });

  it('issuing by hand: no invoice for a tranche 0, -1, 999 or "abc", nor a whole-order one for a per-tranche organisation, five at once', async () => {
    const { order } = await orderOnAccount();
    const issue = (body: object) =>
      http().post(`/api/orders/${order._id}/invoices`).set(as(staff)).send(body);
    for (const tranche of [0, -1, 999, 'abc', 1.5, '1', [1]])
      expect({ tranche, status: (await issue({ tranche })).status }).toEqual({
        tranche,
        status: 400,
      });
    // Left out (or null): the whole order, which this per-tranche organisation is not billed by.
    const five = await Promise.all([{}, {}, {}, { tranche: null }, {}].map((b) => issue(b)));
    expect(five.map((r) => r.status)).toEqual([409, 409, 409, 409, 409]);
    const tranche = await issue({ tranche: 1 });
    expect([404, 409]).toContain(tranche.status);
    expect(await invoices().countDocuments({ orderId: order._id })).toBe(0);
  });

  it('statements: impossible days, huge spans and odd formats are 400; a formula-looking reference is text in the CSV', async () => {
    const id = org.org._id;
    for (const q of [
      '?from=2026-13-01',
      '?from=2026-02-30',
      '?to=2026-00-10',
      '?from=0001-01-01',
      '?from=1970-01-01&to=2026-01-01',
      '?from=2026-1-1',
      '?from[$gt]=2026-01-01',
      '?format=../etc/passwd',
      '?format=csv%00',
      '?format=PDF',
    ]) {
      const res = await http().get(`/api/organisations/${id}/statement${q}`).set(as(staff));
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
    }
    const inv = await newInvoice(3_000);
    for (const reference of ['=HYPERLINK("http://evil")', '@SUM(A1)', '+1+1', 'A;=1+1'])
      await pay(inv, 500, reference).expect(201);
    const csv = await http()
      .get(`/api/organisations/${id}/statement?format=csv`)
      .set(as(staff))
      .expect(200);
    const text = csv.text;
    expect(text).toContain(`'=HYPERLINK(`);
    expect(text).toContain(`'@SUM(A1)`);
    expect(text).toContain(`A;'=1+1`);
    const cells = text.split('\n').flatMap((row) => row.split(','));
    for (const cell of cells) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+@]/);
  });

  it('audit entries carry the invoice and the amount, not the organisation people’s contacts', async () => {
    const inv = await newInvoice(2_000);
    await pay(inv, 2_000, 'AUD-1').expect(201);
    const audit = await http()
      .get('/api/audit-logs?action=invoice.payment&limit=50')
      .set(as(admin))
      .expect(200);
    const mine = (audit.body as { target?: { id: string } }[]).filter(
      (e) => e.target?.id === inv._id.toString(),
    );
    expect(mine).toHaveLength(1);
    const text = JSON.stringify(mine);
    expect(text).toContain(inv.number);
    for (const who of [org.approver, org.buyer]) {
      const user = who.user as { email?: string; phone?: string };
      if (user.email) expect(text).not.toContain(user.email);
      if (user.phone) expect(text).not.toContain(user.phone);
    }
  });
});
