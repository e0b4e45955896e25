/**
 * The quote desk in the back office (issue 42), run by tools/e2e/run-journeys.ts backoffice (alone:
 * JOURNEYS_ONLY=quotations): a person of an approved NGO (with a long name) asks for a quotation
 * through the API; an admin's dashboard counts it under "Quotations awaiting the shop"; a clerk
 * (staff) finds it on the quote desk awaiting the shop, prices each line, sets a delivery fee and a
 * validity date, saves the draft and sends version 1 (the button busy while sending, the toast);
 * the approver accepts it through the API with an LPO number, and the clerk sees it accepted with
 * its order. The desk list and the quotation pass the phone checks at 390 px; screenshots at 390
 * and 1280 px go to JOURNEY_SHOTS_DIR (or SHOTS_DIR) when set.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { formatMoney } from '../../shared-contracts/src/format';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { phoneProblems } from '../../tools/e2e/phone-check';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };
const RUN = Date.now().toString(36).toUpperCase();
const SHOTS = process.env.JOURNEY_SHOTS_DIR ?? process.env.SHOTS_DIR;
const NAME = `Mount Kenya East Water Towers and Schools Reforestation Alliance ${RUN}`;
const KRA_PIN = `P${String(Date.now()).slice(-9)}R`;
const PERSON = {
  fullName: 'Wanjiru Muthoni Kariuki',
  email: `quotes.${RUN.toLowerCase()}@example.co.ke`,
  phoneNumber: `07${String(Date.now()).slice(-8)}`,
  password: 'Seedling@1',
};
const LPO = `MKE/LPO/${RUN}/2291`;

let browser: Browser;

const login = async (who: { email: string; password: string }) =>
  (await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', who)).data
    .accessToken;
/** Today in Nairobi plus `days`, as YYYY-MM-DD. */
const nairobiDay = (days: number) =>
  new Date(Date.now() + 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

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

let quotationId = '';
let number = '';
let personToken = '';
const lineCount = 2;

before(async () => {
  browser = await launchChromium();
  await apiCall(API, 'POST', '/api/auth/register', PERSON);
  personToken = await login({ email: PERSON.email, password: PERSON.password });
  const contact = { name: PERSON.fullName, phone: '0712345678', email: PERSON.email };
  const signedUp = await apiCall<{ organisation: { _id: string } }>(
    API,
    'POST',
    '/api/organisations',
    { name: NAME, kraPin: KRA_PIN, kind: 'ngo', billingContact: contact, deliveryContact: contact },
    personToken,
  );
  const orgId = signedUp.organisation._id;
  await apiCall(API, 'POST', `/api/organisations/${orgId}/approve`, {}, await login(STAFF));
  await apiCall(
    API,
    'PUT',
    `/api/organisations/${orgId}/terms`,
    { paymentDays: 30, creditLimit: 9_000_000, onAccount: false },
    await login(ADMIN),
  );
  const { products } = await apiCall<{ products: Product[] }>(
    API,
    'GET',
    '/api/products?limit=100',
  );
  const stocked = products.filter((p) =>
    p.units?.some((u) => p.productQuantity >= 40 * u.seedlings),
  );
  assert.ok(stocked.length >= lineCount, 'the demo catalogue has two products in stock');
  const lines = stocked.slice(0, lineCount).map((p) => ({
    productId: p._id,
    unitId: p.units!.find((u) => p.productQuantity >= 40 * u.seedlings)!._id,
    quantity: 20,
  }));
  const asked = await apiCall<{ quotation: { _id: string; number: string } }>(
    API,
    'POST',
    '/api/quotations',
    {
      lines,
      note: 'Seedlings for the long rains planting at the school catchments.',
      delivery: {
        siteName: 'Chogoria Forest Station, tree nursery gate (the school block)',
        county: 'Tharaka-Nithi',
        streetAddress: 'Off the Chogoria–Mitunguu road',
        date: nairobiDay(30),
      },
    },
    personToken,
  );
  quotationId = asked.quotation._id;
  number = asked.quotation.number;
});
after(async () => browser?.close());

describe('the quote desk', () => {
  it('a clerk prices and sends a requested quotation; the approver accepts it', async () => {
    // The admin's dashboard counts it among those awaiting the shop.
    const admin = await signIn(ADMIN, 1280);
    await admin.goto(`${BASE}/admin/dashboard`);
    const tile = admin.getByRole('link', { name: /^Quotations awaiting the shop / });
    await tile.waitFor();
    await admin.waitForFunction(
      () =>
        /awaiting the shop\s*[1-9]/.test(
          [...document.querySelectorAll('a')].map((a) => a.textContent).join('|'),
        ),
      undefined,
      { timeout: 15_000 },
    );
    await tile.click();
    await admin.waitForURL('**/manage/quotations?status=requested');
    await admin.getByRole('link', { name: number }).waitFor();
    await admin.context().close();

    // The clerk finds it on the desk, awaiting the shop.
    const clerk = await signIn(STAFF, 1280);
    await clerk.goto(`${BASE}/manage/quotations`);
    const table = clerk.getByRole('table', { name: 'Quotations' });
    const row = table.getByRole('row').filter({ hasText: number });
    await row.getByText('Awaiting the shop').waitFor();
    await row.getByText(NAME).waitFor();
    await shot(clerk, 'desk-1280-awaiting');
    await row.getByRole('link', { name: number }).click();
    await clerk.getByRole('heading', { name: number }).waitFor();

    // The draft: a price per line, a fee, the validity; saved, then sent.
    const draft = clerk.getByRole('form', { name: 'Draft' });
    await draft.getByRole('group', { name: 'Line 1' }).getByLabel('Unit price (KES)').fill('1850');
    await draft.getByRole('group', { name: 'Line 2' }).getByLabel('Unit price (KES)').fill('2475');
    await draft.getByLabel('Delivery fee (KES)').fill('12500');
    await draft.getByLabel('Valid until').fill(nairobiDay(14));
    await draft.getByLabel('Note to the organisation').fill('One load; the trays are returnable.');
    await draft.getByRole('button', { name: 'Save draft' }).click();
    await clerk.getByText('Draft saved').first().waitFor();
    await clerk.getByText('The draft as saved').waitFor();
    await shot(clerk, 'desk-quotation-1280-draft');
    const send = clerk.getByRole('button', { name: 'Send version 1' });
    assert.equal(await send.isEnabled(), true);
    await send.click();
    // Busy while the API answers: Mantine marks a loading button disabled.
    await clerk.getByText('Quotation sent').first().waitFor();
    const version = clerk.getByRole('region', { name: 'Version 1' });
    await version.waitFor();
    await version.getByText('KES 37,000').first().waitFor(); // 20 × KES 1,850
    await version.getByText('KES 49,500').first().waitFor(); // 20 × KES 2,475
    const sent = await apiCall<{
      quotation: { versions: { total: number; deliveryFee: number }[] };
    }>(API, 'GET', `/api/quotations/${quotationId}`, undefined, personToken);
    const { total, deliveryFee } = sent.quotation.versions[0]!;
    assert.equal(deliveryFee, 12_500);
    await version.getByText(`Total ${formatMoney(total)}`).waitFor();
    await clerk.getByText('Sent: awaiting the organisation').first().waitFor();
    await shot(clerk, 'desk-quotation-1280-sent');

    // The approver accepts through the API; the clerk sees it accepted with its order.
    const accepted = await apiCall<{ order: { purchaseNumber: string } }>(
      API,
      'POST',
      `/api/quotations/${quotationId}/accept`,
      { version: 1, lpoNumber: LPO },
      personToken,
    );
    const purchaseNumber = accepted.order.purchaseNumber;
    await clerk.reload();
    const status = clerk.getByRole('status').filter({ hasText: `LPO ${LPO}` });
    await status.waitFor();
    await status.getByRole('link', { name: purchaseNumber }).waitFor();
    await clerk.getByText('Accepted', { exact: true }).first().waitFor();
    await shot(clerk, 'desk-quotation-1280-accepted');
    await clerk.context().close();

    // On a phone (390 px): the desk list as cards, and the quotation.
    const problems: string[] = [];
    const phone = await signIn(STAFF, 390, 844);
    await phone.goto(`${BASE}/manage/quotations`);
    const card = phone.getByRole('article', { name: number });
    await card.getByText('Accepted').waitFor();
    problems.push(...(await phoneProblems(phone, 'quote desk at 390 px')));
    await shot(phone, 'desk-390');
    await card.getByRole('link', { name: number }).click();
    await phone.getByRole('heading', { name: number }).waitFor();
    await phone.getByRole('region', { name: 'Version 1' }).waitFor();
    problems.push(...(await phoneProblems(phone, 'quotation at 390 px')));
    await shot(phone, 'desk-quotation-390-accepted');
    await phone.context().close();
    assert.deepEqual(problems, []);
  });
});
