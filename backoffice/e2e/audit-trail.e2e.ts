/**
 * Browser journey: the admin reads the audit trail in words. A staff member of this run signs in
 * and adds a category, a customer of this run signs in; the admin filters the trail to that staff
 * member and the activity "Created category", sees the entry as a sentence, finds the customer's
 * sign-in hidden until the switch is turned off, and exports the filtered trail as CSV.
 *
 * Run by tools/e2e/run-journeys.ts with the other back-office journeys (see journeys.e2e.ts for
 * running it by hand). With JOURNEY_SCREENSHOTS=<dir> it saves the screen at 1280 and 390 px.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';
import { apiCall } from '../../tools/e2e/api';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const RUN = `A${Date.now().toString(36).toUpperCase()}`;
const STAFF = {
  fullName: `Audit Staff ${RUN}`,
  email: `audit.staff.${RUN.toLowerCase()}@spc.local`,
  phoneNumber: '0712345678',
  password: 'Staff@123456',
};
const CUSTOMER = {
  fullName: `Audit Customer ${RUN}`,
  email: `audit.customer.${RUN.toLowerCase()}@example.co.ke`,
  phoneNumber: '0712345678',
  password: 'Seed@1234',
};
const CATEGORY = `Audit Fruits ${RUN}`;

let browser: Browser;
let adminToken = '';

const call = <T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  token = adminToken,
) => apiCall<T>(API, method, path, body, token);

const signInByApi = (who: { email: string; password: string }) =>
  call<{ data: { accessToken: string } }>(
    'POST',
    '/api/auth/login',
    { email: who.email, password: who.password },
    '',
  ).then((r) => r.data.accessToken);

before(async () => {
  browser = await launchChromium();
  adminToken = await signInByApi(ADMIN);
  await call('POST', '/api/staff', STAFF);
  const staffToken = await signInByApi(STAFF);
  await call(
    'POST',
    '/api/categories',
    { name: CATEGORY, description: 'Made by the audit trail journey' },
    staffToken,
  );
  await call('POST', '/api/auth/register', CUSTOMER, '');
  await signInByApi(CUSTOMER);
});

after(async () => {
  // What the journey made goes; its audit entries stay, as the trail keeps everything.
  const staff = await call<{ staff: { _id: string; email: string }[] }>(
    'GET',
    `/api/staff?search=${RUN}`,
  );
  for (const s of staff.staff.filter((m) => m.email === STAFF.email))
    await call('DELETE', `/api/staff/delete/${s._id}`);
  const users = await call<{ users: { _id: string; email: string }[] }>(
    'GET',
    `/api/users?search=${encodeURIComponent(CUSTOMER.email)}`,
  );
  for (const u of users.users.filter((m) => m.email === CUSTOMER.email))
    await call('DELETE', `/api/user/delete/${u._id}`);
  const categories = await call<{ categories: { _id: string; name: string }[] }>(
    'GET',
    '/api/categories?limit=100',
    undefined,
    '',
  );
  for (const c of categories.categories.filter((m) => m.name === CATEGORY))
    await call('DELETE', `/api/categories/delete/${c._id}`);
  await browser?.close();
});

async function signInAdmin(width = 1400): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/admin/dashboard');
  return page;
}

/** Picks an option of a Mantine select by typing part of it and clicking the option. */
async function choose(page: Page, label: string, typed: string, option: string) {
  await page.getByRole('textbox', { name: label, exact: true }).fill(typed);
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('audit trail journey', () => {
  it('admin filters the trail to a staff member and an activity, reads it in words, hides sign-ins and exports CSV', async () => {
    const page = await signInAdmin();
    await page.goto(`${BASE}/admin/audit-trails`);
    const table = page.getByRole('table');
    await table.waitFor();

    // One staff member, then one activity: the entry reads as a sentence, not as a code.
    await choose(page, 'Person', RUN, `${STAFF.fullName} (Staff)`);
    await page.waitForURL(/[?&]user=/);
    await table.getByText('Signed in').first().waitFor();
    await table.getByText(`Created category ${CATEGORY}`).waitFor();
    await choose(page, 'Activity', 'Created cat', 'Created category');
    await page.waitForURL(/action=category\.create/);
    await page.getByTestId('audit-count').getByText('1 entry').waitFor();
    const rows = await table.locator('tbody tr').allInnerTexts();
    assert.equal(rows.length, 1);
    assert.match(
      rows[0]!,
      new RegExp(`${STAFF.fullName}\\s+staff\\s+Created category ${CATEGORY}`, 'i'),
    );
    assert.doesNotMatch(await table.innerText(), /category\.create/);

    // The filters live in the address: a reload keeps them.
    await page.reload();
    await page.getByTestId('audit-count').getByText('1 entry').waitFor();
    assert.equal(
      await page.getByRole('textbox', { name: 'Activity', exact: true }).inputValue(),
      'Created category',
    );

    // CSV of what is on screen, activities in words.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^audit-trail.*\.csv$/);
    const csv = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\n');
    assert.equal(csv[0], 'timestamp,user,role,activity,action,message,record_type,record');
    assert.equal(csv.length, 2);
    assert.match(
      csv[1]!,
      new RegExp(`,${STAFF.fullName},staff,Created category ${CATEGORY},category\\.create,`),
    );

    if (process.env.JOURNEY_SCREENSHOTS) {
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await table.waitFor();
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.getByText('Signed in').first().waitFor();
        await page.screenshot({
          path: `${process.env.JOURNEY_SCREENSHOTS}/audit-trail-${width}.png`,
        });
      }
      await page.setViewportSize({ width: 1400, height: 900 });
    }

    // Customers' sign-ins are hidden until the switch is turned off.
    await page.goto(`${BASE}/admin/audit-trails?role=customer`);
    const toggle = page.getByRole('switch', { name: 'Hide customers’ sign-ins' });
    assert.equal(await toggle.isChecked(), true);
    await page.getByTestId('audit-count').waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), new RegExp(CUSTOMER.fullName));
    await toggle.click();
    await page.waitForURL(/signIns=all/);
    const signIn = table.getByRole('row', { name: new RegExp(CUSTOMER.fullName) });
    await signIn.first().waitFor();
    assert.match(await signIn.first().innerText(), /customer\s+Signed in/i);
    await page.context().close();
  });
});
