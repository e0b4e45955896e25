/**
 * Browser journey of a customer's data (issue 31) on a 390 px phone: the privacy notice, linked
 * from the footer; the profile's "Download my data" gives one JSON file of the customer's account
 * and orders; "Delete my account", confirmed with the password, signs the customer out, and the
 * old e-mail and password no longer sign in. The notice and profile pass the phone checks.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { phoneProblems } from '../../tools/e2e/phone-check';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const RUN = Date.now().toString(36);
const EMAIL = `privacy.${RUN}@example.co.ke`;
const PASSWORD = 'Seedling@1';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
  await apiCall(API, 'POST', '/api/auth/register', {
    fullName: 'Akinyi Privacy',
    email: EMAIL,
    phoneNumber: `07${String(Date.now()).slice(-8)}`,
    password: PASSWORD,
  });
});
after(async () => browser?.close());

describe('my data on a phone', () => {
  it('a customer downloads their data, deletes their account and cannot sign in again', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      acceptDownloads: true,
    });
    await context.route(/wa\.me|openstreetmap\.org/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<p>stub</p>' }),
    );
    const page = await context.newPage();
    const problems: string[] = [];

    // The notice, from the footer.
    await page.goto(`${BASE}/`);
    await page.getByRole('link', { name: 'Privacy Policy' }).click();
    await page.getByRole('heading', { name: 'Privacy notice', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Your rights' }).waitFor();
    problems.push(...(await phoneProblems(page, '390 px /privacy')));

    // Sign in, then the profile.
    await page.goto(`${BASE}/authenticate/login`);
    await page.getByLabel('Email address', { exact: true }).fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/shop\/products/, { timeout: 10_000 });
    await page.goto(`${BASE}/user/profile`);
    await page.getByRole('heading', { name: 'Your data' }).waitFor();
    problems.push(...(await phoneProblems(page, '390 px /user/profile')));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      summary: string[];
      account: { email: string };
    };
    assert.equal(file.account.email, EMAIL);
    assert.ok(file.summary.length > 0);

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete my account' });
    await dialog.getByLabel('Your password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByText('Your account was deleted').waitFor();
    // Signed out: the profile is gone, the sign-in page shows.
    await page.waitForURL(/\/authenticate\/login/, { waitUntil: 'commit' });
    // Nothing of the customer stays on the phone.
    const stored = await page.evaluate(() =>
      JSON.stringify({ ...localStorage, ...sessionStorage }),
    );
    assert.ok(!stored.includes(EMAIL), stored);

    await page.getByLabel('Email address', { exact: true }).fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid email or password').waitFor();
    assert.match(page.url(), /\/authenticate\/login/);

    assert.deepEqual(problems, []);
    await context.close();
  });
});
