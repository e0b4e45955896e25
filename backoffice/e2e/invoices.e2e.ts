/**
 * Invoices on account on the back office (issue 44), run by tools/e2e/run-journeys.ts backoffice
 * (alone: JOURNEYS_ONLY=invoices). Through the API: an approved organisation on account, invoiced
 * per tranche, accepts a quotation of one line of ready stock; the shop plans its first tranche,
 * dispatches it and records its signed note, which issues the tranche's invoice (asked again by
 * hand: the API answers the same one). Then a clerk (staff), on a 1280 px screen, finds the invoice
 * among the organisation's, records part of it as a bank payment (the button busy while it sends)
 * and sees the balance fall; opens the organisation's statement of this month, sees the invoice and
 * the payment on it, and downloads its PDF (fetched signed in). The invoices list and the invoice
 * pass the phone checks (width, axe) at 360 and 390 px; screenshots go to JOURNEY_SHOTS_DIR (or
 * SHOTS_DIR) when set.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { phoneProblems, PHONES } from '../../tools/e2e/phone-check';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };
const RUN = Date.now().toString(36).toUpperCase();
const SHOTS = process.env.JOURNEY_SHOTS_DIR ?? process.env.SHOTS_DIR;
const NAME = `Laikipia County Department of Water, Environment and Natural Resources ${RUN}`;
const KRA_PIN = `P${String(Date.now()).slice(-9)}V`;
const PERSON = {
  fullName: 'Wairimu Njoki Kariuki',
  email: `invoices.${RUN.toLowerCase()}@example.co.ke`,
  phoneNumber: `07${String(Date.now() + 7).slice(-8)}`,
  password: 'Seedling@1',
};
const LPO = `LCG/LPO/${RUN}/0077`;
const BANK_REFERENCE = `FT${RUN}01`;

let browser: Browser;

const login = async (who: { email: string; password: string }) =>
  (await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', who)).data
    .accessToken;
/** Today in Nairobi plus `days`, as YYYY-MM-DD. */
const nairobiDay = (days: number) =>
  new Date(Date.now() + 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
const kes = (n: number) => `KES ${n.toLocaleString('en-US')}`;

async function signIn(who: typeof STAFF, width: number, height = 900): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height },
    ...(width < 600 ? { isMobile: true, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'attached' });
  return page;
}
async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

interface Product {
  _id: string;
  productName: string;
  productQuantity: number;
  units?: { _id: string; name: string; seedlings: number }[];
}
interface Invoice {
  id: string;
  number: string;
  state: string;
  tranche: number | null;
  total: number;
  paid: number;
  balance: number;
  payments: { kind: string; reference: string; amount: number }[];
}

let orgId = '';
let orderId = '';
let invoice: Invoice;

before(async () => {
  browser = await launchChromium();
  await apiCall(API, 'POST', '/api/auth/register', PERSON);
  const personToken = await login({ email: PERSON.email, password: PERSON.password });
  const staffToken = await login(STAFF);
  const contact = { name: PERSON.fullName, phone: '0712345678', email: PERSON.email };
  const signedUp = await apiCall<{ organisation: { _id: string } }>(
    API,
    'POST',
    '/api/organisations',
    {
      name: NAME,
      kraPin: KRA_PIN,
      kind: 'county',
      billingContact: contact,
      deliveryContact: contact,
    },
    personToken,
  );
  orgId = signedUp.organisation._id;
  await apiCall(API, 'POST', `/api/organisations/${orgId}/approve`, {}, staffToken);
  await apiCall(
    API,
    'PUT',
    `/api/organisations/${orgId}/terms`,
    { paymentDays: 30, creditLimit: 900_000_000, onAccount: true, invoicing: 'perTranche' },
    await login(ADMIN),
  );
  // One line of ready stock, as many units as the demo stock spares (a few hundred at most).
  const { products } = await apiCall<{ products: Product[] }>(
    API,
    'GET',
    '/api/products?limit=100',
  );
  const line = products.flatMap((p) => {
    const unit = p.units?.find((u) => p.productQuantity >= 40 * u.seedlings);
    if (!unit) return [];
    const quantity = Math.max(
      4,
      Math.min(600, Math.floor(p.productQuantity / unit.seedlings / 10)),
    );
    return [{ productId: p._id, unitId: unit._id, quantity }];
  })[0];
  assert.ok(line, 'the demo catalogue has a product in stock');
  const delivery = {
    siteName: 'Nanyuki planting sites',
    county: 'Laikipia',
    streetAddress: 'Nanyuki–Rumuruti road',
    date: nairobiDay(20),
  };
  const asked = await apiCall<{ quotation: { _id: string } }>(
    API,
    'POST',
    '/api/quotations',
    { lines: [line], delivery },
    personToken,
  );
  const quotationId = asked.quotation._id;
  await apiCall(
    API,
    'PUT',
    `/api/quotations/${quotationId}/draft`,
    {
      lines: [{ ...line, unitPrice: 1_875 }],
      delivery,
      deliveryFee: 0,
      validUntil: nairobiDay(14),
    },
    staffToken,
  );
  await apiCall(API, 'POST', `/api/quotations/${quotationId}/send`, {}, staffToken);
  const accepted = await apiCall<{ order: { _id: string } }>(
    API,
    'POST',
    `/api/quotations/${quotationId}/accept`,
    { version: 1, lpoNumber: LPO },
    personToken,
  );
  orderId = accepted.order._id;
  // Its first tranche, all of it, out today and signed for: that issues T1's invoice.
  await apiCall(
    API,
    'POST',
    `/api/orders/${orderId}/tranches`,
    {
      site: {
        name: `Nanyuki Primary School woodlot ${RUN}`,
        county: 'Laikipia',
        contact: { name: 'Joseph Lekishon Mwangi', phone: '0722111444' },
      },
      date: nairobiDay(0),
      lines: [
        { productId: line.productId, unitId: line.unitId, batchId: null, quantity: line.quantity },
      ],
    },
    staffToken,
  );
  await apiCall(API, 'POST', `/api/orders/${orderId}/tranches/1/dispatch`, {}, staffToken);
  await apiCall(
    API,
    'POST',
    `/api/orders/${orderId}/tranches/1/delivery`,
    { signedBy: 'Joseph Lekishon Mwangi', signedAt: new Date().toISOString() },
    staffToken,
  );
  // Issued when the note was recorded; asked by hand it is answered again, not issued twice.
  invoice = (
    await apiCall<{ invoice: Invoice }>(
      API,
      'POST',
      `/api/orders/${orderId}/invoices`,
      { tranche: 1 },
      staffToken,
    )
  ).invoice;
  assert.equal(invoice.tranche, 1);
  assert.equal(invoice.state, 'Open');
  assert.equal(invoice.total, line.quantity * 1_875);
  assert.equal(invoice.balance, invoice.total);
});
after(async () => browser?.close());

describe('invoices on the back office', () => {
  it("a clerk records a bank payment on a tranche's invoice and downloads the organisation's statement", async () => {
    const paid = Math.floor(invoice.total / 3);
    const left = invoice.total - paid;

    // The organisation's invoices: the tranche's, open, linked to its page.
    const clerk = await signIn(STAFF, 1280);
    await clerk.goto(`${BASE}/invoices?organisationId=${orgId}`);
    const table = clerk.getByRole('table', { name: 'Invoices' });
    const row = table.getByRole('row').filter({ hasText: invoice.number });
    await row.getByText('T1', { exact: true }).waitFor();
    await row.getByText('Open', { exact: true }).waitFor();
    await shot(clerk, 'invoices-1280');
    await row.getByRole('link', { name: invoice.number }).click();

    // The invoice: both KRA PINs and the LPO; a bank payment of a third of it.
    await clerk.getByRole('heading', { name: invoice.number }).waitFor();
    await clerk.getByText(KRA_PIN, { exact: true }).waitFor();
    await clerk.getByText(LPO, { exact: true }).waitFor();
    const balance = clerk.getByTestId('invoice-balance');
    assert.equal((await balance.textContent())?.trim(), kes(invoice.total));
    const form = clerk.getByRole('form', { name: 'Record a bank payment' });
    assert.equal(await form.getByLabel('Paid on').inputValue(), nairobiDay(0));
    await form.getByLabel('Amount (KES)').fill(String(paid));
    await form.getByLabel('Bank reference').fill(BANK_REFERENCE);
    await shot(clerk, 'invoice-payment-1280');
    const record = form.getByRole('button', { name: 'Record payment', exact: true });
    // Two clicks: the button is busy after the first, and one payment is recorded.
    await record.click();
    await record.click({ force: true }).catch(() => undefined);
    await clerk.getByTestId('invoice-balance').getByText(kes(left), { exact: true }).waitFor();
    await clerk
      .getByRole('region', { name: 'Payments' })
      .getByText(BANK_REFERENCE, { exact: true })
      .waitFor();
    const stored = (
      await apiCall<{ invoice: Invoice }>(
        API,
        'GET',
        `/api/invoices/${invoice.id}`,
        undefined,
        await login(STAFF),
      )
    ).invoice;
    assert.equal(stored.balance, left);
    assert.equal(stored.paid, paid);
    assert.deepEqual(
      stored.payments.map((p) => [p.kind, p.reference, p.amount]),
      [['bank', BANK_REFERENCE, paid]],
      'one payment, however often the button was pressed',
    );
    await shot(clerk, 'invoice-paid-1280');

    // The organisation's statement of this month: the invoice, the payment, what is owed.
    await clerk.goto(`${BASE}/manage/organisations/${orgId}`);
    const card = clerk.getByRole('region', { name: 'Statement' });
    assert.equal(await card.getByLabel('To', { exact: true }).inputValue(), nairobiDay(0));
    await card.getByRole('button', { name: 'View', exact: true }).click();
    const statement = card.getByRole('table', { name: 'Statement' });
    await statement.getByRole('row').filter({ hasText: BANK_REFERENCE }).waitFor();
    await statement
      .getByRole('row')
      .filter({ hasText: 'Closing balance' })
      .getByText(kes(left))
      .waitFor();
    await statement.getByText(invoice.number, { exact: true }).first().waitFor();
    await shot(clerk, 'statement-1280');
    const [response, download] = await Promise.all([
      clerk.waitForResponse(
        (r) =>
          r.url().includes(`/api/organisations/${orgId}/statement`) &&
          r.url().includes('format=pdf'),
      ),
      clerk.waitForEvent('download'),
      card.getByRole('button', { name: 'Download PDF', exact: true }).click(),
    ]);
    assert.equal(response.status(), 200);
    assert.match(response.headers()['content-type'] ?? '', /^application\/pdf/);
    const pdf = readFileSync(await download.path());
    assert.ok(pdf.length > 1_000, `a real PDF (${pdf.length} bytes)`);
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(download.suggestedFilename(), `statement-${KRA_PIN}-${nairobiDay(0)}.pdf`);
    await clerk.context().close();

    // The list and the invoice on phones (width and axe): the tables scroll in their cards.
    const problems: string[] = [];
    for (const { width, height } of PHONES) {
      const page = await signIn(STAFF, width, height);
      await page.goto(`${BASE}/invoices?organisationId=${orgId}`);
      await page.getByRole('link', { name: invoice.number }).waitFor();
      problems.push(...(await phoneProblems(page, `invoices at ${width} px`)));
      await shot(page, `invoices-${width}`);
      await page.goto(`${BASE}/invoices/${invoice.id}`);
      await page.getByTestId('invoice-balance').getByText(kes(left), { exact: true }).waitFor();
      problems.push(...(await phoneProblems(page, `invoice at ${width} px`)));
      await shot(page, `invoice-${width}`);
      await page.context().close();
    }
    assert.deepEqual(problems, []);
  });
});
