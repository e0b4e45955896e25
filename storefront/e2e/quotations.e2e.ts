/**
 * Browser journey of a quotation (issue 42) on phones: an NGO's approver fills a cart with trays
 * and asks for a quotation from it (360 px); a clerk prices and sends it (through the API, as the
 * quote desk does); the approver follows the quotation e-mail's link (390 px), writes to the shop
 * and accepts it with an LPO number, and sees the order it became. Each page passes the phone
 * checks; shots at 360, 390 and 1280 px when JOURNEY_SHOTS_DIR is set.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { phoneProblems } from '../../tools/e2e/phone-check';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const SHOTS = process.env.JOURNEY_SHOTS_DIR;
const OUTBOX = process.env.OUTBOX_DIR ?? path.resolve('.data/outbox');
const RUN = Date.now().toString(36);
const PASSWORD = 'Seedling@1';
const APPROVER = {
  fullName: 'Nyokabi Wairimu Approver',
  email: `ngo.approver.${RUN}@example.co.ke`,
};
const ORG_NAME = `Green Belt Schools and Catchments Restoration Trust of Nyandarua ${RUN}`;
const KRA_PIN = `P${String(Date.now()).slice(-9)}Q`;
const LPO = `GBT/LPO/${RUN.toUpperCase()}/0114`;

let browser: Browser;

async function tokenOf(email: string, password: string): Promise<string> {
  const login = await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', {
    email,
    password,
  });
  return login.data.accessToken;
}
/** The newest e-mail to an address in the API's outbox (OUTBOX_DIR), decoded, waited for. */
async function mailTo(address: string, subject: RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let files: string[] = [];
    try {
      files = readdirSync(OUTBOX)
        .filter((f) => f.endsWith('.eml'))
        .sort();
    } catch {
      // not made yet
    }
    const found = files
      .map((f) =>
        readFileSync(path.join(OUTBOX, f), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      )
      .filter((m) => m.includes(`To: ${address}`) && subject.test(m));
    if (found.length) return found.at(-1)!;
    if (Date.now() > deadline) {
      const subjects = files.map(
        (f) => /^Subject: .*$/m.exec(readFileSync(path.join(OUTBOX, f), 'utf8'))?.[0],
      );
      throw new Error(
        `no e-mail to ${address} matching ${subject} in ${OUTBOX}: ${subjects.join(' | ')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
function phone(width: number, height: number): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width, height }, isMobile: true, hasTouch: true });
}
async function signIn(page: Page) {
  await page.getByLabel('Email address', { exact: true }).fill(APPROVER.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
/** Today in Nairobi plus `days`, as YYYY-MM-DD. */
const nairobiDay = (days: number) =>
  new Date(Date.now() + 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

interface Product {
  _id: string;
  productName: string;
  productQuantity: number;
  units?: { _id: string; name: string; seedlings: number; minQuantity: number }[];
}

before(async () => {
  browser = await launchChromium();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
after(async () => browser?.close());

describe('a quotation on a phone', () => {
  it('an NGO asks from its cart, the shop prices and sends it, its approver accepts it', async () => {
    const problems: string[] = [];
    // The NGO, approved by the shop, with a credit limit an admin gave it.
    await apiCall(API, 'POST', '/api/auth/register', {
      ...APPROVER,
      phoneNumber: `07${String(Date.now()).slice(-8)}`,
      password: PASSWORD,
    });
    const approver = await tokenOf(APPROVER.email, PASSWORD);
    const contact = { name: APPROVER.fullName, phone: '0712345678', email: APPROVER.email };
    const signedUp = await apiCall<{ organisation: { _id: string } }>(
      API,
      'POST',
      '/api/organisations',
      {
        name: ORG_NAME,
        kraPin: KRA_PIN,
        kind: 'ngo',
        billingContact: contact,
        deliveryContact: contact,
      },
      approver,
    );
    const orgId = signedUp.organisation._id;
    const staff = await tokenOf('staff@spc.local', 'Staff@1234');
    const admin = await tokenOf('admin@spc.local', 'Admin@1234');
    await apiCall(API, 'POST', `/api/organisations/${orgId}/approve`, {}, staff);
    await apiCall(
      API,
      'PUT',
      `/api/organisations/${orgId}/terms`,
      { paymentDays: 30, creditLimit: 5_000_000, onAccount: false },
      admin,
    );
    // A demo product sold by the tray, with stock for ten trays.
    const { products } = await apiCall<{ products: Product[] }>(
      API,
      'GET',
      '/api/products?limit=100',
    );
    const product = products.find((p) =>
      p.units?.some((u) => u.name.startsWith('Tray') && p.productQuantity >= 10 * u.seedlings),
    );
    assert.ok(product, 'the demo catalogue sells a product by the tray with stock for ten');
    const tray = product.units!.find(
      (u) => u.name.startsWith('Tray') && product.productQuantity >= 10 * u.seedlings,
    )!;

    // The approver fills a cart with ten trays and asks for a quotation from it (360 px).
    const ctx = await phone(360, 740);
    const page = await ctx.newPage();
    await page.goto(`${BASE}/authenticate/login`);
    await signIn(page);
    await page.waitForURL(/\/shop\/products/, { timeout: 15_000 });
    await page.goto(`${BASE}/single/product/${product._id}`);
    await page.getByRole('radio', { name: new RegExp(tray.name) }).check();
    const howMany = page.getByLabel(/^How many/);
    await howMany.fill('10');
    await howMany.blur();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.goto(`${BASE}/viewCart`);
    await page.getByRole('button', { name: 'Request a quote' }).click();
    const form = page.getByRole('form', { name: 'Request a quote' });
    await form
      .getByLabel('Delivery site')
      .fill('Ol Kalou Forest Station, site no. 4 (the school block)');
    await form.getByLabel('County', { exact: true }).fill('Nyandarua');
    await form.getByLabel('Street address').fill('Off the Ol Kalou–Nyahururu road');
    await form.getByLabel('Delivery date').fill(nairobiDay(30));
    await form.getByLabel('Note to the shop (optional)').fill('For the short rains planting');
    problems.push(...(await phoneProblems(page, '360 px /viewCart request a quote')));
    await shot(page, 'quotation-360-request');
    await form.getByRole('button', { name: 'Send the request' }).click();
    await page.waitForURL(/\/user\/organisation\?quotation=[0-9a-f]{24}/, { timeout: 15_000 });
    const quotationId = new URL(page.url()).searchParams.get('quotation')!;
    await page.getByText('Awaiting the shop').waitFor();
    await page.getByText(/The shop is pricing your request/).waitFor();
    problems.push(...(await phoneProblems(page, '360 px quotation requested')));
    await shot(page, 'quotation-360-requested');

    // The clerk prices it (the organisation's price list on the shop's price, a fee) and sends it.
    const asked = await apiCall<{
      quotation: { request: { lines: object[]; delivery: object } };
    }>(API, 'GET', `/api/quotations/${quotationId}`, undefined, staff);
    await apiCall(
      API,
      'PUT',
      `/api/quotations/${quotationId}/draft`,
      {
        lines: asked.quotation.request.lines,
        delivery: asked.quotation.request.delivery,
        deliveryFee: 4500,
        validUntil: nairobiDay(14),
        note: 'Delivered in one load; the trays are returnable.',
      },
      staff,
    );
    await apiCall(API, 'POST', `/api/quotations/${quotationId}/send`, {}, staff);

    // The approver follows the e-mail's link on another phone (390 px), writes and accepts.
    const mail = await mailTo(APPROVER.email, new RegExp(`[?]quotation=${quotationId}`));
    const link = mail.match(/https?:\/\/\S+?\/user\/organisation\?quotation=[0-9a-f]{24}/)?.[0];
    assert.ok(link, `the quotation e-mail carries its link: ${mail.slice(-500)}`);
    assert.ok(link.endsWith(quotationId), link);
    const ctx2 = await phone(390, 844);
    const page2 = await ctx2.newPage();
    await page2.goto(link);
    await page2.waitForURL(/\/authenticate\/login\?next=/);
    await signIn(page2);
    await page2.waitForURL(/\/user\/organisation\?quotation=/, { timeout: 15_000 });
    const version = page2.getByRole('region', { name: 'Version 1' });
    await version.waitFor();
    await version.getByText(product.productName, { exact: false }).first().waitFor();
    await page2.getByText('Awaiting your answer').waitFor();
    await page2
      .getByLabel('Your message')
      .fill('Can the driver call the site officer an hour ahead?');
    await page2.getByRole('button', { name: 'Send message' }).click();
    await page2.getByText('Can the driver call the site officer an hour ahead?').waitFor();
    problems.push(...(await phoneProblems(page2, '390 px quotation sent')));
    await shot(page2, 'quotation-390-sent');
    await page2.getByLabel('LPO number').fill(LPO);
    await page2.getByRole('button', { name: 'Accept version 1' }).click();
    const accepted = page2
      .getByRole('status')
      .filter({ hasText: `Accepted (version 1, LPO ${LPO})` });
    await accepted.waitFor({ timeout: 15_000 });
    const orderLink = accepted.getByRole('link');
    const purchaseNumber = (await orderLink.textContent())!.trim();
    assert.match(purchaseNumber, /^SP/);
    problems.push(...(await phoneProblems(page2, '390 px quotation accepted')));
    await shot(page2, 'quotation-390-accepted');

    // The order holds the trays at the agreed price, with its LPO, for the shop.
    const order = await apiCall<{ orders: { purchaseNumber: string; totalAmount: number }[] }>(
      API,
      'GET',
      `/api/orders?search=${purchaseNumber}`,
      undefined,
      staff,
    );
    assert.equal(order.orders[0]?.purchaseNumber, purchaseNumber);

    // The same quotation on a desk (1280 px).
    const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const desk = await wide.newPage();
    await desk.goto(
      `${BASE}/authenticate/login?next=${encodeURIComponent(`/user/organisation?quotation=${quotationId}`)}`,
    );
    await signIn(desk);
    await desk.waitForURL(/\/user\/organisation\?quotation=/, { timeout: 15_000 });
    await desk.getByRole('status').filter({ hasText: 'Accepted' }).waitFor();
    await shot(desk, 'quotation-1280-accepted');
    assert.deepEqual(problems, []);
  });
});
