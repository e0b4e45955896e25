/**
 * Sale units in the back office (issue 29), in headless Debian chromium through playwright-core, run
 * by tools/e2e/run-journeys.ts backoffice with the other journeys: a clerk adds a "Tray of 104" unit
 * with two tiers to a product of the journey's own; the form shows the API's rule (tiers that
 * overlap) as she types, and the API then sells the product by that tray at those tiers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const RUN = `U${Date.now().toString(36).toUpperCase()}`;

let browser: Browser;
let adminToken = '';

before(async () => {
  browser = await launchChromium();
  const login = await apiCall<{ data: { accessToken: string } }>(
    API,
    'POST',
    '/api/auth/login',
    ADMIN,
  );
  adminToken = login.data.accessToken;
});
after(async () => browser?.close());

interface Unit {
  name: string;
  seedlings: number;
  price: number;
  tiers: { minQuantity: number; price: number }[];
}

describe('sale units journey', () => {
  it('a clerk adds a "Tray of 104" unit with two tiers', async () => {
    const categories = await apiCall<{ categories: { _id: string }[] }>(
      API,
      'GET',
      '/api/categories',
    );
    const name = `Tomato Anna F1 ${RUN}`;
    const form = new FormData();
    for (const [field, value] of Object.entries({
      productName: name,
      productDescription: 'Sold singly and by the tray',
      price: '30',
      productQuantity: '5000',
      category: categories.categories[0]!._id,
    }))
      form.set(field, value);
    const created = await fetch(`${API}/api/products`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}` },
      body: form,
    });
    assert.equal(created.status, 201);

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${BASE}/authenticate/login`);
    await page.getByLabel('Email Address').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => !url.pathname.includes('authenticate'));
    await page.goto(`${BASE}/manage/products`);
    await page.getByLabel('Search products').fill(name);
    await page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('button', { name: 'Edit' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Update Product' });
    await dialog.getByRole('button', { name: 'Add unit' }).click();
    const tray = dialog.getByRole('group', { name: 'Unit 2' });
    await tray.getByLabel('Unit name').fill('Tray of 104');
    await tray.getByLabel('Seedlings per unit').fill('104');
    await tray.getByLabel('Unit price (KSH)').fill('2800');
    await dialog.getByRole('button', { name: 'Add tier to unit 2' }).click();
    await dialog.getByRole('button', { name: 'Add tier to unit 2' }).click();
    await tray.getByLabel('Tier 1: from (units)').fill('10');
    await tray.getByLabel('Tier 1: price each (KSH)').fill('2600');
    await tray.getByLabel('Tier 2: from (units)').fill('10');
    await tray.getByLabel('Tier 2: price each (KSH)').fill('2400');
    // The API's rule, shown as she types: two tiers from 10 overlap.
    await tray.getByText('Two tiers start at the same quantity: they overlap').waitFor();
    await tray.getByLabel('Tier 2: from (units)').fill('50');
    await tray.getByText('Two tiers start at the same quantity: they overlap').waitFor({
      state: 'detached',
    });
    await dialog.getByRole('button', { name: 'Update Product' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 10_000 });

    const found = await apiCall<{ products: { _id: string; units: Unit[]; fromPrice: number }[] }>(
      API,
      'GET',
      `/api/products?search=${encodeURIComponent(name)}`,
    );
    assert.equal(found.products.length, 1);
    const product = found.products[0]!;
    assert.deepEqual(
      product.units.map((u) => ({
        name: u.name,
        seedlings: u.seedlings,
        price: u.price,
        tiers: u.tiers,
      })),
      [
        { name: 'Single seedling', seedlings: 1, price: 30, tiers: [] },
        {
          name: 'Tray of 104',
          seedlings: 104,
          price: 2800,
          tiers: [
            { minQuantity: 10, price: 2600 },
            { minQuantity: 50, price: 2400 },
          ],
        },
      ],
    );
    // 2,400 a tray of 104 at 50+: about KES 23.08 a seedling, "from KES 24" on the cards.
    assert.equal(product.fromPrice, 24);
    await apiCall(API, 'DELETE', `/api/products/delete/${product._id}`, undefined, adminToken);
    await context.close();
  });
});
