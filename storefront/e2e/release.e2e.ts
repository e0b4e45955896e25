/**
 * The service worker never serves a stale index.html after a release (issue 19). Two real builds of
 * the storefront whose entry scripts differ (one build-time address); a small static server serves the
 * first, a phone visits (the worker installs and controls the page), the second replaces the first
 * as a deploy does, and the next visit must show the second. Headless Debian chromium.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';
import { buildReleases, releaseDirs } from '../../tools/e2e/release-builds';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain',
  '.json': 'application/json',
};

let work: string;
let live: string;
let releases: { a: string; b: string };
let server: Server;
let base: string;
let browser: Browser;

/** Serves `live` as the production host does: files as they are, any other path index.html. */
function serve(): Promise<string> {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let file = path.join(live, decodeURIComponent(url.pathname));
    if (!file.startsWith(live) || !existsSync(file) || statSync(file).isDirectory())
      file = path.join(live, 'index.html');
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );
}

/**
 * Polls until the check holds (90 s at most: the new worker fetches every file of the release, which
 * took over 30 s on a CI machine busy with other runs).
 */
async function until(check: () => Promise<boolean>) {
  for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the new service worker did not take over within 90 s');
}

function deploy(from: string) {
  rmSync(live, { recursive: true, force: true });
  cpSync(from, live, { recursive: true });
}

before(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'spc-release-'));
  live = path.join(work, 'live');
  // The journeys runner has built both releases already (RELEASE_BUILDS_DIR); alone, build them.
  releases = releaseDirs(
    process.env.RELEASE_BUILDS_DIR ??
      (await buildReleases(path.join(work, 'builds'), process.env.API_URL ?? 'http://127.0.0.1:9')),
  );
  deploy(releases.a);
  base = await serve();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('service worker and releases', () => {
  it('after a release the next visit gets the new index.html, not the cached one', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      serviceWorkers: 'allow',
    });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller)
        await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r));
    });
    const entry = (dir: string) =>
      readFileSync(path.join(dir, 'index.html'), 'utf8').match(
        /src="(\/assets\/index-[^"]+\.js)"/,
      )?.[1];
    const servedEntry = () =>
      page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type=module]')?.src);
    assert.notEqual(entry(releases.a), entry(releases.b));
    // A second visit, through the worker: the first release.
    await page.goto(`${base}/aboutUs`);
    assert.ok(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)));
    await page.getByRole('heading', { level: 1, name: 'About us' }).waitFor();
    assert.ok((await servedEntry())?.endsWith(entry(releases.a)!));

    deploy(releases.b);
    await page.goto(`${base}/aboutUs`);
    await page.getByRole('heading', { level: 1, name: 'About us' }).waitFor();
    const served = await servedEntry();
    assert.ok(served?.endsWith(entry(releases.b)!), `the old release's page: ${served}`);

    // The new worker keeps the new release's files and takes over; offline, the last page seen
    // still opens (now the new release).
    await until(() =>
      page.evaluate(async (url) => {
        const registration = await navigator.serviceWorker.getRegistration();
        return (
          Boolean(await caches.match(url)) &&
          !registration?.installing &&
          !registration?.waiting &&
          registration?.active?.state === 'activated'
        );
      }, served!),
    );
    await context.setOffline(true);
    await page.goto(`${base}/aboutUs`);
    await page.getByRole('heading', { level: 1, name: 'About us' }).waitFor();
    await context.close();
  });
});
