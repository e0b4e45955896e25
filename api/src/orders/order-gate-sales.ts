import { ConflictException, HttpException, Injectable, NotFoundException } from '@nestjs/common';
import { BOOKING_CREDIT, formatMoney, TILL_MESSAGES } from '@spc/shared-contracts';
import { CatalogService } from '../catalog/catalog.service';
import { DomainEvents } from '../common/events/domain-events';
import { InventoryService } from '../inventory/inventory.service';
import type { Actor, Principal } from '../common/principal';
import { MoneyLedgerService, type PaybackPart } from '../money/money-ledger.service';
import { cancelChange, takeRefund, type OrderStep, ORDER_STEPS } from './order-actions';
import { OrderCredits } from './order-credits';
import { codeTaken, deskCode } from './desk-payment-checks';
import { priceGateLines, type GateSaleFields } from './order-gate-plan';
import type { CartLine } from './order-lines';
import { OrderMoney } from './order-money';
import { OrderPlacementService, type Placement } from './order-placement.service';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

/** A void or a refund at the till: who asked, who approved it with their PIN, and why. */
export interface GateReversal {
  byId: string;
  byName: string;
  approvedById: string;
  approvedByName: string;
  reason: string;
}

/** A gate sale as placed (`OrderPlacementService.placeAtGate`). */
export type GateSale = Parameters<OrderPlacementService['placeAtGate']>[1];

/** Money given back at the till is cash from its drawer, whatever paid the sale. */
const CASH_BACK = { method: 'Cash' as const, send: false, reference: '' };

/**
 * A void at the gate: the sale cancelled, its money handed back in cash (recorded in the money
 * ledger before the step, once), its stock returned once; eTIMS and the reports hear
 * `order.cancelled` as of any cancellation.
 */
const VOID_SALE: OrderStep<GateReversal & { refundable: number }> = {
  rule: 'void',
  event: 'order.cancelled',
  // Paid as read (a prompt's payment meanwhile changes what goes back), never voided or refunded.
  guard: ({ order }) => ({
    channel: 'gate',
    paymentStatus: order.paymentStatus,
    amountPaid: order.amountPaid > 0 ? order.amountPaid : { $not: { $gt: 0 } },
    'till.voided': null,
    'till.refunded': order.till?.refunded ?? 0,
  }),
  before: (ctx) =>
    takeRefund(
      ctx,
      ctx.input.refundable > 0 ? { ...CASH_BACK, amount: ctx.input.refundable } : undefined,
    ),
  prepare: ({ order, now, input }) => {
    if (order.channel !== 'gate') throw new NotFoundException('No gate sale with this id');
    const { refundable, ...who } = input;
    return {
      $set: {
        ...(cancelChange(now).$set as object),
        'till.voided': { ...who, amount: refundable, at: now, out: [] },
      },
    };
  },
  after: async (ctx, updated) => {
    await ctx.money.finishRefund(ctx.refundOut);
    await ctx.placement.returnStock(updated, ctx.actor);
  },
  audit: {
    action: 'till.void',
    text: ({ actor, order, input }) =>
      `${actor.fullName} voided gate sale ${order.purchaseNumber} (approved by ${input.approvedByName}: ${input.reason}); ${formatMoney(input.refundable)} handed back in cash and its stock returned`,
  },
};

/**
 * Sales at the gate's till (issue 46), as orders of their own kind: placed through the same
 * saga, paid through the money ledger, handed over through the order steps, voided or refunded in
 * cash. The till module asks this service; it never touches the orders' records itself.
 */
@Injectable()
export class OrderGateSales {
  constructor(
    private readonly placement: OrderPlacementService,
    private readonly orders: OrdersRepository,
    private readonly runner: OrdersService,
    private readonly credits: OrderCredits,
    private readonly ledger: MoneyLedgerService,
    private readonly money: OrderMoney,
    private readonly catalog: CatalogService,
    private readonly events: DomainEvents,
    private readonly inventory: InventoryService,
  ) {}

  /**
   * A sale whose lines took stock below zero (issue 47) is marked `short` (its movements are
   * flagged on the stock ledger, its products flagged until counted). Answers the sale as it is.
   */
  async markShort(order: OrderRecord): Promise<OrderRecord> {
    if (order.till?.short || !(await this.inventory.wentShort(order._id))) return order;
    return (await this.orders.transition(order._id, {}, { $set: { 'till.short': true } })) ?? order;
  }

  /**
   * A sale handed over with its M-Pesa code not counted as money (issue 47): sent out (the
   * seedlings left) and marked for the clerk; fulfilled once settled (`settled`).
   */
  async handOverUnpaid(
    actor: Actor,
    order: OrderRecord,
    attention: NonNullable<OrderRecord['till']>['attention'],
  ): Promise<OrderRecord> {
    const marked =
      (await this.orders.transition(
        order._id,
        { 'till.attention': null },
        { $set: { 'till.attention': attention } },
      )) ?? order;
    return this.stepOnce(ORDER_STEPS.inTransit, actor, marked, HANDED);
  }

  /**
   * A sale needing attention paid at last: its mark cleared, the till's record of its payments as
   * settled (`payments`: the code not counted marked `failed`, the settle's own added; `change`
   * the cash handed back in all), fulfilled (handed over already).
   */
  async settled(
    actor: Actor,
    order: OrderRecord,
    till: { payments: NonNullable<OrderRecord['till']>['payments']; change: number },
  ): Promise<OrderRecord> {
    const cleared =
      (await this.orders.transition(
        order._id,
        { paymentStatus: 'Paid', 'till.attention': { $ne: null } },
        {
          $set: {
            'till.attention': null,
            'till.payments': till.payments,
            'till.change': till.change,
          },
        },
      )) ??
      (await this.orders.findById(order._id)) ??
      order;
    if (cleared.orderStatus !== 'InTransit') return cleared;
    return this.runner.apply(ORDER_STEPS.fulfil, actor, cleared, undefined);
  }

  /**
   * Begins a settle of a sale needing attention (issue 47): one conditional write, so of two
   * settles at once one takes the money and the other waits for it. False when another settle
   * began less than `staleMs` ago (or the sale no longer needs attention).
   */
  async beginSettle(orderId: string, staleMs: number): Promise<boolean> {
    const now = new Date();
    const stale = new Date(now.getTime() - staleMs);
    return !!(await this.orders.transition(
      orderId,
      {
        channel: 'gate',
        'till.attention': { $ne: null },
        'till.voided': null,
        'till.settling': { $not: { $gt: stale } },
      },
      { $set: { 'till.settling': now } },
    ));
  }

  /** The settle is done (paid, or still needing attention). */
  async endSettle(orderId: string): Promise<void> {
    await this.orders.transition(orderId, {}, { $set: { 'till.settling': null } });
  }

  /** The attention mark updated (what is still unpaid, why) while the sale stays unpaid. */
  async stillUnpaid(
    order: OrderRecord,
    attention: NonNullable<OrderRecord['till']>['attention'],
  ): Promise<OrderRecord> {
    return (
      (await this.orders.transition(
        order._id,
        { paymentStatus: { $ne: 'Paid' } },
        { $set: { 'till.attention': attention } },
      )) ?? order
    );
  }

  /** The lines as the shop prices them now (400 off a unit's minimum or step) and their total. */
  price(lines: CartLine[]) {
    return priceGateLines(this.catalog, lines);
  }

  /**
   * An M-Pesa code the buyer shows, in its one spelling (five spellings are one code; 400 for a
   * look-alike), refused (409) when the money ledger has it already.
   */
  async checkCode(typed: string): Promise<string> {
    const code = deskCode(typed);
    const entry = await this.ledger.findByCode(code);
    if (entry) throw codeTaken(code, entry);
    return code;
  }

  /** An M-Pesa code in its one spelling (400 for a look-alike), the ledger not asked. */
  codeSpelling(typed: string): string {
    return deskCode(typed);
  }

  /** The sale placed under this clerk's Idempotency-Key, or null. */
  placedUnder(idempotencyKey: string, actor: Principal): Promise<OrderRecord | null> {
    return this.placement.placedUnder(idempotencyKey, actor);
  }

  /**
   * The sale placed under this clerk's Idempotency-Key if it is this same sale (422 when the key
   * was used for a different one), or null (none placed yet).
   */
  placedUnderSame(
    actor: Principal,
    sale: GateSale,
    idempotencyKey: string,
  ): Promise<OrderRecord | null> {
    return this.placement.placedAtGateUnder(actor, sale, idempotencyKey);
  }

  place(actor: Principal, sale: GateSale, idempotencyKey?: string): Promise<Placement> {
    return this.placement.placeAtGate(actor, sale, idempotencyKey);
  }

  /**
   * A payment taken now (cash, or a code the buyer shows), credited toward the sale. With `ref`
   * (the sale's own: its id, or its settle's) it is one money entry however often taken: a sale
   * resumed after a crash, or resumed twice at once, records and credits it once.
   */
  takePayment(
    actor: Actor,
    order: OrderRecord,
    payment: { code: string | null; amount: number; at?: Date; ref?: string },
  ): Promise<OrderRecord> {
    return this.credits.recordAtGate(actor, order, payment);
  }

  /**
   * A paid sale handed over at once: sent out and fulfilled through the order steps, each once
   * (a step another request took meanwhile, a resumed sale's twin, is not taken again).
   */
  async handOver(actor: Actor, order: OrderRecord): Promise<OrderRecord> {
    const out = await this.stepOnce(ORDER_STEPS.inTransit, actor, order, HANDED);
    if (out.orderStatus === 'Completed') return out;
    return this.stepOnce(ORDER_STEPS.fulfil, actor, out, ['Completed']);
  }

  /**
   * An order step toward `reached`, taken once: already there, the order as it is; lost to another
   * request taking it at the same time (its conditional write refused), the order as that left it.
   */
  private async stepOnce(
    step: OrderStep<undefined>,
    actor: Actor,
    order: OrderRecord,
    reached: readonly string[],
  ): Promise<OrderRecord> {
    if (reached.includes(order.orderStatus)) return order;
    try {
      return await this.runner.apply(step, actor, order, undefined);
    } catch (error) {
      const now = await this.orders.findById(order._id);
      if (now && reached.includes(now.orderStatus)) return now;
      throw error;
    }
  }

  /**
   * A sale that could not be paid as asked (an M-Pesa code taken meanwhile): cancelled with what
   * it took handed back, its stock returned, so the refusal leaves nothing behind but the record.
   */
  async undo(actor: Actor, order: OrderRecord): Promise<void> {
    const now = (await this.orders.findById(order._id)) ?? order;
    const refund = now.amountPaid > 0 ? { ...CASH_BACK, amount: now.amountPaid } : undefined;
    await this.runner.apply(ORDER_STEPS.cancel, actor, now, refund).catch(() => undefined);
  }

  /** The sale by its id (a gate sale, or a booking collected at the gate), or 404. */
  async get(id: string): Promise<OrderRecord> {
    const order = await this.orders.findById(id);
    if (!order?.till) throw new NotFoundException('No gate sale with this id');
    return order;
  }

  /** A booking that may be collected at the gate now (404, or 409 with why not). */
  async booking(id: string): Promise<OrderRecord> {
    const order = await this.orders.findById(id);
    if (!order?.booking) throw new NotFoundException('No booking with this id');
    checkCollect(order);
    return order;
  }

  /** What the money ledger holds for these sales: every entry in and out. */
  async entriesOf(orderIds: string[]) {
    return (await Promise.all(orderIds.map((id) => this.ledger.ofOrder(id)))).flat();
  }

  /** Voids a sale handed over: its money back in cash, its stock returned; twice at once, once. */
  async void(actor: Actor, order: OrderRecord, who: GateReversal): Promise<OrderRecord> {
    if (order.till?.voided) throw new ConflictException(TILL_MESSAGES.alreadyVoided);
    const refundable = (await this.money.moneyOf(order._id, false)).refundable;
    try {
      return await this.runner.apply(VOID_SALE, actor, order, { ...who, refundable });
    } catch (error) {
      throw alreadyVoided(error, await this.orders.findById(order._id));
    }
  }

  /**
   * Gives back part of a sale in cash (never more than is left of it: 409), recorded in the money
   * ledger against what the sale received, once: two at once take what is left once.
   */
  async refund(
    actor: Actor,
    order: OrderRecord,
    amount: number,
    who: GateReversal,
  ): Promise<OrderRecord> {
    if (order.till?.voided || order.orderStatus === 'Cancelled')
      throw new ConflictException(TILL_MESSAGES.alreadyVoided);
    const entries = (await this.ledger.ofOrder(order._id)).filter(
      (e) => e.direction === 'in' && e.state === 'credited' && e.returnable > 0,
    );
    const left = entries.reduce((n, e) => n + e.returnable, 0);
    if (amount > left)
      throw new ConflictException({
        message: TILL_MESSAGES.refundAboveSale(formatMoney(left)),
        code: 'CONFLICT',
      });
    const parts: PaybackPart[] = [];
    let rest = amount;
    for (const e of entries) {
      if (rest <= 0) break;
      const take = Math.min(rest, e.returnable);
      parts.push({ of: e, amount: take, kind: 'cash', send: false });
      rest -= take;
    }
    const out = await this.ledger.takeOut(actor, parts, 'refund');
    const now = new Date();
    const updated = await this.orders.transition(
      order._id,
      { channel: 'gate', orderStatus: 'Completed', 'till.voided': null },
      {
        $push: {
          'till.refunds': { ...who, amount, at: now, out },
          refundOut: { $each: out },
        },
        $inc: { 'till.refunded': amount },
      },
    );
    if (!updated) {
      await this.ledger.abandonOut(out);
      throw new ConflictException(TILL_MESSAGES.alreadyVoided);
    }
    await this.money.finishRefund(out);
    // The audit trail and eTIMS (a credit note for the part given back) hear it.
    await this.events.emit('order.refunded', {
      actor,
      order: updated,
      audit: {
        action: 'till.refund',
        text: `${actor.fullName} refunded ${formatMoney(amount)} in cash of gate sale ${order.purchaseNumber} (approved by ${who.approvedByName}: ${who.reason})`,
        target: { type: 'order', id: order._id, label: order.purchaseNumber },
      },
    });
    return updated;
  }

  /**
   * A booking collected at the gate: its balance taken now (exactly what is due, one money entry
   * a payment), the till's record written with the entries it took (the session's cash-up counts
   * those alone, not the deposit paid before), then handed over through the order steps. 409
   * before any money moves when it cannot go out now (its batch not ready, not a live booking).
   */
  async collect(
    actor: Actor,
    order: OrderRecord,
    till: GateSaleFields['till'],
    payments: { code: string | null; amount: number }[],
  ): Promise<OrderRecord> {
    checkCollect(order);
    let current = order;
    const entries: (string | null)[] = payments.map(() => null);
    // The M-Pesa code first: a code refused leaves no cash on the booking.
    const codeFirst = payments.map((p, i) => ({ p, i })).sort((a, b) => rank(a.p) - rank(b.p));
    for (const { p, i } of codeFirst) {
      const before = new Set(current.credited);
      current = await this.credits.recordAtGate(actor, current, p);
      entries[i] = current.credited.find((e) => !before.has(e)) ?? null;
    }
    const recorded = await this.orders.transition(
      order._id,
      { till: { $exists: false } },
      {
        $set: {
          till: {
            ...till,
            payments: till.payments.map((p, i) => ({ ...p, entry: entries[i] ?? null })),
          },
        },
      },
    );
    return this.handOver(actor, recorded ?? current);
  }

  /** The sales of a till session, oldest first. */
  ofSession(sessionId: string): Promise<OrderRecord[]> {
    return this.orders.ofTillSession(sessionId);
  }
}

/** A sale sent out or fulfilled: handed over. */
const HANDED = ['InTransit', 'Completed'] as const;

/** M-Pesa codes are taken before cash (0 before 1). */
const rank = (p: { code: string | null }) => (p.code ? 0 : 1);

/** Refuses (409) a booking that cannot go out at the gate now: not taking its balance, or not ready. */
function checkCollect(order: OrderRecord): void {
  const b = order.booking!;
  if (order.orderStatus === 'Cancelled' || BOOKING_CREDIT[b.state] !== 'balance')
    throw new ConflictException({
      message: `Booking ${order.purchaseNumber} is ${order.orderStatus === 'Cancelled' ? 'cancelled' : b.state.toLowerCase()}: it cannot be collected now`,
      code: 'ILLEGAL_TRANSITION',
    });
  if (!b.readyAt)
    throw new ConflictException({
      message: `The batch of booking ${order.purchaseNumber} is not ready yet (expected ${b.readyOn})`,
      code: 'ILLEGAL_TRANSITION',
    });
}

/** A void refused because another void won: the sale's own words. */
function alreadyVoided(error: unknown, now: OrderRecord | null): unknown {
  if (now?.till?.voided && error instanceof HttpException && error.getStatus() === 409)
    return new ConflictException(TILL_MESSAGES.alreadyVoided);
  return error;
}
