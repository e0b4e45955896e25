/**
 * The storefront on a 390 × 844 phone (issue 19), in headless Debian chromium through playwright-core:
 * the purchase number kept in view after ordering, profile and My Orders no wider than the phone,
 * a guest's cart kept across sign-in, a signed-in customer kept on the home page, and the shop
 * opened offline after one visit (service worker). Run by tools/e2e/run-journeys.ts with the others.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const PHONE = { width: 390, height: 844 };

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

async function phone(options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    serviceWorkers: options.serviceWorkers ?? 'block',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await keepOnMachine(context);
  return context.newPage();
}

/** The chat window and the embedded map are third parties: answered here, never fetched. */
async function keepOnMachine(context: BrowserContext) {
  await context.route(/wa\.me|openstreetmap\.org/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<p>stub</p>' }),
  );
}

/** No horizontal scrolling: the page is no wider than the phone. */
async function assertFitsWidth(page: Page, what: string) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `${what}: page is ${scroll} px wide on a ${client} px screen`);
}

/** The element is inside the visible part of the screen (not scrolled away, not cut at a side). */
async function assertInView(page: Page, selector: ReturnType<Page['locator']>, what: string) {
  const box = await selector.boundingBox();
  assert.ok(box, `${what} is not displayed`);
  const vp = page.viewportSize()!;
  assert.ok(
    box.y >= 0 && box.y + box.height <= vp.height && box.x >= 0 && box.x + box.width <= vp.width,
    `${what} is out of view: ${JSON.stringify(box)} in ${vp.width} × ${vp.height}`,
  );
}

async function registerCustomer(email: string, fullName = 'Njeri Wambui') {
  const res = await fetch(`${API}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fullName, email, phoneNumber: '0722000333', password: 'Seedling@1' }),
  });
  assert.ok(res.ok, `register: ${res.status} ${await res.text()}`);
}

async function signIn(page: Page, email: string) {
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Seedling@1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/shop\/products/, { timeout: 15_000 });
}

async function addFirstInStock(page: Page, skip = 0) {
  const buttons = page.getByRole('button', { name: 'Add to Cart' });
  await buttons.first().waitFor();
  await buttons.nth(skip).click();
}

async function fillCheckout(page: Page) {
  await page.getByLabel('Full name', { exact: true }).fill('Wanjiku Kamau');
  await page.getByLabel('Phone number (area code and number)', { exact: true }).fill('0712345678');
  await page.getByLabel('Email', { exact: true }).fill(`phone${Date.now()}@example.co.ke`);
  await page.getByLabel('County', { exact: true }).selectOption('Kiambu');
  await page.getByLabel('Sub-county', { exact: true }).selectOption('Ruiru');
  const ward = page.getByLabel('Ward', { exact: true });
  const wards = await ward.locator('option').allTextContents();
  await ward.selectOption(wards[1]!);
  await page
    .getByLabel('Street address (nearest town, include sub-county)', { exact: true })
    .fill('Ruiru, near the stage');
}

const longEmail = () => `wanjiku.kamau.${Date.now()}@kiambu-farmers.example.co.ke`;

describe('storefront on a 390 × 844 phone', () => {
  it('after PLACE ORDER the number is in view, then a banner on the shop keeps it until closed', async () => {
    const page = await phone();
    await page.goto(`${BASE}/shop/products`);
    await addFirstInStock(page);
    await page.goto(`${BASE}/checkout`);
    await fillCheckout(page);
    const place = page.getByRole('button', { name: 'PLACE ORDER' });
    await place.scrollIntoViewIfNeeded();
    await place.click();
    const number = page.getByTestId('purchase-number');
    await number.waitFor();
    const purchaseNumber = (await number.textContent())!;
    assert.match(purchaseNumber, /^SPD[A-Z2-9]{8}$/);
    await assertInView(page, number, 'the purchase number on the thank-you screen');

    await page.waitForURL(/\/shop\/products/, { timeout: 15_000 });
    const banner = page.getByRole('status', { name: 'Your order' });
    await assertInView(page, banner.getByTestId('banner-purchase-number'), 'the banner number');
    assert.equal(await banner.getByTestId('banner-purchase-number').textContent(), purchaseNumber);

    await banner.getByRole('button', { name: 'Copy number' }).click();
    await banner.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), purchaseNumber);

    // The banner stays across pages and a reload, until closed.
    await page.goto(`${BASE}/shop/products?page=1`);
    await page.reload();
    await banner.getByRole('link', { name: 'Track' }).click();
    await page.waitForURL(new RegExp(`/track-orders\\?number=${purchaseNumber}`));
    await page.locator('.timeline li').first().waitFor();
    await page.goto(`${BASE}/shop/products`);
    await page.getByRole('button', { name: 'Close the order banner' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await banner.count(), 0);
    await page.context().close();
  });

  it("a guest's cart survives signing in", async () => {
    const email = `cart${Date.now()}@example.co.ke`;
    await registerCustomer(email);
    const page = await phone();
    await page.goto(`${BASE}/shop/products`);
    await addFirstInStock(page, 0);
    await addFirstInStock(page, 1);
    await page.getByRole('button', { name: /^Cart, 2 items/ }).waitFor();
    await signIn(page, email);
    await page.getByRole('button', { name: /^Cart, 2 items/ }).waitFor();
    await page.goto(`${BASE}/viewCart`);
    // The cart page shows its lines once it has loaded them: wait for the second, then count.
    await page.locator('.cart-line').nth(1).waitFor();
    assert.equal(await page.locator('.cart-line').count(), 2);
    await assertFitsWidth(page, '/viewCart');
    // Tap targets: the quantity buttons are at least 44 px square.
    const plus = page.getByRole('button', { name: /^Increase quantity/ }).first();
    const box = (await plus.boundingBox())!;
    assert.ok(box.width >= 44 && box.height >= 44, `+ is ${box.width} × ${box.height}`);
    await page.context().close();
  });

  it('a signed-in customer who opens / stays on the home page, and the logo leads home', async () => {
    const email = `home${Date.now()}@example.co.ke`;
    await registerCustomer(email);
    const page = await phone();
    await signIn(page, email);
    await page.goto(`${BASE}/`);
    await page.getByRole('heading', { level: 1, name: 'Premium Quality Seedlings' }).waitFor();
    await page.waitForTimeout(2500);
    assert.equal(new URL(page.url()).pathname, '/');
    await page.goto(`${BASE}/dashboard`);
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto(`${BASE}/aboutUs`);
    await page.getByRole('link', { name: 'SPC Seedlings' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    // The hero shows a picture of seedlings, not a flat colour.
    const hero = page.locator('.hero-slide.active img');
    assert.ok(await hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
    await page.context().close();
  });

  it('profile (long e-mail) and My Orders are no wider than the phone; status and cancel in view', async () => {
    const email = longEmail();
    assert.ok(email.length > 40);
    await registerCustomer(email, 'Wanjiku Wairimu Kamau-Njoroge');
    const page = await phone();
    await signIn(page, email);
    await page.goto(`${BASE}/user/profile`);
    await page.getByText(email).waitFor();
    await assertFitsWidth(page, '/user/profile');

    await page.goto(`${BASE}/shop/products`);
    await addFirstInStock(page);
    await page.goto(`${BASE}/checkout`);
    await page.getByLabel('County', { exact: true }).selectOption('Kiambu');
    await page.getByLabel('Sub-county', { exact: true }).selectOption('Ruiru');
    const ward = page.getByLabel('Ward', { exact: true });
    await ward.selectOption((await ward.locator('option').allTextContents())[1]!);
    await page
      .getByLabel('Street address (nearest town, include sub-county)', { exact: true })
      .fill('Ruiru');
    await page.getByRole('button', { name: 'PLACE ORDER' }).click();
    const purchaseNumber = (await page.getByTestId('purchase-number').textContent())!;

    await page.goto(`${BASE}/user/my-orders`);
    const card = page.getByTestId('order-card').filter({ hasText: purchaseNumber });
    await card.waitFor();
    await assertFitsWidth(page, '/user/my-orders');
    await card.scrollIntoViewIfNeeded();
    const status = card.locator('.status-pill');
    assert.equal(await status.textContent(), 'Pending');
    await assertInView(page, status, 'the order status');
    const cancel = card.getByRole('button', { name: 'Cancel order' });
    await assertInView(page, cancel, 'the Cancel order button');
    await cancel.click();
    await card.getByText('Cancelled', { exact: true }).first().waitFor();
    await page.context().close();

    // At 1280 px the table shows every column, Actions included, without clipping.
    const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const desk = await wide.newPage();
    await signIn(desk, email);
    await desk.goto(`${BASE}/user/my-orders`);
    const row = desk.getByRole('row').filter({ hasText: purchaseNumber });
    await row.waitFor();
    const clipped = await desk
      .locator('.orders-table')
      .evaluate((el) => el.scrollWidth > el.clientWidth);
    assert.equal(clipped, false, 'the orders table is wider than its frame at 1280 px');
    await assertInView(desk, row.getByRole('button', { name: 'Cancel order' }), 'Actions column');
    await wide.close();
  });

  it('the shop page puts the first product near the top and a chosen category in view', async () => {
    const page = await phone();
    await page.goto(`${BASE}/shop/products`);
    const first = page.locator('.product-grid .card').first();
    await first.waitFor();
    const top = (await first.boundingBox())!.y;
    assert.ok(top < 300, `first product starts at ${top} px`);
    await page.getByLabel('Category', { exact: true }).selectOption({ index: 3 });
    await page.waitForURL(/category=/);
    await assertInView(page, page.getByRole('heading', { level: 1 }), 'the category heading');
    // The slide-in menu's links are finger-sized.
    await page.getByRole('button', { name: 'Open menu' }).click();
    const link = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'ABOUT US' });
    const box = (await link.boundingBox())!;
    assert.ok(box.height >= 44, `menu link is ${box.height} px tall`);
    await page.context().close();
  });

  it('the shop opens offline after one visit, keeps the cart and says what needs the network', async () => {
    const page = await phone({ serviceWorkers: 'allow' });
    await page.goto(`${BASE}/`);
    // The worker installs on the first visit and takes control of the page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller)
        await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r));
    });
    await page.goto(`${BASE}/shop/products`);
    const firstName = await page.locator('.product-grid .card-title').first().textContent();
    await addFirstInStock(page);
    await page.getByRole('button', { name: /^Cart, 1 items/ }).waitFor();

    await page.context().setOffline(true);
    await page.goto(`${BASE}/shop/products`);
    await page.getByRole('heading', { level: 1, name: 'All Products' }).waitFor();
    assert.equal(await page.locator('.product-grid .card-title').first().textContent(), firstName);
    await page.getByRole('status').filter({ hasText: 'You are offline' }).first().waitFor();
    await page.getByRole('button', { name: /^Cart, 1 items/ }).waitFor();

    await page.goto(`${BASE}/checkout`);
    await page.getByText('placing an order needs the network').first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'PLACE ORDER' }).isDisabled(), true);
    await page.context().setOffline(false);
    await page.context().close();
  });
});
