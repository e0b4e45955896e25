/**
 * Browser journey of the back office under its production security headers (the nginx image's,
 * which the journeys' server sends too): signing in and the main screens work with scripts from the
 * console alone and calls to the API, and nothing the policy blocks. Run by tools/e2e/run-journeys.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';
import { watchPolicyViolations } from '../../tools/e2e/security-headers';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3101';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

describe('the back office under its Content-Security-Policy', () => {
  it('is served with a policy that allows scripts from the console only and no framing', async () => {
    const res = await fetch(`${BASE}/authenticate/login`);
    const policy = res.headers.get('content-security-policy') ?? '';
    assert.match(policy, /script-src 'self';/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.ok(policy.includes(`connect-src 'self' ${API}`), policy);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
  });

  it('signs in and opens the main screens without a violation', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const violationsOf = await watchPolicyViolations(context);
    const page = await context.newPage();
    await page.goto(`${BASE}/authenticate/login`);
    await page.getByLabel('Email Address').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/admin/dashboard');
    const visited: string[] = [];
    for (const route of [
      '/manage/products',
      '/admin/orders',
      '/admin/reports',
      '/admin/site-pictures',
      '/admin/delivery-zones',
    ]) {
      await page.goto(`${BASE}${route}`, { waitUntil: 'networkidle' });
      visited.push(route);
    }
    // Product pictures in the list are asked of the API's origin: the policy lets them through.
    // The list is searched for a product that has one: other journeys on the same database add
    // and change products without pictures, which may head the list.
    const { products } = (await (await fetch(`${API}/api/products?limit=100`)).json()) as {
      products: { productName: string; productImage?: string | null }[];
    };
    const pictured = products.find((p) => p.productImage);
    assert.ok(pictured, 'the demo catalogue has a product with a picture');
    await page.goto(`${BASE}/manage/products`, { waitUntil: 'networkidle' });
    const searched = page.waitForResponse(
      (r) => r.url().includes('/api/products') && r.url().includes('search='),
    );
    await page.getByLabel('Search products').fill(pictured.productName);
    await searched;
    await page.waitForLoadState('networkidle');
    const asked = await page.evaluate(
      (api) =>
        performance
          .getEntriesByType('resource')
          .some((e) => e.name.startsWith(`${api}/api/uploads/`)),
      API,
    );
    assert.ok(asked, 'a product picture is asked of the API');
    const violations = await violationsOf(page);
    assert.deepEqual(violations, [], `violations on ${visited.join(', ')}`);
  });
});
