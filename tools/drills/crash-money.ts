/**
 * The crash drill's money half (issue 38): while orders are placed and the API is killed, staff
 * record bookings' deposits, customers pay orders by the paybill (the drill plays Daraja's C2B:
 * validation, then the confirmation that credits the order), and staff cancel paid orders with
 * their refund sent by M-Pesa (reversed by the Daraja simulator). Each kind counts what it has in flight, so the drill can kill the API
 * while one of each is on its way and say so. Afterwards: every paybill payment whose money left
 * the customer is on the shop's books (a confirmation the kill cut off is sent again, as Daraja's
 * retry would), every deposit and refund answered 200 is in the money ledger, and money:check finds
 * every order, entry and M-Pesa record in agreement.
 */
import { randomBytes } from 'node:crypto';
import type { DarajaSimulator } from '../mpesa/simulator';
import { checkMoneyLedger, type MoneyCheck } from '../money/ledger-check';
import { sleep, withClient } from './support';

export const MONEY_KINDS = ['deposit', 'paybill', 'refund'] as const;
export type MoneyKind = (typeof MONEY_KINDS)[number];

const SHORTCODE = '174379';
const CALLBACK_TOKEN = 'drill-callback-token-0123456789abcdef';

/**
 * The API's M-Pesa settings against the simulator: Daraja's sandbox (a production build refuses
 * the local one), the paybill's confirmations credited at once (no status query), so a kill during
 * a confirmation is a kill during a credit.
 */
export function mpesaEnv(simUrl: string, apiPort: number): Record<string, string> {
  return {
    MPESA_ENV: 'sandbox',
    MPESA_ALLOW_SANDBOX_IN_PRODUCTION: 'yes-no-real-money-is-taken',
    MPESA_BASE_URL: simUrl,
    MPESA_CONSUMER_KEY: 'drill-consumer-key',
    MPESA_CONSUMER_SECRET: 'drill-consumer-secret',
    MPESA_SHORTCODE: SHORTCODE,
    MPESA_PASSKEY: 'drill-passkey-0123456789',
    MPESA_CALLBACK_BASE_URL: `http://127.0.0.1:${apiPort}`,
    MPESA_CALLBACK_TOKEN: CALLBACK_TOKEN,
    MPESA_INITIATOR_NAME: 'drill',
    MPESA_SECURITY_CREDENTIAL: 'drill-security-credential',
    MPESA_RECONCILE_AFTER_MS: '1000',
    MPESA_C2B_VERIFY: 'false',
    MPESA_PROMPTS_PER_PHONE_PER_DAY: '1000000',
    MPESA_PROMPTS_PER_DAY: '1000000',
  };
}

/** A paybill payment a customer made, and what the shop answered each confirmation (0: cut). */
export interface PaybillPayment {
  transId: string;
  amount: number;
  phone: string;
  account: string;
  at: Date;
  confirmationStatuses: number[];
}

/** An order the placers got a 201 for, as the money workers need it. */
export interface PlacedOrder {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
  /** A booking's deposit; null on an ordinary order. */
  deposit: number | null;
  /** Nobody pays it: the drill's other clerk cancels it without a refund. */
  leftUnpaid: boolean;
}

export interface MoneyTally {
  placed: PlacedOrder[];
  inFlight: Record<MoneyKind, number>;
  /** Kills that came while at least one of the kind was on its way. */
  killsDuring: Record<MoneyKind, number>;
  /** Deposits answered 200: the order, its code and amount. */
  deposits: Map<string, { code: string; amount: number }>;
  /** Paybill payments the customer made (the money left them), by order. */
  paybill: { orderId: string; payment: PaybillPayment }[];
  /** Cancels with a refund answered 200: the order and what was given back. */
  refunded: Map<string, number>;
  /** Tried once each: a retry would be another payment, or another clerk's act. */
  tried: Record<MoneyKind, Set<string>>;
  /** Confirmations the kill cut off, sent again after the restart. */
  replayed: number;
}

export function newMoneyTally(): MoneyTally {
  return {
    placed: [],
    inFlight: { deposit: 0, paybill: 0, refund: 0 },
    killsDuring: { deposit: 0, paybill: 0, refund: 0 },
    deposits: new Map(),
    paybill: [],
    refunded: new Map(),
    tried: { deposit: new Set(), paybill: new Set(), refund: new Set() },
    replayed: 0,
  };
}

interface Ctx {
  base: () => string;
  token: string;
  sim: DarajaSimulator;
  money: MoneyTally;
  /** Orders cancelled by the drill's other canceller (no longer payable). */
  cancelled: Set<string>;
  stopping: () => boolean;
  count: (status: number, prefix: string) => void;
  connectionError: (error: unknown) => void;
  log: (line: string) => void;
}

/** The API was down (restarting): the request never reached it, so it may be made again. */
const refused = (error: unknown) =>
  ((error as { cause?: { code?: string } }).cause ?? {}).code === 'ECONNREFUSED';

const pickOne = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
/** A fresh M-Pesa-like code: `Q…` typed by a clerk for a deposit, `T…` a paybill payment's. */
const mpesaCode = (first: 'Q' | 'T') =>
  first + [...randomBytes(9)].map((b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[b % 32]).join('');
const payerPhone = () => `2547${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;

/** Runs `work` as one of `kind` in flight. */
async function inFlight<T>(money: MoneyTally, kind: MoneyKind, work: () => Promise<T>) {
  money.inFlight[kind]++;
  try {
    return await work();
  } finally {
    money.inFlight[kind]--;
  }
}

/** The three money workers, until `stopping()`; resolves when they have stopped. */
export function runMoneyWorkers(ctx: Ctx): Promise<void> {
  const loop = async (step: () => Promise<boolean>) => {
    while (!ctx.stopping()) if (!(await step())) await sleep(150);
  };
  return Promise.all([
    loop(() => recordDeposit(ctx)),
    loop(() => payByPaybill(ctx)),
    loop(() => refundPaid(ctx)),
  ]).then(() => undefined);
}

/** A clerk records a booking's deposit seen paid (its code typed at the desk). */
async function recordDeposit(ctx: Ctx): Promise<boolean> {
  const { money } = ctx;
  const booking = pickOne(
    money.placed.filter(
      (o) =>
        o.deposit && !o.leftUnpaid && !money.tried.deposit.has(o._id) && !ctx.cancelled.has(o._id),
    ),
  );
  if (!booking) return false;
  money.tried.deposit.add(booking._id);
  const code = mpesaCode('Q');
  try {
    const res = await inFlight(money, 'deposit', () =>
      fetch(`${ctx.base()}/api/orders/${booking._id}/booking/deposit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.token}` },
        body: JSON.stringify({ amount: booking.deposit, transactionCode: code }),
        signal: AbortSignal.timeout(120_000),
      }).then(async (r) => ({ status: r.status, text: await r.text() })),
    );
    ctx.count(res.status, 'deposit ');
    if (res.status === 200) money.deposits.set(booking._id, { code, amount: booking.deposit! });
    else if (res.status >= 500)
      ctx.log(`deposit answered ${res.status}: ${res.text.slice(0, 200)}`);
  } catch (error) {
    ctx.connectionError(error);
    // Refused while the API restarts: the clerk tries again with the same code.
    if (refused(error)) {
      money.tried.deposit.delete(booking._id);
      return false;
    }
  }
  return true;
}

/**
 * A customer pays an ordinary order by the paybill: in full, or (a third of the time) half. The
 * drill is Daraja here: it asks the shop's validation URL, takes the money (the simulator then
 * knows the transaction, to reverse it later), and posts the confirmation, which credits the order
 * while it is in flight.
 */
async function payByPaybill(ctx: Ctx): Promise<boolean> {
  const { money } = ctx;
  const order = pickOne(
    money.placed.filter(
      (o) =>
        !o.deposit && !o.leftUnpaid && !money.tried.paybill.has(o._id) && !ctx.cancelled.has(o._id),
    ),
  );
  if (!order) return false;
  money.tried.paybill.add(order._id);
  const amount =
    Math.random() < 0.33 ? Math.max(1, Math.floor(order.totalAmount / 2)) : order.totalAmount;
  const payment: PaybillPayment = {
    transId: mpesaCode('T'),
    amount,
    phone: payerPhone(),
    account: order.purchaseNumber,
    at: new Date(),
    confirmationStatuses: [],
  };
  let validated: number;
  try {
    const res = await fetch(`${ctx.base()}/api/payments/mpesa/c2b/validation/${CALLBACK_TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(notice(payment)),
      signal: AbortSignal.timeout(60_000),
    });
    const body = (await res.json().catch(() => null)) as { ResultCode?: string } | null;
    validated = res.ok && String(body?.ResultCode) === '0' ? 200 : res.status;
  } catch (error) {
    // Down: Daraja cancels the payment (the URLs are registered with ResponseType Cancelled).
    ctx.connectionError(error);
    money.tried.paybill.delete(order._id);
    return false;
  }
  if (validated !== 200) {
    ctx.count(validated, 'paybill refused ');
    return true;
  }
  // The money left the customer: M-Pesa knows the transaction from now on.
  ctx.sim.c2b.transactions.set(payment.transId, {
    transId: payment.transId,
    kind: 'c2b',
    amount,
    phone: payment.phone,
    account: payment.account,
    at: payment.at.toISOString(),
    reversed: false,
  });
  money.paybill.push({ orderId: order._id, payment });
  await inFlight(money, 'paybill', () => confirm(ctx.base(), payment));
  ctx.count(payment.confirmationStatuses[0]!, 'paybill ');
  return true;
}

/** Posts a payment's confirmation (Daraja's C2B notice) and keeps the answer's status (0: cut). */
async function confirm(base: string, payment: PaybillPayment): Promise<void> {
  try {
    const res = await fetch(`${base}/api/payments/mpesa/c2b/confirmation/${CALLBACK_TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(notice(payment)),
      signal: AbortSignal.timeout(60_000),
    });
    await res.text();
    payment.confirmationStatuses.push(res.status);
  } catch {
    payment.confirmationStatuses.push(0);
  }
}

/** Daraja's C2B notice of a payment, as sent to validation and confirmation. */
const notice = (p: PaybillPayment) => ({
  TransactionType: 'Pay Bill',
  TransID: p.transId,
  TransTime: darajaTime(p.at),
  TransAmount: p.amount.toFixed(2),
  BusinessShortCode: SHORTCODE,
  BillRefNumber: p.account,
  InvoiceNumber: '',
  OrgAccountBalance: '',
  ThirdPartyTransID: '',
  MSISDN: p.phone,
  FirstName: 'John',
  MiddleName: '',
  LastName: '',
});

/** A clerk cancels an order paid by the paybill, its money sent back by M-Pesa. */
async function refundPaid(ctx: Ctx): Promise<boolean> {
  const { money } = ctx;
  const paid = money.paybill
    .filter((p) => p.payment.confirmationStatuses.includes(200))
    .map((p) => p.orderId)
    .filter((id) => !money.tried.refund.has(id));
  const id = pickOne(paid);
  if (!id) return false;
  money.tried.refund.add(id);
  try {
    const read = await fetch(`${ctx.base()}/api/orders/${id}`, {
      headers: { authorization: `Bearer ${ctx.token}` },
      signal: AbortSignal.timeout(60_000),
    });
    const body = (await read.json()) as { order?: { amountPaid: number } };
    const amount = body.order?.amountPaid ?? 0;
    if (!amount) return true;
    const res = await inFlight(money, 'refund', () =>
      fetch(`${ctx.base()}/api/orders/cancel/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.token}` },
        body: JSON.stringify({ refund: { method: 'Mpesa', amount, send: true } }),
        signal: AbortSignal.timeout(120_000),
      }).then(async (r) => ({ status: r.status, text: await r.text() })),
    );
    ctx.count(res.status, 'refund ');
    if (res.status === 200) money.refunded.set(id, amount);
    else if (res.status >= 500) ctx.log(`refund answered ${res.status}: ${res.text.slice(0, 200)}`);
  } catch (error) {
    ctx.connectionError(error);
    if (refused(error)) {
      money.tried.refund.delete(id);
      return false;
    }
  }
  return true;
}

/** Waits (at most `maxMs`) until a deposit, a paybill payment and a refund are all on their way. */
export async function untilMoneyInFlight(money: MoneyTally, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline && MONEY_KINDS.some((k) => money.inFlight[k] === 0)) await sleep(5);
}

/** Notes which kinds of money were on their way when the API was killed. */
export function noteKill(money: MoneyTally): MoneyKind[] {
  const during = MONEY_KINDS.filter((k) => money.inFlight[k] > 0);
  for (const k of during) money.killsDuring[k]++;
  return during;
}

/**
 * Sends again every confirmation the kill cut off (the shop answered nothing), as Daraja's retry
 * would: the API records a TransID once, and finishes a credit a crash left midway.
 */
export async function replayCutConfirmations(base: string, money: MoneyTally): Promise<void> {
  for (const { payment } of money.paybill) {
    if (payment.confirmationStatuses.includes(200)) continue;
    await confirm(base, payment);
    money.replayed++;
  }
}

/** `yyyyMMddHHmmss` in Nairobi time, as Daraja writes it. */
const darajaTime = (at: Date) =>
  new Date(at.getTime() + 3 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);

/**
 * Waits until the money a crash left midway is finished or undone: no claim or payback left, no
 * paybill payment still being matched, every payback to send linked to its M-Pesa transfer.
 */
export async function waitForMoneySettled(
  uri: string,
  timeoutMs: number,
): Promise<{ settled: boolean; waitedMs: number; left: string }> {
  const started = Date.now();
  return withClient(uri, async (client) => {
    const db = client.db();
    for (;;) {
      const claims = await db
        .collection('money_entries')
        .countDocuments({ state: { $in: ['claimed', 'claiming'] } });
      const unlinked = await db
        .collection('money_entries')
        .countDocuments({ send: true, transfer: null, state: 'recorded' });
      const matching = await db
        .collection('mpesa_c2b_payments')
        .countDocuments({ status: { $in: ['verifying', 'matching'] } });
      const waitedMs = Date.now() - started;
      const settled = claims === 0 && unlinked === 0 && matching === 0;
      const left = `${claims} claims, ${matching} paybill payments matching, ${unlinked} paybacks not yet sent`;
      if (settled || waitedMs > timeoutMs) return { settled, waitedMs, left };
      await sleep(1000);
    }
  });
}

export interface MoneyReport {
  check: MoneyCheck;
  /** What the drill saw answered (or paid) that the books do not show. */
  lost: string[];
}

/** money:check, and every deposit, paybill payment and refund the drill saw against the books. */
export async function checkMoneyAfter(uri: string, money: MoneyTally): Promise<MoneyReport> {
  return withClient(uri, async (client) => {
    const db = client.db();
    const check = await checkMoneyLedger(db);
    const lost: string[] = [];
    const entries = db.collection<{
      _id: string;
      code?: string;
      orderId: string | null;
      state: string;
      direction: string;
      purpose: string | null;
      amount: number;
    }>('money_entries');
    for (const [orderId, d] of money.deposits) {
      const e = await entries.findOne({ code: d.code });
      if (!e || e.state !== 'credited' || e.orderId !== orderId || e.amount !== d.amount)
        lost.push(`the deposit ${d.code} of order ${orderId} (answered 200) is not credited to it`);
    }
    for (const { orderId, payment } of money.paybill) {
      const record = await db
        .collection<{ _id: string; status: string }>('mpesa_c2b_payments')
        .findOne({ _id: payment.transId });
      if (!record)
        lost.push(
          `paybill payment ${payment.transId} (order ${orderId}) left the customer but the shop has no record of it`,
        );
      else if (!(await entries.findOne({ _id: `c2b:${payment.transId}` })))
        lost.push(`paybill payment ${payment.transId} is '${record.status}' with no ledger entry`);
    }
    for (const [orderId, amount] of money.refunded) {
      const outs = await entries
        .find({ orderId, direction: 'out', purpose: 'refund', state: 'recorded' })
        .toArray();
      const back = outs.reduce((n, e) => n + e.amount, 0);
      if (back !== amount)
        lost.push(
          `order ${orderId} was refunded KES ${amount} (answered 200); its refund entries hold KES ${back}`,
        );
    }
    return { check, lost };
  });
}
