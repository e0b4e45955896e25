/**
 * Issue 44's county, end to end on the real database, with the Daraja and SMS simulators over
 * HTTP: the county's order delivered in three tranches is invoiced per tranche; the first invoice
 * is paid by paybill in two parts (the invoice number typed two ways), the second by bank with 2 %
 * withheld by the county, the third is credited for seedlings found short after signing and the
 * rest paid by bank. The statement's balance and ageing follow every step; the billing contact is
 * reminded once on the due date; `money:check` agrees; the order is Paid once its invoices are.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { INVOICE_NUMBER_PATTERN } from '@spc/shared-contracts';
import type { Db } from 'mongodb';
import { ObjectId } from 'mongodb';
import type { Connection } from 'mongoose';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { startSmsSimulator, type SmsSimulator } from '../../tools/sms/simulator';
import { addDays, startOfShopDay } from '../src/common/shop-clock';
import { InvoiceReminders } from '../src/invoices/invoice-reminders';
import { bearer, type Session } from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { SMS_TEST_SETTINGS } from './support/sms';
import { countyOrder, countyPeople, site, today, type CountyOrder } from './support/tranches';
import { waitFor } from './support/wait';

interface Invoice {
  id: string;
  number: string;
  state: string;
  tranche: number | null;
  total: number;
  fee: number;
  paid: number;
  withheld: number;
  credited: number;
  balance: number;
  dueDate: string;
  lines: { quantity: number; unitPrice: number; amount: number }[];
}

interface Statement {
  openingBalance: number;
  closingBalance: number;
  lines: {
    kind: string;
    reference: string;
    invoiceNumber: string;
    debit: number;
    credit: number;
  }[];
  ageing: Record<'current' | 'days30' | 'days60' | 'days90' | 'over90', number>;
  overdue: number;
}

const NO_AGE = { current: 0, days30: 0, days60: 0, days90: 0, over90: 0 };

describe("the county's invoices, from delivery to a settled statement", () => {
  let m: MpesaTestApp;
  let sms: SmsSimulator;
  let world: ShopWorld;
  let staff: Session;
  let db: Db;

  beforeAll(async () => {
    sms = await startSmsSimulator({
      username: SMS_TEST_SETTINGS.AT_USERNAME,
      apiKey: SMS_TEST_SETTINGS.AT_API_KEY,
    });
    m = await createMpesaTestApp('invoices_county', {
      ...SMS_TEST_SETTINGS,
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: sms.url,
      SMS_RETRY_INTERVAL_MS: '200',
    });
    world = await createShopWorld(m.t);
    staff = world.staff;
    db = m.t.app.get<Connection>(getConnectionToken()).db as unknown as Db;
    await waitFor(
      async () => m.sim.c2b.registrations.length,
      (n) => n > 0,
      10_000,
      100,
    );
  });
  afterAll(async () => {
    await m.close();
    await sms.close();
  });

  const http = () => m.t.http();
  const as = (who: Session) => bearer(who.accessToken);

  const invoicesOf = async (o: CountyOrder) =>
    (
      (await http().get(`/api/orders/${o.orderId}/invoices`).set(as(staff)).expect(200)).body
        .invoices as Invoice[]
    ).sort((a, b) => (a.tranche ?? 0) - (b.tranche ?? 0));
  const invoice = async (id: string) =>
    (await http().get(`/api/invoices/${id}`).set(as(staff)).expect(200)).body.invoice as Invoice;
  const statementOf = async (o: CountyOrder, who: Session = staff) =>
    (
      await http()
        .get(`/api/organisations/${o.people.organisationId}/statement`)
        .query({ from: addDays(today(), -1), to: today() })
        .set(as(who))
        .expect(200)
    ).body as Statement;
  const post = (inv: Invoice, what: string, body: object) =>
    http().post(`/api/invoices/${inv.id}/${what}`).set(as(staff)).send(body);

  it('three tranches, three invoices; paybill in two parts, bank with 2 % withheld, a credit note; ageing at each step, one reminder, money:check, the order Paid', async () => {
    const people = await countyPeople(m.t, world, { onAccount: true });
    const o = await countyOrder(m.t, world, people, { onAccount: true });
    for (const batch of [o.first, o.second])
      await http().post(`/api/batches/${batch._id}/ready`).set(as(staff)).send({}).expect(201);
    const plan = (date: string, lines: object[]) =>
      http()
        .post(`/api/orders/${o.orderId}/tranches`)
        .set(as(staff))
        .send({ site: site(), date, lines })
        .expect(201);
    await plan(today(), [{ ...o.lines.stock, quantity: 200 }]);
    await plan(o.first.readyOn, [{ ...o.lines.first, quantity: 12_000 }]);
    await plan(o.second.readyOn, [{ ...o.lines.second, quantity: 8_000 }]);
    for (const n of [1, 2, 3]) {
      await http()
        .post(`/api/orders/${o.orderId}/tranches/${n}/dispatch`)
        .set(as(staff))
        .send({})
        .expect(200);
      await http()
        .post(`/api/orders/${o.orderId}/tranches/${n}/delivery`)
        .set(as(staff))
        .send({ signedBy: 'Peter Mwangi', signedAt: new Date().toISOString() })
        .expect(200);
    }

    // Three invoices, one per tranche, numbered one after the other, the fee on the first.
    const [one, two, three] = await waitFor(
      () => invoicesOf(o),
      (list) => list.length === 3,
      10_000,
      200,
    );
    expect([one, two, three].map((i) => i!.tranche)).toEqual([1, 2, 3]);
    const numbers = [one, two, three].map((i) => Number(i!.number.slice(4)));
    expect(numbers).toEqual([numbers[0], numbers[0]! + 1, numbers[0]! + 2]);
    expect(one!.number).toMatch(INVOICE_NUMBER_PATTERN);
    expect([one, two, three].map((i) => i!.lines.map((l) => [l.quantity, l.amount]))).toEqual([
      [[200, 240_000]],
      [[12_000, 300_000]],
      [[8_000, 200_000]],
    ]);
    const owed = one!.total + two!.total + three!.total;
    expect(await statementOf(o)).toMatchObject({
      openingBalance: 0,
      closingBalance: owed,
      ageing: { ...NO_AGE, current: owed },
      overdue: 0,
    });

    // The first invoice: paybill in two parts, its number typed as people type it.
    const half = Math.floor(one!.total / 2);
    const phone = `2547${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const spelled = `inv ${Number(one!.number.slice(4))}`;
    expect((await m.sim.payBill({ account: spelled, amount: half, phone })).completed).toBe(true);
    await waitFor(
      () => invoice(one!.id),
      (i) => i.paid === half,
      15_000,
      200,
    );
    expect(await statementOf(o)).toMatchObject({
      closingBalance: owed - half,
      ageing: { ...NO_AGE, current: owed - half },
    });
    const rest = await m.sim.payBill({
      account: one!.number,
      amount: one!.total - half,
      phone,
      replays: 2,
    });
    expect(rest.completed).toBe(true);
    expect(
      await waitFor(
        () => invoice(one!.id),
        (i) => i.state === 'Paid',
        15_000,
        200,
      ),
    ).toMatchObject({ state: 'Paid', paid: one!.total, balance: 0 });

    // The second: by bank, with 2 % withheld by the county (its certificate).
    const withheld = Math.round(two!.total * 0.02);
    await post(two!, 'withholding', { amount: withheld, certificate: 'WHT-KCG-0042' }).expect(201);
    await post(two!, 'payments', {
      amount: two!.total - withheld,
      reference: 'FT26330KCG001',
      paidOn: today(),
    }).expect(201);
    expect(await invoice(two!.id)).toMatchObject({
      state: 'Paid',
      paid: two!.total - withheld,
      withheld,
      balance: 0,
    });
    expect(await statementOf(o)).toMatchObject({
      closingBalance: three!.total,
      ageing: { ...NO_AGE, current: three!.total },
    });

    // The third's due date comes: its billing contact is reminded once, however many sweeps run.
    const org = (
      await http().get(`/api/organisations/${o.people.organisationId}`).set(as(staff)).expect(200)
    ).body.organisation as { billingContact: { phone: string; email: string } };
    const dueMorning = new Date(startOfShopDay(three!.dueDate).getTime() + 9 * 3_600_000);
    const reminders = m.t.app.get(InvoiceReminders);
    await Promise.all([reminders.sweep(dueMorning), reminders.sweep(dueMorning)]);
    await reminders.sweep(dueMorning);
    const to = `+254${org.billingContact.phone.replace(/\D/g, '').slice(-9)}`;
    const texts = await waitFor(
      async () => sms.outbox.filter((s) => s.to === to && s.message.includes(three!.number)),
      (list) => list.length >= 1,
      10_000,
      200,
    );
    const mails = await waitFor(
      () =>
        db
          .collection('mail_log')
          .find({ to: org.billingContact.email, template: 'invoice-reminder' })
          .toArray(),
      (list) => list.length >= 1,
      10_000,
      200,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    expect(texts).toHaveLength(1);
    expect(texts[0]!.message).toContain('due today');
    expect(
      await db
        .collection('mail_log')
        .countDocuments({ to: org.billingContact.email, template: 'invoice-reminder' }),
    ).toBe(mails.length);
    expect(mails).toHaveLength(1);

    // Forty days on it is overdue: the ageing moves it out of "current". (The clock is moved by
    // moving the invoice's days back: the statement's `to` cannot be after today.)
    await db
      .collection('invoices')
      .updateOne({ _id: new ObjectId(three!.id) }, { $set: { dueDate: addDays(today(), -40) } });
    expect(await statementOf(o)).toMatchObject({
      closingBalance: three!.total,
      ageing: { ...NO_AGE, days60: three!.total },
      overdue: three!.total,
    });

    // 400 seedlings found short after the note was signed: credited, the rest paid by bank.
    const short = 400 * three!.lines[0]!.unitPrice;
    await post(three!, 'credit-notes', {
      reason: 'short',
      amount: short,
      note: '400 seedlings found short at Gatundu North after the count',
    }).expect(201);
    await post(three!, 'payments', {
      amount: three!.total - short,
      reference: 'FT26330KCG002',
      paidOn: today(),
    }).expect(201);
    expect(await invoice(three!.id)).toMatchObject({
      state: 'Paid',
      credited: short,
      balance: 0,
    });
    const settled = await statementOf(o);
    expect(settled).toMatchObject({ closingBalance: 0, ageing: NO_AGE, overdue: 0 });
    expect(settled.lines.map((l) => [l.kind, l.invoiceNumber, l.debit, l.credit])).toEqual(
      expect.arrayContaining([
        ['invoice', one!.number, one!.total, 0],
        ['paybill', one!.number, 0, half],
        ['withholding', two!.number, 0, withheld],
        ['bank', two!.number, 0, two!.total - withheld],
        ['creditNote', three!.number, 0, short],
      ]),
    );
    // The organisation's own people read the same statement.
    expect((await statementOf(o, people.buyer)).closingBalance).toBe(0);

    // The order is paid by its invoices, and the ledger agrees.
    const order = await waitFor(
      async () =>
        (await http().get(`/api/orders/${o.orderId}`).set(as(staff)).expect(200)).body.order as {
          paymentStatus: string;
        },
      (x) => x.paymentStatus === 'Paid',
      10_000,
      200,
    );
    expect(order.paymentStatus).toBe('Paid');
    expect((await checkMoneyLedger(db)).problems).toEqual([]);
  });
});
