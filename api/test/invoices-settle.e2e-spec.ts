/**
 * Money against invoices (issue 44, docs/invoices.md): paybill payments whose account is an
 * invoice's number (through the Daraja simulator's C2B), bank transfers and tax withheld a clerk
 * records, credit notes; each counted once on its invoice, each payment one money-ledger entry
 * under its unique code, bad inputs changing nothing, a crash finished by the replay or the sweep,
 * the order's credit-limit claim reduced and the order Paid once its invoices settle, and
 * money:check agreeing with all of it. Invoices are written straight into the test's database (the
 * issuing has its own tests): numbered, for an organisation created through the API.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { INVOICE_MESSAGES } from '@spc/shared-contracts';
import { ObjectId, type Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { shopDay } from '../src/common/shop-clock';
import { InvoiceSettlements } from '../src/invoices/invoice-settlements';
import { bearer, type Session } from './support/identity';
import {
  INVOICE_SETTLEMENT_ROUTES,
  insertOpenInvoice,
  organisationsOnAccount,
} from './support/invoice-settlements';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import {
  priceAndSend,
  quotationOf,
  trayProduct,
  type Buyers,
  type TrayProduct,
} from './support/quotations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { waitFor } from './support/wait';

interface StoredInvoice {
  _id: ObjectId;
  number: string;
  orderId: string;
  total: number;
  paid: number;
  withheld: number;
  credited: number;
  excess: number;
  balance: number;
  state: string;
  rev: number;
  settlements: {
    id: string;
    kind: string;
    amount: number;
    excess: number;
    reference: string;
    number: string | null;
  }[];
}

interface StoredEntry {
  _id: string;
  kind: string;
  amount: number;
  code?: string;
  state: string;
  invoiceId?: string;
  split: { balance: number; excess: number } | null;
}

const HOUR = 3_600_000;
let phoneSeq = Math.floor(Math.random() * 80_000_000);
const newPhone = () => `2547${String(10_000_000 + phoneSeq++).slice(-8)}`;
const kes = (n: number) => `KES ${n.toLocaleString('en-US')}`;

describe('invoices: settlements', () => {
  let m: MpesaTestApp;
  let world: ShopWorld;
  let db: Db;
  let org: Buyers;
  let other: Buyers;
  let tray: TrayProduct;
  let staff: Session;
  let admin: Session;
  let seq = 0;

  const as = (s: Session) => bearer(s.accessToken);
  const http = () => m.t.http();
  const invoices = () => db.collection<StoredInvoice>('invoices');
  const entries = () => db.collection<StoredEntry>('money_entries');
  const today = () => shopDay(new Date());
  const read = async (id: ObjectId | string) =>
    (await invoices().findOne({ _id: new ObjectId(id.toString()) }))!;

  /** A numbered, open invoice of `org` (one whole-order invoice of a made-up order unless told). */
  async function newInvoice(
    total: number,
    over: { orderId?: string; organisation?: Buyers } = {},
  ): Promise<StoredInvoice> {
    return insertOpenInvoice<StoredInvoice>(
      db,
      (over.organisation ?? org).org,
      total,
      ++seq,
      over.orderId,
    );
  }

  const post = (inv: { _id: ObjectId | string }, what: string, body: unknown, who = staff) =>
    http()
      .post(`/api/invoices/${inv._id.toString()}/${what}`)
      .set(as(who))
      .send(body as object);

  /** The invoice once `done` says so (a paybill payment is counted after its confirmation). */
  const invoiceSoon = (id: ObjectId, done: (i: StoredInvoice) => boolean) =>
    waitFor(() => read(id), done, 15_000, 100);

  const entriesOf = (inv: { _id: ObjectId }) =>
    entries().find({ invoiceId: inv._id.toString() }).toArray();

  /** What must not move when a request is refused. */
  async function unchanged(inv: StoredInvoice, act: () => Promise<unknown>) {
    const before = await read(inv._id);
    const count = await entries().countDocuments();
    await act();
    expect(await read(inv._id)).toEqual(before);
    expect(await entries().countDocuments()).toBe(count);
  }

  beforeAll(async () => {
    m = await createMpesaTestApp('invoices_settle');
    world = await createShopWorld(m.t);
    ({ staff, admin } = world);
    db = m.t.app.get<Connection>(getConnectionToken()).db as unknown as Db;
    tray = await trayProduct(m.t, world, 5000);
    [org, other] = await organisationsOnAccount(m, world, [
      'Kiambu County Government',
      'Nyeri County Government',
    ]);
  });
  afterAll(() => m.close());

  it('paybill in two parts with the invoice number as the account: part paid, then Paid; a replayed confirmation counts once', async () => {
    const inv = await newInvoice(10_000);
    // Spelled as people type it: lower case, no zeros, a space.
    const first = await m.sim.payBill({
      account: `inv ${seq}`,
      amount: 4_000,
      phone: newPhone(),
    });
    expect(first.completed).toBe(true);
    const part = await invoiceSoon(inv._id, (i) => i.paid === 4_000);
    expect(part).toMatchObject({ state: 'Open', balance: 6_000, paid: 4_000, excess: 0 });

    const second = await m.sim.payBill({
      account: inv.number,
      amount: 6_000,
      phone: newPhone(),
      replays: 4,
    });
    expect(second.confirmationStatuses).toEqual([200, 200, 200, 200]);
    const paid = await invoiceSoon(inv._id, (i) => i.state === 'Paid');
    expect(paid).toMatchObject({ paid: 10_000, balance: 0, excess: 0 });
    expect(paid.settlements.map((s) => [s.kind, s.amount, s.reference])).toEqual([
      ['paybill', 4_000, first.transId],
      ['paybill', 6_000, second.transId],
    ]);
    // The entry's split is written just after the invoice's write.
    const ledger = await waitFor(
      () => entriesOf(inv),
      (list) => list.every((e) => e.split),
      10_000,
      100,
    );
    expect(ledger.map((e) => [e.kind, e.amount, e.state, e.split?.balance])).toEqual(
      expect.arrayContaining([
        ['paybill', 4_000, 'credited', 4_000],
        ['paybill', 6_000, 'credited', 6_000],
      ]),
    );
    expect(ledger).toHaveLength(2);
    // Its number is no longer an account Daraja may take; a confirmation that comes anyway waits
    // in the payments inbox, as an unknown account's does.
    const refused = await m.sim.payBill({ account: inv.number, amount: 500, phone: newPhone() });
    expect(refused.completed).toBe(false);
    const unknown = await m.sim.payBill({ account: 'INV-999999', amount: 500, phone: newPhone() });
    expect(unknown.completed).toBe(false);
    const anyway = await m.sim.payBill({
      account: inv.number,
      amount: 500,
      phone: newPhone(),
      validate: false,
    });
    const inbox = await waitFor(
      async () =>
        (await http().get('/api/payments/mpesa/inbox').set(as(staff)).expect(200)).body
          .payments as { transId: string; reason: string }[],
      (list) => list.some((p) => p.transId === anyway.transId),
      15_000,
      100,
    );
    expect(inbox.find((p) => p.transId === anyway.transId)!.reason).toMatch(/settled/);
    expect((await read(inv._id)).settlements).toHaveLength(2);
    expect((await entries().findOne({ _id: `c2b:${anyway.transId}` }))!.state).toBe('open');
  });

  it('paybill above the balance settles the balance; the rest is the excess of the entry and the invoice', async () => {
    const inv = await newInvoice(5_000);
    const paid = await m.sim.payBill({ account: inv.number, amount: 7_000, phone: newPhone() });
    const after = await invoiceSoon(inv._id, (i) => i.state === 'Paid');
    expect(after).toMatchObject({ paid: 5_000, excess: 2_000, balance: 0 });
    const entry = await waitFor(
      () => entries().findOne({ _id: `c2b:${paid.transId}` }),
      (e) => !!e?.split,
      10_000,
      100,
    );
    expect(entry).toMatchObject({
      state: 'credited',
      invoiceId: inv._id.toString(),
      split: { balance: 5_000, excess: 2_000 },
    });
  });

  it('bank transfer with 2% withheld: Paid; the certificate and the reference once per organisation', async () => {
    const inv = await newInvoice(50_000);
    const wht = await post(inv, 'withholding', { amount: 1_000, certificate: 'wht/2026/0007' });
    expect(wht.status).toBe(201);
    expect(wht.body.invoice).toMatchObject({ withheld: 1_000, balance: 49_000, state: 'Open' });
    const bank = await post(inv, 'payments', {
      amount: 49_000,
      reference: ' ft 24123 ',
      paidOn: today(),
    });
    expect(bank.status).toBe(201);
    expect(bank.body.invoice).toMatchObject({
      state: 'Paid',
      paid: 49_000,
      withheld: 1_000,
      balance: 0,
      payments: [
        { kind: 'withholding', amount: 1_000, reference: 'wht/2026/0007' },
        { kind: 'bank', amount: 49_000, reference: 'ft 24123', excess: 0 },
      ],
    });
    const codes = (await entriesOf(inv)).map((e) => e.code).sort();
    expect(codes).toEqual([`BANK:${org.org._id}:FT24123`, `WHT:${org.org._id}:WHT/2026/0007`]);

    // The same reference and certificate, spelled otherwise, on another invoice: 409 naming the first.
    const next = await newInvoice(20_000);
    await unchanged(next, async () => {
      const again = await post(next, 'payments', {
        amount: 1_000,
        reference: 'FT24123',
        paidOn: today(),
      });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        code: 'REFERENCE_USED',
        message: INVOICE_MESSAGES.referenceUsed('FT24123', inv.number),
      });
      const cert = await post(next, 'withholding', { amount: 400, certificate: 'WHT/2026/0007 ' });
      expect(cert.status).toBe(409);
      expect(cert.body.message).toBe(INVOICE_MESSAGES.certificateUsed('WHT/2026/0007', inv.number));
    });
    // Another organisation may have its own FT24123.
    const theirs = await newInvoice(3_000, { organisation: other });
    await post(theirs, 'payments', { amount: 3_000, reference: 'FT24123', paidOn: today() }).expect(
      201,
    );
    const audit = await http()
      .get('/api/audit-logs?action=invoice.withholding&limit=50')
      .set(as(admin))
      .expect(200);
    expect(
      (audit.body as { target?: { id: string } }[]).filter(
        (e) => e.target?.id === inv._id.toString(),
      ),
    ).toHaveLength(1);
  });

  it('one reference five times at once, spelled five ways: one payment, four 409s', async () => {
    const inv = await newInvoice(30_000);
    const spellings = [' ft 555 ', 'FT555', 'ft555', 'F T555', 'Ft 55 5'];
    const answers = await Promise.all(
      spellings.map((reference) =>
        post(inv, 'payments', { amount: 1_000, reference, paidOn: today() }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body.message).toMatch(/is already recorded for this organisation \(on INV-/);
    const after = await read(inv._id);
    expect(after).toMatchObject({ paid: 1_000, balance: 29_000, state: 'Open' });
    expect(after.settlements).toHaveLength(1);
    expect(await entriesOf(inv)).toHaveLength(1);
  });

  it('above the balance: 409 ABOVE_BALANCE, nothing changes; with excess: true the rest is a recorded excess', async () => {
    const inv = await newInvoice(8_000);
    await unchanged(inv, async () => {
      const res = await post(inv, 'payments', {
        amount: 9_000,
        reference: 'EFT-77',
        paidOn: today(),
      });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        code: 'ABOVE_BALANCE',
        message: INVOICE_MESSAGES.aboveBalance(kes(8_000)),
      });
      const wht = await post(inv, 'withholding', { amount: 8_001, certificate: 'C-1' });
      expect(wht.status).toBe(409);
      expect(wht.body.message).toBe(INVOICE_MESSAGES.withholdingAboveBalance(kes(8_000)));
    });
    const res = await post(inv, 'payments', {
      amount: 9_000,
      reference: 'EFT-77',
      paidOn: today(),
      excess: true,
    }).expect(201);
    expect(res.body.invoice).toMatchObject({ state: 'Paid', paid: 8_000, excess: 1_000 });
    const [entry] = await entriesOf(inv);
    expect(entry).toMatchObject({ amount: 9_000, split: { balance: 8_000, excess: 1_000 } });
  });

  it('credit notes: a short delivery, never above the invoice less its credit notes; all credited is Credited', async () => {
    const inv = await newInvoice(10_000);
    const short = await post(inv, 'credit-notes', {
      reason: 'short',
      amount: 2_500,
      note: '5 trays arrived dry and were refused at the site',
    }).expect(201);
    expect(short.body.invoice).toMatchObject({ credited: 2_500, balance: 7_500, state: 'Open' });
    const [note] = short.body.invoice.creditNotes as { number: string }[];
    expect(note!.number).toMatch(/^CN-\d{6}$/);
    await unchanged(inv, async () => {
      const above = await post(inv, 'credit-notes', { reason: 'price', amount: 7_501, note: 'x' });
      expect(above.status).toBe(409);
      expect(above.body).toMatchObject({
        code: 'ABOVE_INVOICE',
        message: INVOICE_MESSAGES.creditAboveInvoice(kes(7_500)),
      });
    });
    // An admin may too.
    const rest = await post(
      inv,
      'credit-notes',
      { reason: 'return', amount: 7_500, note: 'All returned' },
      admin,
    ).expect(201);
    expect(rest.body.invoice).toMatchObject({ credited: 10_000, balance: 0, state: 'Credited' });
    const numbers = (rest.body.invoice.creditNotes as { number: string }[]).map((c) => c.number);
    expect(new Set(numbers).size).toBe(2);
    // No shilling moved: no ledger entry.
    expect(await entriesOf(inv)).toHaveLength(0);
  });

  it('bad inputs: 400, 403 for an organisation’s people, 404 for no invoice; nothing changes', async () => {
    const inv = await newInvoice(6_000);
    const tomorrow = shopDay(new Date(Date.now() + 30 * HOUR));
    await unchanged(inv, async () => {
      const bad = [
        ['payments', { amount: 0, reference: 'R1', paidOn: today() }],
        ['payments', { amount: 10.5, reference: 'R1', paidOn: today() }],
        ['payments', { amount: '100', reference: 'R1', paidOn: today() }],
        ['payments', { amount: 100, reference: '   ', paidOn: today() }],
        ['payments', { amount: 100, reference: 'R'.repeat(41), paidOn: today() }],
        ['payments', { amount: 100, reference: 'R1', paidOn: tomorrow }],
        ['payments', { amount: 100, reference: 'R1', paidOn: '2026-02-30' }],
        ['payments', { amount: 100, reference: 'R1', paidOn: '20/11/2026' }],
        ['payments', { amount: 100, reference: 'R1', paidOn: today(), excess: 'yes' }],
        ['withholding', { amount: 100 }],
        ['withholding', { amount: -5, certificate: 'C9' }],
        ['credit-notes', { reason: 'gift', amount: 100, note: 'n' }],
        ['credit-notes', { reason: 'short', amount: 100, note: '  ' }],
        ['credit-notes', { reason: 'short', amount: 100 }],
      ] as const;
      for (const [what, body] of bad) {
        const res = await post(inv, what, body);
        expect([what, res.status]).toEqual([what, 400]);
        expect(typeof res.body.message).toBe('string');
      }
      // Every settlement route: staff and admin only (an organisation's people: 403; nobody: 401).
      const bodies: Record<string, object> = {
        payments: { amount: 100, reference: 'R2', paidOn: today() },
        withholding: { amount: 100, certificate: 'C2' },
        'credit-notes': { reason: 'short', amount: 100, note: 'n' },
      };
      for (const route of INVOICE_SETTLEMENT_ROUTES) {
        const what = route.split('/').at(-1)!;
        for (const who of [org.approver, org.buyer, world.customer ?? org.buyer]) {
          const res = await post(inv, what, bodies[what], who);
          expect([route, res.status]).toEqual([route, 403]);
        }
        await http()
          .post(`/api/invoices/${inv._id.toString()}/${what}`)
          .send(bodies[what])
          .expect(401);
      }
      for (const id of [new ObjectId().toHexString(), 'not-an-id']) {
        const res = await http()
          .post(`/api/invoices/${id}/withholding`)
          .set(as(staff))
          .send({ amount: 100, certificate: 'C10' });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(INVOICE_MESSAGES.notFound);
      }
    });
  });

  it('a crash between the entry and the invoice: the replay of the request finishes it, the sweep finishes the rest', async () => {
    const inv = await newInvoice(12_000);
    const long = new Date(Date.now() - 5 * 60_000);
    const left = (code: string, amount: number, invoiceId: string) => ({
      _id: `bank:${code}`,
      direction: 'in',
      kind: 'bank',
      amount,
      code,
      reference: code.split(':')[2]!,
      orderId: null,
      purchaseNumber: inv.number,
      invoiceId,
      payer: null,
      state: 'credited',
      split: null,
      returnable: amount,
      returned: 0,
      returns: [],
      of: null,
      purpose: null,
      send: false,
      transfer: null,
      byId: staff.user._id ?? '',
      byName: 'Clerk',
      byRole: 'staff',
      at: long,
      claimedAt: null,
      meantFor: null,
      createdAt: long,
      updatedAt: long,
    });
    await entries().insertOne(
      left(`BANK:${org.org._id}:CRASH1`, 2_000, inv._id.toString()) as never,
    );
    const replay = await post(inv, 'payments', {
      amount: 2_000,
      reference: 'crash 1',
      paidOn: today(),
    });
    expect(replay.status).toBe(201);
    expect(replay.body.invoice).toMatchObject({ paid: 2_000, balance: 10_000 });
    // Again: now it is recorded, so the same reference is refused, and counted once.
    const again = await post(inv, 'payments', {
      amount: 2_000,
      reference: 'CRASH1',
      paidOn: today(),
    });
    expect(again.status).toBe(409);
    expect((await read(inv._id)).settlements).toHaveLength(1);

    await entries().insertOne(
      left(`BANK:${org.org._id}:CRASH2`, 3_000, inv._id.toString()) as never,
    );
    expect(await m.t.app.get(InvoiceSettlements).sweep()).toBe(1);
    expect(await m.t.app.get(InvoiceSettlements).sweep()).toBe(0);
    const after = await read(inv._id);
    expect(after).toMatchObject({ paid: 5_000, balance: 7_000 });
    expect(after.settlements.map((s) => s.reference)).toEqual(['CRASH1', 'CRASH2']);
    expect((await entriesOf(inv)).every((e) => e.split?.balance === e.amount)).toBe(true);
  });

  it('an order on account: each settlement takes its amount off the credit-limit claim; settled, the order is Paid', async () => {
    const lines = [{ productId: tray.productId, unitId: tray.trayId, quantity: 4 }];
    const q = quotationOf(
      await http().post('/api/quotations').set(as(org.buyer)).send({ lines }).expect(201),
    );
    await priceAndSend(m.t, staff, q._id, lines);
    const accepted = await http()
      .post(`/api/quotations/${q._id}/accept`)
      .set(as(org.approver))
      .send({ version: 1, lpoNumber: 'KCG/LPO/2026/4400' })
      .expect(201);
    const order = accepted.body.order as { _id: string; totalAmount: number };
    const claim = async () =>
      (
        (await db.collection('credit_limit_use').findOne({ _id: org.org._id as never })) as {
          used: number;
          orders: { orderId: string; amount: number }[];
        } | null
      )?.orders.find((o) => o.orderId === order._id);
    expect((await claim())!.amount).toBe(order.totalAmount);

    const inv = await newInvoice(order.totalAmount, { orderId: order._id });
    await post(inv, 'credit-notes', { reason: 'short', amount: 500, note: 'short' }).expect(201);
    expect((await claim())!.amount).toBe(order.totalAmount - 500);
    await post(inv, 'payments', {
      amount: order.totalAmount - 500,
      reference: 'ORDER-4400',
      paidOn: today(),
    }).expect(201);
    const paid = await waitFor(
      async () =>
        (await http().get(`/api/orders/${order._id}`).set(as(staff)).expect(200)).body.order as {
          paymentStatus: string;
        },
      (o) => o.paymentStatus === 'Paid',
      10_000,
      100,
    );
    expect(paid.paymentStatus).toBe('Paid');
    expect(await waitFor(claim, (c) => c === undefined, 10_000, 100)).toBeUndefined();
  });

  it('money:check agrees with every invoice and entry', async () => {
    const check = await checkMoneyLedger(db);
    expect(check.problems).toEqual([]);
    // And it can fail: an invoice that shows more paid than its entries brought.
    const inv = await newInvoice(1_000);
    await invoices().updateOne({ _id: inv._id }, { $set: { paid: 400, balance: 600 } });
    const broken = await checkMoneyLedger(db);
    expect(broken.problems.join('\n')).toMatch(new RegExp(`invoice ${inv.number}`));
    await invoices().deleteOne({ _id: inv._id });
  });
});
