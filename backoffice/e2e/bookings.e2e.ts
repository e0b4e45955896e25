/**
 * Bookings in the back office (issue 32), in headless Debian chromium through playwright-core, run by
 * tools/e2e/run-journeys.ts backoffice with the other journeys: staff start a batch of a product of
 * the journey's own ("New batch", the ready date's rule shown as they type); a guest books trays
 * of it through the API; the clerk records the deposit from the bookings queue, marks the batch
 * ready, finds the booking under "Balances due this week", records the balance, finds it under
 * "Ready to dispatch" and dispatches it. The bookings queue and the batch page are checked at 360 and
 * 390 px (tools/e2e/phone-check.ts); with SHOTS_DIR set, both are saved as 390 px screenshots (and
 * the queue, the batch page and the order's booking at 1280 px).
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
const RUN = `B${Date.now().toString(36).toUpperCase()}`;
const SHOTS = process.env.SHOTS_DIR;

let browser: Browser;
let adminToken = '';

before(async () => {
  browser = await launchChromium();
  const login = await apiCall<{ data: { accessToken: string } }>(
    API,
    'POST',
    '/api/auth/login',
    ADMIN,
  );
  adminToken = login.data.accessToken;
});
after(async () => browser?.close());

/** A day `days` from today as YYYY-MM-DD (the shop's calendar is close enough: days apart). */
function day(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function signIn(width: number, height = 900): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height },
    ...(width < 600 ? { isMobile: true, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(STAFF.email);
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/staff/orders');
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** A product of the journey's own, sold singly, with no ready stock: it sells only by booking. */
async function createProduct(name: string): Promise<string> {
  const categories = await apiCall<{ categories: { _id: string }[] }>(
    API,
    'GET',
    '/api/categories',
  );
  const form = new FormData();
  for (const [field, value] of Object.entries({
    productName: name,
    productDescription: 'Grafted, for the long rains',
    price: '250',
    productQuantity: '0',
    category: categories.categories[0]!._id,
  }))
    form.set(field, value);
  const created = await fetch(`${API}/api/products`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}` },
    body: form,
  });
  assert.equal(created.status, 201, await created.text());
  const found = await apiCall<{ products: { _id: string }[] }>(
    API,
    'GET',
    `/api/products?search=${encodeURIComponent(name)}`,
  );
  return found.products[0]!._id;
}

/** The queue's tab, then the booking's row or card (tables at 1280 px, cards on a phone). */
async function openTab(page: Page, tab: string, purchaseNumber: string) {
  await page.goto(`${BASE}/manage/bookings`);
  await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
  await page.getByRole('link', { name: purchaseNumber }).first().waitFor({ timeout: 15_000 });
}

async function phoneCheck(url: string, ready: (p: Page) => Promise<unknown>, what: string) {
  const problems: string[] = [];
  for (const phone of PHONES) {
    const page = await signIn(phone.width, phone.height);
    await page.goto(url);
    await ready(page);
    problems.push(...(await phoneProblems(page, `${what} at ${phone.width} px`)));
    if (phone.width === 390) await shot(page, `${what.replace(/ /g, '-')}-390`);
    await page.context().close();
  }
  assert.deepEqual(problems, []);
}

describe('bookings journey', () => {
  it('a batch is started, booked, made ready, paid for and dispatched from the back office', async () => {
    // 'Journey' first: the other journeys, which pick a product of the demo data, leave it alone.
    const name = `Journey Avocado Hass ${RUN}`;
    const productId = await createProduct(name);
    const page = await signIn(1280);

    // Staff start a batch; the ready date's rule shows as they type.
    await page.getByRole('link', { name: 'Batches' }).click();
    await page.getByRole('heading', { name: 'Batches' }).waitFor();
    await page.getByRole('button', { name: 'New batch' }).click();
    const dialog = page.getByRole('dialog', { name: 'New batch' });
    await dialog.getByLabel('Product').selectOption({ label: name });
    await dialog.getByLabel('Sowing date').fill(day(0));
    await dialog.getByLabel('Ready date').fill(day(-3));
    await dialog.getByText('The ready date cannot be before the sowing date').waitFor();
    await dialog.getByLabel('Ready date').fill(day(42));
    await dialog
      .getByText('The ready date cannot be before the sowing date')
      .waitFor({ state: 'detached' });
    await dialog.getByLabel('Seedlings started').fill('200');
    await dialog.getByRole('button', { name: 'Create batch' }).click();
    await page.waitForURL(/\/manage\/batches\/[0-9a-f]{24}$/);
    const batchId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name }).waitFor();
    await page.getByText('No bookings on this batch yet.').waitFor();

    // A guest books 20 seedlings of it through the API.
    const phone = `079${String(Date.now()).slice(-7)}`;
    const placed = await apiCall<{
      order: { _id: string; purchaseNumber: string; booking: { deposit: number } };
    }>(API, 'POST', '/api/orders', {
      guestInfo: {
        fullName: 'Wanjiru Booking Journey',
        phoneNumber: phone,
        email: `booking.${Date.now()}@example.co.ke`,
        county: 'Nakuru',
        streetAddress: 'Njoro, near the market',
      },
      products: [{ _id: productId, quantity: 20, batchId }],
    });
    const { _id: orderId, purchaseNumber } = placed.order;
    const deposit = placed.order.booking.deposit;
    assert.ok(deposit > 0);

    // The clerk finds it under "Deposits to confirm" and records the deposit from the order page.
    await openTab(page, 'Deposits to confirm', purchaseNumber);
    await page.getByRole('link', { name: purchaseNumber }).first().click();
    await page.getByRole('heading', { name: `Order ${purchaseNumber}` }).waitFor();
    await page.getByRole('button', { name: 'Record deposit' }).click();
    const record = page.getByRole('dialog', { name: `Record deposit · ${purchaseNumber}` });
    assert.equal(
      await record.getByLabel('Amount').inputValue(),
      `KSH ${deposit.toLocaleString('en-US')}`,
    );
    await record.getByLabel(/Transaction code/).fill(`SJ${RUN}`.slice(0, 10));
    await record.getByRole('button', { name: 'Record deposit' }).click();
    await record.waitFor({ state: 'detached' });
    await page.getByLabel('Booking').getByText('Booked', { exact: true }).waitFor();

    // The batch page lists the booking; staff mark the batch ready.
    await page.goto(`${BASE}/manage/batches/${batchId}`);
    await page.getByRole('link', { name: purchaseNumber }).waitFor();
    await page.getByRole('button', { name: 'Mark ready' }).click();
    const ready = page.getByRole('dialog', { name: 'Mark this batch ready?' });
    await ready.getByText('180 unbooked seedlings go into ready stock.').waitFor();
    await ready.getByRole('button', { name: 'Mark ready' }).click();
    await page.getByText(/^Marked ready /).waitFor({ timeout: 15_000 });
    await shot(page, 'batch-page-1280');

    // Its balance is due this week: the queue shows it, on a phone too (a card, nothing sideways).
    await phoneCheck(
      `${BASE}/manage/bookings?tab=balances`,
      (p) => p.getByRole('link', { name: purchaseNumber }).waitFor({ timeout: 15_000 }),
      'bookings queue',
    );
    // The clerk records the balance from the order page.
    await openTab(page, 'Balances due this week', purchaseNumber);
    await shot(page, 'bookings-queue-1280');
    await page.getByRole('link', { name: purchaseNumber }).first().click();
    await page.getByRole('heading', { name: `Order ${purchaseNumber}` }).waitFor();
    await page.getByLabel('Booking').getByText('Balance due', { exact: true }).waitFor();
    await shot(page, 'order-booking-1280');
    await page.getByRole('button', { name: 'Complete Payment' }).click();
    const pay = page.getByRole('dialog', { name: `Complete Payment · ${purchaseNumber}` });
    await pay.getByLabel('Payment Method').selectOption('Cash');
    await pay.getByRole('button', { name: 'Complete Payment' }).click();
    await pay.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByLabel('Booking').getByText('Paid', { exact: true }).waitFor();

    // Paid: it waits under "Ready to dispatch"; the clerk dispatches it.
    await openTab(page, 'Ready to dispatch', purchaseNumber);
    await page.getByRole('link', { name: purchaseNumber }).first().click();
    await page.getByRole('heading', { name: `Order ${purchaseNumber}` }).waitFor();
    await page.getByRole('button', { name: 'In transit' }).click();
    await page.getByRole('button', { name: 'yes' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 15_000 });

    const after = await apiCall<{ order: { orderStatus: string; booking: { state: string } } }>(
      API,
      'GET',
      `/api/orders/${orderId}`,
      undefined,
      adminToken,
    );
    assert.equal(after.order.orderStatus, 'InTransit');
    assert.equal(after.order.booking.state, 'Paid');
    await page.context().close();

    // The batch page, its booking dispatched, fits a phone.
    await phoneCheck(
      `${BASE}/manage/batches/${batchId}`,
      (p) => p.getByRole('link', { name: purchaseNumber }).waitFor(),
      'batch page',
    );
  });
});
