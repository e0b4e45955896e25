/**
 * Browser journeys for the back office (issue 6), in headless Debian chromium through playwright-core.
 * Part of `npm test` through tools/e2e/run-journeys.ts (`npm run e2e -w @spc/backoffice`), which starts
 * everything they need. By hand, run them against a built (`vite preview`) or dev back office and a running
 * API that allows the back office's origin:
 *
 *   RATE_LIMIT_AUTH_PER_MINUTE=200 PORT=3102 BACKOFFICE_URL=http://localhost:5174 npm run start:api
 *   (cd backoffice && VITE_API_URL=http://localhost:3102 npx vite build --outDir /tmp/bo-dist \
 *     && npx vite preview --outDir /tmp/bo-dist)
 *   BACKOFFICE_URL=http://localhost:5174 API_URL=http://localhost:3102 npx tsx --test backoffice/e2e/journeys.e2e.ts
 *
 * The suite signs in about ten times; the API's default of 10 sign-ins a minute is too few for it.
 *
 * Journeys: (1) admin creates, deactivates and restores a staff member and finds both in the audit
 * trail; (2) staff adds a category and a product with an image and applies an offer, which the API
 * then shows; (3) staff takes a placed order through Mpesa payment, in transit and fulfil, and admin
 * sees it in the daily sales and the Sales report; (3b) staff records a cash payment and cancels
 * the paid order with its refund, which admin sees in the Sales report; (4) staff cannot reach admin pages and a customer
 * cannot use the console; (5) an expired access token is refreshed silently, and a dead session goes
 * to login and back to the page the user was on.
 *
 * The journeys write to the database they are pointed at and remove what they create where the API
 * allows it (staff, category, product, customer); the order of journey 3 stays, as sales records do.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };
const RUN = Date.now().toString(36).toUpperCase();

let browser: Browser;
let adminToken = '';

async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  token = adminToken,
): Promise<T> {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: {
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as T;
}

/** A guest order of one seedling of a product in stock (not one a journey created), as the shop takes it. */
async function placeGuestOrder(fullName: string, email: string, streetAddress: string) {
  const products = await call<{
    products: { _id: string; productName: string; productQuantity: number }[];
  }>('GET', '/api/products?limit=50', undefined, '');
  const product = products.products.find(
    (p) => p.productQuantity > 5 && !p.productName.startsWith('Journey'),
  )!;
  const placed = await call<{ order: { purchaseNumber: string; totalAmount: number } }>(
    'POST',
    '/api/orders',
    {
      guestInfo: { fullName, phoneNumber: '0712345678', email, county: 'Kiambu', streetAddress },
      products: [{ _id: product._id, quantity: 1 }],
    },
    '',
  );
  return placed.order;
}

before(async () => {
  browser = await launchChromium();
  const login = await call<{ data: { accessToken: string } }>('POST', '/api/auth/login', ADMIN);
  adminToken = login.data.accessToken;
});
after(async () => browser?.close());

async function signIn(who: { email: string; password: string }, width = 1400): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  return page;
}

/** A 1×1 PNG, enough for the API to take as an image. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('back-office journeys', () => {
  it('admin creates a staff member, deactivates and restores them, and sees both in the audit trail', async () => {
    const page = await signIn(ADMIN);
    await page.waitForURL('**/admin/dashboard');
    const email = `e2e.${RUN.toLowerCase()}@spc.local`;
    await page.goto(`${BASE}/create-staff`);
    await page.getByLabel('Full Name').fill(`Journey Staff ${RUN}`);
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Phone Number').fill('0712345678');
    await page.getByLabel('Password').fill('Staff@123456');
    await page.getByRole('button', { name: 'Add Staff' }).click();
    await page.waitForURL('**/admin/staff', { timeout: 10_000 });

    await page.getByLabel('Search staff').fill(RUN);
    const row = page.getByRole('row', { name: new RegExp(`Journey Staff ${RUN}`) });
    await row.getByRole('button', { name: 'deactivate' }).click();
    await page.getByText('are you sure you want to deactivate this staff?').waitFor();
    await page.getByRole('button', { name: 'yes' }).click();
    await row.waitFor({ state: 'detached', timeout: 10_000 });

    await page.getByText('Inactive staff').click();
    const inactive = page.getByRole('row', { name: new RegExp(`Journey Staff ${RUN}`) });
    await inactive.getByRole('button', { name: 'restore' }).click();
    await page.getByRole('button', { name: 'yes' }).click();
    await inactive.waitFor({ state: 'detached', timeout: 10_000 });

    await page.goto(`${BASE}/admin/audit-trails`);
    await page.getByRole('table').waitFor();
    const text = await page.getByRole('table').innerText();
    assert.match(text, new RegExp(`deactivat.*Journey Staff ${RUN}`, 'i'));
    assert.match(text, new RegExp(`restor.*Journey Staff ${RUN}`, 'i'));

    const list = await call<{ staff: { _id: string; email: string }[] }>(
      'GET',
      `/api/staff?search=${RUN}`,
    );
    for (const s of list.staff.filter((m) => m.email === email))
      await call('DELETE', `/api/staff/delete/${s._id}`);
    await page.context().close();
  });

  it('staff adds a category and a product with an image, applies an offer, and the API shows the offer price', async () => {
    const page = await signIn(STAFF);
    await page.waitForURL('**/staff/orders');
    const category = `E2E ${RUN}`;
    await page.goto(`${BASE}/manage/categories`);
    await page.getByRole('button', { name: 'add new category' }).click();
    await page.getByLabel('Category Name').fill(category);
    await page.getByLabel('Description').fill('Made by a browser journey');
    await page.getByRole('button', { name: 'Add Category' }).click();
    await page.getByText(category, { exact: true }).waitFor();

    await page.goto(`${BASE}/manage/products`);
    await page.getByRole('button', { name: 'Add Product' }).click();
    const name = `Journey Kale ${RUN}`;
    await page.getByLabel('Product Name').fill(name);
    await page.getByLabel('Description').fill('Sukuma wiki seedlings for a test');
    await page.getByLabel('Price (KSH)').fill('450');
    await page.getByLabel('Quantity').fill('20');
    await page.getByLabel('Category', { exact: true }).selectOption({ label: category });
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'kale.png', mimeType: 'image/png', buffer: PNG });
    await page.getByAltText('Product preview').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Add Product' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 10_000 });

    await page.getByLabel('Search products').fill(name);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.getByRole('button', { name: 'Offer' }).click();
    await page.getByPlaceholder('ksh').fill('390');
    await page.getByRole('button', { name: 'Create Offer' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 10_000 });
    await row.getByText('KSH 390').waitFor({ timeout: 10_000 });

    const found = await call<{
      products: { _id: string; onOffer: boolean; offerPrice: number; productImage: string }[];
      categories: { _id: string; name: string }[];
    }>('GET', `/api/products?search=${encodeURIComponent(name)}`, undefined, '');
    assert.equal(found.products.length, 1);
    assert.equal(found.products[0]!.onOffer, true);
    assert.equal(found.products[0]!.offerPrice, 390);
    assert.ok(found.products[0]!.productImage);

    await call('DELETE', `/api/products/delete/${found.products[0]!._id}`);
    const categoryId = found.categories.find((c) => c.name === category)?._id;
    if (categoryId) await call('DELETE', `/api/categories/delete/${categoryId}`);
    await page.context().close();
  });

  it('staff takes a placed order through Mpesa payment, in transit and fulfil; admin sees it in the sales', async () => {
    const { purchaseNumber, totalAmount } = await placeGuestOrder(
      'Journey Guest',
      `guest.${RUN.toLowerCase()}@example.co.ke`,
      'Ruiru, near the stage',
    );
    const before = await call<{ dailySales: number }>('GET', '/api/sales-summary');

    const page = await signIn(STAFF);
    await page.waitForURL('**/staff/orders');
    await page.getByLabel('Search orders').fill(purchaseNumber);
    const row = page.getByRole('row', { name: new RegExp(purchaseNumber) });
    const menu = () => row.getByRole('button', { name: `Actions for order ${purchaseNumber}` });

    await menu().click();
    await page.getByRole('menuitem', { name: 'Complete Payment' }).click();
    await page.getByLabel('Payment Method').selectOption('Mpesa');
    await page.getByLabel('Transaction Code').fill(`SG${RUN}`.slice(0, 10));
    // Sales are counted on the day paid: a minute ago, as the browser's local time.
    const paid = new Date(Date.now() - 60_000);
    const local = new Date(paid.getTime() - paid.getTimezoneOffset() * 60_000);
    await page.getByLabel('Time Paid').fill(local.toISOString().slice(0, 16));
    await page.getByRole('button', { name: 'Complete Payment' }).click();
    await row.getByText('Paid').waitFor({ timeout: 10_000 });
    await row.getByText(/M-Pesa SG/).waitFor();

    await menu().click();
    await page.getByRole('menuitem', { name: 'In transit' }).click();
    await page.getByRole('button', { name: 'yes' }).click();
    await row.getByText('In transit', { exact: true }).waitFor({ timeout: 10_000 });

    await menu().click();
    await page.getByRole('menuitem', { name: 'Fulfill Order' }).click();
    await page.getByRole('button', { name: 'yes' }).click();
    await row.getByText('Fulfilled').waitFor({ timeout: 10_000 });
    await page.context().close();

    const admin = await signIn(ADMIN);
    await admin.waitForURL('**/admin/dashboard');
    const daily = admin.getByRole('link', { name: 'Daily Sales' });
    await daily.getByText(/KSH/).waitFor();
    const expected = `KSH ${(before.dailySales + totalAmount).toLocaleString('en-US')}`;
    await daily.getByText(expected).waitFor({ timeout: 10_000 });
    await admin.goto(`${BASE}/admin/reports`);
    await admin.getByRole('heading', { name: 'Sales' }).waitFor();
    await admin.getByText('Top products').waitFor();
    await admin.context().close();
  });

  it('staff records a cash payment, then cancels the paid order with an M-Pesa refund; admin sees the refund in the report', async () => {
    const { purchaseNumber, totalAmount } = await placeGuestOrder(
      'Journey Refund Guest',
      `refund.${RUN.toLowerCase()}@example.co.ke`,
      'Thika Road, near the market',
    );
    // The report page opens on the shop's last 30 days: the same period, before the refund.
    const day = new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Nairobi' });
    const monthAgo = new Date(Date.parse(`${day}T00:00:00Z`) - 29 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const reportBefore = await call<{ totals: { refunds: { orders: number; amount: number } } }>(
      'GET',
      `/api/sales-summary/report?from=${monthAgo}&to=${day}`,
    );

    const page = await signIn(STAFF);
    await page.waitForURL('**/staff/orders');
    await page.getByLabel('Search orders').fill(purchaseNumber);
    const row = page.getByRole('row', { name: new RegExp(purchaseNumber) });
    const menu = () => row.getByRole('button', { name: `Actions for order ${purchaseNumber}` });

    await menu().click();
    await page.getByRole('menuitem', { name: 'Complete Payment' }).click();
    await page.getByLabel('Payment Method').selectOption('Cash');
    await page.getByRole('button', { name: 'Complete Payment' }).click();
    await row.getByText('Paid').waitFor({ timeout: 10_000 });

    await menu().click();
    await page.getByRole('menuitem', { name: 'Cancel Order' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel and refund · ${purchaseNumber}` });
    await dialog.waitFor();
    await dialog.getByText('This order is paid').waitFor();
    assert.equal(
      await dialog.getByLabel('Refund amount').inputValue(),
      `KSH ${totalAmount.toLocaleString('en-US')}`,
    );
    await dialog.getByLabel('Refund method').selectOption('Mpesa');
    // The M-Pesa reversal code is required: the form says so before anything is sent.
    await dialog.getByRole('button', { name: 'Cancel and refund' }).click();
    await dialog
      .getByText('An M-Pesa refund needs its reference (the reversal or transaction code)')
      .waitFor();
    if (process.env.JOURNEY_SCREENSHOTS) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({
          path: `${process.env.JOURNEY_SCREENSHOTS}/cancel-refund-${width}.png`,
        });
      }
      await page.setViewportSize({ width: 1400, height: 900 });
    }
    await dialog.getByLabel('M-Pesa reversal code').fill(`RV${RUN}`.slice(0, 10));
    await dialog.getByRole('button', { name: 'Cancel and refund' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    await row.getByText('Cancelled').waitFor({ timeout: 10_000 });
    await page.context().close();

    const admin = await signIn(ADMIN);
    await admin.waitForURL('**/admin/dashboard');
    await admin.goto(`${BASE}/admin/reports`);
    const refunds = admin.getByTestId('report-refunds');
    const expected = reportBefore.totals.refunds.amount + totalAmount;
    await refunds.getByText(`KSH ${expected.toLocaleString('en-US')}`).waitFor({ timeout: 10_000 });
    await admin.context().close();
  });

  it('staff cannot reach an admin page and a customer cannot use the console', async () => {
    const page = await signIn(STAFF);
    await page.waitForURL('**/staff/orders');
    await page.goto(`${BASE}/admin/reports`);
    await page.waitForURL('**/staff/orders');
    await page.goto(`${BASE}/admin/audit-trails`);
    await page.waitForURL('**/staff/orders');
    await page.context().close();

    const email = `customer.${RUN.toLowerCase()}@example.co.ke`;
    await call(
      'POST',
      '/api/auth/register',
      { fullName: 'Journey Customer', email, phoneNumber: '0712345678', password: 'Seed@1234' },
      '',
    );
    const customer = await signIn({ email, password: 'Seed@1234' });
    await customer.getByRole('alert').getByText('This console is for the shop’s staff').waitFor();
    assert.match(customer.url(), /\/authenticate\/login$/);
    await customer.goto(`${BASE}/manage/products`);
    await customer.waitForURL('**/authenticate/login');
    await customer.context().close();

    const users = await call<{ users: { _id: string; email: string }[] }>(
      'GET',
      `/api/users?search=${encodeURIComponent(email)}`,
    );
    for (const u of users.users.filter((x) => x.email === email))
      await call('DELETE', `/api/user/delete/${u._id}`);
  });

  it('an expired access token is refreshed silently; a dead session returns to login and back to the page', async () => {
    const page = await signIn(STAFF);
    await page.waitForURL('**/staff/orders');
    await page.evaluate(() => localStorage.setItem('token', 'expired.token.value'));
    await page.goto(`${BASE}/staff/orders`);
    await page.getByRole('table').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('token'));
    assert.notEqual(token, 'expired.token.value');

    await page.evaluate(() => {
      localStorage.setItem('token', 'expired.token.value');
      localStorage.setItem('refreshToken', 'revoked');
    });
    await page.goto(`${BASE}/user/profile`);
    await page.waitForURL('**/authenticate/login');
    await page.getByLabel('Email Address').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/user/profile');
    await page.getByText('Hi Grace Njeri, Welcome Back!').waitFor();
    await page.context().close();
  });
});
