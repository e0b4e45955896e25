/**
 * Bookings on a phone (issue 32): a farmer on a 390 px phone finds a tray product for the long rains,
 * books 2 trays of 50 from its growing batch and pays the 30 % deposit by M-Pesa (the Daraja
 * simulator); staff mark the batch ready (through the API, as the back office does); the farmer gets
 * the SMS (the Africa's Talking simulator's outbox), follows its link to tracking and pays the
 * balance from the order page; the clerk sends the order out (API as staff) and the farmer sees it
 * on its way. Every page passes the phone checks at 390 and 360 px. Saves the product page at 390 px
 * as .data/shots/bookings-product-390.png. Run by tools/e2e/run-journeys.ts storefront, which starts
 * both simulators.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { phoneProblems } from '../../tools/e2e/phone-check';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const MPESA = process.env.MPESA_SIMULATOR_URL ?? 'http://127.0.0.1:4010';
const SMS = process.env.SMS_SIMULATOR_URL ?? 'http://127.0.0.1:4020';
const SHOTS = path.join(import.meta.dirname, '..', '..', '.data', 'shots');
const RUN = Date.now().toString(36);
const DAY_MS = 24 * 60 * 60 * 1000;

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

async function tokenOf(email: string, password: string): Promise<string> {
  const login = await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', {
    email,
    password,
  });
  return login.data.accessToken;
}

/** "12 March" of a YYYY-MM-DD day, as the shop writes it. */
const dayText = (day: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

/**
 * A cabbage sold singly (KES 15) and by the tray of 50 (KES 600), none ready now, with a batch of
 * 500 seedlings sown today and ready 11 days into the coming long rains. Made as the back office
 * makes them: the product as the admin, the batch as staff.
 */
async function bookableTrays(admin: string, staff: string) {
  const { categories } = await apiCall<{ categories: { _id: string }[] }>(
    API,
    'GET',
    '/api/categories?limit=1',
  );
  const form = new FormData();
  const fields: Record<string, string> = {
    productName: `Cabbage Copenhagen ${RUN}`,
    productDescription: 'Sown for the long rains, sold by the tray',
    price: '15',
    productQuantity: '0',
    category: categories[0]!._id,
    onOffer: 'false',
    units: JSON.stringify([
      { name: 'Single seedling', seedlings: 1 },
      { name: 'Tray of 50', seedlings: 50, price: 600 },
    ]),
  };
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const res = await fetch(`${API}/api/products`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin}` },
    body: form,
  });
  const created = (await res.json()) as { product: { _id: string } };
  assert.equal(res.status, 201, JSON.stringify(created));
  const productId = created.product._id;

  const settings = await apiCall<{
    depositPercent: number;
    seasons: { key: string; from: string }[];
  }>(API, 'GET', '/api/bookings/settings');
  const longRains = settings.seasons.find((s) => s.key === 'long-rains')!;
  const readyOn = new Date(Date.parse(`${longRains.from}T00:00:00Z`) + 11 * DAY_MS)
    .toISOString()
    .slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);
  const batch = await apiCall<{ batch?: { _id: string }; _id?: string }>(
    API,
    'POST',
    '/api/batches',
    { productId, sownOn: today, readyOn, started: 500, note: 'Journey batch' },
    staff,
  );
  const batchId = batch.batch?._id ?? batch._id!;
  return { productId, batchId, readyOn, depositPercent: settings.depositPercent };
}

/** What the simulated shopper does with the next M-Pesa prompt to this phone: pays it. */
async function nextPromptPaid(phone: string) {
  const res = await fetch(`${MPESA}/__simulator/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      phoneNumber: `254${phone.slice(1)}`,
      scenario: { result: 'success', delayMs: 1500 },
    }),
  });
  assert.equal(res.status, 200);
}

async function textsTo(msisdn: string): Promise<string[]> {
  const res = await fetch(`${SMS}/outbox?to=${encodeURIComponent(msisdn)}`);
  return ((await res.json()) as { messages: { message: string }[] }).messages.map((m) => m.message);
}

/** The phone checks at 390 px (the journey's phone) and on the small 360 px one. */
async function checkPhone(page: Page, what: string) {
  assert.deepEqual(await phoneProblems(page, what), []);
  await page.setViewportSize({ width: 360, height: 640 });
  assert.deepEqual(await phoneProblems(page, `${what} at 360 px`), []);
  await page.setViewportSize({ width: 390, height: 844 });
}

describe('bookings on a phone', () => {
  it('a farmer books 2 trays for the long rains, pays the deposit, then the balance once ready, and sees the order on its way', async () => {
    const admin = await tokenOf('admin@spc.local', 'Admin@1234');
    const staff = await tokenOf('staff@spc.local', 'Staff@1234');
    const { productId, batchId, readyOn, depositPercent } = await bookableTrays(admin, staff);
    const ready = dayText(readyOn);

    const phone = `071${String(Date.now()).slice(-7)}`;
    const email = `booker${RUN}@example.co.ke`;
    await apiCall(API, 'POST', '/api/auth/register', {
      fullName: 'Wairimu Njoroge',
      email,
      phoneNumber: phone,
      password: 'Seedling@1',
    });
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
    });
    await context.route(/wa\.me|openstreetmap\.org/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<p>stub</p>' }),
    );
    const page = await context.newPage();
    await page.goto(`${BASE}/authenticate/login`);
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Seedling@1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/shop\/products/, { timeout: 15_000 });

    // The shop, filtered to the long rains: the cabbage is there with its ready day.
    await page.getByLabel('Availability', { exact: true }).selectOption({ label: 'Long rains' });
    await page.waitForURL(/availability=long-rains/);
    await page.getByText(/^Ready for the long rains: /).waitFor();
    const card = page.locator('.card').filter({ hasText: `Cabbage Copenhagen ${RUN}` });
    // The list is by price: search narrows it to this run's product.
    await page.goto(`${BASE}/shop/products?availability=long-rains&search=Copenhagen%20${RUN}`);
    await card.getByRole('link', { name: `Ready from ${ready}: book` }).waitFor();
    await checkPhone(page, 'the shop filtered to the long rains');
    await card.getByRole('link', { name: `Ready from ${ready}: book` }).click();
    await page.waitForURL(new RegExp(`/single/product/${productId}`));

    // The product page: nothing ready now, the batch bookable with the deposit share.
    await page.getByRole('radio', { name: /Tray of 50/ }).check();
    await page.getByText('Ready now: 0 trays').waitFor();
    await page.getByText(`Ready from ${ready}: book with a ${depositPercent} % deposit`).waitFor();
    await page.getByText('10 trays left to book').waitFor();
    await page.getByRole('button', { name: 'More trays' }).click();
    await page.getByText('KES 1,200').first().waitFor();
    await checkPhone(page, 'the product page');
    mkdirSync(SHOTS, { recursive: true });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: path.join(SHOTS, 'bookings-product-390.png'), fullPage: true });
    await page.getByRole('button', { name: `Book for ${ready}` }).click();
    await page.getByText(/booked for .*: in your cart/).waitFor();

    // The cart: the booking under its own title.
    await page.goto(`${BASE}/viewCart`);
    await page.getByRole('heading', { name: `Booking: ready from ${ready}` }).waitFor();
    await checkPhone(page, 'the cart');
    await page.getByRole('link', { name: 'Checkout' }).click();

    // Checkout: the deposit and the balance, M-Pesa for the deposit, no pay on delivery.
    await page.getByRole('heading', { name: 'My Booking' }).waitFor();
    assert.equal(await page.getByLabel('Pay on delivery', { exact: true }).count(), 0);
    await page.getByLabel('Pay with M-Pesa', { exact: true }).check();
    await page.getByLabel('County', { exact: true }).selectOption('Kiambu');
    await page.getByLabel('Sub-county', { exact: true }).selectOption('Ruiru');
    const ward = page.getByLabel('Ward', { exact: true });
    await ward.selectOption((await ward.locator('option').allTextContents())[1]!);
    await page
      .getByLabel('Street address (nearest town, include sub-county)', { exact: true })
      .fill('Githunguri road, near the dairy');
    // The total with the delivery fee of this place; the deposit is its share, the balance the rest.
    const total = page.getByTestId('order-total');
    await page.getByTestId('shipping-fee').filter({ hasText: /^KES / }).waitFor();
    const totalKes = Number((await total.textContent())!.replace(/[^0-9]/g, ''));
    assert.ok(totalKes >= 1200, `total ${totalKes}`);
    const deposit = Math.round((totalKes * depositPercent) / 100);
    const balance = totalKes - deposit;
    const money = (n: number) => `KES ${n.toLocaleString('en-US')}`;
    assert.equal(
      await page.getByTestId('deposit-now').textContent(),
      `${money(deposit)} (${depositPercent} %)`,
    );
    assert.equal(await page.getByTestId('balance-later').textContent(), money(balance));
    await checkPhone(page, 'the checkout of a booking');
    await page.getByRole('button', { name: 'PLACE ORDER' }).click();

    // The M-Pesa prompt asks for the deposit.
    await page.getByRole('heading', { name: 'Pay with M-Pesa' }).waitFor();
    const number = (await page.getByTestId('purchase-number').textContent())!;
    assert.match(number, /^SPD[A-Z2-9]{8}$/);
    assert.equal(await page.getByTestId('deposit-due').textContent(), money(deposit));
    await nextPromptPaid(phone);
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await page.getByText(`A prompt for ${money(deposit)} was sent`, { exact: false }).waitFor();
    await page.getByTestId('payment-status').waitFor({ timeout: 30_000 });
    await page.getByTestId('booking-summary').filter({ hasText: 'Deposit paid' }).waitFor();

    // My Orders: the booking, its deposit paid and balance due.
    await page.goto(`${BASE}/user/my-orders`);
    const orderCard = page.getByTestId('order-card').filter({ hasText: number });
    await orderCard.getByText(`Ready from ${ready}`).waitFor();
    await orderCard.getByText(`Deposit paid: ${money(deposit)}`, { exact: false }).waitFor();
    await orderCard.getByText(`Balance due: ${money(balance)}`, { exact: false }).waitFor();
    await checkPhone(page, 'My Orders with a booking');

    // Staff mark the batch ready: the farmer is told by SMS, with the balance.
    await apiCall(API, 'POST', `/api/batches/${batchId}/ready`, {}, staff);
    const msisdn = `+254${phone.slice(1)}`;
    let readyText: string | undefined;
    for (let i = 0; i < 60 && !readyText; i++) {
      readyText = (await textsTo(msisdn)).find(
        (t) => t.includes(number) && /pay the balance/i.test(t) && t.includes(money(balance)),
      );
      if (!readyText) await new Promise((r) => setTimeout(r, 500));
    }
    assert.ok(readyText, `the ready SMS to ${msisdn}: ${JSON.stringify(await textsTo(msisdn))}`);

    // The text's link opens tracking: the booking is ready, its balance due, and can be paid there.
    const link = readyText.match(/https?:\/\/\S+track-orders\S+/)?.[0];
    assert.ok(link, readyText);
    await page.goto(link.replace(/[.,]$/, ''));
    const tracked = page.getByTestId('booking-facts');
    await tracked.getByText('Ready: balance due').waitFor();
    await tracked.getByText(`Balance due: ${money(balance)}`, { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Pay the balance with M-Pesa' }).waitFor();
    await checkPhone(page, 'tracking a booking with its balance due');
    await page.goto(`${BASE}/user/my-orders`);

    // The order page: ready, the balance due, paid with M-Pesa from there.
    await orderCard.getByRole('link', { name: number }).click();
    await page.getByRole('heading', { name: `Order ${number}` }).waitFor();
    const facts = page.getByTestId('booking-facts');
    await page.reload();
    await facts.getByText('Ready: balance due').waitFor();
    await facts.getByText(`Balance due: ${money(balance)}`, { exact: false }).waitFor();
    await checkPhone(page, 'the order page with the balance due');
    await page.getByRole('button', { name: 'Pay the balance with M-Pesa' }).click();
    await nextPromptPaid(phone);
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await page.getByText(`A prompt for ${money(balance)} was sent`, { exact: false }).waitFor();
    await facts.getByText('Paid in full').waitFor({ timeout: 30_000 });
    await facts.getByText(`Balance paid: ${money(balance)}`).waitFor();

    // The clerk sends it out; the farmer sees it on its way.
    const { orders } = await apiCall<{ orders: { _id: string; purchaseNumber: string }[] }>(
      API,
      'GET',
      `/api/orders?search=${number}`,
      undefined,
      staff,
    );
    await apiCall(API, 'PATCH', `/api/orders/inTransit/${orders[0]!._id}`, undefined, staff);
    await page.goto(`${BASE}/track-orders?number=${number}`);
    await page
      .locator('.timeline li[data-done="true"]')
      .filter({ hasText: 'In Transit' })
      .waitFor();
    await page.getByTestId('booking-facts').getByText('Paid in full').waitFor();
    await checkPhone(page, 'tracking the booking on its way');
    await context.close();
  });
});
