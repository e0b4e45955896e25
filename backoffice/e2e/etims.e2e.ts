/**
 * KRA eTIMS in the back office (issue 45): a guest's order of a seven-figure product with a long
 * name, paid at the desk, is signed by the OSCU simulator (tools/etims) from the API's queue; a
 * clerk finds it signed on /manage/etims with its control unit invoice number and KRA's check link,
 * and the daily summary counts it. Both pages fit at 360, 390 and 1280 px (with JOURNEY_SHOTS_DIR
 * set, pictures of them there). tools/e2e/run-journeys.ts starts the simulator and points the API
 * at it.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { PHONES, phoneProblems, widthProblem } from '../../tools/e2e/phone-check';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const ETIMS = process.env.ETIMS_SIMULATOR_URL ?? 'http://127.0.0.1:4030';
const SHOTS = process.env.JOURNEY_SHOTS_DIR;
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };
const RUN = Date.now().toString(36);
const WIDTHS = [...PHONES.map((p) => p.width), 1280];

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

async function token(who: { email: string; password: string }): Promise<string> {
  const login = await apiCall<{ data: { accessToken: string } }>(
    API,
    'POST',
    '/api/auth/login',
    who,
  );
  return login.data.accessToken;
}

/** A product at KES 1,234,567 with a long name, its own tax type (B) and KRA item classification. */
async function bigProduct(adminToken: string): Promise<string> {
  const { categories } = await apiCall<{ categories: { _id: string }[] }>(
    API,
    'GET',
    '/api/categories?limit=1',
  );
  const form = new FormData();
  const fields: Record<string, string> = {
    productName: `Grafted Macadamia Murang'a 20 Kiambu Cooperative ${RUN}`.slice(0, 60),
    productDescription: 'Grafted, hardened off',
    price: '1234567',
    // A few only: journeys that pick any product in stock (more than 5) leave it alone.
    productQuantity: '3',
    category: categories[0]!._id,
    onOffer: 'false',
    taxType: 'B',
    itemClassCode: '1015150000',
  };
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const res = await fetch(`${API}/api/products`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}` },
    body: form,
  });
  const body = (await res.json()) as { product: { _id: string } };
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.product._id;
}

/** A guest's order of one of the product, paid in cash at the desk; answers its purchase number. */
async function paidOrder(productId: string, staffToken: string): Promise<string> {
  const { order } = await apiCall<{
    order: { _id: string; purchaseNumber: string; totalAmount: number };
  }>(API, 'POST', '/api/orders', {
    guestInfo: {
      fullName: 'Etims Journey Guest',
      phoneNumber: '0722 333 445',
      email: `etims.${RUN}@example.co.ke`,
      county: 'Kiambu',
      subCounty: 'Ruiru',
      ward: 'Gitothua',
      streetAddress: 'Kamakis, blue gate',
    },
    products: [{ _id: productId, quantity: 1 }],
  });
  await apiCall(
    API,
    'PATCH',
    `/api/orders/complete-payment/${order._id}`,
    { paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } },
    staffToken,
  );
  return order.purchaseNumber;
}

/** The control unit invoice number the OSCU simulator gave this sale, once the queue has sent it. */
async function signedNumber(purchaseNumber: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { invoices } = (await (await fetch(`${ETIMS}/__simulator/invoices`)).json()) as {
      invoices: { trdInvcNo: string; signature: { sdcId: string; rcptNo: number } }[];
    };
    const sale = invoices.find((i) => i.trdInvcNo === purchaseNumber);
    if (sale) return `${sale.signature.sdcId}/${sale.signature.rcptNo}`;
    assert.ok(Date.now() < deadline, `${purchaseNumber} was not signed within 30 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function signIn(who: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/(staff\/orders|admin)/);
  return page;
}

/**
 * The page at each width: nothing wider than the screen (on a phone, no serious axe finding
 * either), `check` passing; a picture when asked for.
 */
async function atEachWidth(
  page: Page,
  name: string,
  check: () => Promise<void> = async () => undefined,
): Promise<void> {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 1280 ? 800 : 900 });
    const what = `${name} at ${width} px`;
    // The layout settles first: the sidebar slides in or out, the phone's cards replace the table.
    await page.waitForTimeout(600);
    if (SHOTS)
      await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    if (width < 1280) assert.deepEqual(await phoneProblems(page, what), []);
    else assert.equal(await widthProblem(page, what), null);
    await check();
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('KRA eTIMS in the back office', () => {
  let purchaseNumber = '';
  let cuInvoiceNo = '';
  before(async () => {
    const [adminToken, staffToken] = await Promise.all([token(ADMIN), token(STAFF)]);
    purchaseNumber = await paidOrder(await bigProduct(adminToken), staffToken);
    cuInvoiceNo = await signedNumber(purchaseNumber);
  });

  it('a clerk sees the signed document on /manage/etims with its CU number and KRA’s link', async () => {
    const page = await signIn(STAFF);
    await page.goto(`${BASE}/manage/etims?state=signed`);
    const row = page.getByRole('row').filter({ hasText: purchaseNumber });
    await row.getByText(cuInvoiceNo, { exact: true }).waitFor();
    await row.getByText('KES 1,234,', { exact: false }).waitFor();
    const link = row.getByRole('link', { name: 'Check on KRA’s site' });
    assert.match(
      (await link.getAttribute('href'))!,
      /\/common\/link\/etims\/receipt\/indexEtimsReceiptData\?Data=P000000000Z00/,
    );
    // At every width the clerk reads the CU number and the whole state without scrolling sideways.
    await atEachWidth(page, 'backoffice-etims', async () => {
      // Its row on a computer, its card on a phone.
      const document = page.locator('tr, article').filter({ hasText: purchaseNumber });
      const number = document.getByText(cuInvoiceNo, { exact: true });
      assert.ok(await number.isVisible(), 'the CU number shows');
      const box = (await number.boundingBox())!;
      assert.ok(box.x + box.width <= page.viewportSize()!.width, 'the CU number is on screen');
      const state = document.getByText('Signed', { exact: true });
      assert.equal(
        await state.evaluate((e) => e.scrollWidth <= e.clientWidth),
        true,
        'state whole',
      );
    });
    await page.context().close();
  });

  it('the daily eTIMS summary counts it, at each width', async () => {
    const page = await signIn(ADMIN);
    await page.goto(`${BASE}/manage/etims/summary`);
    await page.getByRole('heading', { name: 'Daily eTIMS summary' }).waitFor();
    const today = page.getByRole('table', { name: 'eTIMS per day' }).getByRole('row').last();
    await today.getByText('Total', { exact: true }).waitFor();
    await atEachWidth(page, 'backoffice-etims-summary');
    await page.context().close();
  });
});
