/**
 * The service worker never serves a stale index.html after a release (issue 19). Two real builds of
 * the storefront that differ only in the shop's phone number; a small static server serves the
 * first, a phone visits (the worker installs and controls the page), the second replaces the first
 * as a deploy does, and the next visit must show the second. Headless Debian chromium.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../tools/e2e/chromium';

const STOREFRONT = path.join(import.meta.dirname, '..');
const PHONE_A = '+254 711 000 001';
const PHONE_B = '+254 722 000 002';
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
let server: Server;
let base: string;
let browser: Browser;

function build(outDir: string, shopPhone: string) {
  const res = spawnSync(
    'npx',
    ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: STOREFRONT,
      encoding: 'utf8',
      env: {
        ...process.env,
        VITE_API_URL: process.env.API_URL ?? 'http://127.0.0.1:9',
        VITE_SHOP_PHONE: shopPhone,
      },
    },
  );
  assert.equal(res.status, 0, res.stderr);
}

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

/** Polls until the check holds (30 s at most). */
async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 60; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the new service worker did not take over within 30 s');
}

function deploy(from: string) {
  rmSync(live, { recursive: true, force: true });
  cpSync(from, live, { recursive: true });
}

before(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'spc-release-'));
  live = path.join(work, 'live');
  build(path.join(work, 'a'), PHONE_A);
  build(path.join(work, 'b'), PHONE_B);
  deploy(path.join(work, 'a'));
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
    // A second visit, through the worker: the first release.
    await page.goto(`${base}/aboutUs`);
    assert.ok(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)));
    await page.getByText(PHONE_A).first().waitFor();

    deploy(path.join(work, 'b'));
    await page.goto(`${base}/aboutUs`);
    await page.getByText(PHONE_B).first().waitFor();
    assert.equal(await page.getByText(PHONE_A).count(), 0);
    const entry = (html: string) => html.match(/src="(\/assets\/index-[^"]+\.js)"/)?.[1];
    const served = await page.evaluate(
      () => document.querySelector<HTMLScriptElement>('script[type=module]')?.src,
    );
    assert.ok(served?.endsWith(entry(readFileSync(path.join(live, 'index.html'), 'utf8'))!));

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
