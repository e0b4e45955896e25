/**
 * Browser journey of the order SMS: a guest places an order at checkout and their phone (the
 * Africa's Talking simulator's outbox, tools/sms) gets the "placed" text with the purchase number and
 * a tracking link. Run by tools/e2e/run-journeys.ts storefront, which starts the simulator.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const SIMULATOR = process.env.SMS_SIMULATOR_URL ?? 'http://127.0.0.1:4020';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

async function textsTo(msisdn: string): Promise<{ message: string }[]> {
  const res = await fetch(`${SIMULATOR}/outbox?to=${encodeURIComponent(msisdn)}`);
  return ((await res.json()) as { messages: { message: string }[] }).messages;
}

describe('Order SMS journey', () => {
  it('a guest places an order and gets the "placed" SMS with its number and tracking link', async () => {
    const phone = `074${String(Date.now()).slice(-7)}`;
    const msisdn = `+254${phone.slice(1)}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route(/wa\.me/, (route) => route.fulfill({ status: 200, body: 'whatsapp' }));
    const page = await context.newPage();
    await page.goto(`${BASE}/shop/products`);
    const add = page.getByRole('button', { name: 'Add to Cart' });
    await add.first().waitFor();
    await add.first().click();
    await page.getByRole('button', { name: /^Cart, 1 items/ }).waitFor();
    await page.goto(`${BASE}/checkout`);
    await page.getByLabel('Full name', { exact: true }).fill('Mutua Kilonzo');
    await page.getByLabel('Phone number (area code and number)', { exact: true }).fill(phone);
    await page.getByLabel('Email', { exact: true }).fill(`sms${Date.now()}@example.co.ke`);
    await page.getByLabel('County', { exact: true }).selectOption('Kiambu');
    await page.getByLabel('Sub-county', { exact: true }).selectOption('Ruiru');
    await page
      .getByLabel('Street address (nearest town, include sub-county)', { exact: true })
      .fill('Kamakis, near the stage');
    await page.getByRole('button', { name: 'PLACE ORDER' }).click();
    const number = (await page.getByTestId('purchase-number').textContent())!;
    assert.match(number, /^SPD[A-Z2-9]{8}$/);

    let texts: { message: string }[] = [];
    for (let i = 0; i < 40 && texts.length === 0; i++) {
      texts = await textsTo(msisdn);
      if (!texts.length) await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(texts.length, 1, 'one SMS for the placed order');
    assert.match(texts[0]!.message, new RegExp(number));
    assert.ok(
      texts[0]!.message.includes(`${BASE}/track-orders?purchaseNumber=${number}`),
      texts[0]!.message,
    );
    await context.close();
  });
});
