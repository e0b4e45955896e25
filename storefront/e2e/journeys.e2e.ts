/**
 * Browser journeys for the storefront (issue 5), in headless Debian chromium through playwright-core.
 * Part of `npm test` through tools/e2e/run-journeys.ts (`npm run e2e -w @spc/storefront`), which starts
 * everything they need. By hand, run them against a built or dev storefront and a running API:
 *
 *   STOREFRONT_URL=http://localhost:5173 API_URL=http://localhost:3101 npx tsx --test storefront/e2e/journeys.e2e.ts
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

async function newPage(width = 1280, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  // The WhatsApp window is opened by the checkout; keep it from leaving the machine.
  await context.route(/wa\.me/, (route) => route.fulfill({ status: 200, body: 'whatsapp' }));
  return page;
}

async function addFirstInStock(page: Page, skip = 0) {
  const buttons = page.getByRole('button', { name: 'Add to Cart' });
  await buttons.first().waitFor();
  await buttons.nth(skip).click();
}

async function fillCheckout(page: Page, guest = true) {
  if (guest) {
    await page.getByLabel('Full name', { exact: true }).fill('Wanjiku Kamau');
    await page
      .getByLabel('Phone number (area code and number)', { exact: true })
      .fill('0712345678');
    await page.getByLabel('Email', { exact: true }).fill(`guest${Date.now()}@example.co.ke`);
  }
  await page.getByLabel('County', { exact: true }).selectOption('Kiambu');
  await page.getByLabel('Sub-county', { exact: true }).selectOption('Ruiru');
  const ward = page.getByLabel('Ward', { exact: true });
  const wards = await ward.locator('option').allTextContents();
  await ward.selectOption(wards[1]!);
  await page
    .getByLabel('Street address (nearest town, include sub-county)', { exact: true })
    .fill('Ruiru, near the stage');
}

describe('storefront journeys', () => {
  it('a guest searches, filters, fills the cart, checks out and tracks the order', async () => {
    const page = await newPage();
    await page.goto(BASE);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByLabel('Search seedlings', { exact: true }).fill('seedling');
    await page.keyboard.press('Enter');
    await page.waitForURL(/search=seedling/);
    await page.getByRole('button', { name: /^Fruits/ }).click();
    await page.waitForURL(/category=/);
    await page.getByRole('heading', { level: 1, name: 'Fruits' }).waitFor();
    await addFirstInStock(page, 0);
    await addFirstInStock(page, 1);
    await page.getByRole('button', { name: /^Cart, 2 items/ }).click();
    const drawer = page.getByRole('dialog', { name: 'Shopping Cart' });
    await drawer
      .getByRole('button', { name: /^Increase quantity/ })
      .first()
      .click();
    await page.getByRole('button', { name: /^Cart, 3 items/ }).waitFor();
    await drawer.getByRole('button', { name: 'Checkout' }).click();
    await page.waitForURL(/\/checkout$/);
    await fillCheckout(page);
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'PLACE ORDER' }).click();
    const number = (await page.getByTestId('purchase-number').textContent())!;
    assert.match(number, /^SPD[A-Z2-9]{8}$/);
    const chat = await popup;
    assert.match(decodeURIComponent(chat.url()), new RegExp(number));
    await page.waitForURL(/\/shop\/products/, { timeout: 15_000 });
    await page.goto(`${BASE}/track-orders`);
    await page.getByLabel('Confirmation number', { exact: true }).fill(number);
    await page.getByRole('button', { name: 'Track' }).click();
    const received = page.locator('.timeline li').first();
    await received.waitFor();
    assert.equal(await received.getAttribute('data-done'), 'true');
    await page.context().close();
  });

  it('a visitor registers, signs in, checks out prefilled and cancels in My Orders', async () => {
    const page = await newPage();
    const email = `shopper${Date.now()}@example.co.ke`;
    await page.goto(`${BASE}/authenticate/register`);
    await page.getByLabel('Full name', { exact: true }).fill('Otieno Mwangi');
    await page.getByLabel('Phone number', { exact: true }).fill('0722000111');
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Seedling@1');
    await page.getByLabel('Confirm password', { exact: true }).fill('Seedling@1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/authenticate\/login$/, { timeout: 15_000 });
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Seedling@1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/shop\/products/, { timeout: 15_000 });
    await addFirstInStock(page);
    await page.goto(`${BASE}/checkout`);
    assert.equal(await page.getByLabel('Full name', { exact: true }).inputValue(), 'Otieno Mwangi');
    await fillCheckout(page, false);
    await page.getByRole('button', { name: 'PLACE ORDER' }).click();
    const number = (await page.getByTestId('purchase-number').textContent())!;
    await page.goto(`${BASE}/user/my-orders`);
    const row = page.getByRole('row').filter({ hasText: number });
    await row.getByRole('button', { name: 'Cancel order' }).click();
    await row.getByText('Cancelled').waitFor();
    await page.context().close();
  });

  it('at 375 px the burger menu, compact filters and cart drawer work', async () => {
    const page = await newPage(375, 800);
    await page.goto(`${BASE}/shop/products`);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'ABOUT US' })
      .click();
    await page.waitForURL(/aboutUs/);
    await page.goto(`${BASE}/shop/products`);
    const select = page.getByLabel('Category', { exact: true });
    await select.waitFor();
    const options = await select.locator('option').allTextContents();
    await select.selectOption({ index: 1 });
    await page.waitForURL(/category=/);
    assert.ok(
      (await page.getByRole('heading', { level: 1 }).textContent())!.length > 0,
      options[1],
    );
    await addFirstInStock(page);
    await page.getByRole('button', { name: /^Cart, 1 items/ }).click();
    await page.getByRole('dialog', { name: 'Shopping Cart' }).getByText('Subtotal').waitFor();
    await page.context().close();
  });

  it('an out-of-stock answer at checkout shows the server message and keeps the cart', async () => {
    // A real 409: the product goes out of stock (staff marks it) after it is in the cart.
    const list = await (await fetch(`${API}/api/products?limit=50`)).json();
    const product = (
      list.products as { _id: string; productName: string; productQuantity: number }[]
    ).find((p) => p.productQuantity > 0)!;
    const page = await newPage();
    await page.goto(`${BASE}/single/product/${product._id}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('button', { name: /^Cart, 1 items/ }).waitFor();

    const login = await fetch(`${API}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'staff@spc.local', password: 'Staff@1234' }),
    });
    const { data } = await login.json();
    const marked = await fetch(`${API}/api/products/check-stock/${product._id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${data.accessToken}` },
    });
    assert.equal(marked.status, 200);

    await page.goto(`${BASE}/checkout`);
    await fillCheckout(page);
    await page.getByRole('button', { name: 'PLACE ORDER' }).click();
    await page.getByText(`${product.productName} is out of stock`).first().waitFor();
    await page.getByRole('button', { name: /^Cart, 1 items/ }).waitFor();
    await page.context().close();
  });

  it('the main pages have no serious or critical accessibility problems (axe-core)', async () => {
    const list = await (await fetch(`${API}/api/products?limit=1`)).json();
    const pages = [
      '/',
      '/shop/products',
      `/single/product/${list.products[0]._id}`,
      '/checkout',
      '/track-orders',
      '/authenticate/login',
      '/authenticate/register',
    ];
    const axeSource = readFileSync(
      createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
      'utf8',
    );
    const problems: string[] = [];
    for (const path of pages) {
      const page = await newPage();
      await page.goto(`${BASE}${path}`);
      await page.waitForLoadState('networkidle');
      // Through the browser's debugger, not a <script>: the app's policy runs no inline script.
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const result = await (
          window as unknown as {
            axe: {
              run: () => Promise<{
                violations: { id: string; impact: string; nodes: unknown[] }[];
              }>;
            };
          }
        ).axe.run();
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
      });
      problems.push(...violations.map((v) => `${path}: ${v}`));
      await page.context().close();
    }
    assert.deepEqual(problems, []);
  });
});
