/**
 * Organisations in the back office (issue 42), run by tools/e2e/run-journeys.ts backoffice (alone:
 * JOURNEYS_ONLY=organisations): a customer signs an organisation up through the API, with a long
 * name; staff find it under "Waiting for approval" from the grouped navigation and approve it (the
 * terms read-only to them); an admin sets its terms (60 days, a KES 750,000,000 credit limit, on
 * account) and one price for a product and unit picked from the catalogue, which the API then holds.
 * The list and the page are checked at 360 and 390 px (width, axe), the admin reaches the last
 * navigation entry through the burger on a 360 px phone, and screenshots at 360, 390 and 1280 px go
 * to SHOTS_DIR (default .data/shots).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
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
const SHOTS = path.resolve(process.env.SHOTS_DIR ?? '.data/shots');
const NAME = `Kaunti ya Kiambu Tree-Growing Programme for Schools, Churches and Farmer Co-operatives ${RUN}`;
// A PIN of this run's own: P, 9 digits, a letter.
const KRA_PIN = `P${String(Date.now()).slice(-9)}K`;

let browser: Browser;
let adminToken = '';
let orgId = '';

const login = async (who: { email: string; password: string }) =>
  (await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', who)).data
    .accessToken;

before(async () => {
  browser = await launchChromium();
  adminToken = await login(ADMIN);
  const customer = {
    fullName: 'Grace Wambui',
    email: `grace.${RUN.toLowerCase()}@example.co.ke`,
    phoneNumber: '0712345678',
    password: 'Seed@1234',
  };
  await apiCall(API, 'POST', '/api/auth/register', customer);
  const token = await login({ email: customer.email, password: customer.password });
  const contact = { name: 'Grace Wambui', phone: '0712345678', email: customer.email };
  const signedUp = await apiCall<{ organisation: { _id: string; status: string } }>(
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
    token,
  );
  assert.equal(signedUp.organisation.status, 'pending');
  orgId = signedUp.organisation._id;
});
after(async () => browser?.close());

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
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

describe('organisations journey', () => {
  it('staff approve a pending organisation; an admin sets its terms and a price', async () => {
    const staff = await signIn(STAFF, 1280);
    const nav = staff.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('group', { name: 'Customers and organisations' }).waitFor();
    await nav.getByRole('link', { name: 'Organisations' }).click();
    await staff.getByRole('heading', { name: 'Organisations' }).waitFor();
    await staff.getByText('Waiting for approval').click();
    await staff.waitForURL('**/manage/organisations?status=pending');
    await staff.getByRole('link', { name: NAME }).click();
    await staff.getByRole('heading', { name: NAME }).waitFor();
    const status = staff.getByRole('region', { name: 'Status' });
    await status.getByText('Awaiting approval').waitFor();
    await status.getByRole('button', { name: 'Approve' }).click();
    await status.getByText('Approved', { exact: true }).waitFor();
    const terms = staff.getByRole('region', { name: 'Terms' });
    await terms.getByText('Payment days: 30').waitFor();
    assert.equal(await terms.getByRole('button').count(), 0);
    assert.equal(await staff.getByRole('region', { name: 'Price list' }).count(), 0);
    await staff.context().close();

    const products = await apiCall<{
      products: { _id: string; productName: string; units: { _id: string; name: string }[] }[];
    }>(API, 'GET', '/api/products?page=1&limit=20');
    const product = products.products.find((p) => p.units.length > 0)!;
    const unit = product.units[0]!;

    const admin = await signIn(ADMIN, 1280);
    await admin.goto(`${BASE}/manage/organisations/${orgId}`);
    const form = admin.getByRole('form', { name: 'Terms' });
    await form.getByLabel(/Payment days/).fill('60');
    await form.getByLabel(/Credit limit/).fill('750000000');
    await form.getByLabel('May order on account').check();
    await form.getByRole('button', { name: 'Save terms' }).click();
    await admin.getByText('Terms set').first().waitFor();

    const list = admin.getByRole('form', { name: 'Price list' });
    await list.getByRole('button', { name: 'Add a price' }).click();
    await list.getByLabel('Product of price 1').selectOption({ label: product.productName });
    await list.getByLabel('Unit of price 1').selectOption({ label: unit.name });
    await list.getByLabel('Price 1 (KES)').fill('25');
    await list.getByRole('button', { name: 'Save price list' }).click();
    await admin.getByText('Price list set').first().waitFor();

    const saved = await apiCall<{
      organisation: {
        status: string;
        terms: Record<string, unknown>;
        priceList: { prices: { productId: string; unitId: string; price: number }[] };
      };
    }>(API, 'GET', `/api/organisations/${orgId}`, undefined, adminToken);
    assert.equal(saved.organisation.status, 'approved');
    // The form sends the invoicing mode too (issue 44), untouched here: per tranche.
    const { invoicing = 'perTranche', ...savedTerms } = saved.organisation.terms;
    assert.deepEqual(savedTerms, { paymentDays: 60, creditLimit: 750_000_000, onAccount: true });
    assert.equal(invoicing, 'perTranche');
    assert.deepEqual(
      saved.organisation.priceList.prices.map(({ productId, unitId, price }) => ({
        productId,
        unitId,
        price,
      })),
      [{ productId: product._id, unitId: unit._id, price: 25 }],
    );
    await admin.reload();
    const limit = admin.getByRole('form', { name: 'Terms' }).getByLabel(/Credit limit/);
    await limit.waitFor();
    assert.equal(await limit.inputValue(), '750,000,000');
    await shot(admin, 'organisation-1280');
    await admin.goto(`${BASE}/manage/organisations`);
    await admin.getByRole('table', { name: 'Organisations' }).getByText(NAME).waitFor();
    await shot(admin, 'organisations-1280');
    await admin.context().close();

    const problems: string[] = [];
    for (const phone of PHONES) {
      const page = await signIn(ADMIN, phone.width, phone.height);
      await page.goto(`${BASE}/manage/organisations/${orgId}`);
      await page.getByRole('heading', { name: NAME }).waitFor();
      await page.getByRole('form', { name: 'Price list' }).getByLabel('Price 1 (KES)').waitFor();
      problems.push(...(await phoneProblems(page, `organisation at ${phone.width} px`)));
      await shot(page, `organisation-${phone.width}`);
      await page.goto(`${BASE}/manage/organisations`);
      await page.getByRole('article', { name: NAME }).waitFor();
      problems.push(...(await phoneProblems(page, `organisations at ${phone.width} px`)));
      await shot(page, `organisations-${phone.width}`);
      // The grouped navigation in the burger reaches its last entry.
      await page.getByRole('button', { name: 'Toggle navigation' }).click();
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('group', { name: 'Shop settings' }).waitFor();
      await shot(page, `nav-${phone.width}`);
      await nav.getByRole('link', { name: 'Audit trails' }).click();
      await page.waitForURL('**/admin/audit-trails');
      await page.context().close();
    }
    assert.deepEqual(problems, []);
  });
});
