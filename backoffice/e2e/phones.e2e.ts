/**
 * Every public and signed-in page of the back office on a 360 × 640 and a 390 × 844 phone (issue
 * 28), with data that looks real: an order of 60-character product names worth up to KES 250,000
 * from a customer with a long e-mail, and a staff member with one too. No page may be wider than the
 * screen, none may have a serious or critical axe-core finding. PHONE_SCREENSHOTS=<dir> keeps a
 * picture of each page.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { PHONES, phoneProblems } from '../../tools/e2e/phone-check';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const SHOTS = process.env.PHONE_SCREENSHOTS;
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const RUN = `P${Date.now().toString(36).toUpperCase()}`;
const STAFF = {
  fullName: `Wairimu Njeri Kamau-Mwangi ${RUN}`,
  email: `wairimu.njeri.kamau.${RUN.toLowerCase()}@seedling-propagation-centre.example.co.ke`,
  phoneNumber: '0712345678',
  password: 'Staff@123456',
};

let browser: Browser;
let token = '';
let staffId = '';
let productId = '';
let orderId = '';
let batchId = '';

const call = <T>(method: string, url: string, body?: unknown) =>
  apiCall<T>(API, method, url, body, token);

before(async () => {
  browser = await launchChromium();
  token = (await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', ADMIN))
    .data.accessToken;
  staffId = (await call<{ staff: { _id: string } }>('POST', '/api/staff', STAFF)).staff._id;
  const category = await call<{ category: { _id: string } }>('POST', '/api/categories', {
    name: `Phone desk ${RUN}`,
    description: 'Long names and big prices, as a phone shows them',
  });
  const names = [
    `Journey Grafted Hass Avocado Premium Export Grade ${RUN}`.padEnd(60, 'x').slice(0, 60),
    `Journey Tissue Culture Banana Williams Giant ${RUN}`.padEnd(60, 'x').slice(0, 60),
  ];
  // 'Journey' first: the other journeys, which pick a product of the demo data, leave these alone.
  const ids: string[] = [];
  for (const [i, name] of names.entries()) {
    const form = new FormData();
    form.set('productName', name);
    form.set('productDescription', `${name}: hardened off and ready to plant.`);
    form.set('price', String(i === 0 ? 250_000 : 98_750));
    form.set('productQuantity', '40');
    form.set('category', category.category._id);
    const res = await fetch(`${API}/api/products`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await res.json()) as { product: { _id: string } };
    assert.ok(res.ok, `create ${name}: ${res.status} ${JSON.stringify(body)}`);
    ids.push(body.product._id);
  }
  productId = ids[0]!;
  await call('PATCH', `/api/products/apply-offer/${ids[1]}`, { offerPrice: 87_500 });
  const guestInfo = {
    fullName: 'Wanjiku Wairimu Kamau-Njoroge',
    phoneNumber: '0722 333 444',
    email: `wanjiku.wairimu.${RUN.toLowerCase()}@kiambu-farmers-cooperative.example.co.ke`,
    county: 'Kiambu',
    subCounty: 'Ruiru',
    ward: 'Gitothua',
    streetAddress: 'Kamakis, behind the Total petrol station on the Thika superhighway',
  };
  const placed = await apiCall<{ order: { _id: string } }>(API, 'POST', '/api/orders', {
    guestInfo,
    products: ids.map((id) => ({ _id: id, quantity: 3 })),
  });
  orderId = placed.order._id;
  // A batch of the long-named product, booked by the long-named customer (issue 32).
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  batchId = (
    await call<{ batch: { _id: string } }>('POST', '/api/batches', {
      productId,
      sownOn: day(0),
      readyOn: day(60),
      started: 1_000_000,
      note: 'Shade house 3, the long bench by the water tank, sown for the long rains',
    })
  ).batch._id;
  await apiCall(API, 'POST', '/api/orders', {
    guestInfo,
    products: [{ _id: productId, quantity: 2, batchId }],
  });
});

after(async () => {
  await browser?.close();
  if (staffId) await call('DELETE', `/api/staff/delete/${staffId}`).catch(() => undefined);
});

async function phonePage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, isMobile: true, hasTouch: true });
  return context.newPage();
}

async function signIn(page: Page, who: { email: string; password: string }, lands: RegExp) {
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(lands, { timeout: 10_000 });
}

/** Opens the page, waits for it to settle, and returns what it fails (keeping a picture). */
async function check(page: Page, url: string) {
  await page.goto(`${BASE}${url}`);
  await page.waitForLoadState('networkidle');
  // Mantine's transitions and the lists' loaders have settled.
  await page.waitForTimeout(300);
  const { width } = page.viewportSize()!;
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    const name = `bo-${width}${url.replace(/[^a-z0-9]+/gi, '_')}.png`.slice(0, 120);
    await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
  }
  return phoneProblems(page, `${width} px ${url}`);
}

describe('back office on 360 and 390 px phones', () => {
  for (const viewport of PHONES) {
    it(`every page fits a ${viewport.width} px screen and passes axe-core`, async () => {
      const problems: string[] = [];
      const page = await phonePage(viewport);
      for (const url of [
        '/authenticate/login',
        '/authenticate/forgotPassword',
        '/authenticate/resetPassword/not-a-real-code',
        '/no-such-page',
      ])
        problems.push(...(await check(page, url)));

      await signIn(page, ADMIN, /\/admin\/dashboard/);
      for (const url of [
        '/admin/dashboard',
        '/admin/staff',
        '/create-staff',
        `/edit-staff/${staffId}`,
        '/admin/orders',
        `/admin/orders/${orderId}`,
        '/admin/reports',
        '/admin/audit-trails',
        '/admin/site-pictures',
        '/admin/delivery-zones',
        '/manage/products',
        '/manage/products?lowStock=1',
        `/manage/products/${productId}/stock`,
        '/manage/categories',
        '/manage/messages',
        '/manage/batches',
        `/manage/batches/${batchId}`,
        '/manage/bookings',
        '/user/profile',
      ])
        problems.push(...(await check(page, url)));
      await page.context().close();

      const desk = await phonePage(viewport);
      await signIn(desk, STAFF, /\/staff\/orders/);
      for (const url of ['/staff/orders', `/staff/orders/${orderId}`, '/user/profile'])
        problems.push(...(await check(desk, url)));
      await desk.context().close();
      assert.deepEqual(problems, []);
    });
  }

  it('the sign-in page leads back home, and the staff landing page leads with the queue', async () => {
    const page = await phonePage({ width: 390, height: 844 });
    await page.goto(`${BASE}/authenticate/login`);
    await page.getByRole('link', { name: /Back to home/ }).waitFor();
    await page.getByRole('link', { name: 'Forgot password?' }).waitFor();
    await signIn(page, STAFF, /\/staff\/orders/);
    const queue = page.getByRole('tablist').first();
    const lowStock = page.getByRole('link', { name: /^Low stock/ });
    await lowStock.waitFor();
    const [q, l] = [(await queue.boundingBox())!, (await lowStock.boundingBox())!];
    assert.ok(q.y < l.y, `the queue (${q.y} px) comes after low stock (${l.y} px)`);
    assert.ok(l.height < 200, `the low-stock tile is ${l.height} px tall`);
    await page.context().close();
  });
});
