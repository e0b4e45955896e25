import type {
  TillCashUpView,
  TillPaymentView,
  TillSaleView,
  TillSessionView,
} from '@spc/shared-contracts';
import type { MoneyEntryRecord } from '../money/money-ledger.repository';
import type { OrderRecord } from '../orders/order.types';
import type { TillSessionRecord } from './till.repository';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);

/** A gate sale refused midway (its M-Pesa code taken meanwhile) and undone: never made. */
const refused = (o: OrderRecord) =>
  o.channel === 'gate' && o.orderStatus === 'Cancelled' && !o.till?.voided;

/**
 * What a sale still counts for in its session: nothing once voided or refused, its total less its
 * refunds otherwise; a booking collected at the gate, the balance taken there.
 */
function netOf(o: OrderRecord): number {
  const t = o.till!;
  if (o.channel !== 'gate') return sum(t.payments.map((p) => p.amount));
  // A sale needing attention counts what was paid of it, not its code (issue 47).
  return t.voided || refused(o) ? 0 : o.totalAmount - t.refunded - (t.attention?.unpaid ?? 0);
}

/**
 * The money-ledger entries a session took: every entry of its gate sales, and of a booking
 * collected there only the entries taken at the gate (not the deposit paid before).
 */
export function sessionEntries(
  orders: OrderRecord[],
  entries: MoneyEntryRecord[],
): MoneyEntryRecord[] {
  const byId = new Map(orders.map((o) => [o._id, o]));
  return entries.filter((e) => {
    const o = e.orderId ? byId.get(e.orderId) : undefined;
    return o?.channel === 'gate' || !!o?.till?.payments.some((p) => p.entry === e._id);
  });
}
const live = (orders: OrderRecord[]) => orders.filter((o) => !o.till?.voided && !refused(o));

/**
 * A session as the till shows it, with its sales counted (voids and refused sales left out,
 * refunds taken off).
 */
export function sessionView(s: TillSessionRecord, orders: OrderRecord[]): TillSessionView {
  return {
    _id: s._id,
    staffId: s.staffId,
    staffName: s.staffName,
    state: s.state,
    openedAt: iso(s.openedAt)!,
    float: s.float,
    closedAt: iso(s.closedAt),
    countedCash: s.countedCash ?? null,
    sales: live(orders).length,
    total: sum(orders.map(netOf)),
    reopened: s.reopened.map((r) => ({ byName: r.byName, at: iso(r.at)! })),
  };
}

const isCash = (e: MoneyEntryRecord) => e.kind === 'cash';
const counts = (e: MoneyEntryRecord) =>
  e.direction === 'in' ? e.state === 'credited' : e.state === 'recorded';

/**
 * The cash-up of a session, from the money ledger's entries for its sales (so its totals are the
 * ledger's): cash expected = the float + cash taken less the change (what the cash entries hold)
 * − cash handed back; M-Pesa expected = what the ledger received by M-Pesa for its sales.
 */
export function cashUpView(
  session: TillSessionRecord,
  orders: OrderRecord[],
  entries: MoneyEntryRecord[],
): TillCashUpView {
  const settled = sessionEntries(orders, entries).filter(counts);
  const ins = settled.filter((e) => e.direction === 'in');
  const outs = settled.filter((e) => e.direction === 'out');
  const cashIn = sum(ins.filter(isCash).map((e) => e.amount));
  const cashOut = sum(outs.filter(isCash).map((e) => e.amount));
  const mpesaIn = sum(ins.filter((e) => !isCash(e)).map((e) => e.amount));
  const mpesaOut = sum(outs.filter((e) => !isCash(e)).map((e) => e.amount));
  const expectedCash = session.float + cashIn - cashOut;
  const counted = session.countedCash ?? null;
  const sellers = new Map<
    string,
    { staffId: string; staffName: string; sales: number; total: number }
  >();
  for (const o of orders) {
    const t = o.till!;
    const seller = sellers.get(t.sellerId) ?? {
      staffId: t.sellerId,
      staffName: t.sellerName,
      sales: 0,
      total: 0,
    };
    if (!t.voided && !refused(o)) seller.sales++;
    seller.total += netOf(o);
    sellers.set(t.sellerId, seller);
  }
  const reversal = (o: OrderRecord, r: NonNullable<OrderRecord['till']>['refunds'][number]) => ({
    purchaseNumber: o.purchaseNumber,
    amount: r.amount,
    byName: r.byName,
    approvedByName: r.approvedByName,
    at: iso(r.at)!,
    reason: r.reason,
  });
  return {
    session: sessionView(session, orders),
    methods: [
      {
        method: 'cash',
        expected: expectedCash,
        counted,
        difference: counted === null ? null : counted - expectedCash,
      },
      { method: 'mpesa', expected: mpesaIn - mpesaOut, counted: null, difference: null },
    ],
    sellers: [...sellers.values()],
    voids: orders.filter((o) => o.till?.voided).map((o) => reversal(o, o.till!.voided!)),
    refunds: orders.flatMap((o) => (o.till?.refunds ?? []).map((r) => reversal(o, r))),
    attention: orders
      .filter((o) => !o.till?.voided && !refused(o) && (o.till?.attention || o.till?.short))
      .map((o) => ({
        orderId: o._id,
        purchaseNumber: o.purchaseNumber,
        total: o.totalAmount,
        unpaid: o.till!.attention?.unpaid ?? 0,
        reasons: o.till!.attention?.reasons ?? [],
        short: !!o.till!.short,
        offline: !!o.till!.offline,
      })),
  };
}

/** How the till shows a sale's state. */
function saleState(o: OrderRecord): TillSaleView['state'] {
  if (o.till?.voided) return 'voided';
  if (refused(o)) return 'cancelled';
  if (o.till?.attention && o.paymentStatus !== 'Paid') return 'needs-attention';
  if ((o.till?.refunded ?? 0) > 0) return 'refunded';
  return o.paymentStatus === 'Paid' ? 'paid' : 'awaiting-payment';
}

/**
 * A gate sale as the till shows it (its receipt and the day's list); `promptFailed`: its M-Pesa
 * prompt was declined or timed out (the sale still waits).
 */
export function saleView(
  o: OrderRecord,
  etims: TillSaleView['etims'],
  promptFailed = false,
): TillSaleView {
  const t = o.till!;
  const attention = t.attention && o.paymentStatus !== 'Paid' && !t.voided ? t.attention : null;
  const payments: TillPaymentView[] = t.payments.map((p) => ({
    method: p.method,
    amount: p.amount,
    given: p.given ?? null,
    change: p.change ?? null,
    code: p.code ?? null,
    state:
      o.paymentStatus === 'Paid'
        ? // A code taken offline and never counted, the sale settled otherwise (issue 47).
          p.state === 'failed'
          ? 'failed'
          : 'received'
        : p.method === 'mpesa-express' && promptFailed
          ? 'failed'
          : attention && p.code && p.code === attention.code
            ? 'waiting'
            : p.state,
  }));
  return {
    orderId: o._id,
    purchaseNumber: o.purchaseNumber,
    sessionId: t.sessionId,
    sellerName: t.sellerName,
    at: o.orderDate,
    lines: o.products.map((l) => ({
      productId: l.product._id,
      name: l.productName,
      unitName: l.unit.name,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      lineTotal: l.lineTotal,
    })),
    total: o.totalAmount,
    paid: o.amountPaid,
    change: t.change,
    payments,
    phone: o.guestInfo.phoneNumber || null,
    state: saleState(o),
    refunded: t.refunded + (t.voided?.amount ?? 0),
    offline: t.offline ? { soldAt: iso(t.offline.soldAt)! } : null,
    needsAttention: attention
      ? { reasons: [...attention.reasons], unpaid: attention.unpaid, code: attention.code }
      : null,
    short: !!t.short,
    etims,
  };
}
