/**
 * The money ledger's reconciliation (issue 38), read straight from the database: every shilling in
 * or out is one entry of `money_entries`, and everything else that speaks of money must agree with
 * the entries. For every placed order, the incoming entries credited to it sum to its `amountPaid`
 * and are its `moneyCredits`, one to one; a paid order has at least its total, an unpaid one less;
 * what it shows refunded is its recorded outgoing entries. Every incoming entry's `returned` is what
 * its outgoing entries took and `returnable` the rest; nothing is left claimed by a crash. Every
 * M-Pesa record is on exactly one entry: a matched paybill payment, a paid prompt its order took, a
 * paid order's M-Pesa code, an M-Pesa transfer (reversal or B2C) sending an outgoing entry.
 * Invoices (issue 44): each invoice's paid + withheld (+ the excess its payments brought) is the sum
 * of the entries credited to it, each of those entries is in its settlements once, and its sums and
 * state are its settlements'; an order on account may be Paid by its settled invoices.
 */
import type { Db, ObjectId } from 'mongodb';
import { MPESA_MESSAGES } from '@spc/shared-contracts';

/** A claim or payback left this long is a crash's, not one in flight (as the API's reconciler). */
export const STALE_MS = 60_000;

interface Split {
  deposit: number;
  balance: number;
  excess: number;
}

interface Entry {
  _id: string;
  direction: 'in' | 'out';
  kind: string;
  amount: number;
  code?: string;
  reference?: string;
  orderId: string | null;
  /** The invoice it is credited to (issue 44), its `split` null until the invoice counted it. */
  invoiceId?: string | null;
  payer: string | null;
  state: string;
  split?: Split | null;
  returnable: number;
  returned: number;
  returns: { out: string; amount: number }[];
  of: string | null;
  purpose: string | null;
  send: boolean;
  transfer: string | null;
  claimedAt: Date | null;
  updatedAt?: Date;
}

interface OrderDoc {
  _id: ObjectId;
  purchaseNumber: string;
  placement: string;
  orderStatus: string;
  paymentStatus: string;
  paymentMethod: string | null;
  paymentDetails: { transactionCode?: string } | null;
  totalAmount: number;
  amountPaid?: number;
  moneyCredits?: ({ entry: string; amount: number } & Split)[];
  /** The refund entries its cancellation named, in the same write. */
  refundOut?: string[];
  /** `gate`: a till sale (issue 46), which may be refunded in part and stay handed over. */
  channel?: string;
}

/** One kind of entry: how many, how many shillings. */
export interface Tally {
  count: number;
  kes: number;
}

export interface MoneyFigures {
  /** Placed orders, and those with money credited. */
  orders: number;
  ordersWithMoney: number;
  /** Incoming entries credited to orders. */
  in: Tally;
  /** Incoming entries waiting in the payments inbox (no order). */
  inbox: Tally;
  /** Outgoing entries recorded (refunds, reversals, payouts). */
  out: Tally;
  /** Outgoing entries to be sent through Daraja that have no M-Pesa transfer yet. */
  toSend: number;
  byKind: Record<string, Tally>;
  /** Claims and paybacks younger than a minute: left out of the comparisons. */
  inFlight: number;
}

export interface MoneyCheck {
  figures: MoneyFigures;
  problems: string[];
}

const kes = (n: number) => `KES ${n.toLocaleString('en-US')}`;
const isWhole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);
/** A code in M-Pesa's one spelling: Latin capitals and digits only. */
const isMpesaCode = (code: string) => /^[A-Z0-9]+$/.test(code);

function add(t: Tally, amount: number): void {
  t.count++;
  t.kes += amount;
}

/** The money ledger against the orders, refunds and M-Pesa records; `now` decides what is stale. */
export async function checkMoneyLedger(db: Db, now = new Date()): Promise<MoneyCheck> {
  const problems: string[] = [];
  const problem = (text: string) => problems.push(text);
  const figures: MoneyFigures = {
    orders: 0,
    ordersWithMoney: 0,
    in: { count: 0, kes: 0 },
    inbox: { count: 0, kes: 0 },
    out: { count: 0, kes: 0 },
    toSend: 0,
    byKind: {},
    inFlight: 0,
  };

  // Every entry, indexed by id, code, order and what it gives back.
  const entries = new Map<string, Entry>();
  const byCode = new Map<string, string[]>();
  const creditedTo = new Map<string, Entry[]>();
  const outsOf = new Map<string, Entry[]>();
  const outsOfOrder = new Map<string, Entry[]>();
  const byTransfer = new Map<string, Entry[]>();
  /** Orders with a claim or payback in flight (younger than a minute): not compared yet. */
  const busyOrders = new Set<string>();
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for await (const e of db.collection<Entry>('money_entries').find(
    {},
    {
      projection: {
        createdAt: 0,
        byId: 0,
        byName: 0,
        byRole: 0,
        purchaseNumber: 0,
        at: 0,
      },
    },
  )) {
    entries.set(e._id, e);
    if (e.code != null) push(byCode, e.code, e._id);
    if (e.direction === 'in' && e.state === 'credited' && e.orderId) push(creditedTo, e.orderId, e);
    if (e.direction === 'out') {
      if (e.of) push(outsOf, e.of, e);
      if (e.orderId) push(outsOfOrder, e.orderId, e);
      if (e.transfer) push(byTransfer, e.transfer, e);
    }
    if (e.state === 'claimed' || e.state === 'claiming') {
      const since = new Date(e.claimedAt ?? e.updatedAt ?? 0).getTime();
      if (now.getTime() - since < STALE_MS) {
        figures.inFlight++;
        if (e.orderId) busyOrders.add(e.orderId);
        if (e.of) busyOrders.add(`entry:${e.of}`);
      } else
        problem(
          `entry ${e._id} (${e.kind}, ${kes(e.amount)}) is left '${e.state}' since ${new Date(since).toISOString()}: a crash nobody finished`,
        );
    }
  }

  await checkIndex(db, problem);

  // Each entry on its own: whole shillings, its state, what it gave back.
  for (const e of entries.values()) {
    const kind = (figures.byKind[`${e.direction} ${e.kind}`] ??= { count: 0, kes: 0 });
    if (!isWhole(e.amount) || e.amount <= 0)
      problem(`entry ${e._id} holds ${String(e.amount)}: not a whole number of shillings above 0`);
    if (e.direction === 'in') {
      if (!['open', 'claimed', 'credited'].includes(e.state))
        problem(`incoming entry ${e._id} is '${e.state}'`);
      if (e.state === 'credited') add(figures.in, e.amount);
      if (e.state === 'open') add(figures.inbox, e.amount);
      if (e.state !== 'claimed') add(kind, e.amount);
      if (e.state === 'open' && e.orderId)
        problem(`entry ${e._id} waits in the inbox yet names order ${e.orderId}`);
      if (e.state !== 'open' && !e.orderId && !e.invoiceId)
        problem(`entry ${e._id} is '${e.state}' to no order`);
      if (e.orderId && e.invoiceId)
        problem(`entry ${e._id} is credited to order ${e.orderId} and invoice ${e.invoiceId}`);
      if (e.state === 'open' && e.invoiceId)
        problem(`entry ${e._id} waits in the inbox yet names invoice ${e.invoiceId}`);
      if ((e.kind === 'desk-mpesa' || e.kind === 'paybill') && e.code == null)
        problem(`entry ${e._id} is an M-Pesa payment without its code: one code may count twice`);
      if (e.kind === 'bank' || e.kind === 'withholding') {
        const prefix = e.kind === 'bank' ? 'BANK:' : 'WHT:';
        if (!e.code?.startsWith(prefix))
          problem(`${e.kind} entry ${e._id} has the code "${e.code ?? ''}", not ${prefix}…`);
        if (!e.invoiceId) problem(`${e.kind} entry ${e._id} is credited to no invoice`);
      } else if (e.code != null && !isMpesaCode(e.code))
        problem(`entry ${e._id} has the code "${e.code}", not in M-Pesa's one spelling`);
      checkReturns(e, outsOf.get(e._id) ?? [], busyOrders.has(`entry:${e._id}`), problem);
    } else {
      if (!['claiming', 'recorded'].includes(e.state))
        problem(`outgoing entry ${e._id} is '${e.state}'`);
      if (e.state === 'recorded') {
        add(figures.out, e.amount);
        add(kind, e.amount);
        if (e.send && !e.transfer) figures.toSend++;
      }
      if (e.code != null) problem(`outgoing entry ${e._id} holds the code ${e.code}`);
      checkOut(e, e.of ? entries.get(e.of) : undefined, problem);
    }
  }
  for (const [code, ids] of byCode)
    if (ids.length > 1) problem(`the code ${code} is on ${ids.length} entries: ${ids.join(', ')}`);

  // Every invoice against the entries credited to it (issue 44).
  const paidByInvoices = await checkInvoices(db, entries, now, problem);

  // Every order against its entries.
  const refunds = new Map<string, number>();
  for await (const r of db
    .collection<{ orderId: string; amount: number }>('order_refunds')
    .find({}, { projection: { orderId: 1, amount: 1 } }))
    refunds.set(r.orderId, (refunds.get(r.orderId) ?? 0) + r.amount);
  const orderIds = new Set<string>();
  const orders = db.collection<OrderDoc>('orders').find(
    {},
    {
      projection: {
        purchaseNumber: 1,
        placement: 1,
        orderStatus: 1,
        paymentStatus: 1,
        paymentMethod: 1,
        'paymentDetails.transactionCode': 1,
        totalAmount: 1,
        amountPaid: 1,
        moneyCredits: 1,
        refundOut: 1,
        channel: 1,
      },
    },
  );
  for await (const o of orders) {
    const id = o._id.toString();
    orderIds.add(id);
    const credited = creditedTo.get(id) ?? [];
    if (o.placement !== 'placed') {
      if (credited.length)
        problem(`order ${o.purchaseNumber} is '${o.placement}' yet has entries credited to it`);
      continue;
    }
    figures.orders++;
    if (credited.length) figures.ordersWithMoney++;
    if (busyOrders.has(id)) continue;
    checkOrder(o, credited, entries, problem, paidByInvoices.has(id));
    checkRefunded(o, outsOfOrder.get(id) ?? [], refunds.get(id), problem);
    checkOrderCode(o, credited, entries, byCode, problem);
  }
  for (const [orderId, list] of creditedTo)
    if (!orderIds.has(orderId))
      problem(
        `${list.length} entries (${kes(list.reduce((n, e) => n + e.amount, 0))}) are credited to order ${orderId}, which does not exist`,
      );
  for (const orderId of refunds.keys())
    if (!orderIds.has(orderId))
      problem(`a refund is recorded for order ${orderId}, which does not exist`);

  await checkPaybill(db, entries, byCode, busyOrders, problem);
  await checkPrompts(db, entries, busyOrders, problem);
  await checkTransfers(db, entries, byTransfer, problem);
  return { figures, problems };
}

/** The unique index that makes one code one entry. */
async function checkIndex(db: Db, problem: (t: string) => void): Promise<void> {
  const exists = await db.listCollections({ name: 'money_entries' }).hasNext();
  if (!exists) return;
  const indexes = await db.collection('money_entries').indexes();
  const code = indexes.find((i) => i.key && Object.keys(i.key).join() === 'code');
  if (!code?.unique)
    problem('money_entries has no unique index on code: one code could be two entries');
}

/** An incoming entry's `returned` is what its outgoing entries took; `returnable` the rest. */
function checkReturns(e: Entry, outs: Entry[], busy: boolean, problem: (t: string) => void): void {
  const returns = e.returns ?? [];
  const taken = returns.reduce((n, r) => n + r.amount, 0);
  if (e.returned !== taken)
    problem(`entry ${e._id}: returned ${kes(e.returned)}, its returns sum to ${kes(taken)}`);
  if (e.returnable !== e.amount - e.returned)
    problem(
      `entry ${e._id}: returnable ${kes(e.returnable)}, but ${kes(e.amount)} came in and ${kes(e.returned)} went back`,
    );
  if (e.returnable < 0 || e.returned < 0)
    problem(
      `entry ${e._id} gave back more than it brought (${kes(e.returned)} of ${kes(e.amount)})`,
    );
  if (busy) return;
  const recorded = outs.filter((o) => o.state === 'recorded');
  const outSum = recorded.reduce((n, o) => n + o.amount, 0);
  if (outSum !== e.returned)
    problem(
      `entry ${e._id}: returned ${kes(e.returned)}, its recorded outgoing entries sum to ${kes(outSum)}`,
    );
  for (const r of returns) {
    const out = outs.find((o) => o._id === r.out);
    if (!out)
      problem(`entry ${e._id} gave ${kes(r.amount)} back to ${r.out}, which does not exist`);
    else if (out.amount !== r.amount)
      problem(`entry ${e._id} gave ${kes(r.amount)} back to ${r.out}, which is ${kes(out.amount)}`);
  }
  for (const o of recorded)
    if (!returns.some((r) => r.out === o._id))
      problem(`outgoing entry ${o._id} gives back ${kes(o.amount)} that ${e._id} never gave it`);
}

/** An outgoing entry gives back an incoming one of the same order, and only to who paid. */
function checkOut(e: Entry, of: Entry | undefined, problem: (t: string) => void): void {
  if (!of || of.direction !== 'in') {
    problem(`outgoing entry ${e._id} gives back ${e.of ?? 'nothing'}, which is no incoming entry`);
    return;
  }
  if ((e.orderId ?? null) !== (of.orderId ?? null))
    problem(
      `outgoing entry ${e._id} is for order ${e.orderId ?? '(none)'}, the payment it gives back for ${of.orderId ?? '(none)'}`,
    );
  if (e.kind === 'b2c' && (!e.payer || e.payer !== of.payer))
    problem(
      `B2C ${e._id} pays ${e.payer ?? 'nobody'}; the payment it gives back came from ${of.payer ?? 'an unknown number'}`,
    );
  if (e.kind === 'reversal' && (!of.code || e.amount !== of.amount))
    problem(
      `reversal ${e._id} of ${kes(e.amount)} is not the whole of a payment with a code (${of._id})`,
    );
  if (e.send && e.kind !== 'reversal' && e.kind !== 'b2c')
    problem(`outgoing entry ${e._id} is to be sent by M-Pesa as '${e.kind}'`);
}

/** An order's entries sum to what it shows paid, one to one with its credits. */
function checkOrder(
  o: OrderDoc,
  credited: Entry[],
  entries: Map<string, Entry>,
  problem: (t: string) => void,
  paidByInvoices = false,
): void {
  const n = o.purchaseNumber;
  const paid = o.amountPaid ?? 0;
  const sum = credited.reduce((s, e) => s + e.amount, 0);
  if (sum !== paid)
    problem(`order ${n} shows ${kes(paid)} paid; the entries credited to it sum to ${kes(sum)}`);
  const credits = o.moneyCredits ?? [];
  const listed = new Set<string>();
  for (const c of credits) {
    if (listed.has(c.entry)) problem(`order ${n} counts entry ${c.entry} twice`);
    listed.add(c.entry);
    const e = entries.get(c.entry);
    if (!e) {
      problem(`order ${n} counts entry ${c.entry}, which is not in the ledger`);
      continue;
    }
    if (e.state !== 'credited' || e.orderId !== o._id.toString())
      problem(
        `order ${n} counts entry ${c.entry}, which is '${e.state}' to ${e.orderId ?? 'no order'}`,
      );
    if (e.amount !== c.amount)
      problem(`order ${n} counts entry ${c.entry} as ${kes(c.amount)}; it is ${kes(e.amount)}`);
    if ((c.deposit ?? 0) + (c.balance ?? 0) + (c.excess ?? 0) !== c.amount)
      problem(`order ${n}: the split of entry ${c.entry} does not add up to ${kes(c.amount)}`);
    const s = e.split;
    if (!s || s.deposit !== c.deposit || s.balance !== c.balance || s.excess !== c.excess)
      problem(
        `entry ${c.entry} records its split as ${s ? `${s.deposit}/${s.balance}/${s.excess}` : 'none'}; order ${n} counted it ${c.deposit}/${c.balance}/${c.excess} (deposit/balance/excess)`,
      );
  }
  for (const e of credited)
    if (!listed.has(e._id))
      problem(`entry ${e._id} is credited to order ${n}, which does not count it`);
  const sumCredits = credits.reduce((s, c) => s + c.amount, 0);
  if (sumCredits !== paid)
    problem(`order ${n} shows ${kes(paid)} paid; its credits sum to ${kes(sumCredits)}`);
  if (o.paymentStatus === 'Paid' && paid < o.totalAmount && !paidByInvoices)
    problem(`order ${n} is Paid with ${kes(paid)} of ${kes(o.totalAmount)} received`);
  if (o.paymentStatus !== 'Paid' && paid >= o.totalAmount && o.totalAmount > 0)
    problem(`order ${n} is ${o.paymentStatus} with ${kes(paid)} of ${kes(o.totalAmount)} received`);
}

/**
 * What an order shows refunded is its recorded refunds, only a cancelled order (or a gate sale
 * refunded in part at the till) has one, and its
 * cancellation named exactly those entries (a refund is recorded only with the step it is for).
 */
function checkRefunded(
  o: OrderDoc,
  outs: Entry[],
  refunded: number | undefined,
  problem: (t: string) => void,
): void {
  const n = o.purchaseNumber;
  const recorded = outs.filter((e) => e.state === 'recorded' && e.purpose === 'refund');
  const back = recorded.reduce((s, e) => s + e.amount, 0);
  const named = new Set(o.refundOut ?? []);
  for (const e of recorded)
    if (!named.has(e._id))
      problem(`refund entry ${e._id} of order ${n} is recorded, but no step of the order named it`);
  for (const id of named)
    if (!recorded.some((e) => e._id === id))
      problem(`order ${n}'s cancellation names refund entry ${id}, which is not recorded`);
  if (refunded !== undefined && o.orderStatus !== 'Cancelled' && o.channel !== 'gate')
    problem(`order ${n} has a refund of ${kes(refunded)} recorded but is ${o.orderStatus}`);
  if ((refunded ?? 0) !== back)
    problem(
      `order ${n} shows ${kes(refunded ?? 0)} refunded; its recorded refund entries sum to ${kes(back)}`,
    );
}

/** A paid order's M-Pesa code is the code of exactly one entry, credited to it. */
function checkOrderCode(
  o: OrderDoc,
  credited: Entry[],
  entries: Map<string, Entry>,
  byCode: Map<string, string[]>,
  problem: (t: string) => void,
): void {
  const code = o.paymentDetails?.transactionCode ?? '';
  if (o.paymentStatus !== 'Paid' || o.paymentMethod !== 'Mpesa' || !code) return;
  // A prompt's reference stands in where M-Pesa named no receipt: it is no M-Pesa code.
  if (credited.some((e) => e.kind === 'mpesa-express' && e.reference === code)) return;
  const canonical = code
    .normalize('NFKC')
    .replace(/[\s\p{C}\p{P}\p{S}]/gu, '')
    .toUpperCase();
  if (!canonical || !isMpesaCode(canonical) || code.startsWith('ws_CO_')) return;
  const ids = byCode.get(canonical) ?? [];
  if (ids.length !== 1) {
    problem(`order ${o.purchaseNumber} was paid with ${code}, which is on ${ids.length} entries`);
    return;
  }
  const e = entries.get(ids[0]!)!;
  if (e.state !== 'credited' || e.orderId !== o._id.toString())
    problem(
      `order ${o.purchaseNumber} was paid with ${code}, whose entry ${e._id} is '${e.state}' to ${e.orderId ?? 'no order'}`,
    );
}

interface C2bDoc {
  _id: string;
  amount: number;
  status: string;
  orderId: string | null;
  invoiceId?: string | null;
  excess?: number;
  refundId?: string | null;
  reason?: string;
}

/** Each paybill payment is on exactly one entry, as its status says. */
async function checkPaybill(
  db: Db,
  entries: Map<string, Entry>,
  byCode: Map<string, string[]>,
  busy: Set<string>,
  problem: (t: string) => void,
): Promise<void> {
  const seen = new Set<string>();
  for await (const p of db.collection<C2bDoc>('mpesa_c2b_payments').find(
    {},
    {
      projection: {
        amount: 1,
        status: 1,
        orderId: 1,
        invoiceId: 1,
        excess: 1,
        refundId: 1,
        reason: 1,
      },
    },
  )) {
    const id = `c2b:${p._id}`;
    seen.add(id);
    const e = entries.get(id);
    if (e && e.amount !== p.amount)
      problem(`paybill payment ${p._id} of ${kes(p.amount)} has an entry of ${kes(e.amount)}`);
    if (p.status === 'matched' && p.invoiceId) {
      if (!e)
        problem(`paybill payment ${p._id} is matched to invoice ${p.invoiceId} but has no entry`);
      else if (e.state !== 'credited' || e.invoiceId !== p.invoiceId)
        problem(
          `paybill payment ${p._id} is matched to invoice ${p.invoiceId}; its entry is '${e.state}' to ${e.invoiceId ?? 'no invoice'}`,
        );
      if (e?.split && (p.excess ?? 0) !== e.split.excess)
        problem(
          `paybill payment ${p._id} shows ${kes(p.excess ?? 0)} excess; its entry counted ${kes(e.split.excess)}`,
        );
    } else if (p.status === 'matched') {
      if (!e) problem(`paybill payment ${p._id} is matched to order ${p.orderId} but has no entry`);
      else if (e.state !== 'credited' || e.orderId !== p.orderId)
        problem(
          `paybill payment ${p._id} is matched to order ${p.orderId}; its entry is '${e.state}' to ${e.orderId ?? 'no order'}`,
        );
      if (e?.split && (p.excess ?? 0) !== e.split.excess)
        problem(
          `paybill payment ${p._id} shows ${kes(p.excess ?? 0)} excess; its entry counted ${kes(e.split.excess)}`,
        );
      if (p.refundId) {
        const out = entries.get(p.refundId);
        if (!out && !busy.has(`entry:${id}`))
          problem(
            `the excess of paybill payment ${p._id} is being refunded (${p.refundId}) with no entry`,
          );
        else if (out && out.amount !== (p.excess ?? 0))
          problem(`the excess refund ${p.refundId} is ${kes(out.amount)} of ${kes(p.excess ?? 0)}`);
      }
    } else if (p.status === 'inbox' || p.status === 'refund') {
      if (e && e.state !== 'open')
        problem(
          `paybill payment ${p._id} waits in the inbox, yet its entry is '${e.state}' to order ${e.orderId}`,
        );
      if (!e) {
        const other = (byCode.get(p._id) ?? []).filter((x) => x !== id);
        const believed = isWhole(p.amount) && p.amount > 0;
        if (!other.length && believed)
          problem(`paybill payment ${p._id} of ${kes(p.amount)} waits in the inbox with no entry`);
      }
      if (p.status === 'refund') {
        const out = p.refundId ? entries.get(p.refundId) : undefined;
        if (!out && !busy.has(`entry:${id}`))
          problem(
            `paybill payment ${p._id} is being given back (${p.refundId ?? 'no id'}) with no entry`,
          );
      }
    }
  }
  for (const e of entries.values())
    if (e.direction === 'in' && e.kind === 'paybill' && !seen.has(e._id))
      problem(`entry ${e._id} is a paybill payment no paybill record knows`);
}

interface InvoiceSettlementDoc {
  id: string;
  kind: 'paybill' | 'bank' | 'withholding' | 'creditNote';
  amount: number;
  excess: number;
}

interface InvoiceDoc {
  _id: ObjectId;
  number: string | null;
  orderId: string;
  total: number;
  paid: number;
  withheld: number;
  credited: number;
  excess: number;
  balance: number;
  state: string;
  settlements: InvoiceSettlementDoc[];
}

/**
 * Each invoice against the ledger: its paid + withheld (and the excess its payments brought) is the
 * sum of the entries credited to it; each such entry is in its settlements once, for its amount;
 * each payment or withholding settlement is such an entry; its sums and state are its settlements'.
 * An entry credited to an invoice and not yet counted (`split` null) is in flight for a minute,
 * then a crash nobody finished. Answers the orders whose invoices are all settled.
 */
async function checkInvoices(
  db: Db,
  entries: Map<string, Entry>,
  now: Date,
  problem: (t: string) => void,
): Promise<Set<string>> {
  const ofInvoice = new Map<string, Entry[]>();
  for (const e of entries.values())
    if (e.direction === 'in' && e.state === 'credited' && e.invoiceId) {
      const list = ofInvoice.get(e.invoiceId);
      if (list) list.push(e);
      else ofInvoice.set(e.invoiceId, [e]);
    }
  const seen = new Set<string>();
  const orderSettled = new Map<string, boolean>();
  for await (const inv of db.collection<InvoiceDoc>('invoices').find(
    {},
    {
      projection: {
        number: 1,
        orderId: 1,
        total: 1,
        paid: 1,
        withheld: 1,
        credited: 1,
        excess: 1,
        balance: 1,
        state: 1,
        settlements: 1,
      },
    },
  )) {
    const id = inv._id.toString();
    seen.add(id);
    const n = inv.number ?? id;
    orderSettled.set(inv.orderId, (orderSettled.get(inv.orderId) ?? true) && inv.balance === 0);
    const settlements = inv.settlements ?? [];
    const ids = new Set<string>();
    for (const s of settlements) {
      if (ids.has(s.id)) problem(`invoice ${n} counts settlement ${s.id} twice`);
      ids.add(s.id);
    }
    const sum = (kinds: string[], f: (s: InvoiceSettlementDoc) => number) =>
      settlements.filter((s) => kinds.includes(s.kind)).reduce((t, s) => t + f(s), 0);
    const paid = sum(['paybill', 'bank'], (s) => s.amount);
    const withheld = sum(['withholding'], (s) => s.amount);
    const credited = sum(['creditNote'], (s) => s.amount);
    const excess = sum(['paybill', 'bank', 'withholding', 'creditNote'], (s) => s.excess ?? 0);
    const paymentExcess = sum(['paybill', 'bank', 'withholding'], (s) => s.excess ?? 0);
    if (inv.paid !== paid || inv.withheld !== withheld || inv.credited !== credited)
      problem(
        `invoice ${n} shows paid ${kes(inv.paid)}, withheld ${kes(inv.withheld)}, credited ${kes(inv.credited)}; its settlements say ${kes(paid)}, ${kes(withheld)}, ${kes(credited)}`,
      );
    if (inv.excess !== excess)
      problem(`invoice ${n} shows ${kes(inv.excess)} excess; its settlements say ${kes(excess)}`);
    const balance = Math.max(0, inv.total - paid - withheld - credited);
    const state = balance > 0 ? 'Open' : paid + withheld > 0 ? 'Paid' : 'Credited';
    if (inv.balance !== balance || inv.state !== state)
      problem(
        `invoice ${n} is ${inv.state} owing ${kes(inv.balance)}; its settlements make it ${state} owing ${kes(balance)}`,
      );
    // The ledger's side: every entry credited to it, counted once, for its amount.
    const credits = ofInvoice.get(id) ?? [];
    let inFlight = false;
    for (const e of credits) {
      const s = settlements.filter((x) => x.id === e._id);
      if (s.length > 1) problem(`entry ${e._id} is counted ${s.length} times on invoice ${n}`);
      if (!s.length) {
        const since = new Date(e.updatedAt ?? 0).getTime();
        if (e.split == null && now.getTime() - since < STALE_MS) inFlight = true;
        else
          problem(
            `entry ${e._id} (${kes(e.amount)}) is credited to invoice ${n}, which does not count it`,
          );
        continue;
      }
      if (s[0]!.amount + (s[0]!.excess ?? 0) !== e.amount)
        problem(
          `invoice ${n} counts entry ${e._id} as ${kes(s[0]!.amount)} + ${kes(s[0]!.excess ?? 0)} excess; it is ${kes(e.amount)}`,
        );
      if (e.split && (e.split.balance !== s[0]!.amount || e.split.excess !== (s[0]!.excess ?? 0)))
        problem(`entry ${e._id} records its split on invoice ${n} otherwise than the invoice`);
    }
    for (const s of settlements) {
      if (s.kind === 'creditNote') continue;
      const e = entries.get(s.id);
      if (!e || e.state !== 'credited' || e.invoiceId !== id)
        problem(
          `invoice ${n} counts ${s.kind} ${s.id}, which is ${e ? `'${e.state}' to ${e.invoiceId ?? e.orderId ?? 'nothing'}` : 'not in the ledger'}`,
        );
    }
    if (!inFlight) {
      const ledger = credits.reduce((t, e) => t + e.amount, 0);
      if (paid + withheld + paymentExcess !== ledger)
        problem(
          `invoice ${n}: paid ${kes(paid)} + withheld ${kes(withheld)} (+ ${kes(paymentExcess)} excess) but the entries credited to it sum to ${kes(ledger)}`,
        );
    }
  }
  for (const [invoiceId, list] of ofInvoice)
    if (!seen.has(invoiceId))
      problem(
        `${list.length} entries (${kes(list.reduce((t, e) => t + e.amount, 0))}) are credited to invoice ${invoiceId}, which does not exist`,
      );
  return new Set([...orderSettled].filter(([, settled]) => settled).map(([orderId]) => orderId));
}

interface PushDoc {
  _id: string;
  orderId: string;
  purchaseNumber: string;
  amount: number;
  status: string;
  message: string;
}

/** Each paid prompt its order took is one entry `stk:<CheckoutRequestID>`, credited to it. */
async function checkPrompts(
  db: Db,
  entries: Map<string, Entry>,
  busy: Set<string>,
  problem: (t: string) => void,
): Promise<void> {
  const pushes = new Map<string, PushDoc>();
  for await (const p of db
    .collection<PushDoc>('mpesa_pushes')
    .find({}, { projection: { orderId: 1, purchaseNumber: 1, amount: 1, status: 1, message: 1 } }))
    pushes.set(p._id, p);
  for (const p of pushes.values()) {
    if (p.status !== 'paid' || p.message === MPESA_MESSAGES.paidButOrderClosed) continue;
    if (busy.has(p.orderId)) continue;
    const e = entries.get(`stk:${p._id}`);
    if (!e)
      problem(
        `the paid prompt ${p._id} of order ${p.purchaseNumber} (${kes(p.amount)}) has no entry`,
      );
    else if (e.state !== 'credited' || e.orderId !== p.orderId || e.amount !== p.amount)
      problem(
        `the paid prompt ${p._id} of order ${p.purchaseNumber} has entry ${e._id} '${e.state}' to ${e.orderId ?? 'no order'} for ${kes(e.amount)}`,
      );
  }
  for (const e of entries.values()) {
    if (e.direction !== 'in' || e.kind !== 'mpesa-express' || e.state !== 'credited') continue;
    const p = pushes.get(e._id.replace(/^stk:/, ''));
    if (p && p.status === 'failed')
      problem(`entry ${e._id} counts ${kes(e.amount)} of a prompt that failed`);
  }
}

interface TransferDoc {
  _id: string;
  amount: number;
  method: string;
}

/** Each M-Pesa transfer (reversal, B2C) sends what outgoing entries took, and no more. */
async function checkTransfers(
  db: Db,
  entries: Map<string, Entry>,
  byTransfer: Map<string, Entry[]>,
  problem: (t: string) => void,
): Promise<void> {
  const seen = new Set<string>();
  for await (const t of db
    .collection<TransferDoc>('mpesa_refunds')
    .find({}, { projection: { amount: 1, method: 1 } })) {
    seen.add(t._id);
    const linked = byTransfer.get(t._id) ?? [];
    if (!linked.length) {
      // Asked for, the link to its entry not yet written (the refunds sweep writes it).
      const own = entries.get(t._id);
      if (own?.send && !own.transfer && own.amount === t.amount) continue;
      problem(
        `M-Pesa transfer ${t._id} (${t.method} of ${kes(t.amount)}) sends money no entry gave back`,
      );
      continue;
    }
    const sum = linked.reduce((n, e) => n + e.amount, 0);
    if (sum !== t.amount)
      problem(`M-Pesa transfer ${t._id} sends ${kes(t.amount)}; its entries give back ${kes(sum)}`);
    for (const e of linked)
      if (e.kind !== t.method)
        problem(`entry ${e._id} is a ${e.kind}, sent by M-Pesa transfer ${t._id} as a ${t.method}`);
  }
  for (const [transfer, list] of byTransfer)
    if (!seen.has(transfer))
      problem(
        `${list.map((e) => e._id).join(', ')} name the M-Pesa transfer ${transfer}, which does not exist`,
      );
}

export function printMoneyLedger(
  check: MoneyCheck,
  print: (line: string) => void,
  limit = 50,
): void {
  const f = check.figures;
  print(
    `money: ${f.orders} placed orders, ${f.ordersWithMoney} with money; in ${f.in.count} entries ${kes(f.in.kes)}, ` +
      `inbox ${f.inbox.count} ${kes(f.inbox.kes)}, out ${f.out.count} entries ${kes(f.out.kes)} ` +
      `(${f.toSend} to send), ${f.inFlight} in flight`,
  );
  const kinds = Object.entries(f.byKind)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, t]) => `${k} ${t.count}/${kes(t.kes)}`)
    .join(', ');
  if (kinds) print(`money by kind: ${kinds}`);
  for (const p of check.problems.slice(0, limit)) print(`  ! ${p}`);
  if (check.problems.length > limit) print(`  ! ... ${check.problems.length - limit} more`);
  print(
    check.problems.length
      ? `money ledger: ${check.problems.length} problems`
      : 'money ledger: every order, entry and M-Pesa record agrees',
  );
}
