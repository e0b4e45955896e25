/**
 * @jest-environment node
 *
 * Size budgets, enforced by bytes (never by time): the storefront is built as for production and
 * the test fails when the first load (index.html and the scripts and styles it loads, gzip) passes
 * 110 KB (React and react-dom, the runtime the unit tests run) or a screen's own chunks pass their budget below. BUDGET_DIST=<dir> measures an existing
 * build made with `vite build --manifest` (the storefront's `build` script) instead of building:
 * `npm test` measures the storefront/dist its build step has just made.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { kb, measureBundle, type BundleSizes } from './bundle-size';

const KB = 1024;
const FIRST_LOAD_BUDGET = 110 * KB;

/** What opening each screen may add to the first load, gzip (its own styles included since issue 28). */
const ROUTE_BUDGETS: Record<string, number> = {
  home: 12 * KB,
  products: 6 * KB,
  'product-detail': 6 * KB, // 5 before issue 40's price of the chosen unit; 4 before issue 32's bookings
  'cart-page': 7 * KB, // 5 before issue 42's organisation prices and its request for a quote
  checkout: 25 * KB, // 24 before issue 42's organisation prices; 62 before issue 48: the location list and the form's rules load once the form is shown
  'track-orders': 4 * KB,
  contact: 16 * KB,
  about: 3 * KB,
  privacy: 4 * KB,
  profile: 48 * KB, // 47 before issue 45's KRA PIN (the field, and the PIN rule's two small chunks it shares with the checkout); 46 before issue 31's "Your data" section (download, offers by SMS, deletion)
  'my-orders': 9 * KB, // 8 before issue 38's money ledger (asking the shop to cancel); 7 before issue 32's bookings
  'order-detail': 9 * KB, // 8 before issues 42-43's orders from quotations (LPO, on account, asking the shop to cancel); 7 before issue 38's money ledger (payments and refunds, asking the shop); 6 before issue 32's bookings
  'order-document': 4 * KB,
  'not-found': 2 * KB,
  login: 48 * KB,
  register: 48 * KB,
  'forgot-password': 48 * KB,
  'reset-password': 48 * KB,
  // Issue 42's business accounts: the forms (zod, react-hook-form) as login's, and their own code.
  'for-organisations': 47 * KB, // 46 before issue 44's invoicing mode in the organisations' terms (its words and the form's rule)
  // 54 since issue 44: the invoices add only their lazy entry points (?invoices, ?invoice,
  // ?statement) and the overview's links (52.8), and the terms' invoicing mode (words, the form's
  // rule) 0.3 more: 53.1; the invoices' code and styles are their own chunk.
  // 53 since issue 43's deliveries: only their lazy entry points (the accepted quotation's page,
  // `?order=<id>`, the overview's loads under way); their code is its own chunk, loaded with them.
  // 52 before them; 51 before the scanned LPO (the accept form's file; the order's scan: download, attach, replace);
  // 47 before its quotations (the list, and one quotation's page: ?quotation=<id>).
  'my-organisation': 54 * KB,
};

let sizes: BundleSizes;
let built: string | undefined;

beforeAll(() => {
  let dist = process.env.BUDGET_DIST;
  if (!dist) {
    built = mkdtempSync(path.join(os.tmpdir(), 'spc-storefront-budget-'));
    dist = built;
    const res = spawnSync(
      'npx',
      ['vite', 'build', '--manifest', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'],
      // Jest runs with NODE_ENV=test, which Vite would build React's development code with.
      {
        cwd: path.join(__dirname, '../..'),
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    if (res.status !== 0) throw new Error(`vite build failed:\n${res.stderr}`);
  } else if (!existsSync(path.join(dist, '.vite', 'manifest.json'))) {
    throw new Error(`BUDGET_DIST=${dist} holds no build made with \`vite build --manifest\``);
  }
  sizes = measureBundle(dist);
  console.log(
    [
      `first load ${kb(sizes.firstLoad)} gzip:`,
      ...sizes.firstLoadFiles.map((f) => `  ${f.file} ${kb(f.gzip)}`),
      'route chunks (gzip, beyond the first load):',
      ...Object.entries(sizes.routes).map(([r, s]) => `  ${r} ${kb(s.gzip)}`),
    ].join('\n'),
  );
}, 300_000);

afterAll(() => {
  if (built) rmSync(built, { recursive: true, force: true });
});

describe('size budgets (gzip)', () => {
  it('the first load (HTML, JS and CSS index.html loads) stays within 110 KB', () => {
    expect(sizes.firstLoadFiles.some((f) => f.file.endsWith('.js'))).toBe(true);
    expect(sizes.firstLoad).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
  });

  it('every screen has a budget, and its own chunks stay within it', () => {
    expect(Object.keys(sizes.routes).sort()).toEqual(Object.keys(ROUTE_BUDGETS).sort());
    const over = Object.entries(sizes.routes)
      .filter(([route, s]) => s.gzip > ROUTE_BUDGETS[route]!)
      .map(([route, s]) => `${route}: ${kb(s.gzip)} > ${kb(ROUTE_BUDGETS[route]!)}`);
    expect(over).toEqual([]);
  });
});
