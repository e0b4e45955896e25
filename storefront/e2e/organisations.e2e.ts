/**
 * Browser journey of a business account (issue 42) on a phone: a guest opens "For organisations"
 * from the footer, signs in and comes back, signs up an organisation with a long name (360 px) and
 * sees it waiting for approval; staff approve it through the API; the approver invites a colleague
 * by e-mail, who opens the invitation e-mail's link (/user/organisation?invitation=…&code=…), signs in
 * and comes back to it (390 px), accepts
 * and buys for it. Each page passes the phone checks; shots at 360, 390 and 1280 px when
 * JOURNEY_SHOTS_DIR is set.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { phoneProblems } from '../../tools/e2e/phone-check';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';
const SHOTS = process.env.JOURNEY_SHOTS_DIR;
const OUTBOX = process.env.OUTBOX_DIR ?? path.resolve('.data/outbox');
const RUN = Date.now().toString(36);
const PASSWORD = 'Seedling@1';
const APPROVER = { fullName: 'Wanjiru Approver', email: `org.approver.${RUN}@example.co.ke` };
const COLLEAGUE = { fullName: 'Otieno Colleague', email: `org.buyer.${RUN}@example.co.ke` };
const ORG_NAME = `Kaunti ya Nyandarua Greening and Water Catchment Restoration Programme ${RUN}`;
// A PIN of this run (P, 9 digits, a letter): unique in the database.
const KRA_PIN = `P${String(Date.now()).slice(-9)}K`;

let browser: Browser;

async function register(person: { fullName: string; email: string }, n: number) {
  await apiCall(API, 'POST', '/api/auth/register', {
    ...person,
    phoneNumber: `07${String(Date.now() + n).slice(-8)}`,
    password: PASSWORD,
  });
}
async function tokenOf(email: string, password: string): Promise<string> {
  const login = await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', {
    email,
    password,
  });
  return login.data.accessToken;
}
/** The newest e-mail to an address in the API's outbox (OUTBOX_DIR), decoded, waited for. */
async function mailTo(address: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let files: string[] = [];
    try {
      files = readdirSync(OUTBOX)
        .filter((f) => f.endsWith('.eml'))
        .sort();
    } catch {
      // not made yet
    }
    const found = files
      .map((f) => readFileSync(path.join(OUTBOX, f), 'utf8'))
      .filter((m) => m.includes(`To: ${address}`));
    // Quoted-printable: soft line breaks joined, =XX decoded (the link's "=" is "=3D").
    if (found.length)
      return found
        .at(-1)!
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    if (Date.now() > deadline) throw new Error(`no e-mail to ${address} in ${OUTBOX}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
async function phone(width: number, height: number): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width, height }, isMobile: true, hasTouch: true });
}
async function signIn(page: Page, email: string) {
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

before(async () => {
  browser = await launchChromium();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  await register(APPROVER, 1);
  await register(COLLEAGUE, 2);
});
after(async () => browser?.close());

describe('a business account on a phone', () => {
  it('signs up, waits for approval, is approved, and a colleague accepts an invitation', async () => {
    const problems: string[] = [];
    const ctx = await phone(360, 640);
    const page = await ctx.newPage();

    // A guest: the page from the footer asks them to sign in, and brings them back.
    await page.goto(`${BASE}/`);
    await page.getByRole('link', { name: 'For organisations' }).click();
    await page.getByRole('heading', { name: 'For organisations', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'sign in', exact: true }).click();
    await signIn(page, APPROVER.email);
    await page.waitForURL(/\/organisations$/, { timeout: 10_000 });

    // The sign-up: the KRA PIN is checked as it is typed.
    const form = page.getByRole('form', { name: 'Sign up your organisation' });
    await form.getByLabel('KRA PIN').fill('P05123');
    await form.getByText(/A KRA PIN is the letter A or P/).waitFor();
    await form.getByLabel('KRA PIN').fill(KRA_PIN.toLowerCase());
    await form.getByText(/A KRA PIN is the letter A or P/).waitFor({ state: 'detached' });
    await form.getByLabel('Organisation name').fill(ORG_NAME);
    await form.getByLabel('Kind of organisation').selectOption('county');
    for (const legend of ['Billing contact', 'Delivery contact']) {
      const set = form.getByRole('group', { name: new RegExp(legend) });
      await set.getByLabel('Name').fill(APPROVER.fullName);
      await set.getByLabel('Phone').fill('0712345678');
      await set.getByLabel('E-mail').fill(APPROVER.email);
    }
    problems.push(...(await phoneProblems(page, '360 px /organisations form')));
    await form.getByRole('button', { name: 'Sign up the organisation' }).click();
    await page.getByText(/waiting for approval by the shop/).waitFor();
    problems.push(...(await phoneProblems(page, '360 px /organisations waiting')));
    await shot(page, 'organisations-360-waiting');

    // Its area says so too.
    await page.goto(`${BASE}/user/organisation`);
    await page.getByText('Awaiting approval').waitFor();
    await shot(page, 'organisation-360-pending');

    // Staff approve it (the back office's screens are another helper's).
    const approverToken = await tokenOf(APPROVER.email, PASSWORD);
    const mine = await apiCall<{ organisation: { _id: string; kraPin: string } }>(
      API,
      'GET',
      '/api/organisations/mine',
      undefined,
      approverToken,
    );
    assert.equal(mine.organisation.kraPin, KRA_PIN);
    const staff = await tokenOf('staff@spc.local', 'Staff@1234');
    await apiCall(API, 'POST', `/api/organisations/${mine.organisation._id}/approve`, {}, staff);

    // The approver invites a colleague.
    await page.reload();
    await page.getByText('Approved', { exact: true }).waitFor();
    await page.getByLabel('Their e-mail').fill(COLLEAGUE.email);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(/^Invitation recorded\./).waitFor();
    await page.getByText(`${COLLEAGUE.email} as buyer`).waitFor();
    problems.push(...(await phoneProblems(page, '360 px /user/organisation approved')));
    await shot(page, 'organisation-360-approved');

    // The colleague follows the e-mail's link (its code proves they read it), signs in, comes back
    // to it and accepts (390 px).
    const mail = await mailTo(COLLEAGUE.email);
    const link = mail.match(
      /https?:\/\/\S+?\/user\/organisation\?invitation=[0-9a-f]{24}&code=[\w-]+/,
    )?.[0];
    assert.ok(link, `the invitation e-mail carries its link: ${mail.slice(-600)}`);
    assert.ok(link.startsWith(`${BASE}/user/organisation?`), `the link opens the shop: ${link}`);
    const ctx2 = await phone(390, 844);
    const page2 = await ctx2.newPage();
    await page2.goto(link);
    await page2.waitForURL(/\/authenticate\/login\?next=/);
    await signIn(page2, COLLEAGUE.email);
    await page2.waitForURL(/\/user\/organisation\?invitation=/, { timeout: 10_000 });
    await page2.getByText(/asks you to buy for it as buyer/).waitFor();
    await shot(page2, 'organisation-390-invitation');
    problems.push(...(await phoneProblems(page2, '390 px /user/organisation invitation')));
    await page2.getByRole('button', { name: 'Accept' }).click();
    await page2.getByText('You are its buyer.').waitFor();
    await page2.getByRole('heading', { name: ORG_NAME }).waitFor();
    problems.push(...(await phoneProblems(page2, '390 px /user/organisation buyer')));
    await shot(page2, 'organisation-390-buyer');

    // The approver sees two people (1280 px).
    const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const desk = await wide.newPage();
    await desk.goto(`${BASE}/authenticate/login?next=%2Fuser%2Forganisation`);
    await signIn(desk, APPROVER.email);
    await desk.waitForURL(/\/user\/organisation$/, { timeout: 10_000 });
    await desk.getByRole('combobox', { name: `Role of ${COLLEAGUE.fullName}` }).waitFor();
    await desk.getByText('No invitations waiting.').waitFor();
    await shot(desk, 'organisation-1280-people');

    assert.deepEqual(problems, []);
    await Promise.all([ctx.close(), ctx2.close(), wide.close()]);
  });
});
