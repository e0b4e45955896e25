/**
 * Browser journey of the Messages list: a shopper's contact-form message (sent to the API as the
 * storefront's form sends it) reaches the back office, where staff find it unread through the
 * sidebar and mark it read; admin sees it read. Run by tools/e2e/run-journeys.ts backoffice. With
 * JOURNEY_SHOTS_DIR set, it saves screenshots of the screen at 1280 px and 390 px there.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };
const RUN = Date.now().toString(36).toUpperCase();
const SHOTS = process.env.JOURNEY_SHOTS_DIR;

let browser: Browser;

before(async () => {
  browser = await launchChromium();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
after(async () => browser?.close());

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function signIn(who: { email: string; password: string }, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  return page;
}

async function sendContactMessage(subject: string) {
  const res = await fetch(`${API}/api/contact`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Kamau Njoroge',
      email: `kamau.${RUN.toLowerCase()}@example.co.ke`,
      subject,
      message: 'Do you have 300 grafted Hass avocado seedlings?\nI can collect on Saturday.',
    }),
  });
  assert.equal(res.status, 201);
}

describe('Messages journey', () => {
  it('staff find a new contact message unread, read it and mark it read; admin sees it read', async () => {
    const subject = `Journey question ${RUN}`;
    await sendContactMessage(subject);

    const page = await signIn(STAFF, 1280);
    await page.waitForURL(/\/staff\/orders/);
    await page.getByRole('link', { name: 'Messages' }).click();
    await page.waitForURL(/\/manage\/messages$/);
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
    const card = page.getByRole('article', { name: `Unread message: ${subject}` });
    await card.waitFor();
    await card.getByText('I can collect on Saturday.').waitFor();
    await card.getByText(`kamau.${RUN.toLowerCase()}@example.co.ke`).waitFor();
    await shot(page, 'messages-1280-unread');

    await card.getByRole('button', { name: 'Mark read' }).click();
    const read = page.getByRole('article', { name: `Read message: ${subject}` });
    await read.waitFor();
    await read.getByText(/^Read by /).waitFor();
    await shot(page, 'messages-1280-read');

    // The unread filter no longer lists it; the read one does.
    await page
      .locator('.mantine-SegmentedControl-root')
      .getByText('Unread', { exact: true })
      .click();
    await page
      .getByRole('article', { name: `Read message: ${subject}` })
      .waitFor({ state: 'detached' });
    await page.context().close();

    const phone = await signIn(ADMIN, 390);
    await phone.waitForURL(/\/admin\/dashboard/);
    await phone.goto(`${BASE}/manage/messages`);
    await phone.getByRole('article', { name: `Read message: ${subject}` }).waitFor();
    await shot(phone, 'messages-390');
    await phone.context().close();
  });
});
