/**
 * The crash drill's till half (issue 47; DRILL_CRASH_TILL=0 leaves it out): while orders are
 * placed and the API is killed, a clerk with an open till session sends offline cash sales, each
 * under its own Idempotency-Key with `offline: { soldAt, prices }`, in order, each sent again until
 * answered, as the till's queue does (a kill cut off, a restart refused, a sale cut off midway
 * resumed when sent again). Afterwards every sale is sent once more; then: each key answered one
 * gate order, the same every time, paid and handed over; the session holds exactly those orders;
 * the money ledger has one cash entry per sale of its amount; the cash-up's expected cash is the
 * float plus the sales' cash; and the stock and money ledger checks pass.
 */
import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { checkMoneyLedger } from '../money/ledger-check';
import { checkStockLedger, setStockRecorded } from '../stock/ledger-check';
import { sleep, withClient } from './support';

const FLOAT = 1000;
/** Stock of the till's own product: never short, so the web orders' stock checks stay theirs. */
const TILL_STOCK = 100_000;

interface TillSale {
  key: string;
  body: string;
  cash: number;
  /** The order each answer named (all must be one). */
  answers: Set<string>;
  statuses: number[];
  /** Its first send was cut by a kill (or met the API down). */
  cut: boolean;
}

export interface TillTally {
  sessionId: string | null;
  product: { _id: string; price: number } | null;
  sales: TillSale[];
  inFlight: number;
  killsDuring: number;
  /** Answers other than 2xx, by status (a 409 in progress or a 5xx while restarting is retried). */
  statuses: Map<number, number>;
}

export function newTillTally(): TillTally {
  return {
    sessionId: null,
    product: null,
    sales: [],
    inFlight: 0,
    killsDuring: 0,
    statuses: new Map(),
  };
}

/**
 * A product for the till alone (not in the web orders' slice), with plenty of stock recorded and
 * a single unit (any quantity): before the baseline, so the stock check counts its sales.
 */
export async function tillProduct(uri: string, exclude: string[]): Promise<TillTally['product']> {
  return withClient(uri, async (client) => {
    const db = client.db();
    const candidates = await db
      .collection('products')
      .find({ _id: { $nin: exclude.map((id) => new ObjectId(id)) }, price: { $gt: 0 } })
      .sort({ _id: -1 })
      .limit(400)
      .toArray();
    // Sold by the seedling alone, any quantity from 1, one price (no tiers, no offer).
    const product = candidates.find((p) => {
      const units = (p.units ?? []) as { minQuantity?: number; step?: number; tiers?: unknown[] }[];
      const unit = units[0];
      return (
        !p.onOffer &&
        units.length <= 1 &&
        (!unit || ((unit.minQuantity ?? 1) <= 1 && (unit.step ?? 1) === 1 && !unit.tiers?.length))
      );
    });
    if (!product) return null;
    await setStockRecorded(db, { _id: product._id }, TILL_STOCK, 'Drill till stock');
    return { _id: product._id.toString(), price: Number(product.price) };
  });
}

/** The clerk's till session, opened with the float (the drill's fresh database has none open). */
export async function openTill(base: string, token: string, tally: TillTally): Promise<void> {
  const res = await fetch(`${base}/api/till/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ float: FLOAT }),
  });
  const body = (await res.json()) as { session?: { _id: string }; message?: string };
  if (res.status !== 201 || !body.session)
    throw new Error(`the clerk could not open a till session: ${res.status} ${body.message}`);
  tally.sessionId = body.session._id;
}

/** The clerk's till: offline cash sales, one after another, each sent until answered. */
export async function runTill(ctx: {
  base: () => string;
  token: string;
  tally: TillTally;
  stopping: () => boolean;
  log: (line: string) => void;
}): Promise<void> {
  const { tally } = ctx;
  const product = tally.product!;
  while (!ctx.stopping()) {
    const quantity = 1 + Math.floor(Math.random() * 3);
    const cash = quantity * product.price;
    const sale: TillSale = {
      key: `drill-till-${randomBytes(8).toString('hex')}`,
      body: JSON.stringify({
        sessionId: tally.sessionId,
        lines: [{ productId: product._id, quantity }],
        payments: [{ method: 'cash', amount: cash }],
        offline: {
          soldAt: new Date(Date.now() - 1000).toISOString(),
          prices: [{ productId: product._id, unitPrice: product.price }],
        },
      }),
      cash,
      answers: new Set(),
      statuses: [],
      cut: false,
    };
    tally.sales.push(sale);
    await sendUntilAnswered(ctx.base, ctx.token, sale, tally, ctx.log);
    await sleep(150);
  }
}

/**
 * Sends a sale until answered 2xx, as the till's queue does: a cut request, the API down, a 5xx
 * or a 409 "in progress" is sent again; any other 4xx is the till's refused list (a drill failure,
 * counted in `statuses`).
 */
async function sendUntilAnswered(
  base: () => string,
  token: string,
  sale: TillSale,
  tally: TillTally,
  log: (line: string) => void,
): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    tally.inFlight++;
    try {
      const res = await fetch(`${base()}/api/till/sales`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'idempotency-key': sale.key,
        },
        body: sale.body,
        signal: AbortSignal.timeout(120_000),
      });
      const body = (await res.json().catch(() => ({}))) as {
        sale?: { orderId: string };
        message?: string;
        code?: string;
      };
      sale.statuses.push(res.status);
      if (res.status < 300 && body.sale) {
        sale.answers.add(body.sale.orderId);
        return;
      }
      tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
      const retry =
        res.status >= 500 ||
        (res.status === 409 && /in progress|moment/i.test(`${body.message} ${body.code}`));
      if (!retry) {
        log(`till sale ${sale.key} refused ${res.status}: ${body.message}`);
        return;
      }
    } catch {
      // Killed under it, or down and restarting: sent again, as the queue would.
      sale.cut = true;
    } finally {
      tally.inFlight--;
    }
    await sleep(300);
  }
  log(`till sale ${sale.key} not answered in 3 minutes`);
}

/** A kill while a till sale is on its way counts for the report. */
export function noteTillKill(tally: TillTally): boolean {
  if (tally.inFlight <= 0) return false;
  tally.killsDuring++;
  return true;
}

/** Every sale sent once more after the drill (the queue's retry after a restart): the same order. */
export async function replayTillSales(
  base: string,
  token: string,
  tally: TillTally,
  log: (line: string) => void,
): Promise<void> {
  await Promise.all(tally.sales.map((s) => sendUntilAnswered(() => base, token, s, tally, log)));
}

export interface TillReport {
  sales: number;
  orders: number;
  cashExpected: number | null;
  cashWanted: number;
  problems: string[];
}

/**
 * Each key made one gate order, named by every answer, paid and handed over, with one cash entry
 * of its amount; the session holds those orders alone; its cash-up expects the float plus the
 * sales' cash; the stock and money ledger checks pass.
 */
export async function checkTill(base: string, token: string, uri: string, tally: TillTally) {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const s of tally.sales) {
    if (s.answers.size !== 1)
      problems.push(
        `till sale ${s.key} answered ${s.answers.size} orders (${s.statuses.join('/')})`,
      );
    for (const id of s.answers) {
      if (ids.has(id)) problems.push(`order ${id} answered two keys`);
      ids.add(id);
    }
  }
  const report = await withClient(uri, async (client) => {
    const db = client.db();
    const orders = await db
      .collection('orders')
      .find({ channel: 'gate', 'till.sessionId': tally.sessionId })
      .toArray();
    for (const o of orders) {
      const id = o._id.toString();
      if (!ids.has(id)) problems.push(`gate order ${o.purchaseNumber} answered no key`);
      if (o.orderStatus !== 'Completed' || o.paymentStatus !== 'Paid')
        problems.push(`gate order ${o.purchaseNumber} is ${o.orderStatus}/${o.paymentStatus}`);
      const entries = await db.collection('money_entries').find({ orderId: id }).toArray();
      const cash = tally.sales.find((s) => s.answers.has(id))?.cash;
      const ins = entries.filter((e) => e.direction === 'in');
      if (ins.length !== 1 || ins[0]!.amount !== cash || ins[0]!.state !== 'credited')
        problems.push(
          `gate order ${o.purchaseNumber}: money entries ${ins.map((e) => `${e.kind} ${e.amount} ${e.state}`).join(', ')} (sold for ${cash})`,
        );
    }
    const stock = await checkStockLedger(db);
    for (const d of stock.differences) problems.push(`stock ledger: ${JSON.stringify(d)}`);
    const money = await checkMoneyLedger(db);
    for (const p of money.problems) problems.push(`money ledger: ${p}`);
    return { orders: orders.length };
  });
  const res = await fetch(`${base}/api/till/sessions/${tally.sessionId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as {
    cashUp?: { methods: { method: string; expected: number }[] };
  };
  const cashExpected = body.cashUp?.methods.find((m) => m.method === 'cash')?.expected ?? null;
  const cashWanted = FLOAT + tally.sales.reduce((n, s) => n + s.cash, 0);
  if (cashExpected !== cashWanted)
    problems.push(
      `the cash-up expects KES ${cashExpected} in cash, not float + sales ${cashWanted}`,
    );
  return {
    sales: tally.sales.length,
    orders: report.orders,
    cashExpected,
    cashWanted,
    problems,
  } satisfies TillReport;
}
