/**
 * Browser journey of the contact page: a shopper's message reaches the shop. The form shows its
 * field errors, "Sending..." with the button disabled while the message is on its way, the shop's
 * thank-you once it is stored, and the API's reason when it is refused; the message is then in the
 * back office's list (read here through the API as admin). Run by tools/e2e/run-journeys.ts
 * storefront. With JOURNEY_SHOTS_DIR set, it saves screenshots at 1280 px and 390 px there.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const SHOTS = process.env.JOURNEY_SHOTS_DIR;
const RUN = Date.now().toString(36);

let browser: Browser;

before(async () => {
  browser = await launchChromium();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
after(async () => browser?.close());

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function adminToken(): Promise<string> {
  const res = await fetch(`${API}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@spc.local', password: 'Admin@1234' }),
  });
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}

async function fill(page: Page, subject: string) {
  await page.getByLabel('Name', { exact: true }).fill('Achieng Otieno');
  await page.getByLabel('Email', { exact: true }).fill(`achieng.${RUN}@example.co.ke`);
  await page.getByLabel('Subject', { exact: true }).fill(subject);
  await page
    .getByLabel('Message', { exact: true })
    .fill('Which mango varieties do well in Machakos?\nI need about 50 seedlings.');
}

describe('Contact journey', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px a shopper sends a message that reaches the shop`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${BASE}/contactUs`);
      await page.getByRole('heading', { name: 'Contact us' }).waitFor();

      // Nothing typed: every field says what it needs, and nothing is sent.
      let posts = 0;
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/contact')) posts++;
      });
      await page.getByRole('button', { name: 'Send message' }).click();
      for (const text of [
        'name is a required field',
        'email is a required field',
        'subject is a required field',
        'message is a required field',
      ])
        await page.getByText(text).waitFor();
      assert.equal(posts, 0);
      await shot(page, `contact-${width}-errors`);

      // Sending: the button is disabled and says so until the shop answers.
      const subject = `Mango seedlings ${width} ${RUN}`;
      await fill(page, subject);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/contact', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole('button', { name: 'Send message' }).click();
      const sending = page.getByRole('button', { name: 'Sending...' });
      await sending.waitFor();
      assert.equal(await sending.isDisabled(), true);
      await shot(page, `contact-${width}-sending`);
      release();
      await page.getByRole('status').filter({ hasText: 'Thank you for your message.' }).waitFor();
      assert.equal(await page.getByLabel('Subject', { exact: true }).inputValue(), '');
      await shot(page, `contact-${width}-sent`);
      await page.unroute('**/api/contact');

      // The shop has it, unread, in the back office's list.
      const list = await fetch(`${API}/api/contact-messages?status=unread&limit=100`, {
        headers: { authorization: `Bearer ${await adminToken()}` },
      });
      const { messages } = (await list.json()) as {
        messages: { subject: string; email: string; read: boolean }[];
      };
      const stored = messages.find((m) => m.subject === subject);
      assert.ok(stored, 'the message is in the Messages list');
      assert.equal(stored.email, `achieng.${RUN}@example.co.ke`);

      // Refused (the hourly limit): the shopper sees the shop's reason and can try again later.
      await page.route('**/api/contact', (route) =>
        route.fulfill({
          status: 429,
          contentType: 'application/json',
          headers: { 'Retry-After': '3600' },
          body: JSON.stringify({
            success: false,
            statusCode: 429,
            message:
              'You have sent several messages in a short time. Please wait an hour, or call or WhatsApp us.',
          }),
        }),
      );
      await fill(page, `${subject} again`);
      await page.getByRole('button', { name: 'Send message' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'You have sent several messages in a short time.' })
        .waitFor();
      assert.equal(await page.getByRole('button', { name: 'Send message' }).isEnabled(), true);
      await shot(page, `contact-${width}-refused`);
      await context.close();
    });
  }
});
