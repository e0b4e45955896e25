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
 * (stack.ts: database through the launcher, which honours MONGODB_URI; demo data seeded when empty;
 * the API built and run, behind the reverse proxy of tools/docker/proxy as in production when nginx
 * is installed, LIGHTHOUSE_DIRECT_API=1 to skip it; the storefront built and served by `vite
 * preview`) and stops it afterwards.
 * LIGHTHOUSE_RUNS=<n> audits each page n times; every figure printed is the median of its n values.
 * LIGHTHOUSE_BASE=<git ref> (own stack only) also builds the storefront as it is at that commit
 * (its storefront/ and shared-contracts/, with this checkout's dependencies, behind that commit's
 * proxy) and audits both against the same API and data, each page's runs alternating between the
 * two builds so the machine's load falls on both alike: the table then has before and after columns.
 * LIGHTHOUSE_DETAILS=1 also prints every audit that scored under 0.9 and each run's LCP phases.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DATA_DIR } from '../paths';
import { run, startStack, type Site } from './stack';

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
      `\nLighthouse ${LIGHTHOUSE_VERSION}, mobile (simulated slow 4G), median of ${runs} run(s), ${stack.sites.map((s) => `${s.label} ${s.url}${s.apiPath ? ` (API ${s.apiPath})` : ''}`).join(', ')}; load average ${os
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
