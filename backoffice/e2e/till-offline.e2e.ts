/**
 * The till offline (issue 47) in headless Debian chromium through playwright-core, on a tablet held
 * upright (800 × 1280): a clerk opens the till online (the service worker installs, the catalogue
 * and the open session are kept on the device), the browser's network is cut, the till is reloaded
 * and opens from the worker, two sales are made offline (cash with change; an M-Pesa code the buyer
 * shows) and wait on the device, with their offline receipt; the network returns and both reach the
 * back office, once each: the API lists them as offline sales, the stock went once, the count is 0.
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
const RUN = `Q${Date.now().toString(36).toUpperCase()}`;
const TABLET = { width: 800, height: 1280 };

let browser: Browser;
let adminToken = '';
let staffToken = '';

const login = async (who: { email: string; password: string }) =>
  (await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', who)).data
    .accessToken;

interface Session {
  _id: string;
}

interface Sale {
  orderId: string;
  purchaseNumber: string;
  total: number;
  state: string;
  offline: { soldAt: string } | null;
  payments: { method: string; code: string | null }[];
}

/** The clerk's open session, if any. */
const currentSession = async () =>
  (
    await apiCall<{ session: Session | null }>(
      API,
      'GET',
      '/api/till/sessions/current',
      undefined,
      staffToken,
    )
  ).session;

async function closeOpenSession(): Promise<void> {
  const session = await currentSession();
  if (session)
    await apiCall(
      API,
      'POST',
      `/api/till/sessions/${session._id}/close`,
      { countedCash: 0 },
      staffToken,
    );
}

before(async () => {
  browser = await launchChromium();
  adminToken = await login(ADMIN);
  staffToken = await login(STAFF);
});

/** The journey's own product, deleted at the end (journeys share one catalogue). */
let ownProduct = '';
after(async () => {
  await closeOpenSession().catch(() => undefined);
  if (ownProduct)
    await apiCall(API, 'DELETE', `/api/products/delete/${ownProduct}`, undefined, adminToken);
  await browser?.close();
});

/** A product of the journey's own, 1,000 seedlings in stock: singles at KES 30, trays of 50 at KES 1,500. */
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

async function stockOf(productId: string): Promise<number> {
  const { product } = await apiCall<{ product: { productQuantity: number } }>(
    API,
    'GET',
    `/api/products/${productId}`,
  );
  return product.productQuantity;
}

/** Whether the till's kept catalogue (IndexedDB) has the product, read in the page. */
const keptCatalogueHas = (page: Page, productId: string) =>
  page.evaluate(
    (id) =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('spc-till-offline');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          try {
            const read = open.result
              .transaction('keyval', 'readonly')
              .objectStore('keyval')
              .get('catalogue');
            read.onsuccess = () =>
              resolve(
                Boolean(
                  (read.result as { products: { _id: string }[] } | undefined)?.products.some(
                    (p) => p._id === id,
                  ),
                ),
              );
            read.onerror = () => resolve(false);
          } catch {
            resolve(false);
          }
        };
      }),
    productId,
  );

async function addTrays(page: Page, name: string, trays: number) {
  await page.getByLabel('Find a product').fill(name);
  const add = page.getByRole('button', { name: `Add Tray of 50 of ${name}` });
  await add.waitFor({ timeout: 15_000 });
  for (let i = 0; i < trays; i += 1) await add.click();
}

describe('till offline journey', () => {
  it('a clerk goes offline, reloads the till, sells twice, comes back online, and the sales reach the back office', async () => {
    const name = `Journey Offline Spinach ${RUN}`;
    const productId = await createProduct(name);
    ownProduct = productId;
    await closeOpenSession();
    const { session } = await apiCall<{ session: Session }>(
      API,
      'POST',
      '/api/till/sessions',
      { float: 1000 },
      staffToken,
    );

    const context = await browser.newContext({
      viewport: TABLET,
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'allow',
    });
    const page = await context.newPage();
    await page.goto(`${BASE}/authenticate/login`);
    await page.getByLabel('Email Address').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/staff/orders');

    // Online: the till opens, the worker takes control, the catalogue is kept on the device.
    await page.goto(`${BASE}/till`);
    const status = page.getByRole('status', { name: 'Till network status' });
    await status.getByText('Online', { exact: true }).waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller)
        await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r));
    });
    for (let tries = 0; !(await keptCatalogueHas(page, productId)); tries += 1) {
      assert.ok(tries < 40, 'the till keeps the catalogue on the device');
      await page.waitForTimeout(250);
    }

    // The network is cut (the page's and the worker's), and the till is reloaded.
    await context.setOffline(true);
    await page.reload();
    await status.getByText('Offline: sales are kept on this device').waitFor();
    await page.getByRole('tab', { name: 'Sell' }).waitFor();
    assert.equal(
      await page.evaluate(() =>
        fetch('/till', { cache: 'no-store' }).then(
          () => 'reached',
          () => 'cut',
        ),
      ),
      'cut',
      'the network is really cut',
    );
    const [worker] = context.serviceWorkers();
    assert.ok(worker, 'the till is served by its service worker');
    assert.equal(
      await worker.evaluate(() =>
        fetch('/till', { cache: 'no-store' }).then(
          () => 'reached',
          () => 'cut',
        ),
      ),
      'cut',
      'the service worker’s network is cut too: the till came from its cache',
    );

    // Sale 1: a tray for cash, KES 2,000 given.
    await addTrays(page, name, 1);
    assert.equal(await page.getByRole('button', { name: 'M-Pesa prompt' }).isDisabled(), true);
    await page.getByTestId('prompt-offline').waitFor();
    await page.getByLabel('Cash given').fill('2000');
    await page.getByRole('button', { name: 'Charge KES 1,500' }).click();
    let done = page.getByLabel('Sale done');
    await done.getByRole('heading', { name: 'Sale kept on this device' }).waitFor();
    await done.getByTestId('sale-change').getByText('KES 500').waitFor();
    await status.getByText('1 sale waiting to send').waitFor();
    await done.getByRole('button', { name: 'New sale' }).click();

    // Sale 2: two trays by the M-Pesa code the buyer shows.
    await addTrays(page, name, 2);
    await page.getByRole('button', { name: 'M-Pesa code' }).click();
    await page.getByLabel('M-Pesa code', { exact: true }).fill(RUN);
    await page.getByRole('button', { name: 'Charge KES 3,000' }).click();
    done = page.getByLabel('Sale done');
    await done.getByRole('heading', { name: 'Sale kept on this device' }).waitFor();
    await status.getByText('2 sales waiting to send').waitFor();
    // The stock shown offline is less the 150 seedlings of the waiting sales.
    await done.getByRole('button', { name: 'New sale' }).click();
    await page.getByLabel('Find a product').fill(name);
    await page
      .getByLabel(name, { exact: true })
      .getByTestId('product-stock')
      .getByText('850 seedlings in stock')
      .waitFor();
    assert.equal(await stockOf(productId), 1000, 'nothing reached the API while offline');

    // Its offline receipt, opened from the worker too.
    const key = await page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const open = indexedDB.open('spc-till-offline');
          open.onsuccess = () => {
            const read = open.result
              .transaction('keyval', 'readonly')
              .objectStore('keyval')
              .get('queue');
            read.onsuccess = () => resolve((read.result as { key: string }[])[1]!.key);
            read.onerror = () => reject(new Error('no queue'));
          };
        }),
    );
    await page.goto(`${BASE}/till/offline-receipt/${key}`);
    const receipt = page.getByRole('article', { name: 'Receipt' });
    await receipt.getByText('Offline sale: its receipt number follows when sent').waitFor();
    await receipt.getByText(`${name}, Tray of 50`).waitFor();
    await receipt.getByText(`M-Pesa code the buyer shows ${RUN}`).waitFor();
    await page.getByRole('link', { name: 'Back to the till' }).click();
    await status.getByText('2 sales waiting to send').waitFor();

    // The network returns: both sales are sent, in order, once each.
    await context.setOffline(false);
    await status.getByText('Online', { exact: true }).waitFor();
    await status.getByText('0 sales waiting to send').waitFor({ timeout: 30_000 });

    const { sales } = await apiCall<{ sales: Sale[] }>(
      API,
      'GET',
      `/api/till/sales?sessionId=${session._id}`,
      undefined,
      staffToken,
    );
    assert.equal(sales.length, 2, JSON.stringify(sales));
    const byTotal = [...sales].sort((a, b) => a.total - b.total);
    assert.deepEqual(
      byTotal.map((s) => [s.total, Boolean(s.offline)]),
      [
        [1500, true],
        [3000, true],
      ],
    );
    assert.equal(byTotal[1]!.payments[0]!.code, RUN);
    assert.equal(await stockOf(productId), 850);

    // The back office shows them: today's sales at the till.
    await page.getByRole('tab', { name: 'Today’s sales' }).click();
    for (const sale of sales)
      await page.getByLabel(`Sale ${sale.purchaseNumber}`).waitFor({ timeout: 15_000 });
    await context.close();
  });
});
