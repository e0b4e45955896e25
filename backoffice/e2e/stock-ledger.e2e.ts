/**
 * Browser journey of the stock ledger (issue 17), in headless Debian chromium through playwright-core,
 * run by tools/e2e/run-journeys.ts backoffice with the other journeys (see journeys.e2e.ts for running
 * it by hand). A staff member of its own records 3 seedlings of a product of its own as died; the
 * product's stock page shows the movement and the new quantity; the admin dashboard's Low stock tile
 * names the product; the audit trail shows the loss in words for that staff member.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';
import { apiCall } from '../../tools/e2e/api';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const RUN = `L${Date.now().toString(36).toUpperCase()}`;

let browser: Browser;
let adminToken = '';

const call = <T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  token = adminToken,
) => apiCall<T>(API, method, path, body, token);

/** A product of this journey's own (multipart, as the back office sends it). */
async function createProduct(productName: string, productQuantity: number): Promise<string> {
  const categories = await call<{ categories: { _id: string }[] }>('GET', '/api/categories');
  const form = new FormData();
  form.set('productName', productName);
  form.set('productDescription', 'A grafted seedling of the stock ledger journey.');
  form.set('price', '250');
  form.set('productQuantity', String(productQuantity));
  form.set('category', categories.categories[0]!._id);
  const res = await fetch(`${API}/api/products`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}` },
    body: form,
  });
  const json = (await res.json()) as { product: { _id: string } };
  if (res.status !== 201) throw new Error(`create product: ${res.status} ${JSON.stringify(json)}`);
  return json.product._id;
}

before(async () => {
  browser = await launchChromium();
  const login = await call<{ data: { accessToken: string } }>('POST', '/api/auth/login', ADMIN, '');
  adminToken = login.data.accessToken;
});
after(async () => browser?.close());

async function signIn(who: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  return page;
}

describe('stock ledger journey', () => {
  it('staff records 3 seedlings as died: the stock page, the Low stock tile and the audit trail show it', async () => {
    const staffName = `Ledger Staff ${RUN}`;
    const staff = { email: `ledger.${RUN.toLowerCase()}@spc.local`, password: 'Staff@123456' };
    await call('POST', '/api/staff', {
      fullName: staffName,
      email: staff.email,
      phoneNumber: '0712345678',
      password: staff.password,
    });
    const productName = `Journey Mango ${RUN}`;
    // 7 in stock: above the shop's default threshold (5) until the loss.
    const productId = await createProduct(productName, 7);

    const page = await signIn(staff);
    await page.waitForURL('**/staff/orders');
    await page.goto(`${BASE}/manage/products`);
    await page.getByLabel('Search products').fill(productName);
    await page.getByRole('link', { name: `Stock history of ${productName}` }).click();
    await page.waitForURL(`**/manage/products/${productId}/stock`);
    await page.getByRole('heading', { name: productName }).waitFor();
    await page.getByText('7 in stock').waitFor();

    const lossForm = page.getByRole('region', { name: 'Record a loss' });
    await lossForm.getByLabel('Seedlings lost').fill('3');
    await lossForm.getByLabel('Reason').selectOption('died');
    await lossForm.getByLabel('Note').fill('frost');
    await lossForm.getByRole('button', { name: 'Record loss' }).click();
    await page.getByText('Loss recorded').first().waitFor();
    await page.getByText('4 in stock').waitFor({ timeout: 10_000 });
    await page.getByText('Low stock', { exact: true }).waitFor();

    const movements = page.getByRole('table', { name: 'Stock movements' });
    const died = movements.getByRole('row', { name: /Loss: died/ });
    await died.waitFor();
    const cells = await died.getByRole('cell').allInnerTexts();
    assert.deepEqual(cells.slice(1, 5), ['Loss: died', '-3', '4', staffName]);
    assert.equal(cells[6], 'frost');
    // The reason filter keeps the loss and hides the opening balance.
    await page.getByLabel('Filter by reason').selectOption('died');
    await movements.getByRole('row', { name: /Opening balance/ }).waitFor({ state: 'detached' });
    assert.equal(await movements.getByRole('row', { name: /Loss: died/ }).count(), 1);
    await page.context().close();

    const admin = await signIn(ADMIN);
    await admin.waitForURL('**/admin/dashboard');
    // The dashboard's low-stock tile is a count leading to the products list filtered to them.
    await admin.getByRole('link', { name: /^Low stock/ }).click();
    await admin.waitForURL(/lowStock=1/);
    const entry = admin.getByRole('row').filter({ hasText: productName });
    await entry.waitFor({ timeout: 10_000 });
    assert.match(await entry.innerText(), /\b4\b/);

    await admin.goto(`${BASE}/admin/audit-trails`);
    const message = `${staffName} recorded 3 ${productName} seedlings as died: frost`;
    const row = admin.getByRole('row').filter({ hasText: message });
    await row.waitFor({ timeout: 10_000 });
    assert.match(await row.innerText(), new RegExp(staffName));
    await admin.context().close();
  });
});
