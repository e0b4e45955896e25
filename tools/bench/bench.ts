/**
 * `npm run bench`: the API's hot paths under load, run as production runs it, beside a bare
 * node:http server (its own process) answering the same JSON from memory (the ceiling). A private
 * database holds the demo catalogue grown to BENCH_PRODUCTS products; the API runs built, with
 * NODE_ENV=production, the default log level and format (its request log goes to a file, as to a log
 * collector), helmet, CORS (every request carries the storefront's Origin, as the browser sends it)
 * and every other production setting; only the per-client rate limits are lifted. Prints the
 * settings, start-up time, the API's RSS at the start and the end, requests/s, p50/p99 latency,
 * each read's throughput as a share of the ceiling's and of a same-headers floor (node:http sending
 * the same JSON with the API's own security, CORS and request-id headers), and the CPU time the answering process spent
 * per request (all its threads, from /proc), with the ceiling's CPU per request over the API's: on a
 * machine busy with other work, throughput and latency follow the neighbours, CPU per request much
 * less. Figures are printed, never judged: it exits
 * non-zero only on broken figures (request errors, non-2xx answers, stock taken that differs from
 * the units ordered).
 *
 * Settings: BENCH_PRODUCTS (10000; a comma-separated list, e.g. 1000,10000,100000, runs each size
 * in turn on one growing catalogue and ends with a growth table), BENCH_CONNECTIONS (50),
 * BENCH_SECONDS (10), BENCH_ORDER_CONNECTIONS (the connections placing orders; 10 by default, as
 * each order waits for its stock writes), BENCH_PROFILE=1 (CPU profiles of the API per phase, in
 * .data/drills/bench/profiles, with their top entries printed). After the order run, once the
 * orders stopped changing (requests in flight when the load ended finish in the API after it), it
 * checks that the stock taken equals the quantities ordered (nothing oversold, nothing lost). Each
 * order comes from another shopper (phone, e-mail, X-Forwarded-For address), so the open unpaid
 * order cap applies as in production; the API's and the database server's CPU per order are printed.
 * SPC_DB_SERVER=secantus-py|secantus-rs picks the server. BENCH_API_MAIN runs another build of the API
 * (e.g. `api/dist-base/main.js`, built from an older commit) for an A-B comparison in one session.
 * BENCH_ORDER_UNIT=tray (an API with sale units, issue 29) gives every product a "Tray of 10" unit
 * with two quantity tiers and orders one tray a line instead of one seedling. BENCH_API_BEFORE (an
 * older build's main.js, e.g. `.data/bench-orders/api-before/main.js`: build the older commit and
 * copy its `api/dist` there) runs the order scenario again with that build, after this build's, on
 * the same database and catalogue, and ends with a before/after table of orders per second,
 * latency, the API's and the database's CPU per order, and (BENCH_PROFILE=1) database commands per
 * order. BENCH_ORDERS_ONLY=1 runs the order scenario alone (no read scenarios); BENCH_HOT_PRODUCT=1
 * orders one product only (every placement on one document).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { MongoClient, ObjectId, type Document } from 'mongodb';
import type { DatabaseHandle } from '../db/launcher';
import { serverName } from '../db/probe';
import {
  buildApi,
  cpuMs,
  rssMb,
  say,
  seededDatabase,
  sleep,
  startApi,
  stopApi,
  type ApiProcess,
} from '../drills/support';
import { DATA_DIR } from '../paths';
import { setStockRecorded } from '../stock/ledger-check';
import { printProfileSummary, summarizeProfile } from './profile-summary';

const SIZES = (process.env.BENCH_PRODUCTS ?? '10000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ORDER_CONNECTIONS = Number(process.env.BENCH_ORDER_CONNECTIONS ?? 10);
const PROFILE = process.env.BENCH_PROFILE === '1';
const ORDER_TRAYS = process.env.BENCH_ORDER_UNIT === 'tray';
/** An older build's main.js whose order scenario runs too, for a before/after table in one run. */
const BEFORE_MAIN = process.env.BENCH_API_BEFORE;
/** BENCH_HOT_PRODUCT=1: every order for the same product (contention on one document). */
const HOT_PRODUCT = process.env.BENCH_HOT_PRODUCT === '1';
/** BENCH_ORDERS_ONLY=1: the order scenario alone (no read scenarios, no ceiling). */
const ORDERS_ONLY = process.env.BENCH_ORDERS_ONLY === '1';
/** The tray unit's id on every product (a unit id is unique within its product). */
const TRAY_UNIT_ID = 'b0000000000000000000000a';
const DIR = path.join(DATA_DIR, 'drills', 'bench');
const PROFILE_DIR = path.join(DIR, 'profiles');
/** The only settings changed from production's: the per-client limits (one client places every order). */
const LIFTED = {
  RATE_LIMIT_AUTH_PER_MINUTE: '1000000',
  RATE_LIMIT_TRACKING_PER_MINUTE: '1000000',
  RATE_LIMIT_ORDERS_PER_MINUTE: '1000000',
  RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000000',
  RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000',
  LOGIN_LOCKOUT_AFTER_FAILURES: '1000000',
};
/** A new shopper per order: phone, e-mail number and network address. */
const shopper = {
  count: 0,
  next: () => ++shopper.count,
  phone: () => `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
  ip: () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`,
};

/** Settings production gives the API (docker-compose.yml) beyond the secrets and URLs. */
const PRODUCTION = { NODE_ENV: 'production', TRUST_PROXY: '1' };

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered. */
  requests: number;
  errors: number;
  non2xx: number;
  ratio?: number;
  connections: number;
  /** CPU time of the answering process per answered request, in microseconds (all its threads). */
  cpuUs: number;
  /** The ceiling's CPU time per request over this one's: the share of the ceiling by CPU cost. */
  cpuRatio?: number;
  /** Throughput as a share of node:http answering the same JSON with the API's own headers. */
  floorRatio?: number;
}

interface SizeResult {
  products: number;
  ids: string[];
  healthyMs: number;
  firstListMs: number;
  rssStart: number;
  rssEnd: number;
  rows: Row[];
  ordersPerSecond: number;
  /** The order scenario's figures: this build's, then BENCH_API_BEFORE's when given. */
  orders: OrderFigures;
  before?: OrderFigures;
  logLinesPerRequest: number;
  logBytesPerRequest: number;
}

let broken = false;

async function main(): Promise<void> {
  console.log('[bench] building the API');
  buildApi();
  const seeded = await seededDatabase(DIR);
  const env: NodeJS.ProcessEnv = { ...seeded.env, ...PRODUCTION, ...LIFTED };
  // The API's own defaults, as production leaves them: LOG_LEVEL info, JSON lines (no pretty).
  delete env.LOG_LEVEL;
  delete env.LOG_PRETTY;
  const results: SizeResult[] = [];
  try {
    printSettings(env);
    for (const size of SIZES) {
      const result = await benchSize(size, env, seeded.uri, seeded.db);
      if (BEFORE_MAIN)
        result.before = await benchOrdersBefore(
          BEFORE_MAIN,
          size,
          env,
          seeded.uri,
          seeded.db,
          result.ids,
        );
      results.push(result);
    }
  } finally {
    await seeded.db.stop();
  }
  if (results.length > 1 && !ORDERS_ONLY) printGrowth(results);
  if (BEFORE_MAIN) printBeforeAfter(results);
  if (broken) {
    console.error('\n[bench] broken figures (see above)');
    process.exitCode = 1;
  }
}

function printSettings(env: NodeJS.ProcessEnv): void {
  const shown = (key: string, fallback: string) => `${key}=${env[key] ?? `(unset: ${fallback})`}`;
  console.log(
    [
      '\n[bench] API settings, as in production:',
      `  ${shown('NODE_ENV', '')}, ${shown('LOG_LEVEL', 'the default, info')}, ${shown('LOG_PRETTY', 'off in production, JSON lines')}`,
      `  ${shown('TRUST_PROXY', '')}, ${shown('SWAGGER_ENABLED', 'the default, on')}, ${shown('CATALOG_SYNC_INTERVAL_MS', 'the default, 1000')}`,
      `  helmet and CORS on; every request carries Origin: ${env.STOREFRONT_URL}`,
      `  request log (stdout) appended to ${path.relative(process.cwd(), DIR)}/api-<products>.log`,
      `  lifted for the bench: ${Object.entries(LIFTED)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')} (the per-client limits)`,
      `  load: ${CONNECTIONS} connections (${ORDER_CONNECTIONS} placing orders), ${SECONDS} s a scenario, on ${process.platform}/${process.arch} with ${cpus().length} CPUs`,
    ].join('\n'),
  );
}

async function benchSize(
  size: number,
  env: NodeJS.ProcessEnv,
  uri: string,
  db: DatabaseHandle,
): Promise<SizeResult> {
  const ids = await grow(uri, size);
  if (ORDER_TRAYS) await addTrays(uri);
  const origin = env.STOREFRONT_URL!;
  const logFile = path.join(DIR, `api-${size}.log`);
  rmSync(logFile, { force: true });
  if (PROFILE) {
    rmSync(PROFILE_DIR, { recursive: true, force: true });
    mkdirSync(PROFILE_DIR, { recursive: true });
  }
  say('bench', `${size} products: starting the API (load average ${loadAverage()})`);
  const startedAt = performance.now();
  const api = await startApi(PROFILE ? { ...env, BENCH_PROFILE_DIR: PROFILE_DIR } : env, {
    logFile,
    ...(process.env.BENCH_API_MAIN ? { main: process.env.BENCH_API_MAIN } : {}),
    nodeArgs: PROFILE ? ['--require', path.join(__dirname, 'api-profile.cjs')] : [],
  });
  let ceiling: ChildProcess | undefined;
  try {
    const healthyMs = performance.now() - startedAt;
    const base = api.base;
    const headers = { origin };
    // The first list loads the catalogue into memory: the API serves its shop from then on.
    const first = await fetch(`${base}/api/products?page=1`, { headers });
    const page1 = await first.text();
    // The headers the API answers with (security, CORS, request id), for the same-headers floor.
    const apiHeaders = Object.fromEntries(
      [...first.headers].filter(
        ([name]) =>
          !['date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(
            name,
          ),
      ),
    );
    const firstListMs = performance.now() - startedAt;
    const rssStart = rssMb(api.pid);
    say(
      'bench',
      `healthy after ${ms(healthyMs)}, first product list after ${ms(firstListMs)}; RSS ${rssStart.toFixed(0)} MB`,
    );
    await startupWorkDone(uri);
    const productPage = await (await fetch(`${base}/api/products/${ids[0]}`, { headers })).text();
    const cut = PROFILE ? profileCutter(api, size) : noProfile;
    await cut('start-up');

    const rows: Row[] = [];
    if (!ORDERS_ONLY) {
      const plain = { 'content-type': 'application/json; charset=utf-8' };
      const started = await startCeiling({
        '/list': { body: page1, headers: plain },
        '/product': { body: productPage, headers: plain },
        '/list-headers': { body: page1, headers: apiHeaders },
        '/product-headers': { body: productPage, headers: apiHeaders },
      });
      ceiling = started.child;
      const category = JSON.parse(page1).categories[0]._id as string;
      const ceilingPid = ceiling.pid!;
      const listCeiling = await load('ceiling: node:http, list JSON', `${started.base}/list`, {
        headers,
        pid: ceilingPid,
      });
      rows.push(listCeiling);
      const listFloor = await load(
        "floor: node:http, list JSON with the API's headers",
        `${started.base}/list-headers`,
        { headers, pid: ceilingPid },
      );
      rows.push(listFloor);
      for (const [name, query] of [
        ['GET /api/products (page 1)', 'page=1'],
        [
          'GET /api/products (category + price)',
          `category=${category}&minPrice=100&maxPrice=1500&page=1`,
        ],
        ['GET /api/products (search)', 'search=avocado&page=1'],
      ] as const) {
        const row = await load(name, `${base}/api/products?${query}`, { headers, pid: api.pid });
        rows.push({
          ...row,
          ratio: row.rps / listCeiling.rps,
          cpuRatio: listCeiling.cpuUs / row.cpuUs,
          floorRatio: row.rps / listFloor.rps,
        });
      }
      const productCeiling = await load(
        'ceiling: node:http, product JSON',
        `${started.base}/product`,
        { headers, pid: ceilingPid },
      );
      rows.push(productCeiling);
      const productFloor = await load(
        "floor: node:http, product JSON with the API's headers",
        `${started.base}/product-headers`,
        { headers, pid: ceilingPid },
      );
      rows.push(productFloor);
      const product = await load('GET /api/products/:id (random)', base, {
        pid: api.pid,
        setupRequest: (req) => ({
          ...req,
          headers,
          path: `/api/products/${ids[Math.floor(Math.random() * ids.length)]}`,
        }),
      });
      rows.push({
        ...product,
        ratio: product.rps / productCeiling.rps,
        cpuRatio: productCeiling.cpuUs / product.cpuUs,
        floorRatio: product.rps / productFloor.rps,
      });
      ceiling.kill();
      await cut('reads');
    }
    const readRequests = rows
      .filter((r) => !r.name.startsWith('ceiling') && !r.name.startsWith('floor'))
      .reduce((sum, r) => sum + r.requests, 0);
    const log = requestLog(logFile);

    const orders = await orderPhase(base, ids, headers, api.pid, uri, db);
    rows.push(orders.row);
    const rssEnd = rssMb(api.pid);
    print(size, rows, { rssStart, rssEnd, healthyMs, firstListMs, log, readRequests });
    const ordersPerSecond = await checkOrders(uri, orders.stockBefore, orders.from, orders.row, db);
    printOrderCpu(orders);
    const commands = await cut('orders', Math.round(ordersPerSecond * SECONDS));
    for (const row of rows) {
      if (row.errors || row.non2xx) {
        console.error(`[bench] ${row.name}: ${row.errors} errors, ${row.non2xx} non-2xx answers`);
        broken = true;
      }
    }
    return {
      products: size,
      ids,
      healthyMs,
      firstListMs,
      rssStart,
      rssEnd,
      rows,
      ordersPerSecond,
      orders: orderFigures('this build', orders, ordersPerSecond, commands),
      logLinesPerRequest: log.lines / readRequests,
      logBytesPerRequest: log.bytes / readRequests,
    };
  } finally {
    ceiling?.kill();
    await stopApi(api);
  }
}

/**
 * Ends a profiled phase of the API: prints the top entries of its CPU profile and the database
 * commands it ran (per order placed, when `orders` is given).
 */
function profileCutter(api: ApiProcess, size: number) {
  let index = 0;
  return async (phase: string, orders?: number) => {
    const written = path.join(PROFILE_DIR, `${index++}`);
    api.child.kill('SIGWINCH');
    for (let i = 0; i < 600 && !existsSync(`${written}.cpuprofile`); i++) await sleep(100);
    if (!existsSync(`${written}.cpuprofile`))
      throw new Error(`no CPU profile written for ${phase}`);
    const file = path.join(PROFILE_DIR, `${size}-${phase}.cpuprofile`);
    renameSync(`${written}.cpuprofile`, file);
    printProfileSummary(
      `CPU profile of the API, ${size} products, ${phase} (${path.relative(process.cwd(), file)})`,
      summarizeProfile(file),
    );
    const commands = JSON.parse(readFileSync(`${written}.db.json`, 'utf8')) as Record<
      string,
      { count: number; ms: number }
    >;
    renameSync(`${written}.db.json`, path.join(PROFILE_DIR, `${size}-${phase}.db.json`));
    console.log(
      `\nDatabase commands of the API, ${size} products, ${phase}${orders ? ` (${orders} orders placed)` : ''}\n\n` +
        `| command collection | count |${orders ? ' per order |' : ''} mean ms | total s |\n|---|---:|${orders ? '---:|' : ''}---:|---:|`,
    );
    for (const [name, { count, ms }] of Object.entries(commands).sort((a, b) => b[1].ms - a[1].ms))
      console.log(
        `| ${name} | ${count} |${orders ? ` ${(count / orders).toFixed(2)} |` : ''} ${(ms / count).toFixed(1)} | ${(ms / 1000).toFixed(1)} |`,
      );
    const total = Object.values(commands).reduce((sum, c) => sum + c.count, 0);
    return orders ? total / orders : undefined;
  };
}

/** The cutter when not profiling: no profile, no command count. */
const noProfile = async (_phase: string, _orders?: number): Promise<number | undefined> =>
  undefined;

interface OrderRun {
  row: Row;
  stockBefore: number;
  from: Date;
  /** The database server's CPU time per order, in microseconds (unknown for a server elsewhere). */
  dbCpuUs?: number;
}

/** One build's order figures, for the before/after table. */
interface OrderFigures {
  build: string;
  ordersPerSecond: number;
  p50: number;
  p99: number;
  apiCpuUs: number;
  dbCpuUs?: number;
  /** Database commands per order placed (BENCH_PROFILE=1 only). */
  commands?: number;
}

function orderFigures(
  build: string,
  run: OrderRun,
  ordersPerSecond: number,
  commands: number | undefined,
): OrderFigures {
  return {
    build,
    ordersPerSecond,
    p50: run.row.p50,
    p99: run.row.p99,
    apiCpuUs: run.row.cpuUs,
    dbCpuUs: run.dbCpuUs,
    commands,
  };
}

/**
 * The order scenario: ORDER_CONNECTIONS connections placing one-line orders for SECONDS, each from
 * another shopper; with the stock before and the time it started, for `checkOrders`.
 */
async function orderPhase(
  base: string,
  ids: string[],
  headers: Record<string, string>,
  pid: number,
  uri: string,
  db: DatabaseHandle,
): Promise<OrderRun> {
  const stockBefore = await totalStock(uri);
  const from = new Date();
  const dbCpuBefore = db.pid ? cpuMs(db.pid) : undefined;
  const pick = () => (HOT_PRODUCT ? ids[0] : ids[Math.floor(Math.random() * ids.length)]);
  const row = await load(
    `POST /api/orders (1 line, ${HOT_PRODUCT ? 'one hot product' : 'random product'}${ORDER_TRAYS ? ', a tray of 10' : ''})`,
    base,
    {
      connections: ORDER_CONNECTIONS,
      pid,
      timeout: 60,
      method: 'POST',
      setupRequest: (req) => ({
        ...req,
        path: '/api/orders',
        // Each order from another shopper, as through the reverse proxy: their own phone, e-mail
        // and address (the open unpaid order cap counts by these, as in production).
        headers: {
          ...headers,
          'content-type': 'application/json',
          'x-forwarded-for': shopper.ip(),
        },
        body: JSON.stringify({
          guestInfo: {
            fullName: 'Bench Buyer',
            phoneNumber: shopper.phone(),
            email: `bench-${shopper.next()}@example.co.ke`,
            county: 'Kiambu',
            streetAddress: 'Ruiru',
          },
          products: [
            ORDER_TRAYS
              ? { _id: pick(), unitId: TRAY_UNIT_ID, quantity: 1 }
              : { _id: pick(), quantity: 1 },
          ],
        }),
      }),
    },
  );
  const dbCpuUs =
    dbCpuBefore !== undefined && db.pid
      ? ((cpuMs(db.pid) - dbCpuBefore) * 1000) / Math.max(1, row.requests)
      : undefined;
  return { row, stockBefore, from, dbCpuUs };
}

function printOrderCpu(run: OrderRun): void {
  if (run.dbCpuUs !== undefined)
    console.log(
      `Order CPU: the API ${(run.row.cpuUs / 1000).toFixed(1)} ms and the database server ${(run.dbCpuUs / 1000).toFixed(1)} ms an order (of ${cpus().length} CPUs shared with the load generator)`,
    );
}

/**
 * BENCH_API_BEFORE: the order scenario again with an older build of the API, on the same database
 * and catalogue, right after this build's (its stock check too), for the before/after table.
 */
async function benchOrdersBefore(
  main: string,
  size: number,
  env: NodeJS.ProcessEnv,
  uri: string,
  db: DatabaseHandle,
  ids: string[],
): Promise<OrderFigures> {
  const logFile = path.join(DIR, `api-before-${size}.log`);
  rmSync(logFile, { force: true });
  say('bench', `${size} products: the order scenario again with the build before (${main})`);
  const api = await startApi(PROFILE ? { ...env, BENCH_PROFILE_DIR: PROFILE_DIR } : env, {
    logFile,
    main,
    nodeArgs: PROFILE ? ['--require', path.join(__dirname, 'api-profile.cjs')] : [],
  });
  try {
    const headers = { origin: env.STOREFRONT_URL! };
    // As for this build: the first list loads the catalogue into memory.
    await (await fetch(`${api.base}/api/products?page=1`, { headers })).text();
    await startupWorkDone(uri);
    const cut = PROFILE ? profileCutter(api, size) : noProfile;
    await cut('before-start-up');
    const run = await orderPhase(api.base, ids, headers, api.pid, uri, db);
    const ordersPerSecond = await checkOrders(uri, run.stockBefore, run.from, run.row, db);
    printOrderCpu(run);
    const commands = await cut('before-orders', Math.round(ordersPerSecond * SECONDS));
    if (run.row.errors || run.row.non2xx) {
      console.error(
        `[bench] the build before: ${run.row.errors} errors, ${run.row.non2xx} non-2xx answers`,
      );
      broken = true;
    }
    return orderFigures(`before (${main})`, run, ordersPerSecond, commands);
  } finally {
    await stopApi(api);
  }
}

/** The order scenario of both builds, side by side. */
function printBeforeAfter(results: SizeResult[]): void {
  console.log(
    `\nOrders before and after (one run, one database and catalogue, ${ORDER_CONNECTIONS} connections, ${SECONDS} s each)\n\n` +
      '| products | build | orders/s | p50 ms | p99 ms | API CPU ms an order | database CPU ms an order | database commands an order |\n' +
      '|---:|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of results) {
    for (const f of [r.before, r.orders]) {
      if (!f) continue;
      console.log(
        `| ${r.products} | ${f.build} | ${f.ordersPerSecond.toFixed(1)} | ${f.p50} | ${f.p99} | ${(f.apiCpuUs / 1000).toFixed(2)} | ${f.dbCpuUs === undefined ? '' : (f.dbCpuUs / 1000).toFixed(2)} | ${f.commands === undefined ? '(BENCH_PROFILE=1)' : f.commands.toFixed(2)} |`,
      );
    }
  }
}

/** The request log's lines (those about a request) and bytes. */
function requestLog(file: string): { lines: number; bytes: number } {
  const text = readFileSync(file, 'utf8');
  return {
    lines: text.split('\n').filter((line) => line.includes('"reqId"')).length,
    bytes: statSync(file).size,
  };
}

/**
 * A bare node:http server in its own process answering each path with its JSON from memory: with
 * only a content type (the ceiling), or with the headers the API sends (security, CORS, request id:
 * the floor for an answer carrying them).
 */
async function startCeiling(
  bodies: Record<string, { body: string; headers: Record<string, string> }>,
): Promise<{ child: ChildProcess; base: string }> {
  const file = path.join(DIR, 'ceiling.json');
  writeFileSync(file, JSON.stringify(bodies));
  const script = `
    const bodies = JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'));
    const server = require('node:http').createServer((req, res) => {
      const answer = bodies[req.url];
      res.writeHead(200, answer.headers);
      res.end(answer.body);
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', script, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the ceiling server exited (${code})`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

let demo: Document[] | undefined;

/** Grows the catalogue to `size` by copying the demo products, with stock to spare for orders. */
async function grow(uri: string, size: number): Promise<string[]> {
  const client = await MongoClient.connect(uri);
  try {
    const products = client.db().collection('products');
    // Copies carry no stock ledger of their own: the API opens theirs (an opening balance) at start.
    demo ??= (await products.find({}).toArray()).map(
      ({ ledgerSince: _l, stockSeq: _s, pendingMovements: _p, ...product }) => product,
    );
    // With a correction movement, so the stock ledger still sums to the stock.
    await setStockRecorded(client.db(), {}, 1_000_000, 'Bench stock');
    const have = await products.countDocuments();
    const started = performance.now();
    for (let i = have; i < size; i += 1000) {
      const batch = [];
      for (let j = i; j < Math.min(size, i + 1000); j++) {
        const source = demo[j % demo.length]!;
        batch.push({
          ...source,
          _id: new ObjectId(),
          productName: `${source.productName} (lot ${Math.floor(j / demo.length)})`,
          productQuantity: 1_000_000,
          reservations: [],
          restockedFor: [],
          createdAt: new Date(),
          updatedAt: new Date(),
        });
      }
      await products.insertMany(batch);
    }
    const ids = (await products.find({}, { projection: { _id: 1 } }).toArray()).map((p) =>
      p._id.toString(),
    );
    say(
      'bench',
      `catalogue: ${ids.length} products${size > have ? ` (${size - have} added in ${ms(performance.now() - started)})` : ''}`,
    );
    return ids;
  } finally {
    await client.close();
  }
}

/** Every product sold singly and by a tray of 10 (with two tiers), written to the database. */
async function addTrays(uri: string): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    const products = client.db().collection('products');
    const docs = await products
      .find({}, { projection: { _id: 1, price: 1, onOffer: 1, offerPrice: 1 } })
      .toArray();
    for (let i = 0; i < docs.length; i += 1000) {
      await products.bulkWrite(
        docs.slice(i, i + 1000).map((p) => {
          const price = Number(p.price);
          const single = {
            _id: p._id.toString(),
            name: 'Single seedling',
            seedlings: 1,
            price,
            offerPrice: p.onOffer ? Number(p.offerPrice) : 0,
            sku: '',
            minQuantity: 1,
            step: 1,
            tiers: [],
          };
          const tray = {
            ...single,
            _id: TRAY_UNIT_ID,
            name: 'Tray of 10',
            seedlings: 10,
            price: price * 9,
            offerPrice: 0,
            tiers: [
              { minQuantity: 10, price: price * 8 },
              { minQuantity: 50, price: price * 7 },
            ],
          };
          return {
            updateOne: { filter: { _id: p._id }, update: { $set: { units: [single, tray] } } },
          };
        }),
      );
    }
    say('bench', `every product also sold by the tray of 10 (${docs.length} products)`);
  } finally {
    await client.close();
  }
}

async function load(
  name: string,
  url: string,
  options: Partial<autocannon.Request> & {
    method?: string;
    connections?: number;
    timeout?: number;
    /** The answering process, whose CPU time is measured. */
    pid: number;
  },
): Promise<Row> {
  const { connections = CONNECTIONS, timeout, pid, ...request } = options;
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url,
    connections,
    duration: SECONDS,
    ...(timeout ? { timeout } : {}),
    ...(Object.keys(request).length ? { requests: [request as autocannon.Request] } : {}),
  });
  const row = {
    connections,
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result['2xx'] + result.non2xx,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuUs: 0,
  };
  row.cpuUs = ((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, row.requests);
  console.log(
    `[bench] ${name}: ${row.rps.toFixed(0)} req/s, p99 ${row.p99} ms, ${row.cpuUs.toFixed(0)} µs CPU a request`,
  );
  return row;
}

function print(
  size: number,
  rows: Row[],
  about: {
    rssStart: number;
    rssEnd: number;
    healthyMs: number;
    firstListMs: number;
    log: { lines: number; bytes: number };
    readRequests: number;
  },
): void {
  console.log(
    `\nBench: ${size} products, ${CONNECTIONS} connections, ${SECONDS} s each; load average ${loadAverage()}\n` +
      `API: healthy ${ms(about.healthyMs)} after its start, first product list ${ms(about.firstListMs)}; ` +
      `RSS ${about.rssStart.toFixed(0)} MB at the start, ${about.rssEnd.toFixed(0)} MB at the end; ` +
      `request log ${(about.log.lines / Math.max(1, about.readRequests)).toFixed(2)} lines and ${(about.log.bytes / Math.max(1, about.readRequests)).toFixed(0)} bytes per read request\n`,
  );
  console.log(
    '| scenario | connections | req/s | p50 ms | p99 ms | errors | non-2xx | share of ceiling (req/s) | share of same-headers floor (req/s) | CPU µs a request | share of ceiling (CPU) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const share = (ratio?: number) => (ratio === undefined ? '' : ratio.toFixed(2));
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.connections} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${share(r.ratio)} | ${share(r.floorRatio)} | ${r.cpuUs.toFixed(0)} | ${share(r.cpuRatio)} |`,
    );
  }
}

function printGrowth(results: SizeResult[]): void {
  const row = (r: SizeResult, name: string) => r.rows.find((x) => x.name.includes(name))!;
  console.log(
    '\nGrowth (one run, sizes in turn on one growing catalogue)\n\n' +
      '| products | healthy s | first list s | RSS start MB | RSS end MB | list req/s | list p99 ms | list CPU µs | search req/s | search p99 ms | search CPU µs | product req/s | product p99 ms | orders/s |\n' +
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of results) {
    const list = row(r, '(page 1)');
    const search = row(r, '(search)');
    const product = row(r, ':id');
    console.log(
      `| ${r.products} | ${(r.healthyMs / 1000).toFixed(1)} | ${(r.firstListMs / 1000).toFixed(1)} | ${r.rssStart.toFixed(0)} | ${r.rssEnd.toFixed(0)} | ` +
        `${list.rps.toFixed(0)} | ${list.p99} | ${list.cpuUs.toFixed(0)} | ${search.rps.toFixed(0)} | ${search.p99} | ${search.cpuUs.toFixed(0)} | ${product.rps.toFixed(0)} | ${product.p99} | ${r.ordersPerSecond.toFixed(1)} |`,
    );
  }
}

const ms = (value: number) => `${(value / 1000).toFixed(2)} s`;
const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/**
 * Waits until the API's start-up work on the database is over (the stock ledger opened for the
 * products the bench added, their opening movements copied), so that no scenario is timed against
 * it (the read scenarios used to absorb it; the orders alone would not).
 */
async function startupWorkDone(uri: string): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    const products = client.db().collection('products');
    const started = performance.now();
    for (let i = 0; i < 240; i++) {
      const waiting =
        (await products.countDocuments({ ledgerSince: { $exists: false } })) +
        (await products.countDocuments({ 'pendingMovements.0': { $exists: true } }));
      if (waiting === 0) break;
      await sleep(500);
    }
    say('bench', `the API's start-up ledger work done after ${ms(performance.now() - started)}`);
  } finally {
    await client.close();
  }
}

async function totalStock(uri: string): Promise<number> {
  const client = await MongoClient.connect(uri);
  try {
    const docs = await client
      .db()
      .collection<{ productQuantity: number }>('products')
      .find({}, { projection: { productQuantity: 1 } })
      .toArray();
    return docs.reduce((sum, d) => sum + d.productQuantity, 0);
  } finally {
    await client.close();
  }
}

interface Ledger {
  placed: number;
  unfinished: number;
  reservations: number;
  ordered: number;
  stock: number;
}

/** The orders placed since `from`, the placements not finished, and the stock, read together. */
async function ledger(client: MongoClient, from: Date): Promise<Ledger> {
  const db = client.db();
  const orders = await db
    .collection<{ products: { quantity: number; seedlings?: number }[] }>('orders')
    .find({ placement: 'placed', createdAt: { $gte: from } }, { projection: { products: 1 } })
    .toArray();
  const unfinished = await db
    .collection('orders')
    .countDocuments({ placement: { $in: ['reserving', 'undoing'] } });
  const reservations = await db
    .collection('products')
    .countDocuments({ 'reservations.0': { $exists: true } });
  const stock = await db
    .collection<{ productQuantity: number }>('products')
    .aggregate<{ total: number }>([{ $group: { _id: null, total: { $sum: '$productQuantity' } } }])
    .toArray();
  return {
    placed: orders.length,
    unfinished,
    reservations,
    ordered: orders.reduce(
      (sum, o) => sum + o.products.reduce((s, l) => s + l.quantity * (l.seedlings ?? 1), 0),
      0,
    ),
    stock: stock[0]?.total ?? 0,
  };
}

/**
 * Every unit of stock taken belongs to a placed order; marks the run broken otherwise. Orders answered
 * after the load ended (the API finishes requests whose client left) would make a check made at
 * once compare a moving ledger, so it waits until no placement is half-done, no product holds a
 * reservation, and two readings 2 s apart agree.
 */
async function checkOrders(
  uri: string,
  stockBefore: number,
  from: Date,
  row: Row,
  db: DatabaseHandle,
): Promise<number> {
  const client = await MongoClient.connect(uri);
  try {
    const started = Date.now();
    let last = await ledger(client, from);
    for (;;) {
      await new Promise((r) => setTimeout(r, 2000));
      const now = await ledger(client, from);
      const still =
        now.unfinished === 0 &&
        now.reservations === 0 &&
        now.placed === last.placed &&
        now.stock === last.stock;
      last = now;
      if (still) break;
      if (Date.now() - started > 180_000) {
        console.error('[bench] the orders did not stop changing within 180 s');
        break;
      }
    }
    const taken = stockBefore - last.stock;
    console.log(
      `\nOrders: ${last.placed} placed in ${SECONDS} s (${(last.placed / SECONDS).toFixed(1)}/s) on ${await serverName(client.db())} [${db.description}]; ` +
        `${taken} units of stock taken for ${last.ordered} units ordered (settled after ${((Date.now() - started) / 1000).toFixed(0)} s); ${row.errors} errors, ${row.non2xx} non-2xx answers`,
    );
    if (taken !== last.ordered || last.unfinished || last.reservations) {
      console.error(
        `[bench] stock taken (${taken}) differs from the quantities ordered (${last.ordered}), or ${last.unfinished} placements and ${last.reservations} reservations are left`,
      );
      broken = true;
    }
    return last.placed / SECONDS;
  } finally {
    await client.close();
  }
}

main().catch((error: Error) => {
  console.error(`[bench] ${error.message}`);
  process.exit(1);
});
