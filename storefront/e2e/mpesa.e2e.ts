/**
 * Browser journey of M-Pesa Express (issue 7): a guest checks out, pays with M-Pesa against the
 * Daraja simulator (tools/mpesa) and sees the paid confirmation; staff then finds the receipt number
 * on the order. tools/e2e/run-journeys.ts starts the simulator and points the API at it. By hand:
 *
 *   npx tsx tools/mpesa/simulator.ts &
 *   MPESA_ENV=sandbox-local PORT=3101 npm run start:api   (plus a storefront built against it)
 *   STOREFRONT_URL=http://localhost:5173 API_URL=http://localhost:3101 \
 *     MPESA_SIMULATOR_URL=http://127.0.0.1:4010 npx tsx --test storefront/e2e/mpesa.e2e.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const SIMULATOR = process.env.MPESA_SIMULATOR_URL ?? 'http://127.0.0.1:4010';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

/** What the simulated shopper does with the next prompt to this phone. */
async function nextPrompt(phone: string, scenario: { result: string; delayMs: number }) {
  const res = await fetch(`${SIMULATOR}/__simulator/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber: `254${phone.slice(1)}`, scenario }),
  });
  assert.equal(res.status, 200);
}

async function fillCheckout(page: Page, phone: string) {
  await page.getByLabel('Full name', { exact: true }).fill('Njeri Wambui');
  await page.getByLabel('Phone number (area code and number)', { exact: true }).fill(phone);
  await page.getByLabel('Email', { exact: true }).fill(`mpesa${Date.now()}@example.co.ke`);
  await page.getByLabel('County', { exact: true }).selectOption('Kiambu');
  await page.getByLabel('Sub-county', { exact: true }).selectOption('Ruiru');
  await page
    .getByLabel('Street address (nearest town, include sub-county)', { exact: true })
    .fill('Kamakis, near the stage');
}

describe('M-Pesa Express journey', () => {
  it('a guest pays with M-Pesa, cancels the first prompt, pays on the second and staff sees the receipt', async () => {
    const phone = `079${String(Date.now()).slice(-7)}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route(/wa\.me/, (route) => route.fulfill({ status: 200, body: 'whatsapp' }));
    const page = await context.newPage();

    await page.goto(`${BASE}/shop/products`);
    const add = page.getByRole('button', { name: 'Add to Cart' });
    await add.first().waitFor();
    await add.first().click();
    await page.getByRole('button', { name: /^Cart, 1 items/ }).waitFor();
    await page.goto(`${BASE}/checkout`);
    await page.getByLabel('Pay with M-Pesa', { exact: true }).check();
    await fillCheckout(page, phone);
    await page.getByRole('button', { name: 'PLACE ORDER' }).click();

    await page.getByRole('heading', { name: 'Pay with M-Pesa' }).waitFor();
    const number = (await page.getByTestId('purchase-number').textContent())!;
    assert.match(number, /^SPD[A-Z2-9]{8}$/);
    assert.equal(await page.getByLabel('M-Pesa phone number', { exact: true }).inputValue(), phone);

    // First prompt: the shopper cancels it on the phone.
    await nextPrompt(phone, { result: 'cancelled', delayMs: 1500 });
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await page
      .getByText('Waiting for your M-Pesa payment. Check your phone and enter your PIN.')
      .waitFor();
    await page
      .getByText('You cancelled the M-Pesa prompt. Try again when you are ready.')
      .waitFor({ timeout: 20_000 });

    // Second prompt: paid.
    await nextPrompt(phone, { result: 'success', delayMs: 1500 });
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await page
      .getByText('Waiting for your M-Pesa payment. Check your phone and enter your PIN.')
      .waitFor();
    await page.getByTestId('payment-status').waitFor({ timeout: 20_000 });
    assert.equal(
      await page.getByTestId('payment-status').textContent(),
      'Payment received. Thank you!',
    );
    await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
    assert.equal(await page.getByTestId('purchase-number').textContent(), number);

    // The receipt the simulated M-Pesa issued is the order's transaction code, as staff see it.
    const { pushes } = (await (await fetch(`${SIMULATOR}/__simulator/pushes`)).json()) as {
      pushes: {
        request: { AccountReference: string };
        outcome: { code: number; receipt: string | null } | null;
      }[];
    };
    const paid = pushes.find((p) => p.request.AccountReference === number && p.outcome?.code === 0);
    assert.ok(paid?.outcome?.receipt);
    const login = await fetch(`${API}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'staff@spc.local', password: 'Staff@1234' }),
    });
    const { data } = await login.json();
    const list = await fetch(`${API}/api/orders?search=${number}`, {
      headers: { authorization: `Bearer ${data.accessToken}` },
    });
    const [order] = (await list.json()).orders;
    assert.equal(order.purchaseNumber, number);
    assert.equal(order.paymentStatus, 'Paid');
    assert.equal(order.paymentMethod, 'Mpesa');
    assert.equal(order.paymentDetails.transactionCode, paid.outcome.receipt);
    await context.close();
  });
});
