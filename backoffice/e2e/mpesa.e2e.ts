/**
 * Back-office journey of M-Pesa Express (issue 7): a guest's order paid by STK push against the
 * Daraja simulator shows its receipt number and time to staff, and needs no Complete Payment.
 * tools/e2e/run-journeys.ts starts the simulator and points the API at it (MPESA_SIMULATOR_URL).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const SIMULATOR = process.env.MPESA_SIMULATOR_URL ?? 'http://127.0.0.1:4010';
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

async function post<T>(url: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

describe('M-Pesa Express in the back office', () => {
  it('staff see the receipt number and time of an order paid by STK push, with Complete Payment not needed', async () => {
    const products = (await (await fetch(`${API}/api/products?limit=50`)).json()) as {
      products: { _id: string; productQuantity: number; price: number }[];
    };
    // In stock, and payable in one M-Pesa payment (other journeys add seven-figure products).
    const product = products.products.find((p) => p.productQuantity > 5 && p.price <= 100_000)!;
    const phone = `079${String(Date.now()).slice(-7)}`;
    const placed = await post<{ order: { purchaseNumber: string } }>(`${API}/api/orders`, {
      guestInfo: {
        fullName: 'Mpesa Journey Guest',
        phoneNumber: phone,
        email: `mpesa.${Date.now()}@example.co.ke`,
        county: 'Kiambu',
        streetAddress: 'Thika Road, near the mall',
      },
      products: [{ _id: product._id, quantity: 1 }],
    });
    assert.equal(placed.status, 201);
    const { purchaseNumber } = placed.body.order;

    await post(`${SIMULATOR}/__simulator/scenarios`, {
      phoneNumber: `254${phone.slice(1)}`,
      scenario: { result: 'success', delayMs: 500 },
    });
    const pushed = await post<{ checkoutRequestId: string }>(`${API}/api/payments/mpesa/stk-push`, {
      purchaseNumber,
      phoneNumber: phone,
    });
    assert.equal(pushed.status, 200);
    let status = 'pending';
    for (let i = 0; i < 60 && status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const res = await fetch(`${API}/api/payments/mpesa/status/${pushed.body.checkoutRequestId}`);
      status = ((await res.json()) as { status: string }).status;
    }
    assert.equal(status, 'paid');
    const { pushes } = (await (await fetch(`${SIMULATOR}/__simulator/pushes`)).json()) as {
      pushes: { checkoutRequestId: string; outcome: { receipt: string } | null }[];
    };
    const receipt = pushes.find((p) => p.checkoutRequestId === pushed.body.checkoutRequestId)!
      .outcome!.receipt;

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${BASE}/authenticate/login`);
    await page.getByLabel('Email Address').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/staff/orders');
    await page.getByLabel('Search orders').fill(purchaseNumber);
    const row = page.getByRole('row', { name: new RegExp(purchaseNumber) });
    await row.getByText(new RegExp(`M-Pesa ${receipt} · `)).waitFor({ timeout: 10_000 });
    await row.getByText('Paid by M-Pesa Express (STK push)').waitFor();
    await row.getByText('Processing').waitFor();
    await row.getByRole('button', { name: `Actions for order ${purchaseNumber}` }).click();
    const pay = page.getByRole('menuitem', { name: 'Complete Payment' });
    await pay.waitFor();
    assert.equal(await pay.getAttribute('data-disabled'), 'true');
    await context.close();
  });
});
