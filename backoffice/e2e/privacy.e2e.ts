/**
 * Browser journey of a guest's data request (issue 31): a guest who ordered without an account asks
 * for their data with the purchase number and phone, and confirms with the code the shop texted
 * (the Africa's Talking simulator's outbox); the admin finds it in "Data requests" with its due
 * date, downloads the guest's data to send them, and the request shows as answered. The queue and
 * the Privacy settings pass the phone checks at 390 px.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { phoneProblems } from '../../tools/e2e/phone-check';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3101';
const SIMULATOR = process.env.SMS_SIMULATOR_URL ?? 'http://127.0.0.1:4020';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };

let browser: Browser;
let purchaseNumber = '';

/** The code of the data request texted to this number. */
async function codeSentTo(msisdn: string): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const res = await fetch(`${SIMULATOR}/outbox?to=${encodeURIComponent(msisdn)}`);
    const { messages } = (await res.json()) as { messages: { message: string }[] };
    const code = messages
      .map((m) => /data request .* is (\d{6})/.exec(m.message)?.[1])
      .find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no data request code was texted to ${msisdn}`);
}

before(async () => {
  browser = await launchChromium();
  const phone = `078${String(Date.now()).slice(-7)}`;
  const { products } = await apiCall<{ products: { _id: string; productQuantity: number }[] }>(
    API,
    'GET',
    '/api/products?limit=50',
  );
  const product = products.find((p) => p.productQuantity > 5)!;
  const placed = await apiCall<{ order: { purchaseNumber: string } }>(API, 'POST', '/api/orders', {
    guestInfo: {
      fullName: 'Chebet Guest',
      phoneNumber: phone,
      email: `chebet.${Date.now()}@example.co.ke`,
      county: 'Kiambu',
      subCounty: 'Ruiru',
      ward: 'Gitothua',
      streetAddress: 'Kamakis, near the stage',
    },
    products: [{ _id: product._id, quantity: 1 }],
  });
  purchaseNumber = placed.order.purchaseNumber;
  const asked = await apiCall<{ requestId: string }>(API, 'POST', '/api/privacy/requests', {
    purchaseNumber,
    phoneNumber: phone,
    kind: 'export',
  });
  const code = await codeSentTo(`+254${phone.slice(1)}`);
  await apiCall(API, 'POST', `/api/privacy/requests/${asked.requestId}/confirm`, { code });
});
after(async () => browser?.close());

describe('Data requests journey', () => {
  it("an admin answers a guest's request from the queue with the guest's data", async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      acceptDownloads: true,
    });
    const page = await context.newPage();
    await page.goto(`${BASE}/authenticate/login`);
    await page.getByLabel('Email Address').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/admin\/dashboard/);
    await page.goto(`${BASE}/admin/data-requests`);
    await page.getByRole('heading', { name: 'Data requests' }).waitFor();
    // On a phone, each request is a card.
    const card = page.locator('.mantine-Card-root').filter({ hasText: purchaseNumber });
    await card.getByText(/^due /).waitFor();
    const problems = await phoneProblems(page, '390 px /admin/data-requests');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'download their data' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^guest-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      orders: { purchaseNumber: string }[];
    };
    assert.deepEqual(
      file.orders.map((o) => o.purchaseNumber),
      [purchaseNumber],
    );
    await card.getByText(/Data sent by/).waitFor();

    await page.goto(`${BASE}/admin/privacy`);
    await page.getByLabel('Privacy notice').waitFor();
    problems.push(...(await phoneProblems(page, '390 px /admin/privacy')));
    assert.deepEqual(problems, []);
    await context.close();
  });
});
