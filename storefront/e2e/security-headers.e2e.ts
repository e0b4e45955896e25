/**
 * Browser journey of the shop under its production security headers (the nginx image's, which the
 * journeys' server sends too): every page a shopper opens works with scripts from the shop alone,
 * pictures and calls from the API, and nothing the policy blocks. Run by tools/e2e/run-journeys.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';
import { watchPolicyViolations } from '../../tools/e2e/security-headers';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

/** A phone-sized page that records every Content-Security-Policy violation it meets. */
async function watchedPage(): Promise<{ page: Page; violations: () => Promise<string[]> }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const read = await watchPolicyViolations(context);
  const page = await context.newPage();
  return { page, violations: () => read(page) };
}

describe('the shop under its Content-Security-Policy', () => {
  it('is served with a policy that allows scripts from the shop only and no framing', async () => {
    const res = await fetch(`${BASE}/`);
    const policy = res.headers.get('content-security-policy') ?? '';
    assert.match(policy, /script-src 'self';/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.ok(policy.includes(`connect-src 'self' ${API}`), policy);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
  });

  it('shows the home page, the shop, a product with its picture and the cart without a violation', async () => {
    const { page, violations } = await watchedPage();
    await page.goto(`${BASE}/`);
    await page.getByRole('link', { name: /shop/i }).first().waitFor();
    await page.goto(`${BASE}/shop/products`);
    await page.locator('a[href^="/single/product/"]').first().waitFor({ timeout: 15_000 });
    // A product with a picture (other journeys on the same stack add products without one).
    const list = (await (await fetch(`${API}/api/products?page=1&limit=50`)).json()) as {
      products: { _id: string; productImage?: string }[];
    };
    const pictured = list.products.find((p) => p.productImage);
    assert.ok(pictured, 'the demo catalogue has a product with a picture');
    await page.goto(`${BASE}/single/product/${pictured._id}`);
    // The product's picture is asked of the API's origin: the policy lets it through (a picture the
    // policy blocked would be a violation and never reach the network).
    await page.locator('main img').first().waitFor();
    const asked = await page.waitForFunction(
      (api) =>
        performance
          .getEntriesByType('resource')
          .some((e) => e.name.startsWith(`${api}/api/uploads/`)),
      API,
      { timeout: 15_000 },
    );
    assert.ok(await asked.jsonValue());
    for (const route of [
      '/viewCart',
      '/track-orders',
      '/contactUs',
      '/aboutUs',
      '/authenticate/login',
    ])
      await page.goto(`${BASE}${route}`, { waitUntil: 'networkidle' });
    assert.deepEqual(await violations(), []);
  });
});
