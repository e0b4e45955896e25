/**
 * Storefront journey of the second chance after a failed M-Pesa prompt (issue 30): a signed-in
 * shopper cancels the STK prompt, gets the SMS with the paybill (the SMS simulator's outbox), sees
 * "Try M-Pesa again" and the paybill on their order page (on a phone: fits the screen, no serious
 * axe finding), pays part by paybill with the purchase number in the Daraja simulator (the order page
 * shows it received and offers to ask the shop instead of Cancel), then the rest, and the order shows
 * Paid with no clerk involved. tools/e2e/run-journeys.ts starts both simulators.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';
import { phoneProblems, PHONES } from '../../tools/e2e/phone-check';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const MPESA = process.env.MPESA_SIMULATOR_URL ?? 'http://127.0.0.1:4010';
const SMS = process.env.SMS_SIMULATOR_URL ?? 'http://127.0.0.1:4020';
const PASSWORD = 'Seedling@1';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 300));
    value = await probe();
  }
  return value;
}

describe('paybill after a failed prompt', () => {
  it('a shopper cancels the prompt, gets the paybill SMS, pays by paybill and the order shows Paid', async () => {
    const phone = `075${String(Date.now()).slice(-7)}`;
    const msisdn = `254${phone.slice(1)}`;
    const email = `paybill${Date.now()}@example.co.ke`;
    const registered = await post(`${API}/api/auth/register`, {
      fullName: 'Akinyi Odhiambo',
      email,
      phoneNumber: phone,
      password: PASSWORD,
    });
    assert.ok(registered.status < 300, JSON.stringify(registered.body));
    const login = await post(`${API}/api/auth/login`, { email, password: PASSWORD });
    const token = (login.body.data as { accessToken: string }).accessToken;
    const products = (await (await fetch(`${API}/api/products?limit=50`)).json()) as {
      products: { _id: string; productQuantity: number; price: number }[];
    };
    // In stock, and payable in one M-Pesa payment (other journeys add seven-figure products).
    const product = products.products.find((p) => p.productQuantity > 5 && p.price <= 100_000)!;
    const placed = await post(
      `${API}/api/orders`,
      {
        guestInfo: {
          fullName: 'Akinyi Odhiambo',
          phoneNumber: phone,
          email,
          county: 'Kiambu',
          streetAddress: 'Thika Road, near the mall',
        },
        products: [{ _id: product._id, quantity: 1 }],
      },
      token,
    );
    assert.equal(placed.status, 201);
    const order = placed.body.order as { _id: string; purchaseNumber: string; totalAmount: number };

    // The shopper cancels the PIN prompt on the phone.
    await post(`${MPESA}/__simulator/scenarios`, {
      phoneNumber: msisdn,
      scenario: { result: 'cancelled', delayMs: 300 },
    });
    const pushed = await post(`${API}/api/payments/mpesa/stk-push`, {
      purchaseNumber: order.purchaseNumber,
      phoneNumber: phone,
    });
    assert.equal(pushed.status, 200);

    // One SMS with the paybill, the purchase number as account and the amount.
    const texts = await until(
      async () =>
        (
          (await (await fetch(`${SMS}/outbox?to=${encodeURIComponent(`+${msisdn}`)}`)).json()) as {
            messages: { message: string }[];
          }
        ).messages.filter((m) => m.message.includes('Paybill')),
      (list) => list.length > 0,
    );
    assert.equal(texts.length, 1);
    assert.match(texts[0]!.message, new RegExp(`account ${order.purchaseNumber}, amount KES`));

    // The order page offers "Try M-Pesa again" and the paybill, on a phone.
    const context = await browser.newContext({
      viewport: PHONES[0],
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(`${BASE}/authenticate/login`);
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/shop\/products/, { timeout: 10_000 });
    await page.goto(`${BASE}/user/my-orders/${order._id}`);
    await page.getByRole('button', { name: 'Try M-Pesa again' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('paybill-instructions').waitFor();
    assert.deepEqual(await phoneProblems(page, 'order page with Try M-Pesa again'), []);

    // They pay part by paybill first, with the purchase number as account: the order page shows
    // what was received, and cancelling becomes asking the shop (it would have to refund them).
    const part = Math.max(1, Math.floor(order.totalAmount / 2));
    const first = await post(`${MPESA}/__simulator/c2b`, {
      account: order.purchaseNumber,
      amount: part,
      phone: msisdn,
    });
    assert.equal(first.status, 200);
    const money = page.getByRole('region', { name: 'Payments and refunds' });
    const partText = `KES ${part.toLocaleString('en-US')}`;
    await until(
      async () => {
        await page.reload();
        await page.getByRole('heading', { name: `Order ${order.purchaseNumber}` }).waitFor();
        return money.getByTestId('money-entry').count();
      },
      (n) => n > 0,
      20_000,
    );
    const entry = money.getByTestId('money-entry');
    assert.match(await entry.innerText(), /Received\s*·\s*M-Pesa paybill/);
    assert.ok((await entry.innerText()).includes(partText));
    assert.ok((await money.innerText()).replace(/\s+/g, ' ').includes(`Received ${partText}`));
    assert.equal(await page.getByRole('button', { name: 'Cancel order' }).count(), 0);
    const ask = page.getByRole('link', { name: 'Ask the shop to cancel' });
    assert.match((await ask.getAttribute('href')) ?? '', /^\/contactUs\?subject=Cancel%20order%20/);
    assert.deepEqual(await phoneProblems(page, 'order page with money received'), []);

    // Then the rest.
    const paid = await post(`${MPESA}/__simulator/c2b`, {
      account: order.purchaseNumber,
      amount: order.totalAmount - part,
      phone: msisdn,
    });
    assert.equal(paid.status, 200);
    await until(
      async () => {
        await page.reload();
        await page.getByRole('heading', { name: `Order ${order.purchaseNumber}` }).waitFor();
        // The order turns Paid as the entry is claimed, a moment before the entry is marked
        // credited (the list shows credited entries): both are awaited.
        const shown = await page.getByText('Paid', { exact: true }).count();
        return shown > 0 ? money.getByTestId('money-entry').count() : 0;
      },
      (n) => n === 2,
      20_000,
    );
    assert.equal((await page.getByText('Paid', { exact: true }).count()) > 0, true);
    assert.equal(await page.getByRole('button', { name: 'Try M-Pesa again' }).count(), 0);
    assert.equal(await money.getByTestId('money-entry').count(), 2);
    await context.close();
  });
});
