/**
 * `npm run drill:crash`: kills the API with SIGKILL while orders are being placed and cancelled,
 * restarts it, and checks the stock ledger in the database once the reconciler has finished:
 * every order answered 201 exists; every product's stock equals its starting stock minus the
 * quantities of the orders that exist and are not cancelled; nothing is left half-placed; the stock
 * ledger (every movement, written with its stock change) sums to every product's stock. Some
 * placements are bookings of seedlings still growing (a batch of each of a few products): every
 * live booking holds exactly its seedlings on its batch, no hold is left without its booking, no
 * batch is booked past what it holds, and each batch's ledger sums to what it holds.
 * Exits non-zero on any lost or oversold unit, a missing order or a 500. Never fails on a time.
 *
 * Settings: DRILL_CRASH_KILLS (4), DRILL_CRASH_WORKERS (6 placing, plus 1 cancelling),
 * DRILL_CRASH_PRODUCTS (20), DRILL_CRASH_STOCK (40 per product, so some sell out),
 * DRILL_CRASH_ORDERS_PER_ROUND (8: orders answered 201 before each kill, at most 20 s a round),
 * DRILL_CRASH_RECONCILE_MS (2000: the API's ORDER_RECONCILE_AFTER_MS, so a restart reconciles soon),
 * DRILL_CRASH_CANCELS (1; 0 leaves out the connection cancelling orders as staff),
 * DRILL_CRASH_BATCHES (3 batches of DRILL_CRASH_BATCH_SEEDLINGS, 30, so some book out; a third of
 * the placements are bookings; 0 leaves bookings out).
 *
 * Money (issue 38, crash-money.ts; DRILL_CRASH_MONEY=0 leaves it out): a clerk records bookings'
 * deposits, customers pay orders by the paybill (the Daraja simulator), a clerk cancels paid orders
 * with their refund sent by M-Pesa; each kill waits (at most 5 s) until one of each is on its way.
 * After the restart and the reconcilers' work, money:check (tools/money/ledger-check.ts) must find
 * every order, entry and M-Pesa record in agreement, and every deposit, payment and refund the
 * drill saw answered must be on the books: nothing lost, nothing counted twice. The M-Pesa
 * reconcilers finish a claim a minute after a crash, so the drill waits up to 3 minutes for them.
 *
 * Till (issue 47, crash-till.ts; DRILL_CRASH_TILL=0 leaves it out): a clerk with an open till
 * session sends offline cash sales (each its own Idempotency-Key) in order, each sent again until
 * answered, as the till's queue does; after the restart every sale is sent once more. Each key must
 * have made exactly one gate order, paid and handed over, with one cash entry; the session's
 * cash-up must expect the float plus the sales' cash; the stock and money ledger checks pass.
 */
import path from 'node:path';
import { ObjectId } from 'mongodb';
import { printMoneyLedger } from '../money/ledger-check';
import { startDarajaSimulator, type DarajaSimulator } from '../mpesa/simulator';
import { DATA_DIR } from '../paths';
import { checkStockLedger, printStockLedger } from '../stock/ledger-check';
import {
  checkMoneyAfter,
  MONEY_KINDS,
  mpesaEnv,
  newMoneyTally,
  noteKill,
  replayCutConfirmations,
  runMoneyWorkers,
  untilMoneyInFlight,
  waitForMoneySettled,
  type MoneyTally,
} from './crash-money';
import {
  checkTill,
  newTillTally,
  noteTillKill,
  openTill,
  replayTillSales,
  runTill,
  tillProduct,
  type TillTally,
} from './crash-till';
import {
  buildApi,
  checkBatches,
  checkLedger,
  freePort,
  guestOrder,
  ledgerFailed,
  printLedger,
  randomLines,
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

const KILLS = Number(process.env.DRILL_CRASH_KILLS ?? 4);
const WORKERS = Number(process.env.DRILL_CRASH_WORKERS ?? 6);
const PRODUCTS = Number(process.env.DRILL_CRASH_PRODUCTS ?? 20);
const STOCK = Number(process.env.DRILL_CRASH_STOCK ?? 40);
const ORDERS_PER_ROUND = Number(process.env.DRILL_CRASH_ORDERS_PER_ROUND ?? 8);
const ROUND_CAP_MS = 20_000;
const RECONCILE_AFTER_MS = Number(process.env.DRILL_CRASH_RECONCILE_MS ?? 2000);
const CANCELS = process.env.DRILL_CRASH_CANCELS !== '0';
const BATCHES = Number(process.env.DRILL_CRASH_BATCHES ?? 3);
const BATCH_SEEDLINGS = Number(process.env.DRILL_CRASH_BATCH_SEEDLINGS ?? 30);
const MONEY = process.env.DRILL_CRASH_MONEY !== '0';
const TILL = process.env.DRILL_CRASH_TILL !== '0';
const DEMO_STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };
const D = 'crash';

interface Tally {
  answered201: Set<string>;
  cancelled200: Set<string>;
  statuses: Map<string, number>;
  /** Requests the kill cut off mid-way (the socket closed under them). */
  cut: number;
  /** Requests refused while the API was down and restarting. */
  refused: number;
  money: MoneyTally;
  till: TillTally;
}

async function main(): Promise<void> {
  const dir = path.join(DATA_DIR, 'drills', 'crash');
  buildApi();
  const seeded = await seededDatabase(dir, {
    ORDER_RECONCILE_AFTER_MS: String(RECONCILE_AFTER_MS),
  });
  const { db, uri } = seeded;
  let api: ApiProcess | undefined;
  let sim: DarajaSimulator | undefined;
  try {
    const ids = await stockSlice(uri, PRODUCTS, STOCK);
    const till = newTillTally();
    if (TILL) {
      till.product = await tillProduct(uri, ids);
      if (!till.product) throw new Error('no product for the till (one with a single unit)');
    }
    const baseline = await takeBaseline(uri);
    const port = await freePort();
    sim = MONEY ? await startDarajaSimulator({ delayMs: 200 }) : undefined;
    const env = sim ? { ...seeded.env, ...mpesaEnv(sim.url, port) } : seeded.env;
    api = await startApi(env, { port });
    const base = api.base;
    const token = await signIn(base);
    const batches = await sowBatches(base, token, ids.slice(0, BATCHES));
    if (TILL) await openTill(base, token, till);
    say(
      D,
      `${PRODUCTS} products with ${STOCK} each (${PRODUCTS * STOCK} units); ${WORKERS} connections placing orders, ${CANCELS ? 1 : 0} cancelling; ${KILLS} kills`,
    );

    const tally: Tally = {
      answered201: new Set(),
      cancelled200: new Set(),
      statuses: new Map(),
      cut: 0,
      refused: 0,
      money: newMoneyTally(),
      till,
    };
    let stopping = false;
    const placers = Array.from({ length: WORKERS }, () =>
      (async () => {
        while (!stopping) await placeOne(base, ids, batches, tally);
      })(),
    );
    const money = sim
      ? runMoneyWorkers({
          base: () => base,
          token,
          sim,
          money: tally.money,
          cancelled: tally.cancelled200,
          stopping: () => stopping,
          count: (status, prefix) => count(tally, status, prefix),
          connectionError: (error) => noteConnectionError(tally, error),
          log: (line) => say(D, line),
        })
      : Promise.resolve();
    const tillSales = TILL
      ? runTill({
          base: () => api!.base,
          token,
          tally: till,
          stopping: () => stopping,
          log: (line) => say(D, line),
        })
      : Promise.resolve();
    const canceller = (async () => {
      while (CANCELS && !stopping) {
        await sleep(400);
        // With money moving, the orders left unpaid for it (a paid one needs its refund).
        const unpaid = new Set(tally.money.placed.filter((o) => o.leftUnpaid).map((o) => o._id));
        const candidates = [...tally.answered201].filter(
          (id) => !tally.cancelled200.has(id) && (!sim || unpaid.has(id)),
        );
        const id = candidates[Math.floor(Math.random() * candidates.length)];
        if (id) await cancelOne(base, token, id, tally);
      }
    })();

    const restarts: number[] = [];
    for (let round = 1; round <= KILLS + 1; round++) {
      const before = tally.answered201.size;
      const roundStart = Date.now();
      while (
        tally.answered201.size - before < ORDERS_PER_ROUND &&
        Date.now() - roundStart < ROUND_CAP_MS
      )
        await sleep(100);
      // A random extra moment so the kill lands at a different step of a placement each time.
      await sleep(Math.floor(Math.random() * 700));
      if (round > KILLS) break;
      // With money moving: when a deposit, a paybill payment and a refund are all on their way.
      if (sim) await untilMoneyInFlight(tally.money, 5000);
      api.child.kill('SIGKILL');
      const during: string[] = sim ? [...noteKill(tally.money)] : [];
      if (TILL && noteTillKill(till)) during.push('till sale');
      await api.exited;
      say(
        D,
        `kill ${round}: SIGKILL with placements${during.map((k) => `, ${k}s`).join('')} in flight (${tally.answered201.size} answered 201 so far)`,
      );
      const down = Date.now();
      api = await startApi(env, { port });
      restarts.push(Date.now() - down);
      say(D, `restarted in ${((Date.now() - down) / 1000).toFixed(1)} s`);
    }
    stopping = true;
    await Promise.all([...placers, canceller, money, tillSales]);
    if (sim) await replayCutConfirmations(api.base, tally.money);
    // The till's queue sends every sale again after the restart: each answers its first order.
    if (TILL) await replayTillSales(api.base, token, till, (line) => say(D, line));

    const reconciled = await waitForReconciled(uri, 60_000);
    say(
      D,
      reconciled.settled
        ? `reconciled ${(reconciled.waitedMs / 1000).toFixed(1)} s after the last request`
        : `NOT reconciled after ${(reconciled.waitedMs / 1000).toFixed(0)} s: ${reconciled.reserving} half-placed orders, ${reconciled.reservations} products with reservations`,
    );
    const report = await checkLedger(uri, baseline, tally.answered201);
    const soldOut = await withClient(uri, (client) =>
      client
        .db()
        .collection('products')
        .countDocuments({ _id: { $in: ids.map((id) => new ObjectId(id)) }, productQuantity: 0 }),
    );
    const statuses = [...tally.statuses]
      .sort()
      .map(([s, n]) => `${s}×${n}`)
      .join(', ');
    say(
      D,
      `answers: ${statuses}; ${tally.cut} requests cut by the kills, ${tally.refused} refused while restarting; ${tally.answered201.size} orders answered 201, ` +
        `${tally.answered201.size - report.answeredButMissing.length} of them found placed; ` +
        `${report.orders - tally.answered201.size} placed but never answered (the kill came first); ` +
        `${tally.cancelled200.size} cancels answered 200; ${soldOut} of ${PRODUCTS} products sold out`,
    );
    printLedger(D, report);
    // The stock ledger (every movement written with its stock change) sums to the stock.
    const stockLedger = await withClient(uri, (client) => checkStockLedger(client.db()));
    printStockLedger(stockLedger, (line) => say(D, line));
    const booked = await checkBatches(uri, baseline);
    for (const problem of booked.problems) say(D, `BOOKING ${problem}`);
    say(
      D,
      `bookings: ${booked.bookings} live on ${booked.batches} batches holding ${booked.booked} seedlings; ${booked.problems.length} problems`,
    );
    const moneySettled = sim ? await waitForMoneySettled(uri, 180_000) : null;
    if (moneySettled)
      say(
        D,
        moneySettled.settled
          ? `money settled ${(moneySettled.waitedMs / 1000).toFixed(1)} s after the last request (claims a crash left are finished or undone after a minute)`
          : `money NOT settled after ${(moneySettled.waitedMs / 1000).toFixed(0)} s: ${moneySettled.left}`,
      );
    const moneyReport = sim ? await checkMoneyAfter(uri, tally.money) : null;
    if (moneyReport) {
      const m = tally.money;
      say(
        D,
        `money: kills during deposits ${m.killsDuring.deposit}, paybill credits ${m.killsDuring.paybill}, refunds ${m.killsDuring.refund}; ` +
          `${m.deposits.size} deposits answered 200, ${m.paybill.length} paybill payments made (${m.replayed} confirmations sent again after a kill), ${m.refunded.size} refunds answered 200`,
      );
      printMoneyLedger(moneyReport.check, (line) => say(D, line));
      for (const line of moneyReport.lost) say(D, `MONEY ${line}`);
    }
    const tillReport = TILL ? await checkTill(api.base, token, uri, till) : null;
    if (tillReport) {
      const cut = till.sales.filter((s) => s.cut).length;
      // Cut, then answered 200: placed before the kill (resumed, or made and replayed).
      const after = till.sales.filter((s) => s.cut && s.statuses.find((x) => x < 300) === 200);
      say(
        D,
        `till: ${tillReport.sales} offline cash sales (${cut} cut by a kill or sent while down, ${after.length} of them then answered 200 as placed before; ${till.killsDuring} kills with one on its way), ${tillReport.orders} gate orders; cash-up expects ${tillReport.cashExpected} (float + sales ${tillReport.cashWanted}); ${tillReport.problems.length} problems`,
      );
      for (const problem of tillReport.problems) say(D, `TILL ${problem}`);
    }
    const moneyFailed =
      !!moneyReport &&
      (moneyReport.check.problems.length > 0 ||
        moneyReport.lost.length > 0 ||
        !moneySettled?.settled ||
        (KILLS > 0 && MONEY_KINDS.some((k) => tally.money.killsDuring[k] === 0)));
    const fivehundreds = [...tally.statuses]
      .filter(([s]) => s.endsWith('500'))
      .reduce((a, [, n]) => a + n, 0);
    const failed =
      ledgerFailed(report) ||
      !reconciled.settled ||
      fivehundreds > 0 ||
      stockLedger.differences.length > 0 ||
      stockLedger.overbooked.length > 0 ||
      booked.problems.length > 0 ||
      (!!tillReport && tillReport.problems.length > 0) ||
      moneyFailed;
    console.log(
      `\nCrash drill: ${KILLS} kills, restart ${restarts.map((ms) => (ms / 1000).toFixed(1)).join('/')} s; ` +
        `${tally.answered201.size} answered 201, ${tally.answered201.size - report.answeredButMissing.length} found; ` +
        `${report.unitsOrdered} units in live orders = ${report.unitsTaken} taken from stock; ` +
        `lost ${report.unitsLost}, oversold ${report.unitsOversold}, 500s ${fivehundreds}; ` +
        `stock ledger ${stockLedger.balanced}/${stockLedger.products} balanced; ` +
        `${booked.bookings} bookings, ${booked.problems.length} lost or overbooked; ` +
        (moneyReport
          ? `money: ${moneyFigures(moneyReport.check.figures)}, kills during deposits/paybill credits/refunds ${MONEY_KINDS.map((k) => tally.money.killsDuring[k]).join('/')}, ` +
            `${moneyReport.check.problems.length + moneyReport.lost.length} lost or counted twice`
          : 'money left out') +
        (tillReport
          ? `; till: ${tillReport.sales} sales, ${tillReport.orders} orders, ${tillReport.problems.length} problems`
          : '; till left out') +
        ` → ${failed ? 'FAIL' : 'PASS'}`,
    );
    if (failed) process.exitCode = 1;
  } finally {
    await stopApi(api);
    await sim?.close();
    await db.stop();
  }
}

/** The money figures of the report: orders, entries in and out, shillings in and out. */
function moneyFigures(f: Awaited<ReturnType<typeof checkMoneyAfter>>['check']['figures']): string {
  const kes = (n: number) => `KES ${n.toLocaleString('en-US')}`;
  return (
    `${f.ordersWithMoney} of ${f.orders} orders with money, ${f.in.count} entries in ${kes(f.in.kes)}` +
    `${f.inbox.count ? ` (+${f.inbox.count} in the inbox ${kes(f.inbox.kes)})` : ''}, ${f.out.count} out ${kes(f.out.kes)}`
  );
}

/** A growing batch of each product, ready in 60 days, made as staff do. */
async function sowBatches(
  base: string,
  token: string,
  productIds: string[],
): Promise<{ _id: string; productId: string }[]> {
  const ready = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  const sown = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
  const made: { _id: string; productId: string }[] = [];
  for (const productId of productIds) {
    const res = await fetch(`${base}/api/batches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ productId, sownOn: sown, readyOn: ready, started: BATCH_SEEDLINGS }),
    });
    const body = (await res.json()) as { batch?: { _id: string }; message?: string };
    if (res.status !== 201 || !body.batch)
      throw new Error(`could not sow a batch: ${res.status} ${body.message}`);
    made.push({ _id: body.batch._id, productId });
  }
  return made;
}

/** An order of ready stock, or (a third of the time) a booking of one batch. */
function someOrder(ids: string[], batches: { _id: string; productId: string }[]): string {
  const batch = batches[Math.floor(Math.random() * batches.length * 3)];
  if (!batch) return guestOrder(randomLines(ids));
  const quantity = 1 + Math.floor(Math.random() * 3);
  return guestOrder([{ _id: batch.productId, quantity, batchId: batch._id }]);
}

async function placeOne(
  base: string,
  ids: string[],
  batches: { _id: string; productId: string }[],
  tally: Tally,
): Promise<void> {
  try {
    const res = await fetch(`${base}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: someOrder(ids, batches),
      signal: AbortSignal.timeout(120_000),
    });
    count(tally, res.status);
    const body = (await res.json()) as {
      order?: {
        _id: string;
        purchaseNumber: string;
        totalAmount: number;
        booking?: { deposit: number } | null;
      };
      message?: string;
    };
    if (res.status === 201 && body.order) {
      tally.answered201.add(body.order._id);
      const o = body.order;
      tally.money.placed.push({
        _id: o._id,
        purchaseNumber: o.purchaseNumber,
        totalAmount: o.totalAmount,
        deposit: o.booking?.deposit ?? null,
        leftUnpaid: Math.random() < 0.3,
      });
    } else if (res.status >= 500)
      say(D, `POST /api/orders answered ${res.status}: ${body.message}`);
  } catch (error) {
    // The API was killed under this request, or is restarting: what the drill is about.
    noteConnectionError(tally, error);
    await sleep(200);
  }
}

async function cancelOne(base: string, token: string, id: string, tally: Tally): Promise<void> {
  try {
    const res = await fetch(`${base}/api/orders/cancel/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(120_000),
    });
    count(tally, res.status, 'cancel ');
    if (res.ok) tally.cancelled200.add(id);
    else if (res.status >= 500) say(D, `cancel answered ${res.status}: ${await res.text()}`);
  } catch (error) {
    noteConnectionError(tally, error);
  }
}

function noteConnectionError(tally: Tally, error: unknown): void {
  const code = ((error as { cause?: { code?: string } }).cause ?? {}).code;
  if (code === 'ECONNREFUSED') tally.refused++;
  else tally.cut++;
}

function count(tally: Tally, status: number, prefix = ''): void {
  const key = `${prefix}${status}`;
  tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1);
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_STAFF),
  });
  const body = (await res.json()) as { data?: { accessToken?: string }; message?: string };
  if (!res.ok || !body.data?.accessToken)
    throw new Error(`the demo staff could not sign in: ${res.status} ${body.message}`);
  return body.data.accessToken;
}

main().catch((error: Error) => {
  console.error(`[${D}] ${error.message}`);
  process.exit(1);
});
