/**
 * Invoices on account (issue 44): an organisation's statement, the billing contact's reminders and
 * the dashboard's overdue invoices, on the real database with invoices written as the issuing and
 * the settlements write them. The statement's opening and closing balances, lines and ageing at
 * two ends of period; its PDF and CSV; who may read it (the shop, the organisation's people, not
 * another's: 404); bad periods (400). The reminders: one e-mail and one text for an invoice due
 * today however many sweeps run at once, only the week's for one a week late, none for one settled
 * or not yet due. The dashboard counts open invoices past their due date.
 */
import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import {
  invoiceNumber,
  ORGANISATION_MESSAGES as OM,
  toKenyanMsisdn,
  type OrganisationView,
  type StatementView,
} from '@spc/shared-contracts';
import { Types, type Connection, type Model } from 'mongoose';
import { addDays, shopDay, startOfShopDay } from '../src/common/shop-clock';
import { InvoiceReminders } from '../src/invoices/invoice-reminders';
import { dayAndMonth } from '../src/sms/sms-text';
import { Invoice } from '../src/invoices/schemas/invoice.schema';
import {
  bearer,
  createStaff,
  registerCustomer,
  signInAdmin,
  type Session,
} from './support/identity';
import { organisationBody, signUpOrganisation, uniqueKraPin } from './support/organisations';
import { binary, pdfText } from './support/quotations';
import { createSmsTestApp, type SmsTestApp } from './support/sms';
import { sleep, waitFor } from './support/wait';

describe('invoices: statements, reminders and the dashboard (issue 44)', () => {
  let s: SmsTestApp;
  let admin: Session;
  let staff: Session;
  let customer: Session;
  let own: OrganisationView;
  let other: OrganisationView;
  let model: Model<Invoice>;
  let seq = 900_000 + Math.floor(Math.random() * 90_000);
  // The shop's day (Africa/Nairobi) the suite runs on.
  const today = shopDay(new Date());
  /** An instant of the shop's day `day` at `hour` (Nairobi). */
  const at = (day: string, hour = 10) => new Date(startOfShopDay(day).getTime() + hour * 3600_000);

  beforeAll(async () => {
    s = await createSmsTestApp('invoices_statement');
    model = s.t.app.get<Model<Invoice>>(getModelToken(Invoice.name));
    admin = await signInAdmin(s.t);
    staff = await createStaff(s.t, admin.accessToken);
    customer = await registerCustomer(s.t);
    own = await signUpOrganisation(s.t, customer, { name: 'Nyeri County Government' });
    const made = await s.t
      .http()
      .post('/api/organisations')
      .set(bearer(staff.accessToken))
      .send(organisationBody({ name: 'Kenya Forest Service' }))
      .expect(201);
    other = made.body.organisation as OrganisationView;
  });
  afterAll(() => s?.close());

  type Settlement = Invoice['settlements'][number];
  const settlement = (o: Partial<Settlement> & Pick<Settlement, 'kind' | 'amount' | 'at'>) =>
    ({
      id: new Types.ObjectId().toHexString(),
      excess: 0,
      reference: '',
      number: null,
      reason: null,
      note: '',
      byId: '',
      byName: '',
      byRole: '',
      ...o,
    }) as Settlement;

  /** An invoice as the issuing writes it (numbered), its sums from its settlements. */
  async function invoice(
    org: OrganisationView,
    o: {
      total: number;
      issuedOn: string;
      issuedHour?: number;
      dueDate: string;
      settlements?: Settlement[];
      reminders?: Invoice['reminders'];
      lpoNumber?: string;
    },
  ): Promise<Invoice & { _id: Types.ObjectId }> {
    const settlements = o.settlements ?? [];
    const sum = (k: Settlement['kind'][]) =>
      settlements.filter((x) => k.includes(x.kind)).reduce((n, x) => n + x.amount, 0);
    const [paid, withheld, credited] = [
      sum(['paybill', 'bank']),
      sum(['withholding']),
      sum(['creditNote']),
    ];
    const balance = Math.max(0, o.total - paid - withheld - credited);
    const excess = settlements.reduce((n, x) => n + (x.excess ?? 0), 0);
    const state = balance > 0 ? 'Open' : paid + withheld > 0 ? 'Paid' : 'Credited';
    const doc = await model.create({
      number: invoiceNumber(++seq),
      organisationId: org._id,
      organisationName: org.name,
      organisationKraPin: org.kraPin,
      shopName: 'Seedling Propagation Centre',
      shopKraPin: '',
      orderId: new Types.ObjectId().toHexString(),
      purchaseNumber: `SPC-${seq}`,
      lpoNumber: o.lpoNumber ?? `LPO/${seq}`,
      tranche: 1,
      trancheKey: 'T1',
      site: { name: 'Kabage depot', county: 'Nyeri', subCounty: 'Mathira' },
      lines: [
        {
          line: 0,
          productName: 'Grevillea',
          unitName: 'Single seedling',
          quantity: o.total / 50,
          unitPrice: 50,
          amount: o.total,
        },
      ],
      fee: 0,
      total: o.total,
      issuedAt: at(o.issuedOn, o.issuedHour ?? 10),
      dueDate: o.dueDate,
      paid,
      withheld,
      credited,
      excess,
      balance,
      state,
      settlements,
      reminders: o.reminders ?? [],
      rev: settlements.length,
    });
    return doc.toObject() as Invoice & { _id: Types.ObjectId };
  }

  const statement = (org: string, who: Session, query = '') =>
    s.t.http().get(`/api/organisations/${org}/statement${query}`).set(bearer(who.accessToken));
  const file = (org: string, who: Session, query: string) =>
    statement(org, who, query).buffer(true).parse(binary);

  describe('the statement', () => {
    let a: Invoice, b: Invoice, c: Invoice;

    beforeAll(async () => {
      // A: 10,000 issued 100 days ago, due 70 days ago; a bank transfer, then a credit note.
      a = await invoice(own, {
        total: 10_000,
        issuedOn: addDays(today, -100),
        dueDate: addDays(today, -70),
        settlements: [
          settlement({
            kind: 'bank',
            amount: 4_000,
            reference: 'FT123',
            at: at(addDays(today, -80)),
          }),
          settlement({
            kind: 'creditNote',
            amount: 1_000,
            number: 'CN-000007',
            reason: 'short',
            note: '20 seedlings short',
            at: at(addDays(today, -60)),
          }),
        ],
      });
      // B: 20,000 issued 40 days ago, due 10 days ago; paid 5,000 by paybill 5 days ago (500 above).
      b = await invoice(own, {
        total: 20_000,
        issuedOn: addDays(today, -40),
        dueDate: addDays(today, -10),
        settlements: [
          settlement({
            kind: 'paybill',
            amount: 5_000,
            excess: 500,
            reference: 'SKX1Y2Z3',
            at: at(addDays(today, -5), 11),
          }),
        ],
      });
      // C: 7,000 issued 5 days ago (before B's payment that day), due in 25 days.
      c = await invoice(own, {
        total: 7_000,
        issuedOn: addDays(today, -5),
        issuedHour: 9,
        dueDate: addDays(today, 25),
      });
      // Another organisation's invoice is on no statement of this one.
      await invoice(other, {
        total: 99_000,
        issuedOn: addDays(today, -20),
        dueDate: addDays(today, -1),
      });
    });

    it('answers the opening balance, the lines with their running balance, the closing balance and the ageing at today', async () => {
      const res = await statement(
        own._id,
        staff,
        `?from=${addDays(today, -45)}&to=${today}`,
      ).expect(200);
      const v = res.body as StatementView;
      expect(v.organisation).toEqual({ id: own._id, name: own.name, kraPin: own.kraPin });
      expect(v.shop.name).toBe('Seedling Propagation Centre');
      expect([v.from, v.to]).toEqual([addDays(today, -45), today]);
      // Before the period: A less the transfer and the credit note.
      expect(v.openingBalance).toBe(5_000);
      expect(
        v.lines.map((l) => [
          l.date,
          l.kind,
          l.reference,
          l.invoiceNumber,
          l.debit,
          l.credit,
          l.balance,
        ]),
      ).toEqual([
        [addDays(today, -40), 'invoice', b.number, b.number, 20_000, 0, 25_000],
        [addDays(today, -5), 'invoice', c.number, c.number, 7_000, 0, 32_000],
        [addDays(today, -5), 'paybill', 'SKX1Y2Z3', b.number, 0, 5_000, 27_000],
      ]);
      expect(v.lines[2]!.description).toBe(`M-Pesa paybill SKX1Y2Z3 for ${b.number}`);
      expect(v.closingBalance).toBe(27_000);
      // A: 5,000 70 days late; B: 15,000 10 days late; C: 7,000 not yet due.
      expect(v.ageing).toEqual({
        current: 7_000,
        days30: 15_000,
        days60: 0,
        days90: 5_000,
        over90: 0,
      });
      expect(v.overdue).toBe(20_000);
      expect(v.excess).toBe(500);
    });

    it('ends the period earlier: what was issued after it is left out, the ageing counted at its end', async () => {
      const v = (
        await statement(
          own._id,
          admin,
          `?from=${addDays(today, -110)}&to=${addDays(today, -50)}`,
        ).expect(200)
      ).body as StatementView;
      expect(v.openingBalance).toBe(0);
      expect(v.lines.map((l) => [l.kind, l.reference, l.debit, l.credit, l.balance])).toEqual([
        ['invoice', a.number, 10_000, 0, 10_000],
        ['bank', 'FT123', 0, 4_000, 6_000],
        ['creditNote', 'CN-000007', 0, 1_000, 5_000],
      ]);
      expect(v.lines[1]!.description).toBe(`Bank transfer FT123 for ${a.number}`);
      expect(v.lines[2]!.description).toBe(
        `Credit note CN-000007 (Short delivery) for ${a.number}`,
      );
      expect(v.closingBalance).toBe(5_000);
      // A was due 70 days before today: 20 days late at the period's end.
      expect(v.ageing).toEqual({ current: 0, days30: 5_000, days60: 0, days90: 0, over90: 0 });
      expect(v.overdue).toBe(5_000);
      expect(v.excess).toBe(0);
    });

    it('defaults to this month, and a period with nothing in it carries the balance over', async () => {
      const v = (await statement(own._id, staff).expect(200)).body as StatementView;
      expect([v.from, v.to]).toEqual([`${today.slice(0, 7)}-01`, today]);
      const quiet = (
        await statement(
          own._id,
          staff,
          `?from=${addDays(today, -3)}&to=${addDays(today, -1)}`,
        ).expect(200)
      ).body as StatementView;
      expect(quiet.lines).toEqual([]);
      expect(quiet.openingBalance).toBe(27_000);
      expect(quiet.closingBalance).toBe(27_000);
    });

    // The route's role matrix (support/invoice-statements.ts, access-matrix.e2e-spec.ts).
    it("lets the organisation's people read their own statement and answers 404 for another's", async () => {
      const mine = await statement(
        own._id,
        customer,
        `?to=${today}&from=${addDays(today, -45)}`,
      ).expect(200);
      expect((mine.body as StatementView).closingBalance).toBe(27_000);
      const theirs = await statement(other._id, customer).expect(404);
      expect(theirs.body.message).toBe(OM.noOrganisation);
      const missing = await statement(new Types.ObjectId().toHexString(), customer).expect(404);
      expect(missing.body.message).toBe(OM.noOrganisation);
      // Someone who buys for no organisation reads none.
      const loner = await registerCustomer(s.t);
      expect((await statement(own._id, loner).expect(404)).body.message).toBe(OM.noOrganisation);
      await s.t.http().get(`/api/organisations/${own._id}/statement`).expect(401);
    });

    it('refuses a bad period or format with words saying what is wrong', async () => {
      const cases: [string, RegExp][] = [
        ['?from=2026-02-31&to=2026-03-01', /from must be a real day/],
        ['?from=2026-01-01&to=tomorrow', /to must be a real day/],
        [`?from=${today}&to=${addDays(today, -1)}`, /from must be on or before to/],
        [`?from=${addDays(today, -731)}&to=${today}`, /at most two years/],
        [`?to=${addDays(today, 1)}`, /cannot be after today/],
        ['?format=xml', /format must be one of: json, pdf, csv/],
      ];
      for (const [query, words] of cases) {
        const res = await statement(own._id, staff, query);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(JSON.stringify(res.body)).toMatch(words);
      }
      // Two years exactly is one statement.
      await statement(own._id, staff, `?from=${addDays(today, -730)}&to=${today}`).expect(200);
      await statement('not-an-id', staff).expect(400);
    });

    it('gives the statement as a CSV and a PDF to download, the shop taking one out audited', async () => {
      const q = `?from=${addDays(today, -45)}&to=${today}`;
      const csv = await statement(own._id, staff, `${q}&format=csv`).expect(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.headers['content-disposition']).toBe(
        `attachment; filename="statement-${own.kraPin}-${today}.csv"`,
      );
      expect(csv.headers['cache-control']).toBe('private, no-store');
      const rows = csv.text.trim().split('\n');
      expect(rows).toContain(`${addDays(today, -45)},opening,,,Opening balance,,,5000`);
      expect(rows).toContain(
        `${addDays(today, -5)},paybill,SKX1Y2Z3,${b.number},M-Pesa paybill SKX1Y2Z3 for ${b.number},0,5000,27000`,
      );
      expect(rows).toContain(`${today},closing,,,Closing balance,,,27000`);

      const pdf = await file(own._id, customer, `${q}&format=pdf`).expect(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe(
        `attachment; filename="statement-${own.kraPin}-${today}.pdf"`,
      );
      expect(pdf.headers['cache-control']).toBe('private, no-store');
      const body = pdf.body as Buffer;
      expect(body.subarray(0, 5).toString()).toBe('%PDF-');
      const text = await pdfText(body);
      for (const words of ['Statement of account', own.name, own.kraPin, b.number, 'Overdue'])
        expect(text).toContain(words);

      const trail = (
        await s.t
          .http()
          .get('/api/audit-logs?action=invoice.statement&limit=100')
          .set(bearer(admin.accessToken))
          .expect(200)
      ).body as { message: string; target?: { id: string } }[];
      const entries = Array.isArray(trail) ? trail : [];
      // The staff's CSV is in the trail; the organisation's own person's PDF is not the shop's export.
      expect(entries.map((e) => e.target?.id)).toEqual([`statement-${own.kraPin}-${today}.csv`]);
      expect(entries[0]!.message).toContain(`the statement of ${own.name}`);
    });
  });

  describe('the reminders', () => {
    let org: OrganisationView;
    let phone: string;
    let email: string;
    const db = () => s.t.app.get<Connection>(getConnectionToken()).db!;
    /** 09:00 in Nairobi today: reminders go out from 08:00. */
    const morning = () => at(today, 9);

    beforeAll(async () => {
      const body = organisationBody({ name: 'Muranga Water Company', kraPin: uniqueKraPin() });
      phone = '0733' + String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
      email = body.billingContact.email;
      body.billingContact.phone = phone;
      org = (
        await s.t
          .http()
          .post('/api/organisations')
          .set(bearer(staff.accessToken))
          .send(body)
          .expect(201)
      ).body.organisation as OrganisationView;
    });

    it('sends an invoice due today one e-mail and one text, however many sweeps run at once, and a week-late one only its week reminder', async () => {
      const dueToday = await invoice(org, {
        total: 12_345,
        issuedOn: addDays(today, -30),
        dueDate: today,
        lpoNumber: 'MWC/77',
      });
      const weekLate = await invoice(org, {
        total: 8_000,
        issuedOn: addDays(today, -38),
        dueDate: addDays(today, -8),
        settlements: [
          settlement({ kind: 'bank', amount: 3_000, reference: 'FT9', at: at(addDays(today, -9)) }),
        ],
      });
      const notYet = await invoice(org, {
        total: 5_000,
        issuedOn: addDays(today, -27),
        dueDate: addDays(today, 3),
      });
      const settled = await invoice(org, {
        total: 4_000,
        issuedOn: addDays(today, -32),
        dueDate: addDays(today, -2),
        settlements: [
          settlement({
            kind: 'paybill',
            amount: 4_000,
            reference: 'SQ1',
            at: at(addDays(today, -3)),
          }),
        ],
      });
      // Due longer ago than the reminders catch up (30 days): none of those it missed is sent.
      const longAgo = await invoice(org, {
        total: 3_000,
        issuedOn: addDays(today, -75),
        dueDate: addDays(today, -45),
      });

      const reminders = s.t.app.get(InvoiceReminders);
      // Before 08:00 nothing goes out.
      expect(await reminders.sweep(at(today, 6))).toBe(0);
      const sent = await Promise.all([
        reminders.sweep(morning()),
        reminders.sweep(morning()),
        reminders.sweep(morning()),
      ]);
      // Each invoice reminded (this organisation's and the statement's overdue ones) was sent once.
      const reminded = await model.countDocuments({ 'reminders.0': { $exists: true } });
      expect(reminded).toBeGreaterThanOrEqual(2);
      expect(sent.reduce((n, x) => n + x, 0)).toBe(reminded);
      expect(await reminders.sweep(morning())).toBe(0);

      const kinds = async (id: Types.ObjectId) =>
        ((await model.findById(id).lean().exec())?.reminders ?? []).map((r) => r.kind);
      expect(await kinds(dueToday._id)).toEqual(['due']);
      // A week late: the due-date reminder is passed by (recorded), only the week's is sent.
      expect(await kinds(weekLate._id)).toEqual(['due', 'week']);
      expect(await kinds(notYet._id)).toEqual([]);
      expect(await kinds(settled._id)).toEqual([]);
      expect(await kinds(longAgo._id)).toEqual([]);

      const msisdn = toKenyanMsisdn(phone)!;
      const texts = await s.messagesTo(msisdn, 2);
      await sleep(500);
      const all = s.sim.outbox.filter((m) => m.to === msisdn).map((m) => m.message);
      expect(all).toHaveLength(2);
      const due = all.find((m) => m.includes(dueToday.number!))!;
      expect(due).toMatch(
        new RegExp(
          `^Seedling Propagation Centre: invoice ${dueToday.number} of KES 12,345 for LPO MWC/77 is due today\\. (Pay by M-Pesa paybill \\d+, account ${dueToday.number}|Questions\\? Call .+)\\.$`,
        ),
      );
      expect(due.length).toBeLessThanOrEqual(160);
      const week = all.find((m) => m.includes(weekLate.number!))!;
      expect(week).toContain(`of KES 5,000`);
      expect(week).toContain('was due on');
      expect(texts.every((m) => !m.message.includes(notYet.number!))).toBe(true);

      const mails = await waitFor(
        () => db().collection('mail_log').find({ to: email }).toArray(),
        (list) => list.length >= 2,
        10_000,
      );
      await sleep(300);
      const log = await db().collection('mail_log').find({ to: email }).toArray();
      expect(log.map((m) => m.subject as string).sort()).toEqual(
        [
          `Invoice ${dueToday.number} is due today`,
          `Invoice ${weekLate.number} is overdue (due ${dayAndMonth(weekLate.dueDate)})`,
        ].sort(),
      );
      expect(mails.every((m) => m.template === 'invoice-reminder')).toBe(true);
      expect(String(log.find((m) => String(m.subject).includes('due today'))?.text)).toContain(
        'Still owed: KES 12,345',
      );

      const smsRecords = await db()
        .collection('sms_outbox')
        .find({ to: msisdn, event: { $in: ['invoice-due', 'invoice-week'] } })
        .toArray();
      expect(smsRecords.map((r) => r._id).sort()).toEqual(
        [`invoice:${dueToday._id}:due`, `invoice:${weekLate._id}:week`].sort(),
      );

      const trail = (
        await s.t
          .http()
          .get('/api/audit-logs?action=invoice.reminder&limit=100')
          .set(bearer(admin.accessToken))
          .expect(200)
      ).body as { target?: { id: string } }[];
      const ours = [dueToday, weekLate, notYet, settled, longAgo].map((x) => String(x._id));
      expect(
        trail
          .map((e) => e.target?.id)
          .filter((id) => ours.includes(id!))
          .sort(),
      ).toEqual([String(dueToday._id), String(weekLate._id)].sort());
      // The statement's overdue invoices were reminded too: one entry each, never two.
      const ids = trail.map((e) => e.target?.id);
      expect(new Set(ids).size).toBe(ids.length);

      // A week on, the invoice still open gets its week reminder, once; the one not yet due then
      // was due four days before: its due-date reminder.
      const weekOn = at(addDays(today, 7), 9);
      await Promise.all([reminders.sweep(weekOn), reminders.sweep(weekOn)]);
      expect(await kinds(dueToday._id)).toEqual(['due', 'week']);
      expect(await kinds(notYet._id)).toEqual(['due']);
      expect(await kinds(settled._id)).toEqual([]);
      await s.messagesTo(msisdn, 4);
      await sleep(300);
      expect(s.sim.outbox.filter((m) => m.to === msisdn)).toHaveLength(4);
    });
  });

  describe('the dashboard', () => {
    it('counts open invoices past their due date and what they owe in the sales summary', async () => {
      const read = async () =>
        (await s.t.http().get('/api/sales-summary').set(bearer(admin.accessToken)).expect(200)).body
          .overdueInvoices as { count: number; amount: number };
      const before = await read();
      expect(before.count).toBeGreaterThan(0);
      await invoice(own, {
        total: 4_321,
        issuedOn: addDays(today, -31),
        dueDate: addDays(today, -1),
      });
      // Due today is not overdue; paid is not owed.
      await invoice(own, { total: 1_000, issuedOn: addDays(today, -30), dueDate: today });
      await invoice(own, {
        total: 2_000,
        issuedOn: addDays(today, -40),
        dueDate: addDays(today, -10),
        settlements: [
          settlement({
            kind: 'bank',
            amount: 2_000,
            reference: 'FT77',
            at: at(addDays(today, -2)),
          }),
        ],
      });
      const after = await read();
      expect(after).toEqual({ count: before.count + 1, amount: before.amount + 4_321 });
      const staffRead = await s.t.http().get('/api/sales-summary').set(bearer(staff.accessToken));
      expect(staffRead.status).toBe(403);
    });
  });
});
