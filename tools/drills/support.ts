/**
 * What the drills share: a private database, the built API run as in production, and the stock
 * ledger check that reads the database directly (every unit of stock is either on the shelf or in an
 * order that exists and is not cancelled).
 */
import { setStockRecorded } from '../stock/ledger-check';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  cpSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { ensureDatabase, freePort, withDatabaseName, type DatabaseHandle } from '../db/launcher';
import { WORKSPACE_ROOT } from '../paths';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function say(drill: string, message: string): void {
  const clock = new Date().toISOString().slice(11, 19);
  console.log(`[${drill} ${clock}] ${message}`);
}

export function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const res = spawnSync(command, args, { cwd: WORKSPACE_ROOT, env, stdio: 'inherit' });
  if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

/** Builds the API unless DRILL_SKIP_BUILD=1 (CI has just built it; Nx answers from its cache anyway). */
export function buildApi(): void {
  if (process.env.DRILL_SKIP_BUILD === '1') return;
  run('npx', ['nx', 'run', '@spc/api:build', '--output-style=stream']);
}

export async function privateDatabase(dir: string, port?: number): Promise<DatabaseHandle> {
  return ensureDatabase({
    dir: path.join(dir, 'db'),
    private: true,
    ...(port ? { port } : {}),
    log: (m) => console.log(`[db] ${m}`),
  });
}

/** The production-like environment of bench.ts, with the rate limits out of the way. */
export function apiEnv(
  dir: string,
  serverUri: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    MONGODB_URI: withDatabaseName(serverUri, 'drill'),
    JWT_SECRET: '9b2e6a0d4f8c1e5a3d7b0f6c2e9a5d1b8f4c0e7a',
    ADMIN_EMAIL: 'drill@example.co.ke',
    ADMIN_PASSWORD: 'Drill#2026ab',
    STOREFRONT_URL: 'http://localhost:5173',
    BACKOFFICE_URL: 'http://localhost:5174',
    SHOP_PHONE: '+254 712 000 222',
    SHOP_EMAIL: 'drill-shop@example.co.ke',
    BUSINESS_WHATSAPP: '254712000222',
    UPLOADS_DIR: path.join(dir, 'uploads'),
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000000',
    RATE_LIMIT_TRACKING_PER_MINUTE: '1000000',
    RATE_LIMIT_ORDERS_PER_MINUTE: '1000000',
    RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000000',
    RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000',
    LOGIN_LOCKOUT_AFTER_FAILURES: '1000000',
    ORDER_MAX_OPEN_UNPAID: '1000000',
    ORDER_MAX_UNITS_PER_ORDER: '1000000',
    ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '100000000',
    RATE_LIMIT_CONTACT_PER_MINUTE: '1000000',
    ...extra,
  };
}

/**
 * The demo data, seeded as in development (a production seed refuses demo data, and would give the
 * demo staff account a random password): the drills' databases are private and throwaway.
 */
export function seed(env: NodeJS.ProcessEnv): void {
  run('node', ['--import', 'tsx', 'tools/seed/seed.ts'], { ...env, NODE_ENV: 'development' });
}

/**
 * A private database in `dir` holding the demo data, with the environment to run the API on it.
 * Seeding (527 products with their pictures) takes 15-30 s here, so the seeded files are kept in
 * `.data/drills/template/<hash of the built API>` and copied: drills run one after another seed once.
 */
export async function seededDatabase(
  dir: string,
  extraEnv: Record<string, string> = {},
  port?: number,
): Promise<{ db: DatabaseHandle; env: NodeJS.ProcessEnv; uri: string }> {
  const template = path.join(path.dirname(dir), 'template', builtApiHash());
  if (!existsSync(path.join(template, 'ready'))) {
    rmSync(path.dirname(template), { recursive: true, force: true });
    const seeding = await privateDatabase(template);
    try {
      say('drills', 'seeding the demo catalogue (kept for the next drill)');
      seed(apiEnv(template, seeding.uri));
    } finally {
      await seeding.stop();
    }
    writeFileSync(path.join(template, 'ready'), new Date().toISOString());
  }
  rmSync(dir, { recursive: true, force: true });
  cpSync(template, dir, { recursive: true });
  rmSync(path.join(dir, 'ready'));
  const db = await privateDatabase(dir, port);
  const env = apiEnv(dir, db.uri, extraEnv);
  return { db, env, uri: env.MONGODB_URI! };
}

/** Changes whenever the built API or the seed command (and so what the seed writes) changes. */
function builtApiHash(): string {
  const hash = createHash('sha256');
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.js')) hash.update(entry.name).update(readFileSync(file));
    }
  };
  walk(path.join(WORKSPACE_ROOT, 'api', 'dist'));
  hash.update(readFileSync(path.join(WORKSPACE_ROOT, 'tools', 'seed', 'seed.ts')));
  return hash.digest('hex').slice(0, 16);
}

export interface ApiProcess {
  child: ChildProcess;
  pid: number;
  base: string;
  port: number;
  /** Resolves when the process has exited, with its exit code or signal. */
  exited: Promise<string>;
  isRunning(): boolean;
}

/**
 * Starts the built API (api/dist/main.js, or `main`) and waits until its health answers 200. `logFile` takes
 * its standard output (the request log) appended to a file, as a log collector would; `nodeArgs` go
 * to node before the script (e.g. a `--require` for profiling).
 */
export async function startApi(
  env: NodeJS.ProcessEnv,
  options: {
    port?: number;
    quiet?: boolean;
    main?: string;
    logFile?: string;
    nodeArgs?: string[];
  } = {},
): Promise<ApiProcess> {
  const port = options.port ?? (await freePort());
  const out = options.logFile ? openSync(options.logFile, 'a') : undefined;
  const child = spawn('node', [...(options.nodeArgs ?? []), options.main ?? 'api/dist/main.js'], {
    cwd: WORKSPACE_ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out ?? (options.quiet ? 'ignore' : 'inherit'), 'inherit'],
  });
  if (out !== undefined) closeSync(out);
  let running = true;
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      running = false;
      resolve(signal ?? String(code));
    }),
  );
  const api: ApiProcess = {
    child,
    pid: child.pid!,
    port,
    base: `http://127.0.0.1:${port}`,
    exited,
    isRunning: () => running,
  };
  await waitForHealth(api);
  return api;
}

export async function waitForHealth(api: ApiProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!api.isRunning())
      throw new Error(`the API exited (${await api.exited}) before it was healthy`);
    try {
      const res = await fetch(`${api.base}/api/health`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return;
    } catch {
      // starting
    }
    await sleep(250);
  }
  throw new Error(`the API was not healthy within ${timeoutMs / 1000} s`);
}

export async function stopApi(api: ApiProcess | undefined, signal: NodeJS.Signals = 'SIGTERM') {
  if (!api?.isRunning()) return;
  api.child.kill(signal);
  const timer = setTimeout(() => api.child.kill('SIGKILL'), 10_000);
  await api.exited;
  clearTimeout(timer);
}

/** CPU time (user + system, all threads) a process has used, in ms, from /proc (Linux). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export async function withClient<T>(uri: string, fn: (client: MongoClient) => Promise<T>) {
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

interface ProductDoc {
  _id: ObjectId;
  productName: string;
  productQuantity: number;
  reservations?: { orderId: string; quantity: number }[];
  restockedFor?: string[];
}

interface OrderDoc {
  _id: ObjectId;
  purchaseNumber: string;
  placement: 'reserving' | 'placed' | 'undoing';
  orderStatus: string;
  stockReturn?: string;
  products: { productId: string; quantity: number; seedlings?: number }[];
  /** A booking holds its seedlings against a batch, not the product's ready stock. */
  booking?: { batchId: string } | null;
}

/**
 * The stock of every product, and the orders and batches that exist before a drill (the demo's),
 * to compare against after.
 */
export interface Baseline {
  stock: Map<string, number>;
  orderIds: Set<string>;
  batchIds: Set<string>;
}

export async function takeBaseline(uri: string): Promise<Baseline> {
  return withClient(uri, async (client) => {
    const db = client.db();
    const products = await db
      .collection<ProductDoc>('products')
      .find({}, { projection: { productQuantity: 1 } })
      .toArray();
    const orders = await db
      .collection<OrderDoc>('orders')
      .find({}, { projection: { _id: 1 } })
      .toArray();
    const batches = await db
      .collection('batches')
      .find({}, { projection: { _id: 1 } })
      .toArray();
    return {
      stock: new Map(products.map((p) => [p._id.toString(), p.productQuantity])),
      orderIds: new Set(orders.map((o) => o._id.toString())),
      batchIds: new Set(batches.map((b) => b._id.toString())),
    };
  });
}

/** Waits until no placement is half-done and no product holds a reservation (the reconciler's work). */
export async function waitForReconciled(
  uri: string,
  timeoutMs: number,
): Promise<{ settled: boolean; waitedMs: number; reserving: number; reservations: number }> {
  const started = Date.now();
  return withClient(uri, async (client) => {
    const db = client.db();
    for (;;) {
      const reserving = await db
        .collection('orders')
        .countDocuments({ placement: { $in: ['reserving', 'undoing'] } });
      const pendingReturns = await db
        .collection('orders')
        .countDocuments({ stockReturn: { $in: ['pending', 'done'] } });
      const reservations = await db
        .collection('products')
        .countDocuments({ 'reservations.0': { $exists: true } });
      // Stock movements not yet copied to the ledger (the API's reconciler copies them).
      const waitingMovements = await db
        .collection('products')
        .countDocuments({ 'pendingMovements.0': { $exists: true } });
      const waitedMs = Date.now() - started;
      const settled =
        reserving === 0 && reservations === 0 && pendingReturns === 0 && waitingMovements === 0;
      if (settled || waitedMs > timeoutMs) return { settled, waitedMs, reserving, reservations };
      await sleep(500);
    }
  });
}

export interface LedgerReport {
  /** Orders created during the drill that exist now. */
  orders: number;
  placed: number;
  cancelled: number;
  stillReserving: number;
  /** Units in the drill's orders that are not cancelled. */
  unitsOrdered: number;
  /** Starting stock minus stock now, over all products. */
  unitsTaken: number;
  /** Stock gone from the shelf that no existing order accounts for. */
  unitsLost: number;
  /** Units on the shelf that existing orders hold (sold without being taken, or returned twice). */
  unitsOversold: number;
  negativeStock: number;
  leftoverReservations: number;
  /** Orders answered 201 that do not exist (or never became placed). */
  answeredButMissing: string[];
  problems: string[];
}

/**
 * Compares the database with the baseline: for every product, stock now must equal the stock at
 * the start minus the quantities of the drill's orders that exist and are not cancelled.
 */
export async function checkLedger(
  uri: string,
  baseline: Baseline,
  answered: Iterable<string> = [],
): Promise<LedgerReport> {
  return withClient(uri, async (client) => {
    const db = client.db();
    const products = await db.collection<ProductDoc>('products').find({}).toArray();
    const orders = (await db.collection<OrderDoc>('orders').find({}).toArray()).filter(
      (o) => !baseline.orderIds.has(o._id.toString()),
    );
    const problems: string[] = [];
    const byId = new Map(orders.map((o) => [o._id.toString(), o]));
    const ordered = new Map<string, number>();
    let cancelled = 0;
    let stillReserving = 0;
    for (const order of orders) {
      if (order.placement !== 'placed') {
        stillReserving++;
        problems.push(`order ${order.purchaseNumber} is still '${order.placement}'`);
      }
      if (order.orderStatus === 'Cancelled') {
        cancelled++;
        if (order.stockReturn !== 'done' && order.stockReturn !== 'cleared')
          problems.push(
            `cancelled order ${order.purchaseNumber} has stockReturn '${order.stockReturn}'`,
          );
        continue;
      }
      if (order.booking) continue; // held against its batch (see checkBatches)
      for (const line of order.products)
        ordered.set(line.productId, (ordered.get(line.productId) ?? 0) + line.quantity);
    }
    let unitsTaken = 0;
    let unitsLost = 0;
    let unitsOversold = 0;
    let negativeStock = 0;
    let leftoverReservations = 0;
    for (const product of products) {
      const id = product._id.toString();
      const start = baseline.stock.get(id);
      if (start === undefined) continue;
      const expected = start - (ordered.get(id) ?? 0);
      unitsTaken += start - product.productQuantity;
      const drift = product.productQuantity - expected;
      if (drift < 0) {
        unitsLost += -drift;
        problems.push(
          `${product.productName}: ${-drift} units gone from stock without an order (stock ${product.productQuantity}, expected ${expected})`,
        );
      } else if (drift > 0) {
        unitsOversold += drift;
        problems.push(
          `${product.productName}: ${drift} units more in stock than its orders allow, sold without being taken or returned twice (stock ${product.productQuantity}, expected ${expected})`,
        );
      }
      if (product.productQuantity < 0) {
        negativeStock++;
        problems.push(`${product.productName}: stock is ${product.productQuantity}`);
      }
      leftoverReservations += product.reservations?.length ?? 0;
    }
    if (leftoverReservations)
      problems.push(`${leftoverReservations} reservations left on products`);
    const answeredButMissing = [...answered].filter((id) => byId.get(id)?.placement !== 'placed');
    for (const id of answeredButMissing)
      problems.push(`order ${id} was answered 201 but is not placed`);
    const unitsOrdered = [...ordered.values()].reduce((a, b) => a + b, 0);
    return {
      orders: orders.length,
      placed: orders.length - stillReserving,
      cancelled,
      stillReserving,
      unitsOrdered,
      unitsTaken,
      unitsLost,
      unitsOversold,
      negativeStock,
      leftoverReservations,
      answeredButMissing,
      problems,
    };
  });
}

/** True when the ledger report shows any lost, oversold or half-placed unit. */
export function ledgerFailed(report: LedgerReport): boolean {
  return report.problems.length > 0;
}

export function printLedger(drill: string, report: LedgerReport): void {
  say(
    drill,
    `ledger: ${report.orders} orders (${report.placed} placed, ${report.cancelled} cancelled, ${report.stillReserving} half-placed); ` +
      `${report.unitsOrdered} units in live orders, ${report.unitsTaken} units taken from stock; ` +
      `lost ${report.unitsLost}, oversold ${report.unitsOversold}, negative stock ${report.negativeStock}, ` +
      `reservations left ${report.leftoverReservations}, answered-201-but-missing ${report.answeredButMissing.length}`,
  );
  for (const problem of report.problems.slice(0, 20)) console.error(`  ! ${problem}`);
  if (report.problems.length > 20) console.error(`  ! ... ${report.problems.length - 20} more`);
}

/** Sets the stock of `count` seeded products to `quantity` each and answers their ids. */
export async function stockSlice(uri: string, count: number, quantity: number): Promise<string[]> {
  return withClient(uri, async (client) => {
    const products = client.db().collection<ProductDoc>('products');
    const slice = await products
      .find({}, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .limit(count)
      .toArray();
    const ids = slice.map((p) => p._id);
    // With its correction movement, so the stock ledger still sums to the stock.
    await setStockRecorded(client.db(), { _id: { $in: ids } }, quantity, 'Drill stock');
    return ids.map((id) => id.toString());
  });
}

/**
 * The holds of every batch the drill sowed against the booking orders that exist: each live
 * (placed, not cancelled) booking holds exactly its seedlings, nothing else holds any (a hold no
 * order owns is seedlings lost to booking), and no batch holds more for bookings than it has. The
 * demo's batches (in the baseline: bookings of the demo, some affected by a batch fallen short,
 * which keep their holds until moved or refunded) are the stock check's, which the drill runs too.
 */
export async function checkBatches(
  uri: string,
  baseline: Baseline,
): Promise<{ batches: number; booked: number; bookings: number; problems: string[] }> {
  return withClient(uri, async (client) => {
    const db = client.db();
    const batches = (await db.collection('batches').find({}).toArray()).filter(
      (b) => !baseline.batchIds.has(b._id.toString()),
    );
    const orders = (
      await db
        .collection<OrderDoc>('orders')
        .find({ booking: { $ne: null } })
        .toArray()
    ).filter((o) => o.booking && !baseline.orderIds.has(o._id.toString()));
    const live = new Map<string, number>();
    for (const o of orders)
      if (o.placement === 'placed' && o.orderStatus !== 'Cancelled')
        live.set(
          o._id.toString(),
          o.products.reduce((n, l) => n + l.quantity * (l.seedlings ?? 1), 0),
        );
    const problems: string[] = [];
    let booked = 0;
    const holding = new Set<string>();
    for (const b of batches) {
      const holds = (b.holds ?? []) as { orderId: string; seedlings: number }[];
      booked += b.booked as number;
      if (b.booked > b.started - b.lost)
        problems.push(`batch ${b._id}: ${b.booked} booked of ${b.started - b.lost} (overbooked)`);
      for (const h of holds) {
        holding.add(h.orderId);
        const want = live.get(h.orderId);
        if (want === undefined)
          problems.push(
            `batch ${b._id}: ${h.seedlings} held for ${h.orderId}, no live booking (lost)`,
          );
        else if (want !== h.seedlings)
          problems.push(
            `batch ${b._id}: ${h.seedlings} held for ${h.orderId}, which books ${want}`,
          );
      }
    }
    for (const id of live.keys())
      if (!holding.has(id)) problems.push(`booking ${id} holds nothing on its batch`);
    return { batches: batches.length, booked, bookings: live.size, problems };
  });
}

export function guestOrder(lines: { _id: string; quantity: number; batchId?: string }[]): string {
  return JSON.stringify({
    guestInfo: {
      fullName: 'Drill Buyer',
      phoneNumber: '0722000111',
      email: 'drill@example.co.ke',
      county: 'Kiambu',
      streetAddress: 'Ruiru',
    },
    products: lines,
  });
}

export function randomLines(ids: string[], maxLines = 3, maxQuantity = 3) {
  const count = 1 + Math.floor(Math.random() * maxLines);
  const picked = new Set<string>();
  while (picked.size < Math.min(count, ids.length))
    picked.add(ids[Math.floor(Math.random() * ids.length)]!);
  return [...picked].map((_id) => ({ _id, quantity: 1 + Math.floor(Math.random() * maxQuantity) }));
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export { freePort };
