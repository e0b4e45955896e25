/**
 * `npm run lighthouse`: Lighthouse's mobile audit (its default: a mid-range phone on a slow 4G link,
 * simulated) of the built storefront against the API, on the system Chromium. Prints performance,
 * accessibility, best practices, SEO and LCP for home, shop, product, cart, checkout and tracking.
 * Scores on a shared, busy machine move by a few points from run to run: read them as figures, never
 * gate on them. Lighthouse 12 (Node 20; 13 needs Node 22) is installed on first use under
 * .data/tools/lighthouse, outside the workspace's node_modules.
 *
 * With STOREFRONT_URL and API_URL set it audits that running stack; otherwise it starts its own
 * (database through the launcher, which honours MONGODB_URI; demo data seeded when empty; the API
 * built and run; the storefront built and served by `vite preview`) and stops it afterwards.
 * LIGHTHOUSE_RUNS=<n> audits each page n times and keeps the median performance run;
 * LIGHTHOUSE_DETAILS=1 also prints every audit that scored under 0.9.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureDatabase, freePort, withDatabaseName } from '../db/launcher';
import { DATA_DIR, WORKSPACE_ROOT } from '../paths';

const CHROMIUM = '/usr/bin/chromium';
const LIGHTHOUSE_VERSION = '12.8.2';
const TOOL_DIR = path.join(DATA_DIR, 'tools', 'lighthouse');

interface Row {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
}

function run(command: string, args: string[], env = process.env, cwd = WORKSPACE_ROOT) {
  const res = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  if (res.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${res.status ?? res.signal})`);
}

async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Lighthouse on demand, pinned, without touching the workspace's dependencies. */
function ensureLighthouse(): string {
  const pkg = path.join(TOOL_DIR, 'node_modules', 'lighthouse', 'package.json');
  if (!existsSync(pkg)) {
    mkdirSync(TOOL_DIR, { recursive: true });
    writeFileSync(path.join(TOOL_DIR, 'package.json'), '{ "private": true }\n');
    console.log(`[lighthouse] installing lighthouse@${LIGHTHOUSE_VERSION} in ${TOOL_DIR}`);
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', `lighthouse@${LIGHTHOUSE_VERSION}`],
      { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
      TOOL_DIR,
    );
  }
  return path.join(TOOL_DIR, 'node_modules');
}

/** Starts database, API and built storefront; returns their addresses and a stop function. */
async function startStack(): Promise<{ site: string; api: string; stop: () => Promise<void> }> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'spc-lighthouse-'));
  const db = await ensureDatabase({ dir: path.join(DATA_DIR, 'lighthouse-db') });
  const children: ChildProcess[] = [];
  const [apiPort, sitePort] = [await freePort(), await freePort()];
  const api = `http://127.0.0.1:${apiPort}`;
  const site = `http://127.0.0.1:${sitePort}`;
  const stop = async () => {
    for (const child of children) {
      try {
        if (child.pid) process.kill(child.spawnargs[0] === 'npx' ? -child.pid : child.pid);
      } catch {
        // already gone
      }
    }
    await db.stop();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const apiEnv = {
      ...process.env,
      NODE_ENV: 'test',
      MONGODB_URI: withDatabaseName(db.uri, 'lighthouse'),
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      STOREFRONT_URL: site,
      UPLOADS_DIR: path.join(DATA_DIR, 'lighthouse-uploads'),
      DATA_DIR: work,
      LOG_LEVEL: 'warn',
      LOG_PRETTY: 'false',
    };
    run('npx', ['nx', 'run', '@spc/api:build', '--output-style=stream']);
    run('node', ['--import', 'tsx', 'tools/seed/seed.ts', '--if-empty'], apiEnv);
    children.push(
      spawn('node', ['api/dist/main.js'], { cwd: WORKSPACE_ROOT, env: apiEnv, stdio: 'inherit' }),
    );
    await waitFor(`${api}/api/health`);
    const outDir = path.join(work, 'dist');
    const storefront = path.join(WORKSPACE_ROOT, 'storefront');
    run(
      'npx',
      ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      { ...process.env, VITE_API_URL: api, VITE_STOREFRONT_URL: site },
      storefront,
    );
    children.push(
      spawn(
        'npx',
        ['vite', 'preview', '--outDir', outDir, '--host', '127.0.0.1', '--port', String(sitePort)],
        { cwd: storefront, stdio: 'ignore', detached: true },
      ),
    );
    await waitFor(site);
    return { site, api, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const modules = ensureLighthouse();
  const load = (name: string, file: string) =>
    import(pathToFileURL(path.join(modules, name, file)).href);
  const { default: lighthouse } = await load('lighthouse', 'core/index.js');
  const chromeLauncher = await load('chrome-launcher', 'dist/index.js');

  const given = process.env.STOREFRONT_URL && process.env.API_URL;
  const stack = given
    ? { site: process.env.STOREFRONT_URL!, api: process.env.API_URL!, stop: async () => {} }
    : await startStack();
  const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1));
  try {
    const list = (await (await fetch(`${stack.api}/api/products?limit=1`)).json()) as {
      products: { _id: string }[];
    };
    const pages: [string, string][] = [
      ['home', '/'],
      ['shop', '/shop/products'],
      ['product', `/single/product/${list.products[0]._id}`],
      ['cart', '/viewCart'],
      ['checkout', '/checkout'],
      ['tracking', '/track-orders'],
    ];
    const chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    const rows: Row[] = [];
    try {
      for (const [name, route] of pages) {
        const results: Row[] = [];
        for (let i = 0; i < runs; i++) {
          const result = await lighthouse(`${stack.site}${route}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
          });
          const { categories, audits } = result.lhr;
          const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
          if (process.env.LIGHTHOUSE_DETAILS)
            for (const [id, audit] of Object.entries(
              audits as Record<string, { score: number | null; displayValue?: string }>,
            ))
              if (audit.score !== null && audit.score < 0.9)
                console.log(`[${name}] ${id}: ${audit.score} ${audit.displayValue ?? ''}`);
          results.push({
            page: name,
            performance: score('performance'),
            accessibility: score('accessibility'),
            bestPractices: score('best-practices'),
            seo: score('seo'),
            lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
          });
        }
        results.sort((a, b) => a.performance - b.performance);
        rows.push(results[Math.floor(results.length / 2)]!);
      }
    } finally {
      await chrome.kill();
    }
    console.log(`\nLighthouse ${LIGHTHOUSE_VERSION}, mobile (simulated slow 4G), ${stack.site}`);
    console.log('| page | performance | accessibility | best practices | SEO | LCP |');
    console.log('|---|---|---|---|---|---|');
    for (const r of rows)
      console.log(
        `| ${r.page} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${(r.lcpMs / 1000).toFixed(2)} s |`,
      );
  } finally {
    await stack.stop();
  }
}

main().catch((error: Error) => {
  console.error(`[lighthouse] ${error.message}`);
  process.exit(1);
});
