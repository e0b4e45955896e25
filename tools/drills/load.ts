/**
 * `npm run drill:load`: a mixed shop workload (product lists, filters, product pages, search, order
 * tracking and orders) on the built API at DRILL_LOAD_CONNECTIONS for DRILL_LOAD_SECONDS, after a
 * warm-up of the same mix. Prints req/s and p50/p99 per kind, the answers by status, and the API's
 * RSS after the warm-up against the end. Exits non-zero on any 5xx, any lost or oversold unit (the
 * orders go to a slice of products with little stock, so many sell out meanwhile), an order answered
 * 201 that does not exist, or RSS growing more than 20 % over the run. Never fails on a time.
 *
 * Settings: DRILL_LOAD_CONNECTIONS (100, shared out as below), DRILL_LOAD_SECONDS (60),
 * DRILL_LOAD_WARMUP_S (30: RSS is read once the heap has grown to its working size), DRILL_LOAD_STOCK (10 units on each of the 40 products orders take from).
 */
import { cpus } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ObjectId } from 'mongodb';
import { DATA_DIR } from '../paths';
import {
  buildApi,
  checkLedger,
  guestOrder,
  ledgerFailed,
  printLedger,
  randomLines,
  rssMb,
  say,
  seededDatabase,
  sleep,
  startApi,
  stockSlice,
  stopApi,
  takeBaseline,
  waitForReconciled,
  withClient,
  type ApiProcess,
} from './support';

const CONNECTIONS = Number(process.env.DRILL_LOAD_CONNECTIONS ?? 100);
const SECONDS = Number(process.env.DRILL_LOAD_SECONDS ?? 60);
const WARMUP_S = Number(process.env.DRILL_LOAD_WARMUP_S ?? 30);
const STOCK = Number(process.env.DRILL_LOAD_STOCK ?? 10);
const ORDER_PRODUCTS = 40;
const MAX_RSS_GROWTH = 0.2;
const D = 'load';

/** Share of the connections each kind of request gets (a shop is mostly browsing). */
const MIX = { list: 0.35, product: 0.25, search: 0.15, track: 0.1, order: 0.15 };

interface Row {
  kind: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  s5xx: number;
  errors: number;
  timeouts: number;
}

async function main(): Promise<void> {
  const dir = path.join(DATA_DIR, 'drills', 'load');
  buildApi();
  const { db, env, uri } = await seededDatabase(dir);
  let api: ApiProcess | undefined;
  const failures: string[] = [];
  try {
    const orderIds = await stockSlice(uri, ORDER_PRODUCTS, STOCK);
    const { productIds, categoryIds, purchaseNumbers } = await withClient(uri, async (client) => {
      const db = client.db();
      return {
        productIds: (
          await db
            .collection('products')
            .find({}, { projection: { _id: 1 } })
            .toArray()
        ).map((p) => p._id.toString()),
        categoryIds: (await db.collection('categories').find({}).toArray()).map((c) =>
          c._id.toString(),
        ),
        purchaseNumbers: (await db.collection('orders').find({}).toArray()).map(
          (o) => o.purchaseNumber as string,
        ),
      };
    });
    const baseline = await takeBaseline(uri);
    api = await startApi(env);
    const answered = new Set<string>();
    const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
    const words = ['avocado', 'kale', 'rose', 'mango', 'grevillea', 'tomato', 'mint', 'xyz'];

    const scenarios: Record<keyof typeof MIX, { timeout: number; request: autocannon.Request }> = {
      list: {
        timeout: 30,
        request: {
          setupRequest: (req) => {
            const filters = [
              `page=${1 + Math.floor(Math.random() * 10)}`,
              `category=${pick(categoryIds)}&page=${1 + Math.floor(Math.random() * 3)}`,
              `minPrice=100&maxPrice=${pick([500, 1500, 5000])}&sortBy=price`,
            ];
            return { ...req, path: `/api/products?${pick(filters)}` };
          },
        },
      },
      product: {
        timeout: 30,
        request: { setupRequest: (req) => ({ ...req, path: `/api/products/${pick(productIds)}` }) },
      },
      search: {
        timeout: 30,
        request: {
          setupRequest: (req) => ({ ...req, path: `/api/products?search=${pick(words)}&page=1` }),
        },
      },
      track: {
        timeout: 30,
        request: {
          setupRequest: (req) => ({
            ...req,
            path: `/api/orders/track/new-order?purchaseNumber=${pick(purchaseNumbers)}`,
          }),
        },
      },
      order: {
        // Orders wait for their stock writes on a slow development database: a generous timeout.
        timeout: 120,
        request: {
          method: 'POST',
          setupRequest: (req) => ({
            ...req,
            path: '/api/orders',
            headers: { 'content-type': 'application/json' },
            body: guestOrder(randomLines(orderIds, 2, 3)),
          }),
          onResponse: (status, body) => {
            if (status !== 201) return;
            const order = (JSON.parse(body) as { order?: { _id: string; purchaseNumber: string } })
              .order;
            if (order) {
              answered.add(order._id);
              if (purchaseNumbers.length < 500) purchaseNumbers.push(order.purchaseNumber);
            }
          },
        },
      },
    };

    const runMix = async (seconds: number): Promise<Row[]> =>
      Promise.all(
        (Object.keys(MIX) as (keyof typeof MIX)[]).map(async (kind) => {
          const connections = Math.max(1, Math.round(CONNECTIONS * MIX[kind]));
          const { timeout, request } = scenarios[kind];
          const result = await autocannon({
            url: api!.base,
            connections,
            duration: seconds,
            timeout,
            requests: [request],
          });
          const statuses = Object.fromEntries(
            Object.entries(result.statusCodeStats ?? {}).map(([s, v]) => [s, v?.count ?? 0]),
          );
          return {
            kind,
            connections,
            requests: result.requests.total,
            rps: result.requests.average,
            p50: result.latency.p50,
            p99: result.latency.p99,
            max: result.latency.max,
            statuses,
            s5xx: (result as unknown as Record<string, number>)['5xx'] ?? 0,
            errors: result.errors,
            timeouts: result.timeouts,
          };
        }),
      );

    say(D, `warm-up: ${WARMUP_S} s of the mix at ${CONNECTIONS} connections`);
    const warm = await runMix(WARMUP_S);
    await sleep(1000);
    const rssWarm = rssMb(api.pid);
    say(D, `RSS after the warm-up: ${rssWarm.toFixed(0)} MB; run: ${SECONDS} s`);
    let rssPeak = rssWarm;
    const series: number[] = [];
    let tick = 0;
    const sampler = setInterval(() => {
      if (!api?.isRunning()) return;
      const rss = rssMb(api.pid);
      rssPeak = Math.max(rssPeak, rss);
      if (++tick % 10 === 0) series.push(rss);
    }, 1000);
    const rows = await runMix(SECONDS);
    clearInterval(sampler);
    const rssEnd = rssMb(api.pid);
    if (!api.isRunning()) failures.push('the API exited during the run');

    printRows(rows);
    const growth = rssEnd / rssWarm - 1;
    console.log(
      `\nRSS: ${rssWarm.toFixed(0)} MB after the warm-up, ${rssEnd.toFixed(0)} MB at the end (${(growth * 100).toFixed(1)} %), peak ${rssPeak.toFixed(0)} MB`,
    );
    say(D, `RSS every 10 s of the run: ${series.map((r) => r.toFixed(0)).join(', ')} MB`);
    if (growth > MAX_RSS_GROWTH)
      failures.push(`RSS grew ${(growth * 100).toFixed(1)} % over the run (limit 20 %)`);
    const all = [...warm, ...rows];
    const fiveXx = all.reduce((n, r) => n + r.s5xx, 0);
    if (fiveXx) failures.push(`${fiveXx} answers were 5xx`);

    const reconciled = await waitForReconciled(uri, 60_000);
    if (!reconciled.settled) failures.push('placements were left half-done');
    const report = await checkLedger(uri, baseline, answered);
    const soldOut = await withClient(uri, (client) =>
      client
        .db()
        .collection('products')
        .countDocuments({
          _id: { $in: orderIds.map((id) => new ObjectId(id)) },
          productQuantity: 0,
        }),
    );
    say(D, `${soldOut} of the ${ORDER_PRODUCTS} products orders take from sold out`);
    printLedger(D, report);
    if (ledgerFailed(report)) failures.push('the stock ledger does not balance');

    const total = rows.reduce((n, r) => n + r.rps, 0);
    const orderRow = rows.find((r) => r.kind === 'order')!;
    console.log(
      `\nLoad drill: ${CONNECTIONS} connections for ${SECONDS} s on ${cpus().length} CPUs: ${total.toFixed(0)} req/s in all; ` +
        `worst p99 ${Math.max(...rows.map((r) => r.p99))} ms (browsing p99 ${Math.max(...rows.filter((r) => r.kind !== 'order').map((r) => r.p99))} ms, orders p99 ${orderRow.p99} ms); ` +
        `5xx ${fiveXx}; errors ${all.reduce((n, r) => n + r.errors, 0)} (timeouts ${all.reduce((n, r) => n + r.timeouts, 0)}); ` +
        `${answered.size} orders answered 201 (${report.orders - answered.size} more placed while autocannon cut their connections at the end of a phase), ${report.unitsOrdered} units in orders = ${report.unitsTaken} taken, lost ${report.unitsLost}, oversold ${report.unitsOversold}; ` +
        `RSS ${rssWarm.toFixed(0)} → ${rssEnd.toFixed(0)} MB (${(growth * 100).toFixed(1)} %) → ${failures.length ? 'FAIL' : 'PASS'}`,
    );
    for (const f of failures) console.error(`  ! ${f}`);
    if (failures.length) process.exitCode = 1;
  } finally {
    await stopApi(api);
    await db.stop();
  }
}

function printRows(rows: Row[]): void {
  console.log(
    `\n| kind | connections | requests | req/s | p50 ms | p99 ms | max ms | answers | errors | timeouts |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---|---:|---:|');
  for (const r of rows) {
    const answers = Object.entries(r.statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    console.log(
      `| ${r.kind} | ${r.connections} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.max} | ${answers} | ${r.errors} | ${r.timeouts} |`,
    );
  }
}

main().catch((error: Error) => {
  console.error(`[${D}] ${error.message}`);
  process.exit(1);
});
