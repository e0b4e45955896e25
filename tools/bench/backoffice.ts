/**
 * `npm run bench:backoffice`: the back office's daily reads, timed over HTTP against the built API
 * on a database holding years of trading (`seed:years`: 200,000 orders by default).
 *
 * 1. A private database with the demo catalogue, filled by seed:years (its time is printed).
 * 2. "before": the API as it was before the back-office indexes and the sales rollup
 *    (BENCH_BEFORE_MAIN, default .data/bench-backoffice/api-base/main.js: a build of the base
 *    commit; the phase is skipped with a note when it is missing). It runs first, so the database
 *    holds only the indexes that build makes.
 * 3. "after": the API of this checkout (api/dist/main.js), which makes its indexes on start.
 *
 * Each call is made BENCH_REPEAT times (20) one after another by the admin; p50, p95 and the rows
 * of an answer are printed per phase in one table. The month's CSV export is timed apart while the
 * API's RSS is sampled every 20 ms (start, peak, end printed). Figures are printed, never judged:
 * a call that fails is shown in the table with its status and time, is not repeated, and makes the
 * exit code 1 once the table is printed.
 *
 * Settings: BENCH_ORDERS (200000), BENCH_CUSTOMERS (20000), BENCH_DAYS (1095), BENCH_REPEAT (20),
 * BENCH_REPEAT_BEFORE (as BENCH_REPEAT),
 * BENCH_BEFORE_MAIN, DRILL_SKIP_BUILD=1 (the API is already built), BENCH_REUSE_DB=1 (the database
 * an earlier run seeded, kept in .data/drills/bench-backoffice: the phases again without the seed).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import {
  apiEnv,
  buildApi,
  privateDatabase,
  rssMb,
  say,
  seededDatabase,
  sleep,
  startApi,
  stopApi,
  type ApiProcess,
} from '../drills/support';
import { DATA_DIR, WORKSPACE_ROOT } from '../paths';
import { describeBatches, seedYears } from '../seed-years/seed-years';

const B = 'bench:backoffice';
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ORDERS = num('BENCH_ORDERS', 200_000);
const CUSTOMERS = num('BENCH_CUSTOMERS', 20_000);
const DAYS = num('BENCH_DAYS', 3 * 365);
const REPEAT = num('BENCH_REPEAT', 20);
/** The "before" phase scans: BENCH_REPEAT_BEFORE (default BENCH_REPEAT) keeps it within minutes. */
const REPEAT_BEFORE = num('BENCH_REPEAT_BEFORE', REPEAT);
const DIR = path.join(DATA_DIR, 'drills', 'bench-backoffice');
/** BENCH_REUSE_DB=1: time the calls on the database an earlier run seeded (no new seed). */
const REUSE = process.env.BENCH_REUSE_DB === '1';
const BEFORE_MAIN =
  process.env.BENCH_BEFORE_MAIN ?? path.join(DATA_DIR, 'bench-backoffice', 'api-base', 'main.js');

interface Call {
  name: string;
  path: string;
}
interface Timed {
  p50: number;
  p95: number;
  rows: number;
  /** The first answer that was not 2xx (the call is not repeated after it), e.g. "500". */
  failed?: string;
}

/** The day `n` days before today in Nairobi, as YYYY-MM-DD. */
function nairobiDay(daysAgo: number): string {
  const t = Date.now() + 3 * 3600_000 - daysAgo * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** The calls a clerk or the owner makes in a day (one of each), with what they need to name. */
async function dailyCalls(uri: string): Promise<Call[]> {
  const client = await MongoClient.connect(uri);
  try {
    const db = client.db();
    const orders = db.collection('orders');
    const sample = await orders.find({}).sort({ orderDate: -1 }).skip(500).limit(1).next();
    const older = await orders.find({}).sort({ orderDate: 1 }).skip(1000).limit(1).next();
    const clerk = await db.collection('users').findOne({ role: 'staff' });
    if (!sample || !older || !clerk) throw new Error('the seeded database has no orders or clerks');
    // A customer with an account and orders (the list counted by its customer, not the rollup).
    const customer = await orders.findOne({ placedBy: { $ne: null } });
    if (!customer) throw new Error('the seeded database has no orders of customers with accounts');
    // The batch holding the most bookings (seed:years sows batches and books them, issue 32).
    const batch = await db.collection('batches').find({}).sort({ booked: -1 }).limit(1).next();
    if (!batch) throw new Error('the seeded database has no batches');
    const guest = sample.guestInfo as { phoneNumber: string; fullName: string };
    const phone = `0${guest.phoneNumber.slice(4)}`;
    const monthFrom = nairobiDay(30);
    const monthTo = nairobiDay(0);
    const yearFrom = nairobiDay(364);
    // This shop week, Monday to Sunday (the dashboard's "batches ready this week").
    const weekday = (new Date(Date.now() + 3 * 3600_000).getUTCDay() + 6) % 7;
    const weekFrom = nairobiDay(weekday);
    const weekTo = nairobiDay(weekday - 6);
    return [
      { name: 'queue counts', path: '/api/orders/queue' },
      { name: 'tab: all', path: '/api/orders?page=1&limit=20' },
      ...['toConfirmPayment', 'toDispatch', 'inTransit', 'toComplete'].map((q) => ({
        name: `tab: ${q}`,
        path: `/api/orders?queue=${q}&page=1&limit=20`,
      })),
      { name: 'filter: status Completed', path: '/api/orders?status=Completed&page=1&limit=20' },
      { name: 'filter: unpaid', path: '/api/orders?paymentStatus=Pending&page=1&limit=20' },
      { name: 'filter: cancelled', path: '/api/orders?status=Cancelled&page=1&limit=20' },
      {
        name: 'filter: last month',
        path: `/api/orders?from=${monthFrom}&to=${monthTo}&page=1&limit=20`,
      },
      {
        name: 'filter: biggest first',
        path: '/api/orders?sortBy=totalAmount&sortOrder=desc&page=1&limit=20',
      },
      { name: 'filter: page 50', path: '/api/orders?page=50&limit=20' },
      {
        name: 'search: purchase number',
        path: `/api/orders?search=${sample.purchaseNumber}&page=1&limit=20`,
      },
      { name: 'search: phone', path: `/api/orders?search=${phone}&page=1&limit=20` },
      {
        name: "search: phone's last 4",
        path: `/api/orders?search=${phone.slice(-4)}&page=1&limit=20`,
      },
      {
        name: 'search: name',
        path: `/api/orders?search=${encodeURIComponent(guest.fullName)}&page=1&limit=20`,
      },
      {
        name: 'search: first name',
        path: `/api/orders?search=${encodeURIComponent(guest.fullName.split(' ')[0]!)}&page=1&limit=20`,
      },
      {
        // Past the search's count bound (1,000): counted to the end of the page asked for.
        name: 'search: first name, page 51',
        path: `/api/orders?search=${encodeURIComponent(guest.fullName.split(' ')[0]!)}&page=51&limit=20`,
      },
      {
        name: "a customer's orders",
        path: `/api/orders/user/${String(customer.placedBy)}?page=1&limit=20`,
      },
      { name: 'order detail', path: `/api/orders/${String(sample._id)}` },
      { name: 'order detail (old)', path: `/api/orders/${String(older._id)}` },
      { name: 'dashboard: sales', path: '/api/sales-summary' },
      { name: 'bookings: counts', path: '/api/bookings/counts' },
      ...(['deposits', 'balances', 'dispatch', 'affected'] as const).map((tab) => ({
        name: `bookings: ${tab}`,
        path: `/api/bookings/queue?tab=${tab}&page=1&limit=20`,
      })),
      { name: 'batches: all', path: '/api/batches?page=1&limit=20' },
      { name: 'batches: growing', path: '/api/batches?status=Growing&page=1&limit=20' },
      {
        name: 'batches: ready this week',
        path: `/api/batches?readyFrom=${weekFrom}&readyTo=${weekTo}&page=1&limit=20`,
      },
      { name: 'batch page', path: `/api/batches/${String(batch._id)}` },
      { name: 'dashboard: staff', path: '/api/staff?page=1' },
      { name: 'dashboard: users', path: '/api/users?page=1' },
      { name: 'dashboard: low stock', path: '/api/stock/low' },
      {
        name: "sales report: the year's",
        path: `/api/sales-summary/report?from=${yearFrom}&to=${monthTo}`,
      },
      {
        name: 'sales report: the month',
        path: `/api/sales-summary/report?from=${monthFrom}&to=${monthTo}`,
      },
      { name: 'audit: filters', path: '/api/audit-logs/filters' },
      { name: 'audit: all', path: '/api/audit-logs?page=1&limit=20' },
      // What the audit screen asks first: 50 entries without customers' sign-ins.
      {
        name: 'audit: the screen',
        path: '/api/audit-logs?page=1&limit=50&hideCustomerSignIns=true',
      },
      { name: 'audit: page 100', path: '/api/audit-logs?page=100&limit=50' },
      {
        name: 'audit: by person, a month',
        path: `/api/audit-logs?user=${String(clerk._id)}&from=${monthFrom}&to=${monthTo}&page=1&limit=20`,
      },
      {
        name: 'audit: by person',
        path: `/api/audit-logs?user=${String(clerk._id)}&page=1&limit=20`,
      },
      {
        name: 'export: week CSV',
        path: `/api/orders/export.csv?from=${nairobiDay(7)}&to=${monthTo}`,
      },
      {
        name: 'export: month CSV',
        path: `/api/orders/export.csv?from=${monthFrom}&to=${monthTo}`,
      },
    ];
  } finally {
    await client.close();
  }
}

/** The rows an answer carries: its longest list (or a CSV's lines less the header). */
function rowsOf(body: string, csv: boolean): number {
  if (csv) return Math.max(0, body.trimEnd().split('\n').length - 1);
  let most = 0;
  const walk = (value: unknown, depth: number): void => {
    if (depth > 3 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      most = Math.max(most, value.length);
      return;
    }
    for (const v of Object.values(value)) walk(v, depth + 1);
  };
  walk(JSON.parse(body), 0);
  return most;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function timeCall(
  api: ApiProcess,
  token: string,
  call: Call,
  repeat = REPEAT,
): Promise<Timed> {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    const res = await fetch(`${api.base}${call.path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await res.text();
    times.push(performance.now() - t0);
    if (!res.ok) {
      // Printed in the table and counted for the exit code; not repeated (a call that ran into
      // the database's time limit would take it every time).
      say(B, `${call.name}: ${res.status} ${body.slice(0, 300)}`);
      times.sort((a, b) => a - b);
      return {
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        rows: 0,
        failed: String(res.status),
      };
    }
    rows = rowsOf(body, call.path.includes('.csv'));
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), rows };
}

/** The month's export once, with the API's RSS sampled while it streams. */
async function timeExport(api: ApiProcess, token: string, call: Call) {
  const samples: number[] = [rssMb(api.pid)];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      samples.push(rssMb(api.pid));
      await sleep(20);
    }
  })();
  const t0 = performance.now();
  const res = await fetch(`${api.base}${call.path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  const ms = performance.now() - t0;
  sampling = false;
  await sampler;
  samples.push(rssMb(api.pid));
  return {
    ms,
    bytes,
    rssStart: samples[0]!,
    rssPeak: Math.max(...samples),
    rssEnd: samples.at(-1)!,
  };
}

async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { data?: { accessToken?: string }; message?: string };
  if (!res.ok || !body.data?.accessToken)
    throw new Error(`the admin could not sign in: ${res.status} ${body.message}`);
  return body.data.accessToken;
}

async function phase(
  label: string,
  main: string,
  env: NodeJS.ProcessEnv,
  calls: Call[],
): Promise<{
  timed: Map<string, Timed>;
  exported: { name: string; figures: Awaited<ReturnType<typeof timeExport>> }[];
}> {
  say(B, `${label}: starting ${path.relative(WORKSPACE_ROOT, main)}`);
  const t0 = performance.now();
  const api = await startApi(env, { main, quiet: true });
  say(B, `${label}: healthy in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  try {
    // A session lasts 15 minutes and a "before" phase on 200,000 orders outlasts it: signed in
    // again, between calls, when the last sign-in is 10 minutes old.
    let session = { token: '', at: -Infinity };
    const token = async () => {
      if (performance.now() - session.at > 10 * 60_000)
        session = {
          token: await signIn(api.base, env.ADMIN_EMAIL!, env.ADMIN_PASSWORD!),
          at: performance.now(),
        };
      return session.token;
    };
    const timed = new Map<string, Timed>();
    // One warm-up pass (the first call of each builds its caches, e.g. the sales rollup).
    for (const call of calls)
      await timeCall(api, await token(), { ...call }, 1).catch(() => undefined);
    const repeat = label === 'before' ? REPEAT_BEFORE : REPEAT;
    for (const call of calls)
      timed.set(call.name, await timeCall(api, await token(), call, repeat));
    // Each export again, its RSS sampled: a week's and a month's show whether memory follows the rows.
    const exported = [];
    for (const call of calls.filter((c) => c.path.includes('.csv')))
      exported.push({ name: call.name, figures: await timeExport(api, await token(), call) });
    return { timed, exported };
  } finally {
    await stopApi(api);
  }
}

async function main(): Promise<void> {
  buildApi();
  if (REUSE && existsSync(path.join(DIR, 'db'))) {
    // The database seeded by an earlier run, as it was left (the "before" phase makes no indexes
    // of the "after" one; after the "after" phase, "before" would find them).
    const db = await privateDatabase(DIR);
    const env = apiEnv(DIR, db.uri);
    try {
      say(B, `reusing the database seeded before in ${path.relative(WORKSPACE_ROOT, DIR)}`);
      await measure(env.MONGODB_URI!, env);
    } finally {
      await db.stop();
    }
    return;
  }
  rmSync(DIR, { recursive: true, force: true });
  const { db, env, uri } = await seededDatabase(DIR);
  try {
    say(B, `seed:years: ${ORDERS} orders, ${CUSTOMERS} customers over ${DAYS} days`);
    const client = await MongoClient.connect(uri);
    const seeded = await seedYears(client.db(), {
      orders: ORDERS,
      customers: CUSTOMERS,
      days: DAYS,
      seed: 33,
      batch: 5000,
      log: (line) => say(B, line),
    }).finally(() => client.close());
    say(
      B,
      `seeded ${seeded.orders} orders, ${seeded.users} accounts, ${seeded.movements} stock movements, ` +
        `${seeded.audit} audit entries, ${seeded.sms} SMS records, ${seeded.refunds} refunds, ` +
        `${seeded.paybill} paybill payments, ${describeBatches(seeded)} in ${seeded.seconds.toFixed(1)} s`,
    );
    await measure(uri, env);
  } finally {
    await db.stop();
  }
}

/** The calls timed by phase, and the table. */
async function measure(uri: string, env: NodeJS.ProcessEnv): Promise<void> {
  {
    const calls = await dailyCalls(uri);
    const phases: { label: string; result: Awaited<ReturnType<typeof phase>> }[] = [];
    if (existsSync(BEFORE_MAIN)) {
      phases.push({ label: 'before', result: await phase('before', BEFORE_MAIN, env, calls) });
    } else say(B, `no build of the base at ${BEFORE_MAIN}: the "before" phase is skipped`);
    const after = path.join(WORKSPACE_ROOT, 'api', 'dist', 'main.js');
    // As a deploy does: the migrations of this build before it starts (the orders' search keys).
    const t0 = performance.now();
    execFileSync('node', [path.join(path.dirname(after), 'scripts', 'migrate.js')], {
      env,
      stdio: 'inherit',
    });
    say(B, `after: migrated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    phases.push({ label: 'after', result: await phase('after', after, env, calls) });

    const f = (n: number) => n.toFixed(1).padStart(7);
    const head = phases.map((p) => `${p.label} p50  p95    rows`.padStart(26)).join(' |');
    console.log(`\n${'call'.padEnd(30)}|${head}`);
    for (const call of calls) {
      const cells = phases.map((p) => {
        const t = p.result.timed.get(call.name)!;
        if (t.failed) return `${t.failed} after ${t.p95.toFixed(0)} ms`.padStart(26);
        return `${f(t.p50)} ${f(t.p95)} ${String(t.rows).padStart(7)}`.padStart(26);
      });
      console.log(`${call.name.padEnd(30)}|${cells.join(' |')}`);
    }
    console.log('(ms; rows: the longest list in one answer, CSV: lines without the header)');
    for (const p of phases) {
      for (const { name, figures: e } of p.result.exported)
        console.log(
          `${p.label}: ${name} ${e.ms.toFixed(0)} ms, ${(e.bytes / 1024).toFixed(0)} KB; ` +
            `API RSS ${e.rssStart.toFixed(0)} MB at the start, ${e.rssPeak.toFixed(0)} MB at the peak, ${e.rssEnd.toFixed(0)} MB at the end`,
        );
    }
    const failed = phases.flatMap((p) =>
      calls.filter((c) => p.result.timed.get(c.name)!.failed).map((c) => `${p.label}: ${c.name}`),
    );
    if (failed.length) throw new Error(`calls that failed: ${failed.join(', ')}`);
  }
}

main().catch((error: Error) => {
  console.error(`[${B}] ${error.message}`);
  process.exit(1);
});
