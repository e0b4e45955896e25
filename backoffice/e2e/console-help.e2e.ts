/**
 * Browser journeys of the console's sign-in help and its accessibility fixes, in headless Debian
 * chromium. Part of `npm test` through tools/e2e/run-journeys.ts, which also says where the API files
 * its e-mails (OUTBOX_DIR). By hand, against a running API (without SMTP_URL) and back office:
 *
 *   BACKOFFICE_URL=http://localhost:5174 API_URL=http://localhost:3000 OUTBOX_DIR=.data/outbox \
 *     npx tsx --test backoffice/e2e/console-help.e2e.ts
 *
 * Journeys: (1) a staff member who forgot the password asks for a link on the console's login, opens
 * the e-mailed link (the back office's reset page), sets a new password and signs in with it; (2) on
 * the categories and products screens the current section is marked in the sidebar, a category is
 * found by the search, and every modal names its close button (axe-core) and keeps its buttons in
 * view on an 800 px high window.
 *
 * Each journey makes its own staff member and category (unique names) and removes them after.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3000';
const OUTBOX = process.env.OUTBOX_DIR ?? path.resolve('.data/outbox');
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const RUN = Date.now().toString(36);

let browser: Browser;
let adminToken = '';

async function call<T = Record<string, unknown>>(
  method: string,
  route: string,
  body?: unknown,
  token = adminToken,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${API}${route}`, {
    method,
    headers: {
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** A staff member of this run, made by the admin through the API. */
async function createStaff(name: string) {
  const member = {
    fullName: `Console ${name} ${RUN}`,
    email: `console.${name}.${RUN}@spc.local`,
    phoneNumber: '0712345678',
    password: 'Staff@123456',
  };
  const res = await call<{ staff: { _id: string } }>('POST', '/api/staff', member);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { ...member, _id: res.body.staff._id };
}

/** The newest e-mail to an address in the API's outbox, waited for (the API files it at once). */
async function mailTo(address: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (() => {
      try {
        return readdirSync(OUTBOX).filter((f) => f.endsWith('.eml'));
      } catch {
        return [];
      }
    })().sort();
    const found = files
      .map((f) => readFileSync(path.join(OUTBOX, f), 'utf8'))
      .filter((m) => m.includes(`To: ${address}`));
    // Quoted-printable breaks long lines with "=" at the end; the link reads whole without them.
    if (found.length) return found[found.length - 1]!.replace(/=\r?\n/g, '');
    if (Date.now() > deadline) throw new Error(`no e-mail to ${address} in ${OUTBOX}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function newPage(width = 1280, height = 800): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
}

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** axe-core's findings in the open dialog: every button has a name, the dialog too. */
async function dialogProblems(page: Page): Promise<string[]> {
  // Through the browser's debugger, not a <script>: the app's policy runs no inline script.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: string,
            options: object,
          ) => Promise<{ violations: { id: string; nodes: { html: string }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run('[role="dialog"]', {
      runOnly: ['button-name', 'aria-dialog-name', 'label'],
    });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html}`));
  });
}

/** True when the whole element is inside the window. */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return !!box && box.y >= 0 && box.y + box.height <= size.height && box.x >= 0;
}

before(async () => {
  browser = await launchChromium();
  const login = await call<{ data: { accessToken: string } }>('POST', '/api/auth/login', ADMIN);
  assert.equal(login.status, 200, 'the admin signs in through the API');
  adminToken = login.body.data.accessToken;
});
after(async () => browser?.close());

describe('console sign-in help and accessibility', () => {
  it('a staff member who forgot the password resets it from the console and signs in with the new one', async () => {
    const member = await createStaff('forgot');
    const page = await newPage();
    try {
      await page.goto(`${BASE}/authenticate/login`);
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL('**/authenticate/forgotPassword');
      await page.getByLabel('Email Address').fill(member.email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'If an account exists for this e-mail, we have sent it a link' })
        .waitFor({ timeout: 15_000 });

      const mail = await mailTo(member.email);
      const link = mail.match(/https?:\/\/\S+?\/authenticate\/resetPassword\/[\w-]+/)?.[0];
      assert.ok(link, 'the e-mail carries a reset link');
      assert.ok(
        link.startsWith(`${BASE}/authenticate/resetPassword/`),
        `the link opens the back office's reset page, not the shop's: ${link}`,
      );

      await page.goto(link);
      await page.getByLabel('New Password', { exact: true }).fill('Fresh#Desk2026');
      await page.getByLabel('Confirm Password', { exact: true }).fill('Fresh#Desk2026');
      await page.getByRole('button', { name: 'Reset password' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Your password has been reset. You can now sign in.' })
        .waitFor({ timeout: 15_000 });
      await page.waitForURL('**/authenticate/login', { timeout: 10_000 });

      await page.getByLabel('Email Address').fill(member.email);
      await page.getByLabel('Password').fill('Fresh#Desk2026');
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL('**/staff/orders', { timeout: 15_000 });
      await page.getByTestId('sidebar-name').filter({ hasText: member.fullName }).waitFor();

      const old = await call('POST', '/api/auth/login', {
        email: member.email,
        password: member.password,
      });
      assert.equal(old.status, 401, 'the old password no longer signs in');
    } finally {
      await page.context().close();
      await call('DELETE', `/api/staff/delete/${member._id}`);
    }
  });

  it('marks the current section, finds a category by search, and names every modal’s close button', async () => {
    const member = await createStaff('a11y');
    const category = await call<{ category: { _id: string; name: string } }>(
      'POST',
      '/api/categories',
      { name: `Console Baobab ${RUN}`, description: 'Adansonia seedlings for dry counties' },
    );
    assert.equal(category.status, 201, JSON.stringify(category.body));
    const page = await newPage(1280, 800);
    try {
      await signIn(page, member);
      await page.waitForURL('**/staff/orders', { timeout: 15_000 });
      const nav = page.getByRole('navigation', { name: 'Main' });
      // The one link marked as the current page (the page's own render may follow the address).
      const current = nav.locator('a[aria-current="page"]');
      await current.filter({ hasText: 'Orders' }).waitFor();
      assert.equal(await current.count(), 1);

      await nav.getByRole('link', { name: 'Categories' }).click();
      await page.waitForURL('**/manage/categories');
      await current.filter({ hasText: 'Categories' }).waitFor();
      assert.equal(await current.count(), 1);
      assert.equal(await current.getAttribute('data-active'), 'true', 'and it looks active');

      await page.getByLabel('Search categories').fill(`baobab ${RUN}`);
      const card = page.getByText(`Console Baobab ${RUN}`);
      await card.waitFor({ timeout: 15_000 });
      await page.getByText('0 products').first().waitFor();

      await page.getByRole('button', { name: 'add new category' }).click();
      const categoryDialog = page.getByRole('dialog');
      await categoryDialog.waitFor();
      assert.deepEqual(await dialogProblems(page), []);
      await categoryDialog.getByRole('button', { name: 'Close' }).click();
      await categoryDialog.waitFor({ state: 'detached' });

      await nav.getByRole('link', { name: 'Products' }).click();
      await page.waitForURL('**/manage/products');
      await current.filter({ hasText: 'Products' }).waitFor();
      await page.getByRole('table').waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: 'Add Product' }).click();
      const productDialog = page.getByRole('dialog', { name: 'Add Product' });
      await productDialog.waitFor();
      await productDialog.getByLabel('On offer').check({ force: true });
      await productDialog.getByLabel('Offer Price (KSH)').waitFor();
      assert.ok(
        await inView(page, productDialog.getByRole('button', { name: 'Add Product' })),
        'the Add Product button is in view on an 800 px high window',
      );
      assert.deepEqual(await dialogProblems(page), []);
      await productDialog.getByRole('button', { name: 'Close' }).click();
      await productDialog.waitFor({ state: 'detached' });
    } finally {
      await page.context().close();
      await call('DELETE', `/api/categories/delete/${category.body.category._id}`);
      await call('DELETE', `/api/staff/delete/${member._id}`);
    }
  });
});
