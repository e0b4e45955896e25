/**
 * Back-office journey of paybill payments and M-Pesa refunds (issue 30): a guest's order paid by
 * paybill in the Daraja simulator (tools/mpesa, C2B) is Paid for staff with no clerk involved; a clerk
 * cancels it with the refund sent through M-Pesa, the order page shows the refund sent, and the
 * simulator shows the reversal. tools/e2e/run-journeys.ts starts the simulator (MPESA_SIMULATOR_URL).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';
import { phoneProblems, PHONES } from '../../tools/e2e/phone-check';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const SIMULATOR = process.env.MPESA_SIMULATOR_URL ?? 'http://127.0.0.1:4010';
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

async function post<T>(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 300));
    value = await probe();
  }
  return value;
}

describe('paybill payments and M-Pesa refunds in the back office', () => {
  it('a paybill payment pays the order with no clerk; a clerk cancels it with an M-Pesa refund and the simulator reverses the payment', async () => {
    const products = (await (await fetch(`${API}/api/products?limit=50`)).json()) as {
      products: { _id: string; productQuantity: number; price: number }[];
    };
    // In stock, and payable in one M-Pesa payment (other journeys add seven-figure products).
    const product = products.products.find((p) => p.productQuantity > 5 && p.price <= 100_000)!;
    const phone = `078${String(Date.now()).slice(-7)}`;
    const placed = await post<{
      order: { _id: string; purchaseNumber: string; totalAmount: number };
    }>(`${API}/api/orders`, {
      guestInfo: {
        fullName: 'Paybill Journey Guest',
        phoneNumber: phone,
        email: `paybill.${Date.now()}@example.co.ke`,
        county: 'Kiambu',
        streetAddress: 'Thika Road, near the mall',
      },
      products: [{ _id: product._id, quantity: 1 }],
    });
    assert.equal(placed.status, 201);
    const { _id: id, purchaseNumber, totalAmount } = placed.body.order;

    // The customer pays the paybill with the purchase number as account.
    const paid = await post<{ payment: { transId: string; completed: boolean } }>(
      `${SIMULATOR}/__simulator/c2b`,
      { account: purchaseNumber, amount: totalAmount, phone: `254${phone.slice(1)}` },
    );
    assert.equal(paid.status, 200);
    assert.equal(paid.body.payment.completed, true);
    const transId = paid.body.payment.transId;

    const login = await post<{ data: { accessToken: string } }>(`${API}/api/auth/login`, STAFF);
    const token = login.body.data.accessToken;
    const order = await until(
      async () =>
        (
          (await (
            await fetch(`${API}/api/orders/${id}`, {
              headers: { authorization: `Bearer ${token}` },
            })
          ).json()) as {
            order: { paymentStatus: string; paymentDetails: { transactionCode: string } | null };
          }
        ).order,
      (o) => o.paymentStatus === 'Paid',
    );
    assert.equal(order.paymentStatus, 'Paid');
    assert.equal(order.paymentDetails?.transactionCode, transId);

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${BASE}/authenticate/login`);
    await page.getByLabel('Email Address').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/staff/orders');
    await page.getByTestId('tile-payments-to-match').waitFor();

    await page.goto(`${BASE}/staff/orders/${id}`);
    await page.getByRole('heading', { name: `Order ${purchaseNumber}` }).waitFor();
    await page.getByText(transId).first().waitFor();
    assert.ok(await page.getByText('Paid', { exact: true }).first().isVisible());

    // A clerk cancels the paid order and sends the refund through M-Pesa.
    await page.getByRole('button', { name: 'Cancel Order' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel and refund · ${purchaseNumber}` });
    await dialog.getByLabel('Refund method').selectOption('Mpesa');
    await dialog.getByLabel(/Send it back through M-Pesa/).check();
    await dialog.getByRole('button', { name: 'Cancel and refund' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Refund sent').waitFor({ timeout: 30_000 });
    // The order's Money: the paybill payment in, the same amount back to the paying number.
    const money = page.getByRole('region', { name: 'Money' });
    await money.getByText(`Paybill · ${transId}`).waitFor({ timeout: 10_000 });
    await money.getByText(/^(Reversal|B2C)/).waitFor({ timeout: 10_000 });
    const ksh = `KSH ${totalAmount.toLocaleString('en-US')}`;
    const moneyText = (await money.innerText()).replace(/\s+/g, ' ');
    for (const total of [`Received ${ksh}`, `Refunded ${ksh}`, 'Refundable KSH 0'])
      assert.ok(moneyText.includes(total), `the Money section shows ${total}: ${moneyText}`);

    const { refunds } = (await (await fetch(`${SIMULATOR}/__simulator/refunds`)).json()) as {
      refunds: {
        kind: string;
        request: { TransactionID?: string };
        transactionId: string | null;
      }[];
    };
    const reversals = refunds.filter(
      (r) => r.kind === 'reversal' && r.request.TransactionID === transId,
    );
    assert.equal(reversals.length, 1);
    assert.ok(reversals[0]!.transactionId);
    await context.close();

    // The payments inbox on a phone: fits the screen, no serious axe finding.
    const phone360 = await browser.newContext({
      viewport: PHONES[0],
      isMobile: true,
      hasTouch: true,
    });
    const small = await phone360.newPage();
    await small.goto(`${BASE}/authenticate/login`);
    await small.getByLabel('Email Address').fill(STAFF.email);
    await small.getByLabel('Password').fill(STAFF.password);
    await small.getByRole('button', { name: 'Login' }).click();
    await small.waitForURL('**/staff/orders');
    await small.goto(`${BASE}/manage/payments`);
    await small.getByRole('heading', { name: 'Payments to match' }).waitFor();
    assert.deepEqual(await phoneProblems(small, 'payments inbox'), []);
    await phone360.close();
  });
});
