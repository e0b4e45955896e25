/**
 * Sale units on a phone (issue 29): a farmer buys 12 trays of 50 at the 10+ price and sees the tier
 * in the cart, at checkout and on the receipt (My Orders), each page passing the phone checks (no
 * wider than the screen, no serious axe finding). The product page's price follows the chosen unit,
 * a tray on offer with its regular price struck through, at 360, 390 and 1280 px with a long name and
 * a seven-figure price (pictures in .data/shots). The products are made through the API as the back
 * office would. Run by tools/e2e/run-journeys.ts with the others.
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
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const RUN = Date.now().toString(36);
const SHOTS = path.join(import.meta.dirname, '..', '..', '.data', 'shots');

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

/** A product in stock made as the back office makes it: `units` as its form sends them. */
async function createProduct(
  productName: string,
  price: number,
  productQuantity: number,
  units: object[],
): Promise<string> {
  const login = await apiCall<{ data?: { accessToken: string }; accessToken?: string }>(
    API,
    'POST',
    '/api/auth/login',
    ADMIN,
  );
  const token = login.data?.accessToken ?? login.accessToken!;
  const { categories } = await apiCall<{ categories: { _id: string }[] }>(
    API,
    'GET',
    '/api/categories?limit=1',
  );
  const form = new FormData();
  const fields: Record<string, string> = {
    productName,
    productDescription: 'Hardened off, sold by the tray',
    price: String(price),
    productQuantity: String(productQuantity),
    category: categories[0]!._id,
    onOffer: 'false',
    units: JSON.stringify(units),
  };
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const res = await fetch(`${API}/api/products`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { product: { _id: string } };
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.product._id;
}

/**
 * A product sold singly (KES 15) and by the tray of 50 (KES 600, on offer at KES 570; 10+ trays KES
 * 540 each, lower than the offer).
 */
function trayProduct(): Promise<string> {
  return createProduct(`Cabbage Gloria F1 ${RUN}`, 15, 2000, [
    { name: 'Single seedling', seedlings: 1 },
    {
      name: 'Tray of 50',
      seedlings: 50,
      price: 600,
      offerPrice: 570,
      tiers: [{ minQuantity: 10, price: 540 }],
    },
  ]);
}

/** The price under the product's name, as a screen reader reads it (the hidden words included). */
async function priceHeading(page: Page): Promise<string> {
  const text = await page.locator('.detail-body > .price').textContent();
  return text!.replace(/\s+/g, ' ').trim();
}

async function checkPhone(page: Page, what: string) {
  assert.deepEqual(await phoneProblems(page, what), []);
}

describe('sale units on a phone', () => {
  it('a farmer buys 12 trays at the 10+ price and sees the tier in the cart, checkout and receipt', async () => {
    const productId = await trayProduct();
    const email = `farmer${RUN}@example.co.ke`;
    await apiCall(API, 'POST', '/api/auth/register', {
      fullName: 'Kiptoo Farmer',
      email,
      phoneNumber: '0722000444',
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

    // The product page: the single seedling's price until the tray is chosen, then the tray's offer
    // with its regular price struck through; its tier shown, 12 of them at the 10+ price.
    await page.goto(`${BASE}/single/product/${productId}`);
    await page.getByRole('radio', { name: /Tray of 50/ }).waitFor();
    assert.equal(await priceHeading(page), 'KES 15 · Single seedling');
    await page.getByRole('radio', { name: /Tray of 50/ }).check();
    await page.locator('.detail-body > .price s').getByText('KES 600', { exact: true }).waitFor();
    assert.equal(
      await priceHeading(page),
      'Offer price KES 570, regular price KES 600 · Tray of 50',
    );
    await page.getByText('10+ trays: KES 540 each').waitFor();
    await page.getByText('40 trays left').waitFor();
    await checkPhone(page, 'the product page');
    const howMany = page.getByLabel('How many trays', { exact: true });
    await howMany.fill('12');
    await howMany.blur();
    await page.getByText('(10+ price)').waitFor();
    await page.getByRole('button', { name: 'Add to Cart' }).click();

    // The cart names the unit and the tier.
    await page.goto(`${BASE}/viewCart`);
    const line = page.locator('.cart-line').filter({ hasText: `Cabbage Gloria F1 ${RUN}` });
    await line.getByText('Tray of 50 · KES 540 each').waitFor();
    await line.getByText('(10+ price)').waitFor();
    assert.match((await line.locator('.line-price').textContent())!, /6,480/);
    await checkPhone(page, 'the cart');

    // Checkout shows it too; the server prices the order the same.
    await page.goto(`${BASE}/checkout`);
    const summary = page.locator('.cart-line').filter({ hasText: `Cabbage Gloria F1 ${RUN}` });
    await summary.getByText('(10+ price)').waitFor();
    await checkPhone(page, 'the checkout');
    await page.getByLabel('County', { exact: true }).selectOption('Kiambu');
    await page.getByLabel('Sub-county', { exact: true }).selectOption('Ruiru');
    const ward = page.getByLabel('Ward', { exact: true });
    await ward.selectOption((await ward.locator('option').allTextContents())[1]!);
    await page
      .getByLabel('Street address (nearest town, include sub-county)', { exact: true })
      .fill('Eldoret road, near the depot');
    await page.getByRole('button', { name: 'PLACE ORDER' }).click();
    const number = (await page.getByTestId('purchase-number').textContent())!;
    assert.match(number, /^SPD[A-Z2-9]{8}$/);

    // The receipt in My Orders names the unit and the tier applied.
    await page.goto(`${BASE}/user/my-orders`);
    await page.getByText(number).first().click();
    await page.getByText(`Cabbage Gloria F1 ${RUN} (Tray of 50) · 10+ price`).waitFor();
    await page.getByText('12 × KES 540').waitFor();
    await checkPhone(page, 'the receipt');
    await context.close();
  });
});

describe('the product page follows the chosen unit', () => {
  let productId = '';
  const name = `Journey Grafted Macadamia Murang'a 20 Kiambu Cooperative ${RUN}`.slice(0, 60);
  before(async () => {
    // KES 15,000 a seedling; a tray of 104 at KES 1,500,000, on offer at KES 1,250,000.
    productId = await createProduct(name, 15_000, 1040, [
      { name: 'Single seedling', seedlings: 1 },
      { name: 'Tray of 104', seedlings: 104, price: 1_500_000, offerPrice: 1_250_000 },
    ]);
  });

  for (const width of [360, 390, 1280]) {
    it(`a tray on offer shows its price and its regular price struck through at ${width} px`, async () => {
      const phone = width < 768;
      const context = await browser.newContext({
        viewport: { width, height: phone ? 800 : 900 },
        isMobile: phone,
        hasTouch: phone,
        serviceWorkers: 'block',
      });
      const page = await context.newPage();
      await page.goto(`${BASE}/single/product/${productId}`);
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      assert.equal(await priceHeading(page), 'KES 15,000 · Single seedling');
      assert.equal(await page.getByText('offer', { exact: true }).count(), 0);

      await page.getByRole('radio', { name: /Tray of 104/ }).check();
      const struck = page.locator('.detail-body > .price s');
      await struck.getByText('KES 1,500,000', { exact: true }).waitFor();
      assert.equal(
        await priceHeading(page),
        'Offer price KES 1,250,000, regular price KES 1,500,000 · Tray of 104',
      );
      await page.getByText('offer', { exact: true }).waitFor();
      await page.getByText('KES 1,250,000 each').waitFor();
      await checkPhone(page, `the product page at ${width} px, the tray chosen`);
      mkdirSync(SHOTS, { recursive: true });
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: path.join(SHOTS, `unit-price-${width}.png`), fullPage: true });
      await context.close();
    });
  }
});
