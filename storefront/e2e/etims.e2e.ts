/**
 * KRA eTIMS on the shopper's side (issue 45): a customer pays by M-Pesa (the Daraja simulator), the
 * API's queue has the sale signed by the OSCU simulator (tools/etims) after the payment, and the
 * order page shows the control unit invoice number, the signature and its time and the QR link;
 * the receipt PDF carries the number and the QR code. Then a seven-figure order with a long product
 * name: the eTIMS block fits at 360, 390 and 1280 px (with JOURNEY_SHOTS_DIR set, pictures of it
 * there). tools/e2e/run-journeys.ts starts both simulators and points the API at them.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { pdfText } from '../../tools/e2e/pdf-text';
import { PHONES, phoneProblems } from '../../tools/e2e/phone-check';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const MPESA = process.env.MPESA_SIMULATOR_URL ?? 'http://127.0.0.1:4010';
const ETIMS = process.env.ETIMS_SIMULATOR_URL ?? 'http://127.0.0.1:4030';
const SHOTS = process.env.JOURNEY_SHOTS_DIR;
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };
const RUN = Date.now().toString(36);
const PASSWORD = 'Seedling@1';

interface SignedInvoice {
  trdInvcNo: string;
  signature: { rcptNo: number; rcptSign: string; sdcId: string };
}

let browser: Browser;
let adminToken = '';
let staffToken = '';
before(async () => {
  browser = await launchChromium();
  [adminToken, staffToken] = await Promise.all([signIn(ADMIN), signIn(STAFF)]);
});
after(async () => browser?.close());

async function signIn(who: { email: string; password: string }): Promise<string> {
  const login = await apiCall<{ data: { accessToken: string } }>(
    API,
    'POST',
    '/api/auth/login',
    who,
  );
  return login.data.accessToken;
}

/** A product in stock with its own tax type (B, 16 %) and KRA item classification, as the back office makes it. */
async function createProduct(productName: string, price: number, quantity = 50): Promise<string> {
  const { categories } = await apiCall<{ categories: { _id: string }[] }>(
    API,
    'GET',
    '/api/categories?limit=1',
  );
  const form = new FormData();
  const fields: Record<string, string> = {
    productName,
    productDescription: 'Grafted, hardened off',
    price: String(price),
    productQuantity: String(quantity),
    category: categories[0]!._id,
    onOffer: 'false',
    taxType: 'B',
    itemClassCode: '1015150000',
  };
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const res = await fetch(`${API}/api/products`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}` },
    body: form,
  });
  const body = (await res.json()) as { product: { _id: string } };
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.product._id;
}

/** A new customer, signed in on a fresh phone-sized page. */
async function signedInCustomer(
  phone: string,
): Promise<{ context: BrowserContext; page: Page; email: string }> {
  const email = `etims${RUN}${phone.slice(-4)}@example.co.ke`;
  await apiCall(API, 'POST', '/api/auth/register', {
    fullName: 'Wanjiru Etims',
    email,
    phoneNumber: phone,
    password: PASSWORD,
  });
  const context = await browser.newContext({
    viewport: PHONES[1],
    isMobile: true,
    hasTouch: true,
    acceptDownloads: true,
    serviceWorkers: 'block',
  });
  await context.route(/wa\.me|openstreetmap\.org/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<p>stub</p>' }),
  );
  const page = await context.newPage();
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/shop\/products/, { timeout: 15_000 });
  return { context, page, email };
}

/** Puts one of the product in the cart and places the order to Ruiru; answers its purchase number. */
async function placeOrder(page: Page, productId: string, payByMpesa: boolean): Promise<string> {
  await page.goto(`${BASE}/single/product/${productId}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByRole('button', { name: /^Cart, 1 items/ }).waitFor();
  await page.goto(`${BASE}/checkout`);
  if (payByMpesa) await page.getByLabel('Pay with M-Pesa', { exact: true }).check();
  await page.getByLabel('County', { exact: true }).selectOption('Kiambu');
  await page.getByLabel('Sub-county', { exact: true }).selectOption('Ruiru');
  const ward = page.getByLabel('Ward', { exact: true });
  await ward.selectOption((await ward.locator('option').allTextContents())[1]!);
  await page
    .getByLabel('Street address (nearest town, include sub-county)', { exact: true })
    .fill('Kamakis, near the stage');
  await page.getByRole('button', { name: 'PLACE ORDER' }).click();
  const number = (await page.getByTestId('purchase-number').textContent())!;
  assert.match(number, /^SPD[A-Z2-9]{8}$/);
  return number;
}

/** The sale the OSCU simulator signed for this purchase number, once it has (the queue sends it after the payment). */
async function signedSale(purchaseNumber: string): Promise<SignedInvoice> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { invoices } = (await (await fetch(`${ETIMS}/__simulator/invoices`)).json()) as {
      invoices: SignedInvoice[];
    };
    const sale = invoices.find((i) => i.trdInvcNo === purchaseNumber);
    if (sale) return sale;
    assert.ok(Date.now() < deadline, `${purchaseNumber} was not signed within 30 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The customer's order page, from My Orders, showing its signed eTIMS document (reloaded while it
 * still says "eTIMS pending": the API saves the signature just after the simulator gave it).
 */
async function openSignedOrder(page: Page, purchaseNumber: string, cuInvoiceNo: string) {
  await page.goto(`${BASE}/user/my-orders`);
  await page.getByText(purchaseNumber).first().click();
  const block = page.locator('section[aria-labelledby="order-etims-title"]');
  const signed = block.getByRole('link', { name: `eTIMS: ${cuInvoiceNo}` });
  for (let tries = 0; ; tries++) {
    await page.getByRole('heading', { name: 'Tax invoice (KRA eTIMS)' }).waitFor();
    if (await signed.isVisible()) return;
    assert.ok(tries < 20, `not signed on the page: ${await block.textContent()}`);
    await page.waitForTimeout(1000);
    await page.reload();
  }
}

describe('KRA eTIMS on the shopper’s order', () => {
  it("a shopper's receipt PDF carries the control unit number and the QR", async () => {
    const productId = await createProduct(`Avocado Hass grafted ${RUN}`, 1_250);
    const phone = `07${String(Date.now()).slice(-8)}`;
    const { context, page } = await signedInCustomer(phone);
    const number = await placeOrder(page, productId, true);

    await fetch(`${MPESA}/__simulator/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        phoneNumber: `254${phone.slice(1)}`,
        scenario: { result: 'success', delayMs: 500 },
      }),
    });
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await page.getByTestId('payment-status').waitFor({ timeout: 20_000 });
    assert.equal(
      await page.getByTestId('payment-status').textContent(),
      'Payment received. Thank you!',
    );

    // Signed after the payment, by the queue; the order page shows what KRA's control unit gave.
    const { signature } = await signedSale(number);
    const cuInvoiceNo = `${signature.sdcId}/${signature.rcptNo}`;
    const qrUrl = `${ETIMS}/common/link/etims/receipt/indexEtimsReceiptData?Data=P000000000Z00${signature.rcptSign}`;
    await openSignedOrder(page, number, cuInvoiceNo);
    const block = page.getByTestId('etims-document');
    assert.equal(
      await block.getByRole('link', { name: `eTIMS: ${cuInvoiceNo}` }).getAttribute('href'),
      qrUrl,
    );
    await block.getByText(`Signature ${signature.rcptSign}`).waitFor();
    await block.getByText(/^Signed \d/).waitFor();
    await block.getByText('B · Standard rate 16 %', { exact: false }).first().waitFor();

    // The receipt PDF: the number, the signature, and the QR code linking KRA's check page.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download receipt (PDF)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `receipt-${number}.pdf`);
    const pdf = readFileSync(await download.path());
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    const text = await pdfText(pdf);
    assert.ok(text.includes(`CU invoice number: ${cuInvoiceNo}`), text);
    assert.ok(text.includes(`Signature: ${signature.rcptSign}`), text);
    assert.ok(!text.includes('eTIMS pending'), text);
    assert.ok(pdf.toString('latin1').includes(`/URI (${qrUrl})`), 'the QR code links KRA');
    await context.close();
  });

  it('a seven-figure order with a long name: the eTIMS block fits at 360, 390 and 1280 px', async () => {
    const name = `Grafted Macadamia Murang'a 20 Kiambu Cooperative ${RUN}`.slice(0, 60);
    // A few only: journeys that pick any product in stock (more than 5) leave it alone.
    const productId = await createProduct(name, 1_234_567, 3);
    const phone = `07${String(Date.now() + 7).slice(-8)}`;
    const { context, page } = await signedInCustomer(phone);
    const number = await placeOrder(page, productId, false);
    // Paid at the desk in cash (past M-Pesa's limit), as a clerk records it.
    const { orders } = await apiCall<{ orders: { _id: string; totalAmount: number }[] }>(
      API,
      'GET',
      `/api/orders?search=${number}`,
      undefined,
      staffToken,
    );
    await apiCall(
      API,
      'PATCH',
      `/api/orders/complete-payment/${orders[0]!._id}`,
      { paymentMethod: 'Cash', paymentDetails: { amount: orders[0]!.totalAmount } },
      staffToken,
    );
    const { signature } = await signedSale(number);
    await openSignedOrder(page, number, `${signature.sdcId}/${signature.rcptNo}`);
    await page.getByText('KES 1,234,567', { exact: false }).first().waitFor();

    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    for (const viewport of [...PHONES, { width: 1280, height: 900 }]) {
      await page.setViewportSize(viewport);
      if (viewport.width < 1280)
        assert.deepEqual(await phoneProblems(page, `the order page at ${viewport.width} px`), []);
      if (SHOTS) {
        const file = path.join(SHOTS, `storefront-order-etims-${viewport.width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        await page
          .locator('section[aria-labelledby="order-etims-title"]')
          .screenshot({ path: file.replace('.png', '-block.png') });
      }
    }
    await context.close();
  });
});
