/**
 * Browser journey of delivery zones: an admin sets a Nairobi zone at KES 300 and 2 days (through the
 * API); a guest in Nairobi sees KES 300 and the expected date at checkout and pays the total with
 * M-Pesa Express (the Daraja simulator records the amount asked); a guest who collects at the
 * nursery pays no delivery. The zone is removed at the end so no other journey's fee changes.
 * Screenshots of the delivery options at 390 and 1280 px go to .data/shots/. By hand: see mpesa.e2e.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const SIMULATOR = process.env.MPESA_SIMULATOR_URL ?? 'http://127.0.0.1:4010';
const SMS_SIMULATOR = process.env.SMS_SIMULATOR_URL ?? 'http://127.0.0.1:4020';
const SHOTS = path.join(import.meta.dirname, '..', '..', '.data', 'shots');
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const DAY_MS = 24 * 60 * 60 * 1000;

let browser: Browser;
let adminToken = '';
let zoneId = '';

async function signIn(who: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${API}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}

async function asAdmin(method: string, route: string, body?: unknown) {
  // No JSON content type without a body: the API refuses an empty JSON body.
  return fetch(`${API}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** dd/MM/yyyy in Nairobi, as the shop writes dates. */
const shopDate = (d: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Africa/Nairobi',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(d);

const kes = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));

/** The texts the phone has received (the SMS simulator's outbox), once there are `count` of them. */
async function smsTo(phone: string, count: number): Promise<string[]> {
  const msisdn = encodeURIComponent(`+254${phone.slice(1)}`);
  let texts: string[] = [];
  for (let i = 0; i < 60 && texts.length < count; i++) {
    const res = await fetch(`${SMS_SIMULATOR}/outbox?to=${msisdn}`);
    texts = ((await res.json()) as { messages: { message: string }[] }).messages.map(
      (m) => m.message,
    );
    if (texts.length < count) await new Promise((r) => setTimeout(r, 250));
  }
  return texts;
}

before(async () => {
  browser = await launchChromium();
  adminToken = await signIn(ADMIN);
  // A zone left by an interrupted run would clash with the one this journey sets.
  const { zones } = (await (await asAdmin('GET', '/api/delivery/zones')).json()) as {
    zones: { _id: string; areas: { county: string }[] }[];
  };
  for (const z of zones.filter((z) => z.areas.some((a) => a.county === 'Nairobi')))
    assert.equal((await asAdmin('DELETE', `/api/delivery/zones/${z._id}`)).status, 200);
  const res = await asAdmin('POST', '/api/delivery/zones', {
    name: 'Nairobi',
    fee: 300,
    days: 2,
    areas: [{ county: 'Nairobi' }],
  });
  assert.equal(res.status, 201, await res.clone().text());
  zoneId = ((await res.json()) as { zone: { _id: string } }).zone._id;
});

after(async () => {
  if (zoneId) assert.equal((await asAdmin('DELETE', `/api/delivery/zones/${zoneId}`)).status, 200);
  await browser?.close();
});

async function checkoutInNairobi(page: Page, phone: string) {
  await page.goto(`${BASE}/shop/products`);
  const add = page.getByRole('button', { name: 'Add to Cart' });
  await add.first().waitFor();
  await add.first().click();
  await page.getByRole('button', { name: /^Cart, 1 items/ }).waitFor();
  await page.goto(`${BASE}/checkout`);
  await page.getByLabel('Full name', { exact: true }).fill('Otieno Kamau');
  await page.getByLabel('Phone number (area code and number)', { exact: true }).fill(phone);
  await page.getByLabel('Email', { exact: true }).fill(`zones${Date.now()}@example.co.ke`);
  await page.getByText('Choose your county and sub-county to see the delivery options.').waitFor();
  await page.getByLabel('County', { exact: true }).selectOption('Nairobi');
  await page.getByLabel('Sub-county', { exact: true }).selectOption('Westlands');
  await page
    .getByLabel('Street address (nearest town, include sub-county)', { exact: true })
    .fill('Parklands, 3rd Avenue');
  await page.getByRole('radio', { name: /Delivery to Nairobi/ }).waitFor();
}

describe('Delivery zones journey', () => {
  it('a guest in Nairobi sees KES 300 and the date, and pays the total by M-Pesa', async () => {
    const phone = `078${String(Date.now()).slice(-7)}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route(/wa\.me/, (route) => route.fulfill({ status: 200, body: 'whatsapp' }));
    const page = await context.newPage();
    await checkoutInNairobi(page, phone);

    assert.equal(await page.getByTestId('delivery-fee-delivery').textContent(), 'KES 300');
    const expected = `Expected by ${shopDate(new Date(Date.now() + 2 * DAY_MS))}`;
    assert.equal(await page.getByTestId('delivery-date-delivery').textContent(), expected);
    assert.equal(await page.getByTestId('delivery-fee-collection').textContent(), 'Free');
    assert.ok(await page.getByRole('radio', { name: /Delivery to Nairobi/ }).isChecked());
    const subtotal = kes(
      await page.locator('.summary .subtotal').first().locator('strong').textContent(),
    );
    assert.equal(await page.getByTestId('shipping-fee').textContent(), 'KES 300');
    assert.equal(kes(await page.getByTestId('order-total').textContent()), subtotal + 300);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'checkout-delivery-1280.png'), fullPage: true });

    await page.getByLabel('Pay with M-Pesa', { exact: true }).check();
    await page.getByRole('button', { name: 'PLACE ORDER' }).click();
    await page.getByRole('heading', { name: 'Pay with M-Pesa' }).waitFor();
    const number = (await page.getByTestId('purchase-number').textContent())!;

    await fetch(`${SIMULATOR}/__simulator/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        phoneNumber: `254${phone.slice(1)}`,
        scenario: { result: 'success', delayMs: 1000 },
      }),
    });
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await page.getByTestId('payment-status').waitFor({ timeout: 20_000 });
    assert.equal(
      await page.getByTestId('payment-status').textContent(),
      'Payment received. Thank you!',
    );

    const { pushes } = (await (await fetch(`${SIMULATOR}/__simulator/pushes`)).json()) as {
      pushes: { request: { AccountReference: string; Amount: number } }[];
    };
    const push = pushes.find((p) => p.request.AccountReference === number);
    assert.equal(push?.request.Amount, subtotal + 300);
    const list = await asAdmin('GET', `/api/orders?search=${number}`);
    const [order] = ((await list.json()) as { orders: Record<string, unknown>[] }).orders;
    assert.equal(order!.shippingFee, 300);
    assert.equal(order!.totalAmount, subtotal + 300);
    assert.equal(order!.paymentStatus, 'Paid');
    assert.deepEqual(order!.delivery, { method: 'delivery', zoneName: 'Nairobi', days: 2 });

    // The guest's phone is told of the order and of the payment, each with the total with delivery.
    const total = `KES ${(subtotal + 300).toLocaleString('en-US')}`;
    const texts = await smsTo(phone, 2);
    assert.equal(texts.length, 2, texts.join('\n'));
    assert.ok(
      texts.some((t) => t.includes(`your order ${number}, total ${total}`)),
      texts.join('\n'),
    );
    assert.ok(
      texts.some((t) => t.includes(`payment of ${total} for order ${number} received`)),
      texts.join('\n'),
    );
    await context.close();
  });

  it('a guest who collects at the nursery pays no delivery', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await context.route(/wa\.me/, (route) => route.fulfill({ status: 200, body: 'whatsapp' }));
    const page = await context.newPage();
    await checkoutInNairobi(page, `077${String(Date.now()).slice(-7)}`);
    await page.getByRole('radio', { name: /Collect at the nursery/ }).check();
    await page.getByText(/Monday to Saturday/).waitFor();
    const subtotal = kes(
      await page.locator('.summary .subtotal').first().locator('strong').textContent(),
    );
    assert.equal(await page.getByTestId('shipping-fee').textContent(), 'KES 0');
    assert.equal(kes(await page.getByTestId('order-total').textContent()), subtotal);
    mkdirSync(SHOTS, { recursive: true });
    await page
      .locator('.delivery-options')
      .scrollIntoViewIfNeeded()
      .then(() => page.screenshot({ path: path.join(SHOTS, 'checkout-delivery-390.png') }));
    await page.screenshot({
      path: path.join(SHOTS, 'checkout-delivery-390-full.png'),
      fullPage: true,
    });

    await page.getByRole('button', { name: 'PLACE ORDER' }).click();
    await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
    const number = (await page.getByTestId('purchase-number').textContent())!;
    const list = await asAdmin('GET', `/api/orders?search=${number}`);
    const [order] = ((await list.json()) as { orders: Record<string, unknown>[] }).orders;
    assert.equal(order!.shippingFee, 0);
    assert.equal(order!.totalAmount, subtotal);
    assert.deepEqual(order!.delivery, {
      method: 'collection',
      zoneName: 'Collect at the nursery',
      days: 1,
    });
    await context.close();
  });
});
