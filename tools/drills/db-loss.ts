/**
 * `npm run drill:db-loss`: stops the database under load and starts it again on the same port and
 * data. Checks that health turns 503 within seconds, that requests meanwhile fail fast with a 503
 * and a clear message (no 500, no hang, the API does not exit), that the API serves again once the
 * database is back without being restarted, and that no unit of stock was lost or oversold.
 * Prints the time to 503, the latency of the failures and the recovery time; gates only on
 * correctness and on generous bounds (a request hanging past DRILL_DBLOSS_HANG_S, no recovery
 * within 90 s), never on a measured time.
 *
 * Settings: DRILL_DBLOSS_OUTAGE_S (20: how long the database stays away), DRILL_DBLOSS_WORKERS (8),
 * DRILL_DBLOSS_HANG_S (20).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseHandle } from '../db/launcher';
import { DATA_DIR } from '../paths';
import {
  buildApi,
  checkLedger,
  freePort,
  guestOrder,
  ledgerFailed,
  percentile,
  printLedger,
  privateDatabase,
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

const OUTAGE_S = Number(process.env.DRILL_DBLOSS_OUTAGE_S ?? 20);
const WORKERS = Number(process.env.DRILL_DBLOSS_WORKERS ?? 8);
const HANG_S = Number(process.env.DRILL_DBLOSS_HANG_S ?? 20);
const RECOVERY_BOUND_MS = 90_000;
const D = 'db-loss';

type Phase = 'before' | 'stopping' | 'down' | 'recovering' | 'after';

interface Sample {
  kind: string;
  phase: Phase;
  started: number;
  ms: number;
  status: number;
  message?: string;
}

async function main(): Promise<void> {
  const dir = path.join(DATA_DIR, 'drills', 'db-loss');
  buildApi();
  const dbPort = await freePort();
  const seeded = await seededDatabase(dir, { ORDER_RECONCILE_AFTER_MS: '5000' }, dbPort);
  let db: DatabaseHandle | undefined = seeded.db;
  const { env, uri } = seeded;
  let api: ApiProcess | undefined;
  const failures: string[] = [];
  try {
    const ids = await stockSlice(uri, 20, 100_000);
    const purchaseNumbers = await withClient(uri, async (client) =>
      (await client.db().collection('orders').find({}).limit(10).toArray()).map(
        (o) => o.purchaseNumber as string,
      ),
    );
    const baseline = await takeBaseline(uri);
    api = await startApi(env);
    const base = api.base;
    const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
    const requests: { kind: string; make: () => [string, RequestInit?] }[] = [
      { kind: 'list', make: () => [`/api/products?page=${1 + Math.floor(Math.random() * 5)}`] },
      { kind: 'search', make: () => [`/api/products?search=${pick(['avocado', 'kale', 'rose'])}`] },
      { kind: 'product', make: () => [`/api/products/${pick(ids)}`] },
      { kind: 'categories', make: () => ['/api/categories'] },
      {
        kind: 'track',
        make: () => [`/api/orders/track/new-order?purchaseNumber=${pick(purchaseNumbers)}`],
      },
      {
        kind: 'order',
        make: () => [
          '/api/orders',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: guestOrder([{ _id: pick(ids), quantity: 1 }]),
          },
        ],
      },
      {
        kind: 'login',
        make: () => [
          '/api/auth/login',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'staff@spc.local', password: 'Staff@1234' }),
          },
        ],
      },
    ];

    let phase: Phase = 'before';
    let stopping = false;
    const samples: Sample[] = [];
    const answered = new Set<string>();
    const workers = Array.from({ length: WORKERS }, (_, w) =>
      (async () => {
        for (let i = w; !stopping; i++) {
          const { kind, make } = requests[i % requests.length]!;
          const [route, init] = make();
          const started = Date.now();
          const startPhase = phase;
          try {
            const res = await fetch(`${base}${route}`, {
              ...init,
              signal: AbortSignal.timeout(120_000),
            });
            const body = (await res.json().catch(() => ({}))) as {
              message?: string;
              order?: { _id: string };
            };
            if (res.status === 201 && body.order) answered.add(body.order._id);
            samples.push({
              kind,
              phase: startPhase,
              started,
              ms: Date.now() - started,
              status: res.status,
              message: body.message,
            });
          } catch (error) {
            samples.push({
              kind,
              phase: startPhase,
              started,
              ms: Date.now() - started,
              status: 0,
              message: (error as Error).message,
            });
          }
          await sleep(50);
        }
      })(),
    );

    await sleep(5000);
    phase = 'stopping';
    const downAt = Date.now();
    await db?.stop();
    db = undefined;
    phase = 'down';
    const stoppedIn = Date.now() - downAt;
    say(
      D,
      `database stopped (SIGTERM, gone after ${ms(stoppedIn)}; ${WORKERS} connections of mixed requests running)`,
    );
    const to503 = await until(async () => (await health(base)) === 503, 30_000);
    say(
      D,
      to503 === undefined
        ? 'health never turned 503'
        : `health 503 ${ms(to503)} after the database was gone (${ms(to503 + stoppedIn)} after the stop began)`,
    );
    if (to503 === undefined) failures.push('health did not turn 503 within 30 s');
    const elapsed = Date.now() - downAt;
    await sleep(Math.max(0, OUTAGE_S * 1000 - elapsed));

    phase = 'recovering';
    const upAt = Date.now();
    db = await privateDatabase(dir, dbPort);
    say(D, `database started again on the same port and data after ${ms(upAt - downAt)} away`);
    const toHealthy = await until(async () => (await health(base)) === 200, RECOVERY_BOUND_MS);
    // Serving again: every kind of request succeeds once in a row.
    const toServing = await until(async () => {
      for (const { make } of requests) {
        const [route, init] = make();
        const res = await fetch(`${base}${route}`, {
          ...init,
          signal: AbortSignal.timeout(30_000),
        });
        if (!res.ok) return false;
        const body = (await res.json()) as { order?: { _id: string } };
        if (body.order && res.status === 201) answered.add(body.order._id);
      }
      return true;
    }, RECOVERY_BOUND_MS);
    phase = 'after';
    say(
      D,
      toHealthy === undefined || toServing === undefined
        ? 'the API did not recover'
        : `health 200 after ${ms(toHealthy)}; every kind of request served after ${ms(toServing)} (no restart of the API)`,
    );
    if (toServing === undefined) {
      failures.push(`the API did not serve again within ${RECOVERY_BOUND_MS / 1000} s`);
      // What the API's sockets to the database look like, for whoever looks into it.
      const sockets = spawnSync('ss', ['-tnpo', `( dport = :${dbPort} or sport = :${dbPort} )`], {
        encoding: 'utf8',
      });
      console.error(`[${D}] sockets on the database port:\n${sockets.stdout || sockets.stderr}`);
    }
    await sleep(3000);
    stopping = true;
    await Promise.all(workers);
    if (!api.isRunning()) failures.push(`the API exited (${await api.exited})`);

    writeFileSync(
      path.join(dir, 'samples.json'),
      JSON.stringify(samples.map((s) => ({ ...s, at: s.started - downAt }))),
    );
    // What the requests saw while the database was away.
    const down = samples.filter((s) => s.phase === 'down');
    const byKind = new Map<string, Map<number, number>>();
    for (const s of down) {
      const m = byKind.get(s.kind) ?? new Map<number, number>();
      m.set(s.status, (m.get(s.status) ?? 0) + 1);
      byKind.set(s.kind, m);
    }
    say(D, `while the database was away (${down.length} requests):`);
    for (const [kind, statuses] of byKind) {
      const lat = down.filter((s) => s.kind === kind).map((s) => s.ms);
      console.log(
        `  ${kind.padEnd(10)} ${[...statuses].map(([s, n]) => `${s || 'no answer'}×${n}`).join(', ')}; ` +
          `p50 ${percentile(lat, 50)} ms, p99 ${percentile(lat, 99)} ms, max ${Math.max(...lat)} ms`,
      );
    }
    const unavailable = down.filter((s) => s.status === 503);
    const failLatency = unavailable.map((s) => s.ms);
    const messages = [...new Set(unavailable.map((s) => s.message))];
    say(D, `503 messages: ${messages.map((m) => JSON.stringify(m)).join(' | ') || 'none'}`);
    const bad = samples.filter(
      (s) => s.status === 0 || (s.status >= 500 && s.status !== 503) || s.ms > HANG_S * 1000,
    );
    for (const s of bad.slice(0, 10))
      console.error(
        `  ! ${s.kind} (${s.phase}): ${s.status || 'no answer'} after ${s.ms} ms: ${s.message}`,
      );
    if (bad.length)
      failures.push(
        `${bad.length} requests answered 500, not at all, or after more than ${HANG_S} s`,
      );
    if (!unavailable.length)
      failures.push('no request was answered 503 while the database was away');
    if (unavailable.some((s) => !s.message || !/unavailable/i.test(s.message)))
      failures.push('a 503 came without a clear message');
    const afterBad = samples.filter(
      (s) => s.phase === 'after' && !(s.status >= 200 && s.status < 300),
    );
    if (afterBad.length)
      failures.push(`${afterBad.length} requests failed after the API had recovered`);

    const reconciled = await waitForReconciled(uri, 60_000);
    if (!reconciled.settled) failures.push('half-placed orders were not reconciled within 60 s');
    const report = await checkLedger(uri, baseline, answered);
    printLedger(D, report);
    if (ledgerFailed(report)) failures.push('the stock ledger does not balance');

    console.log(
      `\nDatabase-loss drill: outage ${ms(upAt - downAt)}; health 503 ${to503 === undefined ? 'never' : `${ms(to503)} after the database was gone`}; ` +
        `${unavailable.length} requests answered 503 in p50 ${percentile(failLatency, 50)} ms / p99 ${percentile(failLatency, 99)} ms / max ${failLatency.length ? Math.max(...failLatency) : NaN} ms; ` +
        `${down.filter((s) => s.status >= 200 && s.status < 300).length} answered 2xx meanwhile; ` +
        `recovery: health 200 after ${toHealthy === undefined ? 'never' : ms(toHealthy)}, serving after ${toServing === undefined ? 'never' : ms(toServing)}; ` +
        `${answered.size} orders answered 201, lost ${report.unitsLost}, oversold ${report.unitsOversold} → ${failures.length ? 'FAIL' : 'PASS'}`,
    );
    for (const f of failures) console.error(`  ! ${f}`);
    if (failures.length) process.exitCode = 1;
  } finally {
    await stopApi(api);
    await db?.stop();
  }
}

async function health(base: string): Promise<number> {
  try {
    return (await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(10_000) })).status;
  } catch {
    return 0;
  }
}

/** Milliseconds until `probe` holds, polling every 250 ms; undefined past the deadline. */
async function until(
  probe: () => Promise<boolean>,
  timeoutMs: number,
): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await probe().catch(() => false)) return Date.now() - started;
    await sleep(250);
  }
  return undefined;
}

const ms = (n: number): string => `${(n / 1000).toFixed(1)} s`;

main().catch((error: Error) => {
  console.error(`[${D}] ${error.message}`);
  process.exit(1);
});
