/**
 * Browser journey of the session kept across visits, on a phone-sized screen (390 x 844): a stored
 * session whose access token has expired but whose refresh token is still good is renewed at load,
 * not cleared; a session whose refresh token is spent is cleared. Run by tools/e2e/run-journeys.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const BASE = process.env.STOREFRONT_URL ?? 'http://localhost:5173';
const API = process.env.API_URL ?? 'http://localhost:3101';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());

interface Session {
  user: { _id: string; fullName: string; email: string; role: string };
  accessToken: string;
  refreshToken: string;
}

/** A new customer, signed in through the API as the storefront would. */
async function signedInCustomer(name: string): Promise<Session> {
  const email = `${name.toLowerCase().replace(/\W/g, '')}${Date.now()}@example.co.ke`;
  const body = { fullName: name, email, phoneNumber: '0722000333', password: 'Seedling@1' };
  const registered = await fetch(`${API}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(registered.status, 201, await registered.text());
  const login = await fetch(`${API}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: body.password }),
  });
  assert.equal(login.status, 200);
  return ((await login.json()) as { data: Session }).data;
}

/** The same access token with its expiry moved an hour into the past (as after a long idle). */
function expired(accessToken: string): string {
  const [header, payload] = accessToken.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { exp: number };
  claims.exp = Math.floor(Date.now() / 1000) - 3600;
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.expired`;
}

/** A phone-sized page whose storage holds `session` as the storefront stores it. */
async function phoneWithStoredSession(session: Session, accessToken: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${BASE}/aboutUs`);
  await page.evaluate(
    ({ token, refreshToken, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('refreshToken', refreshToken);
      localStorage.setItem('loggedInUser', JSON.stringify({ ...user, isAdmin: false }));
    },
    { token: accessToken, refreshToken: session.refreshToken, user: session.user },
  );
  return page;
}

const stored = (page: Page) =>
  page.evaluate(() => ({
    token: localStorage.getItem('token'),
    refreshToken: localStorage.getItem('refreshToken'),
    loggedInUser: localStorage.getItem('loggedInUser'),
  }));

describe('the session across visits (390 x 844)', () => {
  it('renews a stored session whose access token expired: the profile opens, no sign-in asked', async () => {
    const session = await signedInCustomer('Akinyi Renewed');
    const page = await phoneWithStoredSession(session, expired(session.accessToken));
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/auth/refreshToken'));
    await page.goto(`${BASE}/user/profile`);
    assert.equal((await refreshed).status(), 200);
    await page.getByText(session.user.email).first().waitFor();
    assert.match(page.url(), /\/user\/profile$/);
    const after = await stored(page);
    assert.ok(after.token && after.token !== expired(session.accessToken), 'a new access token');
    assert.ok(after.refreshToken && after.refreshToken !== session.refreshToken, 'rotated');
    assert.equal(JSON.parse(after.loggedInUser!)._id, session.user._id);
    // The renewed session works for the API too.
    const profile = await fetch(`${API}/api/users/profile`, {
      headers: { Authorization: `Bearer ${after.token}` },
    });
    assert.equal(profile.status, 200);
    await page.context().close();
  });

  it('clears a stored session that cannot be renewed and asks to sign in', async () => {
    const session = await signedInCustomer('Kamau Spent');
    // The refresh token is spent elsewhere (rotated): the stored copy can no longer renew.
    const rotated = await fetch(`${API}/api/auth/refreshToken`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken: session.refreshToken }),
    });
    assert.equal(rotated.status, 200);
    const page = await phoneWithStoredSession(session, expired(session.accessToken));
    await page.goto(`${BASE}/user/profile`);
    await page.waitForURL(/\/authenticate\/login/, { timeout: 10_000 });
    assert.deepEqual(await stored(page), { token: null, refreshToken: null, loggedInUser: null });
    await page.context().close();
  });
});
