/**
 * The gate till (issue 46) in the back office, in headless Debian chromium through playwright-core,
 * run by tools/e2e/run-journeys.ts backoffice with the other journeys, on a tablet held upright
 * (800 × 1280): a clerk opens the till with a float, sells 3 trays and 20 singles of a product of
 * the journey's own for cash with change, prints the receipt (its page, 58 mm, nothing else printed),
 * and closes the day with the cash counted; the stock and the session say the same through the API.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };
const RUN = `T${Date.now().toString(36).toUpperCase()}`;
const TABLET = { width: 800, height: 1280 };

let browser: Browser;
let adminToken = '';
let staffToken = '';

const login = async (who: { email: string; password: string }) =>
  (await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', who)).data
    .accessToken;

before(async () => {
  browser = await launchChromium();
  adminToken = await login(ADMIN);
  staffToken = await login(STAFF);
});
/** The journey's own product, deleted at the end: its singles' minimum and step (10) would refuse the
 * later journeys that order "a product in stock" a few singles at a time. */
let ownProduct = '';
after(async () => {
  if (ownProduct)
    await apiCall(API, 'DELETE', `/api/products/delete/${ownProduct}`, undefined, adminToken);
  await browser?.close();
});

interface Session {
  _id: string;
  state: 'open' | 'closed';
  countedCash: number | null;
  sales: number;
  total: number;
}

/** The clerk starts with no session open (a run stopped half-way leaves one): it is closed first. */
async function closeOpenSession(): Promise<void> {
  const { session } = await apiCall<{ session: Session | null }>(
    API,
    'GET',
    '/api/till/sessions/current',
    undefined,
    staffToken,
  );
  if (session)
    await apiCall(
      API,
      'POST',
      `/api/till/sessions/${session._id}/close`,
      { countedCash: 0 },
      staffToken,
    );
}

/**
 * A product of the journey's own, 1,000 seedlings in stock: singles at KES 30 from 10 in steps of
 * 10, and trays of 50 at KES 1,500.
 */
async function createProduct(name: string): Promise<string> {
  const { categories } = await apiCall<{ categories: { _id: string }[] }>(
    API,
    'GET',
    '/api/categories?limit=1',
  );
  const form = new FormData();
  for (const [field, value] of Object.entries({
    productName: name,
    productDescription: 'Hardened off, sold at the gate',
    price: '30',
    productQuantity: '1000',
    category: categories[0]!._id,
    onOffer: 'false',
    units: JSON.stringify([
      { name: 'Single seedling', seedlings: 1, price: 30, minQuantity: 10, step: 10 },
      { name: 'Tray of 50', seedlings: 50, price: 1500 },
    ]),
  }))
    form.set(field, value);
  const res = await fetch(`${API}/api/products`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}` },
    body: form,
  });
  const body = (await res.json()) as { product: { _id: string } };
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.product._id;
}

/** The product's stock once it reads `expected` (the catalogue follows a sale within moments). */
async function waitForStock(productId: string, expected: number): Promise<void> {
  let stock = NaN;
  for (let tries = 0; tries < 20 && stock !== expected; tries += 1) {
    if (tries) await new Promise((r) => setTimeout(r, 500));
    const { product } = await apiCall<{ product: { productQuantity: number } }>(
      API,
      'GET',
      `/api/products/${productId}`,
    );
    stock = product.productQuantity;
  }
  assert.equal(stock, expected);
}

async function signIn(): Promise<Page> {
  const context = await browser.newContext({ viewport: TABLET, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(STAFF.email);
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/staff/orders');
  return page;
}

describe('till journey', () => {
  it('a clerk opens the till, sells 3 trays and 20 singles for cash with change, prints the receipt and closes the day', async () => {
    const name = `Journey Kale ${RUN}`;
    const productId = await createProduct(name);
    ownProduct = productId;
    await closeOpenSession();
    const page = await signIn();

    // The till, from the sidebar: no session open, so the float opens one.
    await page.goto(`${BASE}/till`);
    await page.getByRole('heading', { name: 'Open the till' }).waitFor();
    await page.getByLabel('Float (cash in the drawer)').fill('2000');
    await page.getByRole('button', { name: 'Open till' }).click();
    await page.getByRole('tab', { name: 'Sell' }).waitFor();
    await page.getByText(/float KES 2,000/).waitFor();

    // 3 trays and 20 singles (the singles go from 10 in steps of 10).
    await page.getByLabel('Find a product').fill(name);
    const trays = page.getByRole('button', { name: `Add Tray of 50 of ${name}` });
    await trays.waitFor({ timeout: 15_000 });
    for (let i = 0; i < 3; i += 1) await trays.click();
    await page.getByRole('button', { name: `Add Single seedling of ${name}` }).click();
    const singles = page.getByRole('textbox', { name: `Quantity of Single seedling of ${name}` });
    assert.equal(await singles.inputValue(), '10');
    await page.getByRole('button', { name: `More Single seedling of ${name}` }).click();
    assert.equal(await singles.inputValue(), '20');
    assert.equal(
      await page.getByRole('textbox', { name: `Quantity of Tray of 50 of ${name}` }).inputValue(),
      '3',
    );
    await page.getByTestId('basket-total').getByText('KES 5,100').waitFor();

    // Cash: "Charge" waits until the cash given covers the sale; the change is shown.
    const charge = page.getByRole('button', { name: 'Charge KES 5,100' });
    assert.equal(await charge.isDisabled(), true);
    await page.getByText('The cash given is less than the cash due (KES 5,100)').waitFor();
    await page.getByLabel('Cash given').fill('6000');
    await page.getByTestId('change').getByText('Change KES 900').waitFor();
    await charge.click();
    const done = page.getByLabel('Sale done');
    await done.waitFor({ timeout: 20_000 });
    await done.getByTestId('sale-change').getByText('KES 900').waitFor();
    const heading = await done.getByRole('heading', { name: /^Sale / }).textContent();
    const purchaseNumber = heading!.replace(/^Sale /, '').trim();

    // The stock went once: 150 seedlings in trays and 20 singles.
    await waitForStock(productId, 1000 - 150 - 20);

    // The receipt: its own page, 58 mm, only the receipt printed.
    await done.getByRole('link', { name: 'Print receipt' }).click();
    await page.waitForURL(/\/till\/receipt\/[0-9a-f]{24}$/);
    const receipt = page.getByRole('article', { name: 'Receipt' });
    await receipt.getByText(`Receipt ${purchaseNumber}`).waitFor();
    await receipt.getByText(`${name}, Tray of 50`).waitFor();
    await receipt.getByText(`${name}, Single seedling`).waitFor();
    await receipt.getByText('Cash (given KES 6,000)').waitFor();
    await receipt.getByText(/eTIMS pending|KRA eTIMS/).waitFor();
    await page.getByText('58 mm').click();
    assert.equal(await receipt.getAttribute('data-roll'), '58');
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.getByRole('button', { name: 'Print' }).isVisible(), false);
    assert.equal(await receipt.isVisible(), true);
    await page.emulateMedia({ media: 'screen' });

    // Close the day: expected cash is the float and the sale (change given back), counted even.
    await page.getByRole('link', { name: 'Back to the till' }).click();
    await page.getByRole('link', { name: 'Close the day' }).click();
    await page.waitForURL(/\/till\/sessions\/[0-9a-f]{24}$/);
    const sessionId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: 'Cash-up' }).waitFor();
    const methods = page.getByRole('table', { name: 'Expected and counted' });
    await methods.getByRole('row', { name: /^Cash KES 7,100/ }).waitFor();
    await page.getByLabel('Cash counted').fill('7100');
    await page.getByTestId('close-difference').getByText('Difference: KES 0 (even)').waitFor();
    await page.getByRole('button', { name: 'Close the till' }).click();
    await page.getByText('Closed', { exact: true }).waitFor({ timeout: 15_000 });

    const { cashUp } = await apiCall<{ cashUp: { session: Session } }>(
      API,
      'GET',
      `/api/till/sessions/${sessionId}`,
      undefined,
      staffToken,
    );
    assert.equal(cashUp.session.state, 'closed');
    assert.equal(cashUp.session.countedCash, 7100);
    assert.equal(cashUp.session.sales, 1);
    assert.equal(cashUp.session.total, 5100);

    // The till is ready for tomorrow's float.
    await page.goto(`${BASE}/till`);
    await page.getByRole('button', { name: 'Open till' }).waitFor();
    await page.context().close();
  });
});
