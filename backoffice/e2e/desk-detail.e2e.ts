/**
 * The dispatch desk's order detail (issue 16): a clerk opens an order from the orders list, sees the
 * customer's phone as a tel: link, records an M-Pesa payment there, and prints the receipt, whose
 * PDF the API answers. Run by tools/e2e/run-journeys.ts with the other back-office journeys.
 * With SHOTS_DIR set, it also saves screenshots of the order detail and the receipt page at 1280
 * and 390 px wide.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };
const RUN = Date.now().toString(36).toUpperCase();
const SHOTS = process.env.SHOTS_DIR;

let browser: Browser;

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${API}${url}`, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as T;
}

/** A guest order of two products in stock, with a full Kiambu address of its own. */
async function placeOrder() {
  const { products } = await call<{
    products: { _id: string; productName: string; productQuantity: number }[];
  }>('GET', '/api/products?limit=50');
  const inStock = products.filter(
    (p) => p.productQuantity > 5 && !p.productName.startsWith('Journey'),
  );
  const lines = inStock.slice(0, 2);
  const placed = await call<{
    order: { _id: string; purchaseNumber: string; totalAmount: number };
  }>('POST', '/api/orders', {
    guestInfo: {
      fullName: `Desk Customer ${RUN}`,
      phoneNumber: '0722 333 444',
      email: `desk.${RUN.toLowerCase()}@example.co.ke`,
      county: 'Kiambu',
      subCounty: 'Ruiru',
      ward: 'Gitothua',
      streetAddress: 'Kamakis, blue gate',
    },
    products: lines.map((p, i) => ({ _id: p._id, quantity: i + 2 })),
  });
  return { ...placed.order, lines };
}

async function signIn(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
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

before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

describe('dispatch desk: order detail and receipt', () => {
  it('a clerk opens an order from the list, calls the customer, records an M-Pesa payment and prints the receipt', async () => {
    const order = await placeOrder();
    const page = await signIn(1280);

    await page.getByLabel('Search orders').fill(order.purchaseNumber);
    // The search applies 300 ms after the typing stops (it goes into the address): the clerk
    // clicks the row it leaves. A click before then raced the search's own navigation in CI.
    await page.waitForURL(/[?&]search=/);
    await page.getByRole('link', { name: order.purchaseNumber }).click();
    await page.waitForURL(`**/staff/orders/${order._id}`);
    await page.getByRole('heading', { name: `Order ${order.purchaseNumber}` }).waitFor();

    // The phone is a link the clerk's phone or softphone dials.
    const phone = page.getByRole('link', { name: '0722 333 444' });
    assert.equal(await phone.getAttribute('href'), 'tel:0722333444');
    for (const text of ['Gitothua', 'Ruiru', 'Kamakis, blue gate', order.lines[0]!.productName])
      await page.getByText(text, { exact: true }).first().waitFor();
    // Refused actions say why: an unpaid order cannot be fulfilled yet.
    await page
      .getByTestId('reason-fulfil')
      .getByText(/only orders in transit or delivered can be fulfilled/)
      .waitFor();
    await shot(page, 'order-detail-1280');

    await page.getByRole('button', { name: 'Complete Payment' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Payment Method').selectOption('Mpesa');
    const code = `SK${RUN}`.slice(0, 10);
    await dialog.getByLabel('Transaction Code').fill(code);
    const paid = new Date(Date.now() - 60_000);
    const local = new Date(paid.getTime() - paid.getTimezoneOffset() * 60_000);
    await dialog.getByLabel('Time Paid').fill(local.toISOString().slice(0, 16));
    await dialog.getByRole('button', { name: 'Complete Payment' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });

    // The payment card and the timeline show who recorded what.
    await page.getByText(code, { exact: true }).waitFor({ timeout: 10_000 });
    await page.getByText('Payment recorded', { exact: true }).waitFor();
    // The Money section has it as one ledger entry: how, the code, the clerk, the amount.
    const money = page.getByRole('region', { name: 'Money' });
    const entry = money.getByTestId('money-entry');
    await entry.getByText(`M-Pesa at the desk · ${code}`).waitFor();
    const total = `KSH ${order.totalAmount.toLocaleString('en-US')}`;
    assert.equal(await entry.count(), 1);
    assert.match(await entry.innerText(), /by .+ \(staff\)/);
    assert.ok((await entry.innerText()).includes(total));
    assert.ok((await money.innerText()).replace(/\s+/g, ' ').includes(`Received ${total}`));
    assert.ok(
      await page
        .getByTestId('reason-completePayment')
        .getByText('This order is already paid')
        .isVisible(),
    );

    await page.getByRole('link', { name: 'Print receipt' }).click();
    await page.waitForURL(`**/staff/orders/${order._id}/receipt`);
    const receipt = page.getByRole('article', { name: 'Receipt' });
    await receipt.waitFor();
    const text = await receipt.innerText();
    for (const words of [
      'Seedling Propagation Centre',
      order.purchaseNumber,
      order.lines[0]!.productName,
      order.lines[1]!.productName,
      'PAID',
      code,
      `KES ${order.totalAmount.toLocaleString('en-US')}`,
    ])
      assert.ok(text.includes(words), `the receipt shows ${words}`);
    await shot(page, 'receipt-a4-1280');

    // The thermal choice narrows the document; printing shows the document only.
    await page.getByText('80 mm thermal').click();
    assert.match((await receipt.getAttribute('class')) ?? '', /thermal/);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.getByRole('button', { name: 'Print' }).isVisible(), false);
    await receipt.waitFor();
    await page.emulateMedia({ media: 'screen' });

    // The PDF the page downloads is what the API answers for this order.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download receipt (PDF)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `receipt-${order.purchaseNumber}.pdf`);
    const file = readFileSync((await download.path())!);
    assert.equal(file.subarray(0, 5).toString(), '%PDF-');

    if (SHOTS) {
      await page.setViewportSize({ width: 390, height: 900 });
      await shot(page, 'receipt-thermal-390');
      await page.getByRole('link', { name: 'Back to the order' }).click();
      await page.getByText(code, { exact: true }).waitFor();
      await shot(page, 'order-detail-paid-390');
      await page.setViewportSize({ width: 1280, height: 900 });
      await shot(page, 'order-detail-paid-1280');
    }
    await page.context().close();
  });

  it('the order detail and the receipt page fit a phone (390 px)', async () => {
    const order = await placeOrder();
    const page = await signIn(390);
    await page.goto(`${BASE}/staff/orders/${order._id}`);
    await page.getByRole('heading', { name: `Order ${order.purchaseNumber}` }).waitFor();
    // Nothing received yet: the Money section says so.
    await page
      .getByRole('region', { name: 'Money' })
      .getByText('No payment received yet')
      .waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 1, `no sideways scrolling at 390 px (${overflow} px too wide)`);
    await shot(page, 'order-detail-390');

    // An unpaid order's receipt page says why there is none, and the delivery note prints.
    await page.goto(`${BASE}/staff/orders/${order._id}/receipt`);
    await page
      .getByRole('alert')
      .getByText(/not paid yet/)
      .waitFor();
    await page.goto(`${BASE}/staff/orders/${order._id}/delivery-note`);
    const note = page.getByRole('article', { name: 'Delivery note' });
    await note.waitFor();
    assert.ok((await note.innerText()).includes('0722 333 444'));
    await shot(page, 'delivery-note-390');
    await page.context().close();
  });
});
