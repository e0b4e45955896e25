/**
 * `npm run lighthouse`: Lighthouse's mobile audit (its default: a mid-range phone on a slow 4G link,
 * simulated) of the built storefront against the API, on the system Chromium. Prints performance,
 * accessibility, best practices, SEO, LCP and the LCP element for home, shop, product, cart,
 * checkout and tracking, and the build's first load (gzip, as the size budget counts it). Scores on
 * a shared, busy machine move by a few points from run to run: read them as figures, never gate on
 * them. Lighthouse 12 (Node 20; 13 needs Node 22) is installed on first use under
 * .data/tools/lighthouse, outside the workspace's node_modules.
 *
 * With STOREFRONT_URL and API_URL set it audits that running stack; otherwise it starts its own
 * (database through the launcher, which honours MONGODB_URI; demo data seeded when empty; the API
 * built and run; the storefront built and served by `vite preview`) and stops it afterwards.
 * LIGHTHOUSE_RUNS=<n> audits each page n times; every figure printed is the median of its n values.
 * LIGHTHOUSE_BASE=<git ref> (own stack only) also builds the storefront as it is at that commit
 * (its storefront/ and shared-contracts/, with this checkout's dependencies) and audits both against
 * the same API and data, each page's runs alternating between the two builds so the machine's load
 * falls on both alike: the table then has before and after columns.
 * LIGHTHOUSE_DETAILS=1 also prints every audit that scored under 0.9 and each run's LCP phases.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureDatabase, freePort, withDatabaseName } from '../db/launcher';
import { DATA_DIR, WORKSPACE_ROOT } from '../paths';

const CHROMIUM = '/usr/bin/chromium';
const LIGHTHOUSE_VERSION = '12.8.2';
const TOOL_DIR = path.join(DATA_DIR, 'tools', 'lighthouse');

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  /** The LCP element as Lighthouse names it (selector and label). */
  lcpElement: string;
}

/** One storefront audited: where it is served and its first load (gzip bytes) when built here. */
interface Site {
  label: string;
  url: string;
  firstLoad?: number;
}

interface LighthouseNode {
  selector?: string;
  nodeLabel?: string;
}
interface LighthouseAudit {
  score: number | null;
  numericValue?: number;
  displayValue?: string;
  details?: { items?: { items?: Record<string, unknown>[] }[] };
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

/**
 * The storefront's sources at `ref` under .data (inside the workspace, so its packages resolve to
 * this checkout's node_modules); returns its storefront folder.
 */
function checkoutBase(ref: string): string {
  const root = path.join(DATA_DIR, 'lighthouse-base');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const archive = spawnSync(
    'git',
    ['archive', ref, 'storefront', 'shared-contracts', 'tsconfig.base.json'],
    { cwd: WORKSPACE_ROOT, maxBuffer: 512 * 1024 * 1024 },
  );
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', root], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  // The storefront's own packages (vite and its plugins) are not hoisted to the root.
  symlinkSync(
    path.join(WORKSPACE_ROOT, 'storefront', 'node_modules'),
    path.join(root, 'storefront', 'node_modules'),
  );
  return path.join(root, 'storefront');
}

/** Starts database, API and built storefront(s); returns their addresses and a stop function. */
async function startStack(baseRef: string | undefined) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'spc-lighthouse-'));
  const db = await ensureDatabase({ dir: path.join(DATA_DIR, 'lighthouse-db') });
  const children: ChildProcess[] = [];
  const [apiPort, sitePort, basePort] = [await freePort(), await freePort(), await freePort()];
  const api = `http://127.0.0.1:${apiPort}`;
  const sites: Site[] = [];
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
  /** Builds the storefront in `dir` for `url`, serves it there, and records its first load. */
  const serve = async (label: string, dir: string, port: number) => {
    const url = `http://127.0.0.1:${port}`;
    const outDir = path.join(work, `dist-${label}`);
    run(
      'npx',
      ['vite', 'build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      { ...process.env, VITE_API_URL: api, VITE_STOREFRONT_URL: url },
      dir,
    );
    children.push(
      spawn(
        'npx',
        ['vite', 'preview', '--outDir', outDir, '--host', '127.0.0.1', '--port', String(port)],
        { cwd: dir, stdio: 'ignore', detached: true },
      ),
    );
    await waitFor(url);
    // The size budget's own measure (an ES module of the storefront's).
    const { measureBundle } = await import('../../storefront/src/budget/bundle-size.js');
    sites.push({ label, url, firstLoad: measureBundle(outDir).firstLoad });
  };
  try {
    const apiEnv = {
      ...process.env,
      NODE_ENV: 'test',
      MONGODB_URI: withDatabaseName(db.uri, 'lighthouse'),
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      STOREFRONT_URL: `http://127.0.0.1:${sitePort}`,
      // The older build is served where the back office would be: the API lets both origins in.
      ...(baseRef ? { BACKOFFICE_URL: `http://127.0.0.1:${basePort}` } : {}),
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
    if (baseRef) await serve('before', checkoutBase(baseRef), basePort);
    await serve(baseRef ? 'after' : 'now', path.join(WORKSPACE_ROOT, 'storefront'), sitePort);
    return { sites, api, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** "div.hero-slide > img (a picture)": the LCP element's selector and label, from the audit. */
function lcpElement(audit: LighthouseAudit | undefined): string {
  const node = audit?.details?.items?.[0]?.items?.[0]?.node as LighthouseNode | undefined;
  if (!node) return 'none';
  const label = (node.nodeLabel ?? '').replace(/\s+/g, ' ').slice(0, 40);
  return `${node.selector ?? '?'}${label ? ` "${label}"` : ''}`;
}

/** Each run's LCP phases (TTFB, load delay, load time, render delay), for LIGHTHOUSE_DETAILS. */
function lcpPhases(audit: LighthouseAudit | undefined): string {
  const rows = audit?.details?.items?.[1]?.items ?? [];
  return rows.map((r) => `${String(r.phase)} ${Math.round(Number(r.timing))} ms`).join(', ');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median of each figure over the runs; the element is the one of the median-LCP run. */
function medians(runs: Figures[]): Figures {
  const byLcp = [...runs].sort((a, b) => a.lcpMs - b.lcpMs);
  const of = (key: keyof Omit<Figures, 'lcpElement'>) => median(runs.map((r) => r[key]));
  return {
    performance: of('performance'),
    accessibility: of('accessibility'),
    bestPractices: of('bestPractices'),
    seo: of('seo'),
    lcpMs: of('lcpMs'),
    lcpElement: byLcp[Math.floor(byLcp.length / 2)]!.lcpElement,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function printTable(sites: Site[], rows: [string, Figures[]][]): void {
  for (const site of sites)
    if (site.firstLoad !== undefined)
      console.log(`first load (${site.label}): ${(site.firstLoad / 1024).toFixed(1)} KB gzip`);
  if (sites.length === 1) {
    console.log(
      '| page | performance | accessibility | best practices | SEO | LCP | LCP element |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const [page, [r]] of rows)
      console.log(
        `| ${page} | ${r!.performance} | ${r!.accessibility} | ${r!.bestPractices} | ${r!.seo} | ${seconds(r!.lcpMs)} | ${r!.lcpElement} |`,
      );
    return;
  }
  console.log(
    '| page | LCP before | LCP after | performance before | performance after | accessibility, best practices, SEO after | LCP element before | LCP element after |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [page, [b, a]] of rows)
    console.log(
      `| ${page} | ${seconds(b!.lcpMs)} | ${seconds(a!.lcpMs)} | ${b!.performance} | ${a!.performance} | ${a!.accessibility}, ${a!.bestPractices}, ${a!.seo} | ${b!.lcpElement} | ${a!.lcpElement} |`,
    );
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const modules = ensureLighthouse();
  const load = (name: string, file: string) =>
    import(pathToFileURL(path.join(modules, name, file)).href);
  const { default: lighthouse } = await load('lighthouse', 'core/index.js');
  const chromeLauncher = await load('chrome-launcher', 'dist/index.js');

  const given = process.env.STOREFRONT_URL && process.env.API_URL;
  const baseRef = process.env.LIGHTHOUSE_BASE;
  if (given && baseRef) throw new Error('LIGHTHOUSE_BASE needs the stack this tool starts');
  const stack = given
    ? {
        sites: [{ label: 'now', url: process.env.STOREFRONT_URL! }],
        api: process.env.API_URL!,
        stop: async () => {},
      }
    : await startStack(baseRef);
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
    const rows: [string, Figures[]][] = [];
    try {
      for (const [name, route] of pages) {
        const results = stack.sites.map(() => [] as Figures[]);
        for (let i = 0; i < runs; i++) {
          for (const [s, site] of stack.sites.entries()) {
            const result = await lighthouse(`${site.url}${route}`, {
              port: chrome.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
            });
            const { categories } = result.lhr;
            const audits = result.lhr.audits as Record<string, LighthouseAudit>;
            const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
            const element = audits['largest-contentful-paint-element'];
            if (process.env.LIGHTHOUSE_DETAILS) {
              console.log(`[${name} ${site.label}] LCP phases: ${lcpPhases(element)}`);
              for (const [id, audit] of Object.entries(audits))
                if (audit.score !== null && audit.score < 0.9)
                  console.log(
                    `[${name} ${site.label}] ${id}: ${audit.score} ${audit.displayValue ?? ''}`,
                  );
            }
            results[s]!.push({
              performance: score('performance'),
              accessibility: score('accessibility'),
              bestPractices: score('best-practices'),
              seo: score('seo'),
              lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
              lcpElement: lcpElement(element),
            });
          }
        }
        rows.push([name, results.map(medians)]);
      }
    } finally {
      await chrome.kill();
    }
    console.log(
      `\nLighthouse ${LIGHTHOUSE_VERSION}, mobile (simulated slow 4G), median of ${runs} run(s), ${stack.sites.map((s) => `${s.label} ${s.url}`).join(', ')}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    printTable(stack.sites, rows);
  } finally {
    await stack.stop();
  }
}

main().catch((error: Error) => {
  console.error(`[lighthouse] ${error.message}`);
  process.exit(1);
});
