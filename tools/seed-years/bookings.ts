/**
 * Batches and bookings of `npm run seed:years` (issue 32), in the shapes the API stores them
 * (api/src/batches/schemas/batch.schema.ts, the order's `booking` in
 * api/src/orders/schemas/order.schema.ts; docs/batches.md). Pure, like history.ts: seed-years.ts
 * writes what this returns.
 *
 * `planBatches` sows, for each long and short rains from when bookings began to the coming one, a
 * few batches of a share of the products, each with its whole life decided up front: losses while
 * growing, ready on its day (when that is past) or failed now and then. `BatchBook` keeps every
 * hold a booking takes on a batch (a booking never takes more than the batch has left to book:
 * every hold ever taken counts, so no batch is ever overbooked) and at the end writes each batch
 * with its `batch:<id>` ledger (sown, losses, batch-ready, sale) and the product's `batch-ready`
 * movements. `buildBooking` places one booking order on a batch and lives its life up to now:
 * deposit unpaid and expired, Booked, Balance due, Paid then handed over, Released, Affected by a
 * failed batch then moved or refunded.
 */
import { ObjectId } from 'mongodb';
import { formatMoney, type BookingState } from '@spc/shared-contracts';
import {
  between,
  buildLine,
  DAY_MS,
  darajaPhone,
  hours,
  orderContact,
  orderRecords,
  PAYBILL_SHARE,
  PAYBILL_SINCE_DAYS,
  pick,
  purchaseNumber,
  receiptCode,
  seedlingsOf,
  SHORTCODE,
  UNITS_SINCE_DAYS,
  type BuiltOrder,
  type CatalogueProduct,
  type Contact,
  type PendingMovement,
  type Person,
  type Rand,
} from './history';
import { MoneyBook, MPESA_SYSTEM } from './money';

/** Bookings began this many days ago; from then on this share of orders are bookings. */
export const BOOKINGS_SINCE_DAYS = 400;
export const BOOKING_SHARE = 0.07;
/** The API's defaults (BOOKING_DEPOSIT_PERCENT, BOOKING_BALANCE_DAYS, SEASON_*). */
export const DEPOSIT_PERCENT = 30;
export const BALANCE_DAYS = 7;
const SEASONS = [
  { from: '03-01', to: '05-31' },
  { from: '10-01', to: '12-31' },
] as const;
const SEASON_LEAD_DAYS = 42;
/** The share of products sown in batches each season. */
const BATCH_PRODUCT_SHARE = 0.15;

const NAIROBI_OFFSET_MS = 3 * 60 * 60 * 1000;
/** The shop day (Africa/Nairobi, UTC+3) of a moment, `YYYY-MM-DD`. */
export const shopDay = (d: Date) =>
  new Date(d.getTime() + NAIROBI_OFFSET_MS).toISOString().slice(0, 10);
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
/** A moment `hour` hours into a shop day. */
const onDay = (day: string, hour: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - NAIROBI_OFFSET_MS + hour * 60 * 60 * 1000);
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const later = (a: Date, b: Date) => (a.getTime() > b.getTime() ? a : b);

const FAIL_NOTES = [
  'Damping-off in the propagation bed',
  'Hail damaged the shade house',
  'Root rot after the bed flooded',
  'Seed did not germinate evenly',
] as const;

/** One booking's seedlings held on a batch, and how the hold ended (null: it still holds them). */
interface Hold {
  orderId: string;
  purchaseNumber: string;
  seedlings: number;
  at: Date;
  end: { at: Date; kind: 'sale' | 'release' | 'drop'; by: Person | null } | null;
}

export interface SeedBatch {
  _id: ObjectId;
  id: string;
  product: CatalogueProduct;
  sownOn: string;
  readyOn: string;
  createdAt: Date;
  started: number;
  losses: { at: Date; quantity: number }[];
  lost: number;
  /** Made ready (its ready day is past), or failed; both null while it grows. */
  readyAt: Date | null;
  failedAt: Date | null;
  failNote: string;
  clerk: Person;
  holds: Hold[];
  /** Every seedling ever held here: what a booking may take is what this leaves. */
  bookedEver: number;
}

/**
 * The batches sown for the seasons from `days` (at most BOOKINGS_SINCE_DAYS) ago to about five
 * months ahead: each season a share of the products (at least one), one to three batches each,
 * ready within the season's window (its start less the lead days to its end), sown 8 to 16 weeks
 * before. Those ready before now are Ready (6 % failed on the way), the others Growing (a few
 * failed already). Sorted by when they were sown.
 */
export function planBatches(
  r: Rand,
  products: CatalogueProduct[],
  now: Date,
  days: number,
  staff: Person[],
): SeedBatch[] {
  const first = shopDay(new Date(now.getTime() - Math.min(days, BOOKINGS_SINCE_DAYS) * DAY_MS));
  const horizon = shopDay(new Date(now.getTime() + 150 * DAY_MS));
  const perSeason = Math.max(1, Math.round(products.length * BATCH_PRODUCT_SHARE));
  const batches: SeedBatch[] = [];
  for (let year = Number(first.slice(0, 4)); year <= Number(horizon.slice(0, 4)); year++) {
    for (const season of SEASONS) {
      const to = `${year}-${season.to}`;
      const from = addDays(`${year}-${season.from}`, -SEASON_LEAD_DAYS);
      if (to < first || from > horizon) continue;
      const chosen = new Set<CatalogueProduct>();
      while (chosen.size < Math.min(perSeason, products.length)) chosen.add(pick(r, products));
      for (const product of chosen) {
        const count = between(r, 1, 3);
        for (let i = 0; i < count; i++) {
          const readyOn = addDays(from, between(r, 0, daysBetween(from, to)));
          const sownOn = addDays(readyOn, -between(r, 56, 112));
          const createdAt = onDay(sownOn, 8 + r() * 4);
          if (createdAt.getTime() >= now.getTime()) continue;
          const readyMoment = onDay(readyOn, 7 + r() * 3);
          const until = Math.min(readyMoment.getTime(), now.getTime());
          // Failed on the way: a batch still to be ready failed in the last weeks (its bookings
          // may still wait to be moved or refunded).
          const since = Math.max(
            createdAt.getTime() + 0.3 * (until - createdAt.getTime()),
            readyMoment.getTime() > now.getTime() ? now.getTime() - 30 * DAY_MS : 0,
          );
          let failedAt: Date | null =
            r() < 0.06 ? new Date(since + r() * 0.95 * (until - since)) : null;
          if (failedAt && failedAt.getTime() >= now.getTime()) failedAt = null;
          const readyAt = !failedAt && readyMoment.getTime() < now.getTime() ? readyMoment : null;
          const started = between(r, 40, 300) * 50;
          const end = (failedAt ?? readyAt ?? now).getTime();
          const losses: SeedBatch['losses'] = [];
          for (let n = between(r, 0, 2); n > 0; n--)
            losses.push({
              at: new Date(createdAt.getTime() + r() * (end - createdAt.getTime())),
              quantity: Math.max(1, Math.round(started * (0.005 + r() * 0.03))),
            });
          losses.sort((a, b) => a.at.getTime() - b.at.getTime());
          const _id = new ObjectId();
          batches.push({
            _id,
            id: _id.toHexString(),
            product,
            sownOn,
            readyOn,
            createdAt,
            started,
            losses,
            lost: losses.reduce((n, l) => n + l.quantity, 0),
            readyAt,
            failedAt,
            failNote: failedAt ? pick(r, FAIL_NOTES) : '',
            clerk: pick(r, staff),
            holds: [],
            bookedEver: 0,
          });
        }
      }
    }
  }
  return batches.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** What the batches wrote, for seed-years.ts. */
export interface FinishedBatches {
  batches: Record<string, unknown>[];
  /** The `batch:<id>` ledgers, numbered. */
  movements: Record<string, unknown>[];
  /** The products' `batch-ready` movements (numbered by the product's ledger). */
  productMovements: PendingMovement[];
  audit: Record<string, unknown>[];
  byStatus: Record<string, number>;
}

/** The batches and the holds the bookings take on them. */
export class BatchBook {
  constructor(readonly batches: SeedBatch[]) {}

  /** Batches a shopper could book at `at`: sown, not failed, ready after that shop day. */
  bookable(at: Date): SeedBatch[] {
    const day = shopDay(at);
    return this.batches.filter(
      (b) =>
        b.createdAt.getTime() < at.getTime() &&
        b.readyOn > day &&
        (!b.failedAt || b.failedAt.getTime() > at.getTime()) &&
        b.started - b.lost - b.bookedEver > 0,
    );
  }

  room(b: SeedBatch): number {
    return b.started - b.lost - b.bookedEver;
  }

  hold(b: SeedBatch, orderId: string, number: string, seedlings: number, at: Date): void {
    b.holds.push({ orderId, purchaseNumber: number, seedlings, at, end: null });
    b.bookedEver += seedlings;
  }

  end(
    b: SeedBatch,
    orderId: string,
    at: Date,
    kind: 'sale' | 'release' | 'drop',
    by: Person | null,
  ) {
    const hold = b.holds.find((h) => h.orderId === orderId && !h.end)!;
    hold.end = { at, kind, by };
  }

  /** A growing batch of the same product, never failing, with room at `at` for a moved booking. */
  moveTarget(from: SeedBatch, at: Date, seedlings: number): SeedBatch | null {
    const day = shopDay(at);
    return (
      this.batches.find(
        (b) =>
          b !== from &&
          b.product._id === from.product._id &&
          !b.failedAt &&
          b.createdAt.getTime() < at.getTime() &&
          b.readyOn > day &&
          this.room(b) >= seedlings,
      ) ?? null
    );
  }

  /** Each batch as the API stores it now, with its ledger, the products' movements and the audit. */
  finish(): FinishedBatches {
    const out: FinishedBatches = {
      batches: [],
      movements: [],
      productMovements: [],
      audit: [],
      byStatus: {},
    };
    for (const b of this.batches) {
      const label = `${b.product.productName}, sown ${b.sownOn}, ready ${b.readyOn}`;
      const target = { type: 'batch', id: b.id, label };
      const actor = (p: Person | null) =>
        p ? { id: p.id, fullName: p.fullName, role: p.role } : null;
      const note = (action: string, at: Date, message: string) =>
        out.audit.push({
          _id: new ObjectId(),
          action,
          message,
          performedBy: actor(b.clerk),
          target,
          timestamp: at,
        });
      const steps: {
        at: Date;
        reason: string;
        change: (quantity: number, booked: number) => number;
        note: string;
        by: Person | null;
        orderId: string | null;
        purchaseNumber: string | null;
        product?: boolean;
      }[] = [];
      const step = (s: (typeof steps)[number]) => steps.push(s);
      step({
        at: b.createdAt,
        reason: 'sown',
        change: () => b.started,
        note: `Sown on ${b.sownOn}, ready on ${b.readyOn}`,
        by: b.clerk,
        orderId: null,
        purchaseNumber: null,
      });
      note(
        'batch.create',
        b.createdAt,
        `${b.clerk.fullName} sowed a batch of ${b.started} ${label}`,
      );
      for (const loss of b.losses) {
        step({
          at: loss.at,
          reason: 'died',
          change: () => -loss.quantity,
          note: `${loss.quantity} seedlings died`,
          by: b.clerk,
          orderId: null,
          purchaseNumber: null,
        });
        note(
          'batch.loss',
          loss.at,
          `${b.clerk.fullName} recorded ${loss.quantity} seedlings lost from batch ${label}`,
        );
      }
      if (b.failedAt)
        step({
          at: b.failedAt,
          reason: 'died',
          change: (quantity) => -Math.max(0, quantity),
          note: `Batch failed: ${b.failNote}`,
          by: b.clerk,
          orderId: null,
          purchaseNumber: null,
        });
      let readyMoved = 0;
      let bookedAtReady = 0;
      if (b.readyAt) {
        const readyAt = b.readyAt;
        step({
          at: readyAt,
          reason: 'batch-ready',
          change: (quantity, booked) => {
            readyMoved = Math.max(0, quantity - booked);
            bookedAtReady = booked;
            return -readyMoved;
          },
          note: 'Batch ready: seedlings no booking holds went into ready stock',
          by: b.clerk,
          orderId: null,
          purchaseNumber: null,
          product: true,
        });
      }
      // A hold ended after the batch was ready moves seedlings: handed over (a sale) or into ready
      // stock (released, expired, cancelled). Before, or on a failed batch, nothing moves.
      for (const h of b.holds) {
        if (!h.end || !b.readyAt || h.end.kind === 'drop') continue;
        if (h.end.at.getTime() <= b.readyAt.getTime()) continue;
        const sale = h.end.kind === 'sale';
        step({
          at: h.end.at,
          reason: sale ? 'sale' : 'batch-ready',
          change: () => -h.seedlings,
          note: sale
            ? `Booking ${h.purchaseNumber} handed over`
            : `Booking ${h.purchaseNumber} released into ready stock`,
          by: h.end.by,
          orderId: h.orderId,
          purchaseNumber: h.purchaseNumber,
          product: !sale,
        });
      }
      steps.sort((x, y) => x.at.getTime() - y.at.getTime());
      let quantity = 0;
      let seq = 0;
      for (const s of steps) {
        // What the bookings held at that moment (a hold taken before, not yet ended).
        const booked = b.holds
          .filter(
            (h) =>
              h.at.getTime() <= s.at.getTime() && (!h.end || h.end.at.getTime() > s.at.getTime()),
          )
          .reduce((n, h) => n + h.seedlings, 0);
        const change = s.change(quantity, booked);
        quantity += change;
        seq += 1;
        out.movements.push({
          _id: new ObjectId().toHexString(),
          productId: `batch:${b.id}`,
          productName: b.product.productName,
          seq,
          reason: s.reason,
          change,
          quantityAfter: quantity,
          note: s.note,
          by: actor(s.by),
          orderId: s.orderId,
          purchaseNumber: s.purchaseNumber,
          at: s.at,
        });
        if (s.product && change < 0)
          out.productMovements.push({
            productId: b.product._id,
            productName: b.product.productName,
            reason: 'batch-ready',
            change: -change,
            orderId: s.orderId ?? `batch:${b.id}`,
            purchaseNumber: s.purchaseNumber,
            by: actor(s.by),
            at: s.at,
            note:
              s.orderId === null
                ? `Batch sown on ${b.sownOn} ready: ${-change} seedlings into ready stock`
                : `Booking ${s.purchaseNumber} released: its seedlings went into ready stock`,
          });
      }
      if (b.readyAt)
        note(
          'batch.ready',
          b.readyAt,
          `${b.clerk.fullName} marked batch ${label} ready: ${readyMoved} seedlings into ready stock, ${bookedAtReady} held for bookings`,
        );
      if (b.failedAt)
        note(
          'batch.fail',
          b.failedAt,
          `${b.clerk.fullName} marked batch ${label} failed: ${b.failNote}`,
        );
      const live = b.holds.filter((h) => !h.end);
      const booked = live.reduce((n, h) => n + h.seedlings, 0);
      const status = b.failedAt ? 'Failed' : b.readyAt ? 'Ready' : 'Growing';
      const available = status === 'Growing' ? Math.max(0, b.started - b.lost - booked) : 0;
      const shown = status === 'Growing' && available === 0 ? 'Sold out' : status;
      out.byStatus[shown] = (out.byStatus[shown] ?? 0) + 1;
      out.batches.push({
        _id: b._id,
        productId: b.product._id,
        productName: b.product.productName,
        sownOn: b.sownOn,
        readyOn: b.readyOn,
        started: b.started,
        lost: b.lost,
        booked,
        available,
        quantity,
        status,
        readyAt: b.readyAt,
        failedAt: b.failedAt,
        note: b.failNote,
        holds: live.map((h) => ({ orderId: h.orderId, seedlings: h.seedlings, at: h.at })),
        releasedFor: [],
        readyMoved,
        readyStock: b.readyAt ? 'cleared' : 'none',
        readyStockAt: b.readyAt,
        pendingTell: null,
        stockSeq: seq,
        pendingMovements: [],
        createdAt: b.createdAt,
      });
    }
    return out;
  }
}

export type BuiltBooking = BuiltOrder & { bookingState: BookingState; moved: boolean };

/**
 * One booking order placed at `placed` on `batch`, lived up to `now`; null when the batch has no
 * room left for the line drawn (the caller then places an ordinary order).
 */
export function buildBooking(
  r: Rand,
  placed: Date,
  now: Date,
  contact: Contact,
  first: SeedBatch,
  book: BatchBook,
  staff: Person[],
  system: Person,
): BuiltBooking | null {
  const ageDays = (now.getTime() - placed.getTime()) / DAY_MS;
  const line = buildLine(r, first.product, ageDays < UNITS_SINCE_DAYS);
  const seedlings = seedlingsOf(line);
  if (seedlings > book.room(first)) return null;
  const _id = new ObjectId();
  const id = _id.toHexString();
  const number = purchaseNumber();
  const pickup = r() < 0.3;
  const shippingFee = pickup ? 0 : pick(r, [150, 200, 300, 450]);
  const totalAmount = line.lineTotal + shippingFee;
  const deposit = Math.round((totalAmount * DEPOSIT_PERCENT) / 100);
  const clerk = pick(r, staff);
  const kes = formatMoney;
  const { audit, sms, note, text } = orderRecords(r, { id, number, phone: contact.phoneNumber });
  const payments: Record<string, unknown>[] = [];
  let refund: Record<string, unknown> | null = null;

  let batch = first;
  book.hold(batch, id, number, seedlings, placed);
  text('placed', placed);
  const booking = {
    batchId: batch.id,
    productName: batch.product.productName,
    readyOn: batch.readyOn,
    depositPercent: DEPOSIT_PERCENT,
    deposit,
    balance: totalAmount - deposit,
    state: 'Deposit due' as BookingState,
    depositPaidAt: null as Date | null,
    depositReceipt: null as string | null,
    readyAt: null as Date | null,
    balanceDueBy: null as string | null,
    balancePaidAt: null as Date | null,
    releasedAt: null as Date | null,
    releaseDecision: null as 'kept' | 'refunded' | null,
    problem: null as 'failed' | 'short' | null,
    movedFromBatchId: null as string | null,
    fulfilledAt: null as Date | null,
  };
  const o = {
    status: 'Pending' as string,
    paidAt: null as Date | null,
    inTransitAt: null as Date | null,
    deliveredAt: null as Date | null,
    completedAt: null as Date | null,
    cancelledAt: null as Date | null,
    paymentDetails: null as Record<string, unknown> | null,
  };
  let amountPaid = 0;
  const money = new MoneyBook({ id, purchaseNumber: number, totalAmount, deposit });
  const paybillEra = ageDays < PAYBILL_SINCE_DAYS;
  const byPaybill = paybillEra && r() < PAYBILL_SHARE;
  const past = (d: Date | null): d is Date => !!d && d.getTime() < now.getTime();

  /** A payment credited to the order (by the prompt, or the paybill with its C2B record). */
  const credit = (amount: number, at: Date): string => {
    const transId = receiptCode(at);
    money.pay({
      kind: byPaybill ? 'paybill' : 'mpesa-express',
      amount,
      at,
      code: transId,
      payer: darajaPhone(contact.phoneNumber),
      by: MPESA_SYSTEM,
      verified: byPaybill,
    });
    amountPaid += amount;
    if (byPaybill)
      payments.push({
        _id: transId,
        amount,
        account: number,
        phone: darajaPhone(contact.phoneNumber),
        payerName: contact.fullName.toUpperCase(),
        paidAt: at,
        shortcode: SHORTCODE,
        status: 'matched',
        reason: '',
        orderId: id,
        purchaseNumber: number,
        matchedBy: 'account',
        excess: 0,
        refundId: null,
        confirmations: 1,
        queryConversationId: `AG_${transId}`,
        queries: 1,
        lastQueriedAt: at,
        createdAt: at,
        updatedAt: at,
      });
    return transId;
  };
  const cancel = (at: Date, state: BookingState) => {
    o.status = 'Cancelled';
    o.cancelledAt = at;
    booking.state = state;
  };
  const refundMoney = (at: Date) => {
    if (amountPaid <= 0) return;
    const reference = `R${receiptCode(at)}`;
    money.giveBack({
      kind: 'mpesa-by-hand',
      amount: amountPaid,
      at,
      by: clerk,
      purpose: 'refund',
      reference,
    });
    refund = {
      orderId: id,
      purchaseNumber: number,
      method: 'Mpesa',
      amount: amountPaid,
      reference,
      refundedById: clerk.id,
      refundedByName: clerk.fullName,
      refundedAt: at,
      __v: 0,
    };
  };
  const payBalance = (at: Date) => {
    const code = credit(totalAmount - amountPaid, at);
    booking.state = 'Paid';
    booking.balancePaidAt = at;
    o.paidAt = at;
    o.status = 'Processing';
    o.paymentDetails = {
      amount: booking.balance,
      transactionCode: code,
      timePaid: at,
      completedById: system.id,
      completedByName: system.fullName,
      receiptKey: code,
    };
    note(
      'order.payment',
      system,
      at,
      `${system.fullName} recorded a Mpesa payment of ${kes(booking.balance)} for order ${number}`,
    );
    text('paid', at);
  };

  /** When an affected booking is moved or refunded: most within days, some weeks later. */
  const decided = (failedAt: Date) =>
    hours(failedAt, r() < 0.5 ? 12 + r() * 24 * 6 : 24 * (6 + r() * 40));
  let moved = false;

  /** The booking with its deposit paid (from `since`) on `b`: ready, paid, handed over, or not. */
  const livePaid = (b: SeedBatch, since: Date): void => {
    // A few pay the balance early, before the batch is ready.
    const early = r() < 0.08 ? hours(since, 24 + r() * 24 * 20) : null;
    const end = b.failedAt ?? b.readyAt;
    if (past(early) && (!end || early.getTime() < end.getTime())) payBalance(early);
    if (b.failedAt && b.failedAt.getTime() > since.getTime() && past(b.failedAt)) {
      // Failed: affected (paid in full or not), then moved (a part paid) or refunded.
      affected(b.failedAt);
      const at = decided(b.failedAt);
      if (!past(at)) return;
      const target = !o.paidAt && r() < 0.55 ? book.moveTarget(b, at, seedlings) : null;
      if (target) {
        move(b, target, at);
        return livePaid(target, at);
      }
      return refundAffected(b, at);
    }
    if (!past(b.readyAt)) return;
    const ready = later(b.readyAt, since);
    booking.readyAt = b.readyAt;
    if (booking.state === 'Booked') {
      booking.state = 'Balance due';
      booking.balanceDueBy = addDays(shopDay(ready), BALANCE_DAYS);
      if (ready === b.readyAt)
        note(
          'booking.ready',
          system,
          ready,
          `The batch of booking ${number} is ready: its balance of ${kes(totalAmount - amountPaid)} is due by ${booking.balanceDueBy}`,
        );
      text('balance-due', ready);
      const payAt = r() < 0.82 ? hours(ready, r() * 24 * 6.5) : null;
      const releaseAt = onDay(addDays(booking.balanceDueBy, 1), 0.2 + r() * 0.6);
      if (past(payAt) && payAt.getTime() < releaseAt.getTime()) payBalance(payAt);
      else if (past(releaseAt)) return release(b, releaseAt);
      else return;
    }
    // Paid, its batch ready: handed over, delivered, completed.
    const sent = hours(later(o.paidAt!, b.readyAt), 4 + r() * 40);
    if (!past(sent)) return;
    book.end(b, id, sent, 'sale', clerk);
    booking.fulfilledAt = sent;
    o.status = 'InTransit';
    o.inTransitAt = sent;
    note('order.inTransit', clerk, sent, `${clerk.fullName} marked order ${number} in transit`);
    text('sent', sent);
    const delivered = hours(sent, 6 + r() * 60);
    if (!past(delivered)) return;
    o.status = 'Delivered';
    o.deliveredAt = delivered;
    note(
      'order.delivered',
      clerk,
      delivered,
      `${clerk.fullName} confirmed delivery of order ${number}`,
    );
    text('delivered', delivered);
    const completed = hours(delivered, 2 + r() * 48);
    if (!past(completed)) return;
    o.status = 'Completed';
    o.completedAt = completed;
    note('order.fulfil', clerk, completed, `${clerk.fullName} fulfilled order ${number}`);
  };
  const affected = (at: Date) => {
    booking.state = 'Affected';
    booking.problem = 'failed';
    note(
      'booking.affected',
      system,
      at,
      `Booking ${number} is affected: its batch failed; it waits to be moved to another batch or refunded`,
    );
    text('affected', at);
  };
  const move = (from: SeedBatch, to: SeedBatch, at: Date) => {
    book.end(from, id, at, 'drop', clerk);
    book.hold(to, id, number, seedlings, at);
    batch = to;
    moved = true;
    Object.assign(booking, {
      state: booking.depositPaidAt ? 'Booked' : 'Deposit due',
      batchId: to.id,
      readyOn: to.readyOn,
      movedFromBatchId: from.id,
      problem: null,
      readyAt: null,
      balanceDueBy: null,
    });
    note(
      'booking.move',
      clerk,
      at,
      `${clerk.fullName} moved booking ${number} (${seedlings} seedlings) from the batch ready on ${from.readyOn} to the batch ready on ${to.readyOn}; its deposit goes with it`,
    );
    text('moved', at);
  };
  const refundAffected = (b: SeedBatch, at: Date) => {
    book.end(b, id, at, 'drop', clerk);
    refundMoney(at);
    note(
      'booking.refund',
      clerk,
      at,
      `${clerk.fullName} had booking ${number} refunded after its batch failed: ${amountPaid > 0 ? `${kes(amountPaid)} back by M-Pesa` : 'nothing was paid'}; the order is cancelled and its seedlings released`,
    );
    text('refunded', at);
    cancel(at, 'Refunded');
  };
  const release = (b: SeedBatch, at: Date) => {
    const decision = r() < 0.85 ? 'kept' : 'refunded';
    book.end(b, id, at, 'release', null);
    booking.releasedAt = at;
    booking.releaseDecision = decision;
    if (decision === 'refunded') refundMoney(at);
    note(
      'booking.release',
      system,
      at,
      `Booking ${number} was released: its balance of ${kes(totalAmount - amountPaid)} was not paid by ${booking.balanceDueBy}; its seedlings went back into ready stock and its deposit of ${kes(amountPaid)} was ${decision === 'refunded' ? 'refunded by M-Pesa (shop policy: refund)' : 'kept (shop policy: keep)'}`,
    );
    text('released', at);
    cancel(at, 'Released');
  };

  // The deposit: most pay it within minutes (the prompt) or hours (the paybill); some never do.
  const expireAt = hours(placed, 48 + r() * 4);
  let depositAt: Date | null =
    r() < 0.14 ? null : hours(placed, 0.02 + r() * (byPaybill ? 3 : 0.5));
  if (depositAt && batch.failedAt && depositAt.getTime() > batch.failedAt.getTime())
    depositAt = null;
  if (!past(depositAt)) {
    if (past(batch.failedAt) && batch.failedAt.getTime() < expireAt.getTime()) {
      affected(batch.failedAt);
      const at = decided(batch.failedAt);
      if (past(at)) refundAffected(batch, at);
    } else if (past(expireAt)) {
      const ready = past(batch.readyAt) && batch.readyAt.getTime() < expireAt.getTime();
      if (ready) booking.readyAt = batch.readyAt;
      book.end(batch, id, expireAt, ready ? 'release' : 'drop', null);
      note('order.expire', system, expireAt, `${system.fullName} cancelled order ${number}`);
      text('cancelled', expireAt);
      cancel(expireAt, 'Expired');
    } else if (past(batch.readyAt)) booking.readyAt = batch.readyAt;
  } else {
    const code = credit(deposit, depositAt);
    booking.state = 'Booked';
    booking.depositPaidAt = depositAt;
    booking.depositReceipt = code;
    const ready = past(batch.readyAt) && batch.readyAt.getTime() < depositAt.getTime();
    note(
      'booking.deposit',
      system,
      depositAt,
      `${system.fullName} recorded the deposit of booking ${number}: ${kes(deposit)} paid (${code}) of a deposit of ${kes(deposit)}; ${ready ? `its batch is ready, the balance is due by ${addDays(shopDay(depositAt), BALANCE_DAYS)}` : `booked for ${batch.readyOn}`}`,
    );
    text('deposit', depositAt);
    livePaid(batch, depositAt);
  }

  const lastChange = [o.cancelledAt, o.completedAt, o.deliveredAt, o.inTransitAt, o.paidAt]
    .concat([booking.depositPaidAt, placed])
    .filter((d): d is Date => !!d)
    .reduce(later);
  const order = {
    _id,
    purchaseNumber: number,
    placedBy: contact.userId,
    ...orderContact(contact, pickup),
    products: [line],
    subtotal: line.lineTotal,
    shippingFee,
    totalAmount,
    orderStatus: o.status,
    paymentStatus: o.paidAt ? 'Paid' : 'Pending',
    fulfillmentStatus: o.completedAt ? 'Fulfilled' : 'Unfulfilled',
    paymentMethod: o.paidAt ? 'Mpesa' : null,
    paymentDetails: o.paymentDetails,
    paidAt: o.paidAt,
    orderDate: placed,
    // The delivery quote when placed, as on any order.
    estimatedDeliveryDate: new Date(placed.getTime() + 3 * DAY_MS),
    inTransitDate: o.inTransitAt,
    deliveredDate: o.deliveredAt,
    cancelledDate: o.cancelledAt,
    placement: 'placed',
    clientAddress: '198.51.100.7',
    ledgerSettled: true,
    stockReturn: o.cancelledAt ? 'cleared' : 'none',
    amountPaid,
    ...(money.credits.length ? { moneyCredits: money.credits } : {}),
    ...(money.refundOut.length ? { refundOut: money.refundOut } : {}),
    booking,
    createdAt: placed,
    updatedAt: lastChange,
    __v: 0,
  };
  return {
    order,
    movements: [],
    audit,
    sms,
    refund,
    payments,
    mpesaRefunds: [],
    money: money.entries,
    bookingState: booking.state,
    moved,
  };
}
