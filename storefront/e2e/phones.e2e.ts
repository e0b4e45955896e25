/**
 * Every public and signed-in page of the storefront on a 360 × 640 and a 390 × 844 phone (issue 28),
 * with a catalogue that looks real: 60-character names, prices up to KES 250,000, offer badges, an
 * out-of-stock card and a customer with a long e-mail. No page may be wider than the screen and none
 * may have a serious or critical axe-core finding. Also: the quantity boxes refuse a typed 0 in the
 * shipped build. PHONE_SCREENSHOTS=<dir> keeps a picture of each page.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { PHONES, phoneProblems } from '../../tools/e2e/phone-check';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const SHOTS = process.env.PHONE_SCREENSHOTS;
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const RUN = Date.now().toString(36).toUpperCase();
const PASSWORD = 'Seedling@1';

let browser: Browser;
let categoryId = '';
let productIds: string[] = [];
const email = `wanjiku.wairimu.kamau.${RUN.toLowerCase()}@kiambu-farmers-cooperative.example.co.ke`;

/**
 * Names of exactly 60 characters, the longest a shop clerk is likely to type; 'Journey' first, so
 * the other journeys, which pick a product of the demo data, leave these alone.
 */
const sixty = (s: string) => s.padEnd(60, ' seedling').slice(0, 60).trim();
const CATALOGUE = [
  {
    name: sixty(`Journey Grafted Hass Avocado Premium Export ${RUN}`),
    price: 250_000,
    offer: 199_999,
  },
  { name: sixty(`Journey Macadamia Nut Kiambu Cooperative ${RUN}`), price: 187_500 },
  {
    name: sixty(`Journey Tissue Culture Banana Williams Giant ${RUN}`),
    price: 98_750,
    offer: 87_500,
  },
  {
    name: sixty(`Journey Apple Mango Grafted Two Year Old ${RUN}`),
    price: 45_000,
    out: true,
  },
  { name: sixty(`Journey Purple Passion Fruit Hybrid Resistant ${RUN}`), price: 120 },
  {
    name: `Journey Supercalifragilisticexpialidociousseedlingvariety${RUN}`.slice(0, 60),
    price: 7_500,
  },
];

before(async () => {
  browser = await launchChromium();
  const token = (
    await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', ADMIN)
  ).data.accessToken;
  const category = await apiCall<{ category: { _id: string } }>(
    API,
    'POST',
    '/api/categories',
    { name: `Phone check ${RUN}`, description: 'Long names and big prices, as a phone shows them' },
    token,
  );
  categoryId = category.category._id;
  productIds = [];
  for (const p of CATALOGUE) {
    const form = new FormData();
    form.set('productName', p.name);
    form.set('productDescription', `${p.name}: hardened off, ready to plant, from the nursery.`);
    form.set('price', String(p.price));
    form.set('productQuantity', '40');
    form.set('category', categoryId);
    const res = await fetch(`${API}/api/products`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await res.json()) as { product: { _id: string } };
    assert.ok(res.ok, `create ${p.name}: ${res.status} ${JSON.stringify(body)}`);
    const id = body.product._id;
    productIds.push(id);
    if (p.offer)
      await apiCall(
        API,
        'PATCH',
        `/api/products/apply-offer/${id}`,
        { offerPrice: p.offer },
        token,
      );
    if (p.out) await apiCall(API, 'PATCH', `/api/products/check-stock/${id}`, undefined, token);
  }
  await apiCall(API, 'POST', '/api/auth/register', {
    fullName: 'Wanjiku Wairimu Kamau-Njoroge',
    email,
    phoneNumber: '0722000444',
    password: PASSWORD,
  });
});
after(async () => browser?.close());

async function phonePage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    serviceWorkers: 'block',
  });
  await context.route(/wa\.me|openstreetmap\.org/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<p>stub</p>' }),
  );
  return context.newPage();
}

/** Opens the page, waits for it to settle, and returns what it fails (keeping a picture). */
async function check(page: Page, url: string, ready?: (page: Page) => Promise<unknown>) {
  await page.goto(`${BASE}${url}`);
  await page.waitForLoadState('networkidle');
  if (ready) await ready(page);
  const { width } = page.viewportSize()!;
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    const name = `${width}${url.replace(/[^a-z0-9]+/gi, '_')}.png`.slice(0, 120);
    await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
  }
  return phoneProblems(page, `${width} px ${url}`);
}

async function signIn(page: Page) {
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/shop\/products/, { timeout: 10_000 });
}

/** The long-named products in the cart: the first, the one on offer, and the longest word. */
async function fillCart(page: Page) {
  await page.goto(`${BASE}/shop/products?category=${categoryId}`);
  for (const name of [CATALOGUE[0]!.name, CATALOGUE[2]!.name, CATALOGUE[5]!.name]) {
    const card = page.locator('.card').filter({ hasText: name });
    await card.getByRole('button', { name: 'Add to Cart' }).click();
  }
  await page.getByRole('button', { name: /^Cart, 3 items/ }).waitFor();
}

let orderId = '';

describe('storefront on 360 and 390 px phones, a catalogue that looks real', () => {
  for (const viewport of PHONES) {
    it(`every page fits a ${viewport.width} px screen and passes axe-core`, async () => {
      const page = await phonePage(viewport);
      const problems: string[] = [];
      const cards = (p: Page) => p.locator('.product-grid .card').first().waitFor();
      problems.push(...(await check(page, '/')));
      problems.push(...(await check(page, `/shop/products?category=${categoryId}`, cards)));
      problems.push(...(await check(page, '/shop/products', cards)));
      for (const i of [0, 3])
        problems.push(
          ...(await check(page, `/single/product/${productIds[i]}`, (p) =>
            p.getByRole('heading', { level: 1 }).waitFor(),
          )),
        );
      problems.push(...(await check(page, '/viewCart')));
      problems.push(...(await check(page, '/track-orders')));
      problems.push(...(await check(page, '/contactUs')));
      problems.push(...(await check(page, '/aboutUs')));
      problems.push(
        ...(await check(page, '/privacy', (p) =>
          p.getByRole('heading', { name: 'Your rights' }).waitFor(),
        )),
      );
      problems.push(...(await check(page, '/no-such-page')));
      for (const url of [
        '/authenticate/login',
        '/authenticate/register',
        '/authenticate/forgotPassword',
        '/authenticate/resetPassword/not-a-real-code',
      ])
        problems.push(...(await check(page, url)));

      // Signed in, with three long-named lines in the cart and an order of them placed.
      await signIn(page);
      await fillCart(page);
      problems.push(
        ...(await check(page, '/viewCart', (p) => p.locator('.cart-line').nth(2).waitFor())),
      );
      problems.push(...(await check(page, '/checkout')));
      if (!orderId) {
        await page.getByLabel('County', { exact: true }).selectOption('Kiambu');
        await page.getByLabel('Sub-county', { exact: true }).selectOption('Ruiru');
        const ward = page.getByLabel('Ward', { exact: true });
        await ward.selectOption((await ward.locator('option').allTextContents())[1]!);
        await page
          .getByLabel('Street address (nearest town, include sub-county)', { exact: true })
          .fill('Ruiru, behind the Total petrol station on the Thika superhighway');
        await page.getByRole('button', { name: 'PLACE ORDER' }).click();
        await page.getByTestId('purchase-number').waitFor();
        await page.goto(`${BASE}/user/my-orders`);
        const link = page.getByTestId('order-card').first().getByRole('link').first();
        await link.waitFor();
        orderId = (await link.getAttribute('href'))!.split('/').pop()!;
      }
      problems.push(...(await check(page, '/user/profile', (p) => p.getByText(email).waitFor())));
      problems.push(
        ...(await check(page, '/user/my-orders', (p) =>
          p.getByTestId('order-card').first().waitFor(),
        )),
      );
      problems.push(
        ...(await check(page, `/user/my-orders/${orderId}`, (p) =>
          p.getByRole('region', { name: 'Items' }).waitFor(),
        )),
      );
      await page.context().close();
      assert.deepEqual(problems, []);
    });
  }

  it("the customer's order page reads as a receipt: every amount on one line, right-aligned", async () => {
    assert.ok(orderId, 'the page journeys placed an order');
    const page = await phonePage({ width: 390, height: 844 });
    await signIn(page);
    await page.goto(`${BASE}/user/my-orders/${orderId}`);
    const amounts = page.locator('.order-detail .amount');
    await amounts.first().waitFor();
    const lines = await amounts.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        const lineHeight = parseFloat(getComputedStyle(el).lineHeight) || 24;
        return { text: el.textContent, oneLine: r.height <= lineHeight * 1.5, right: r.right };
      }),
    );
    assert.ok(lines.length >= 6, `${lines.length} amounts`);
    for (const l of lines) assert.ok(l.oneLine, `"${l.text}" wraps`);
    const rights = new Set(lines.map((l) => Math.round(l.right)));
    assert.equal(rights.size, 1, `amounts end at ${[...rights].join(', ')} px`);
    await page.context().close();
    if (SHOTS) {
      // The same two pages on a desk, for the eye.
      const desk = await phonePage({ width: 1280, height: 900 });
      await signIn(desk);
      await check(desk, `/shop/products?category=${categoryId}`, (p) =>
        p.locator('.product-grid .card').first().waitFor(),
      );
      await check(desk, `/user/my-orders/${orderId}`, (p) =>
        p.getByRole('region', { name: 'Items' }).waitFor(),
      );
      await desk.context().close();
    }
  });

  it('the quantity boxes (cart drawer and cart page) refuse a typed 0 while typing', async () => {
    const page = await phonePage({ width: 390, height: 844 });
    await page.goto(`${BASE}/shop/products?category=${categoryId}`);
    const card = page.locator('.card').filter({ hasText: CATALOGUE[4]!.name });
    await card.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('button', { name: /^Cart, 1 items/ }).click();
    const drawerBox = page
      .getByRole('dialog')
      .getByRole('textbox', { name: `Quantity of ${CATALOGUE[4]!.name}` });
    await drawerBox.click();
    await drawerBox.press('Control+A');
    await page.keyboard.type('0');
    assert.equal(await drawerBox.inputValue(), '1', 'the drawer box took a typed 0');
    await page.keyboard.press('Escape');

    await page.goto(`${BASE}/viewCart`);
    const box = page.getByRole('textbox', { name: `Quantity of ${CATALOGUE[4]!.name}` });
    await box.click();
    await box.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('0');
    assert.equal(await box.inputValue(), '', 'the cart page box took a typed 0');
    await page.keyboard.type('3');
    await box.blur();
    await page.getByRole('button', { name: /^Cart, 3 items/ }).waitFor();
    await page.context().close();
  });
});
