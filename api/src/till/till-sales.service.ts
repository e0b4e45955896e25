import {
  BadRequestException,
  ConflictException,
  HttpException,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  formatMoney,
  MPESA_MESSAGES,
  TILL_MESSAGES,
  TILL_OFFLINE_LIMITS,
  TILL_OFFLINE_METHODS,
  toMpesaPhone,
  type TillPaymentInput,
  type TillSaleInput,
  type TillSaleView,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { C2bInboxService } from '../payments/c2b/c2b-inbox.service';
import type { PricedLine } from '../orders/order-lines';
import type { Principal } from '../common/principal';
import { EtimsQueue } from '../etims/etims-queue.service';
import type { GateSaleFields } from '../orders/order-gate-plan';
import { OrderGateSales, type GateSale } from '../orders/order-gate-sales';
import { mergeCartLines, type CartLine } from '../orders/order-lines';
import { MpesaService } from '../payments/mpesa.service';
import { SmsService } from '../sms/sms.service';
import { receiptText } from './till-receipt-text';
import type { OrderRecord } from '../orders/order.types';
import { saleView } from './till-cash-up';
import { bad, checkPayments, type CheckedPayment } from './till-payments';
import type { TillSessionRecord } from './till.repository';
import { TillPins } from './till-pins.service';
import { TillSessions } from './till-sessions.service';

/** How long a sale sent again waits for the same sale, still being placed, to be placed. */
const REPLAY_WAIT_MS = 15_000;
const REPLAY_STEP_MS = 100;
/** A settle begun this long ago died midway (its instance crashed): another may run. */
const SETTLE_STALE_MS = 120_000;

/** A void's or a refund's approval: a second person's id and PIN, and why. */
export interface Approval {
  approverId: string;
  pin: string;
  reason: string;
}

/**
 * Sales at the gate (issue 46): checked (the clerk's open session, the unit's rules, payments that
 * add up, an M-Pesa code not in the ledger) before anything is written, then placed, paid and
 * handed over through the orders' gate sales; voided or refunded with a second person's PIN.
 */
@Injectable()
export class TillSales {
  constructor(
    private readonly gate: OrderGateSales,
    private readonly sessions: TillSessions,
    private readonly pins: TillPins,
    private readonly etims: EtimsQueue,
    private readonly mpesa: MpesaService,
    private readonly sms: SmsService,
    private readonly inbox: C2bInboxService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Rings up a sale in the clerk's open session (a close waits for it); the same Idempotency-Key
   * with the same sale answers that sale, however often sent (`placedBefore`).
   */
  async sell(
    actor: Principal,
    input: TillSaleInput,
    idempotencyKey?: string,
  ): Promise<{ sale: TillSaleView; replayed: boolean }> {
    if (input.offline && !idempotencyKey) throw bad(TILL_MESSAGES.offlineNeedsKey);
    const earlier = idempotencyKey ? await this.placedBefore(actor, input, idempotencyKey) : null;
    if (earlier?.unfinished)
      return { sale: await this.resume(actor, earlier.order, earlier.payments), replayed: true };
    if (earlier) return { sale: await this.view(earlier.order), replayed: true };
    return this.sessions.within(
      input.sessionId,
      TILL_MESSAGES.sessionClosed,
      async (session) => {
        const { lines, payments, prompt, offline } = await this.checkSale(input, session);
        // Online, a code in the ledger is refused now; offline it was taken already (the
        // seedlings left): it is checked against the inbox once the sale is made.
        for (const p of payments)
          if (p.code)
            p.code = offline ? this.gate.codeSpelling(p.code) : await this.gate.checkCode(p.code);
        const sale = gateSale(actor, session._id, input, lines, payments, offline);
        const { order, replayed } = await this.placeOnce(actor, sale, idempotencyKey);
        if (replayed) {
          const made = await this.made(order);
          if (made.unfinished)
            return { sale: await this.finish(actor, made.order, payments), replayed: true };
          return { sale: await this.view(made.order), replayed: true };
        }
        if (offline?.changed.length) await this.auditPrices(actor, order, offline.changed);
        const paid = offline
          ? await this.payOffline(actor, order, payments)
          : await this.payAndHandOver(actor, order, payments, prompt);
        return { sale: await this.view(await this.gate.markShort(paid)), replayed: false };
      },
      actor.id,
    );
  }

  /**
   * An offline sale's payments (issue 47): its cash taken; its M-Pesa code counted as money only
   * when its C2B confirmation (exactly that code and amount) waits unclaimed in the inbox, then
   * claimed for it once. Either way it is handed over (the seedlings left): a code not counted
   * marks it `needs-attention`, paid later at the till (`settle`) or voided.
   */
  private async payOffline(
    actor: Principal,
    order: OrderRecord,
    payments: CheckedPayment[],
  ): Promise<OrderRecord> {
    let current = order;
    let attention: NonNullable<NonNullable<OrderRecord['till']>['attention']> | null = null;
    for (const p of payments) {
      if (!p.code) {
        const at = current.till?.offline?.soldAt;
        current = await this.gate.takePayment(actor, current, {
          code: null,
          amount: p.amount,
          ref: current._id,
          ...(at ? { at: new Date(at) } : {}),
        });
        continue;
      }
      const claimed = await this.inbox.claimForGateSale(actor, current, p.code, p.amount);
      if ('order' in claimed) current = claimed.order;
      else attention = { reasons: [claimed.reason], unpaid: p.amount, code: p.code };
    }
    if (attention) return this.gate.handOverUnpaid(actor, current, attention);
    return this.gate.handOver(actor, current);
  }

  /**
   * Pays what a sale needing attention still owes (issue 47), in the sale's own session, open: its
   * cash is counted there, never in a cash-up closed and counted (409 `sessionClosedForReversal`:
   * an admin reopens it first), nor named from another session (409 `settleInSaleSession`). Cash,
   * and/or an M-Pesa code checked as an offline one (its confirmation may have arrived since).
   * Paid in full, it is fulfilled and no longer needs attention; a code still not counted keeps it
   * marked (with the reason) and changes nothing else. 409 when it needs no attention. Two settles
   * at once: one takes the money, the other answers the sale as the first left it.
   */
  async settle(
    actor: Principal,
    orderId: string,
    input: { sessionId: string; payments: TillPaymentInput[] },
  ): Promise<TillSaleView> {
    const order = await this.readable(actor, orderId);
    if (!needsAttention(order)) throw new ConflictException(TILL_MESSAGES.notAttention);
    const own = order.till!.sessionId;
    if (input.sessionId !== own) {
      const session = await this.sessions.readable(actor, own);
      throw new ConflictException(
        session.state === 'open'
          ? TILL_MESSAGES.settleInSaleSession
          : TILL_MESSAGES.sessionClosedForReversal,
      );
    }
    return this.sessions.within(own, TILL_MESSAGES.sessionClosedForReversal, async () => {
      const now = await this.gate.get(orderId);
      if (!needsAttention(now)) {
        // Settled by another settle since this one arrived (sent twice at once): answered paid.
        if (now.paymentStatus === 'Paid' && !now.till?.voided) return this.view(now);
        throw new ConflictException(TILL_MESSAGES.notAttention);
      }
      const due = now.totalAmount - now.amountPaid;
      const payments = checkPayments(input.payments, due);
      if (payments.some((p) => !(TILL_OFFLINE_METHODS as readonly string[]).includes(p.method)))
        throw bad(TILL_MESSAGES.offlineMethod);
      for (const p of payments) if (p.code) p.code = this.gate.codeSpelling(p.code);
      if (!(await this.gate.beginSettle(orderId, SETTLE_STALE_MS)))
        return this.view(await this.settledMeanwhile(orderId));
      try {
        return this.view(await this.pay(actor, now, payments, due));
      } finally {
        await this.gate.endSettle(orderId);
      }
    });
  }

  /** A settle's payments taken (the code first: one not counted leaves no cash taken). */
  private async pay(
    actor: Principal,
    now: OrderRecord,
    payments: CheckedPayment[],
    due: number,
  ): Promise<OrderRecord> {
    const code = payments.find((p) => p.code);
    let current = now;
    if (code) {
      const claimed = await this.inbox.claimForGateSale(actor, current, code.code!, code.amount);
      if ('reason' in claimed) {
        const still = { reasons: [claimed.reason], unpaid: due, code: code.code };
        return this.gate.stillUnpaid(current, still);
      }
      current = claimed.order;
    }
    for (const p of payments)
      if (!p.code)
        current = await this.gate.takePayment(actor, current, {
          code: null,
          amount: p.amount,
          ref: `${current._id}:settle`,
        });
    return this.gate.settled(actor, current, settledPayments(now, payments));
  }

  /**
   * The sale as another settle sent at the same time left it (waited for, up to 15 s): paid, or
   * still needing attention; 409 when it was voided meanwhile or the other settle is still running.
   */
  private async settledMeanwhile(orderId: string): Promise<OrderRecord> {
    const deadline = Date.now() + REPLAY_WAIT_MS;
    let now = await this.gate.get(orderId);
    while (now.till?.settling && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, REPLAY_STEP_MS));
      now = await this.gate.get(orderId);
    }
    if (now.till?.voided) throw new ConflictException(TILL_MESSAGES.notAttention);
    if (now.till?.settling) throw new ConflictException(TILL_MESSAGES.saleInProgress);
    return now;
  }

  /** An offline sale's prices that differ from the shop's now, written to the audit trail. */
  private async auditPrices(
    actor: Principal,
    order: OrderRecord,
    changed: OfflineSale['changed'],
  ): Promise<void> {
    const words = changed
      .map((c) => `${c.name} at ${formatMoney(c.till)} (now ${formatMoney(c.now)})`)
      .join('; ');
    await this.audit.record(
      actor,
      'till.offline-prices',
      `Gate sale ${order.purchaseNumber} was sold offline at the till's prices: ${words}`,
      { type: 'order', id: order._id, label: order.purchaseNumber },
    );
  }

  /**
   * The sale placed before under this key when the same sale is sent again (null when none): 422
   * when the key was used for a different sale, 409 in words when that sale was refused (`made`).
   * A sale made is answered even when its session closed since; one its first request left
   * unfinished (placed, not all paid or not handed over: a crash) comes back `unfinished`, with
   * its payments as checked, to be resumed (`resume`).
   */
  private async placedBefore(
    actor: Principal,
    input: TillSaleInput,
    idempotencyKey: string,
  ): Promise<{ order: OrderRecord; unfinished: boolean; payments: CheckedPayment[] } | null> {
    if (!(await this.gate.placedUnder(idempotencyKey, actor))) return null;
    const session = await this.sessions.own(actor, input.sessionId);
    // Sent again days later: not priced again (the shop's prices, units or products may have
    // changed since), only compared with the first by its fingerprint: the same lines, phone,
    // session, payments (which added up to the first's total), time and till prices.
    const lines = cartLines(input);
    const shape = input.offline ? offlineShape(input, session, lines) : null;
    const payments = checkPayments(
      input.payments,
      input.payments.reduce((n, p) => n + p.amount, 0),
    );
    for (const p of payments) if (p.code) p.code = this.gate.codeSpelling(p.code);
    const offline = shape ? { ...shape, prices: new Map(), changed: [], total: 0 } : null;
    const sale = gateSale(actor, session._id, input, lines, payments, offline);
    const order = await this.gate.placedUnderSame(actor, sale, idempotencyKey);
    return order ? { ...(await this.made(order)), payments } : null;
  }

  /**
   * A sale its first request left unfinished (its instance died after placing it: its stock
   * taken, some or none of its payments recorded), sent again under its key with the same sale
   * (the fingerprint matched) once that request is surely done (`made` waited for it): its
   * payments not yet taken are taken (each payment is one money entry however often taken: its
   * cash by the sale's id, its code by the code), then it is handed over, each step once
   * (`OrderGateSales.handOver`): two resumes at once, or a first request still running, take
   * each once. Online and offline sales alike (an M-Pesa Express sale is never unfinished: it
   * waits for its prompt). Inside the sale's session, open (a close waits for it): once closed
   * and counted, 409 `saleUnfinishedClosed` (an admin reopens it; the cash-up then counts the
   * sale). Cancelled meanwhile (the unpaid-order expiry, or its code taken): 409 `saleRefused`.
   */
  private resume(
    actor: Principal,
    order: OrderRecord,
    payments: CheckedPayment[],
  ): Promise<TillSaleView> {
    return this.sessions.within(
      order.till!.sessionId,
      TILL_MESSAGES.saleUnfinishedClosed,
      () => this.finish(actor, order, payments),
      actor.id,
    );
  }

  /** A sale left unfinished, finished (inside its session's work): see `resume`. */
  private async finish(
    actor: Principal,
    order: OrderRecord,
    payments: CheckedPayment[],
  ): Promise<TillSaleView> {
    const now = await this.gate.get(order._id);
    const stage = saleStage(now);
    if (stage === 'refused') throw new ConflictException(TILL_MESSAGES.saleRefused);
    if (stage === 'made') return this.view(now);
    try {
      const paid = now.till?.offline
        ? await this.payOffline(actor, now, payments)
        : await this.payAndHandOver(actor, now, payments, null);
      return this.view(await this.gate.markShort(paid));
    } catch (error) {
      // Cancelled meanwhile (the expiry sweep, or undone for a code taken): refused in words.
      if (saleStage(await this.gate.get(order._id)) === 'refused')
        throw new ConflictException(TILL_MESSAGES.saleRefused);
      throw error;
    }
  }

  /**
   * A sale placed under a key sent again, once its first request is done with it: answered when
   * paid (handed over, or voided since) or waiting for its M-Pesa prompt; 409 in words when it was
   * refused (cancelled: its code taken meanwhile, or expired unpaid); `unfinished` when still not
   * made after the wait (its request died midway: resumed by the caller).
   */
  private async made(order: OrderRecord): Promise<{ order: OrderRecord; unfinished: boolean }> {
    const deadline = Date.now() + REPLAY_WAIT_MS;
    let current = order;
    while (saleStage(current) === 'unfinished' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, REPLAY_STEP_MS));
      current = await this.gate.get(order._id);
    }
    const stage = saleStage(current);
    if (stage === 'refused') throw new ConflictException(TILL_MESSAGES.saleRefused);
    return { order: current, unfinished: stage === 'unfinished' };
  }

  /**
   * What a sale must be before anything is written: its lines priced (the unit's rules; offline,
   * the till's prices within their limits), its payments adding up, a phone to prompt. Its M-Pesa
   * code is checked against the ledger apart.
   */
  private async checkSale(input: TillSaleInput, session: TillSessionRecord) {
    const lines = cartLines(input);
    const priced = await this.gate.price(lines);
    const offline = input.offline ? checkOffline(input, session, lines, priced.lines) : null;
    const total = offline ? offline.total : priced.total;
    const payments = checkPayments(input.payments, total);
    return { lines, payments, prompt: this.promptPhone(payments, input.phone), offline };
  }

  /**
   * Collects a booking at the gate in the clerk's open session (a close waits for it): its balance
   * taken (the payments must add up to it) and handed over in the same call.
   */
  async collect(
    actor: Principal,
    orderId: string,
    input: { sessionId: string; payments: TillSaleInput['payments'] },
  ): Promise<TillSaleView> {
    return this.sessions.within(
      input.sessionId,
      TILL_MESSAGES.sessionClosed,
      async (session) => {
        const order = await this.gate.booking(orderId);
        if (order.till)
          throw new ConflictException('This booking was collected at the gate already');
        const payments = checkPayments(input.payments, order.totalAmount - order.amountPaid);
        if (payments.some((p) => p.method === 'mpesa-express'))
          throw new BadRequestException(
            'Collect a booking with cash or the M-Pesa code the buyer shows',
          );
        for (const p of payments) if (p.code) p.code = await this.gate.checkCode(p.code);
        const { till } = gateFields(actor, session._id, payments);
        return this.view(await this.gate.collect(actor, order, till, payments));
      },
      actor.id,
    );
  }

  /** The sales of a session (the day's list for reprints). */
  async list(actor: Principal, sessionId: string): Promise<TillSaleView[]> {
    const session = await this.sessions.readable(actor, sessionId);
    return Promise.all((await this.gate.ofSession(session._id)).map((o) => this.view(o)));
  }

  async get(actor: Principal, orderId: string): Promise<TillSaleView> {
    return this.view(await this.readable(actor, orderId));
  }

  /** Voids a sale with a second person's PIN: its cash back and its stock returned, once. */
  async void(actor: Principal, orderId: string, approval: Approval): Promise<TillSaleView> {
    const order = await this.reversible(actor, orderId);
    return this.inSessionOf(order, async () => {
      const who = await this.approvedBy(actor, order, approval);
      return this.view(await this.gate.void(actor, order, who));
    });
  }

  /** Gives back part of a sale in cash with a second person's PIN (never above what is left). */
  async refund(
    actor: Principal,
    orderId: string,
    amount: number,
    approval: Approval,
  ): Promise<TillSaleView> {
    const order = await this.reversible(actor, orderId);
    // Its M-Pesa code not counted (issue 47): settled or voided whole, never refunded in part.
    if (needsAttention(order)) throw new ConflictException(TILL_MESSAGES.attentionFirst);
    return this.inSessionOf(order, async () => {
      const who = await this.approvedBy(actor, order, approval);
      return this.view(await this.gate.refund(actor, order, amount, who));
    });
  }

  /**
   * A sale that may be voided or refunded, refused (409, before any PIN is checked, so a refusal
   * is no wrong try) when it is a booking collected at the gate or voided already.
   */
  private async reversible(actor: Principal, orderId: string): Promise<OrderRecord> {
    const order = await this.readable(actor, orderId);
    if (order.channel !== 'gate') throw new ConflictException(TILL_MESSAGES.bookingNotReversible);
    if (order.till!.voided) throw new ConflictException(TILL_MESSAGES.alreadyVoided);
    return order;
  }

  /**
   * A void or refund made inside the sale's own session, still open (a close waits for it): 409
   * before any PIN is checked once it is closed and counted (an admin reopens it first).
   */
  private inSessionOf<T>(order: OrderRecord, work: () => Promise<T>): Promise<T> {
    return this.sessions.within(
      order.till!.sessionId,
      TILL_MESSAGES.sessionClosedForReversal,
      work,
    );
  }

  /**
   * Texts the sale's receipt to its phone (or the one given), through the SMS budgets: once per
   * sale and number (sent again, it is not sent twice).
   */
  async smsReceipt(actor: Principal, orderId: string, phone?: string): Promise<void> {
    const order = await this.readable(actor, orderId);
    const to = phone?.trim() || order.guestInfo.phoneNumber;
    if (!to) throw new BadRequestException(TILL_MESSAGES.noPhone);
    const msisdn = toMpesaPhone(to);
    if (!msisdn) throw new BadRequestException('The phone must be a Kenyan mobile number');
    await this.sms.notifyContact(
      {
        id: `till:${order._id}:receipt:${msisdn}`,
        orderId: order._id,
        accountId: order.placedBy ?? null,
        purchaseNumber: order.purchaseNumber,
        event: 'till-receipt',
        phone: to,
        message: receiptText(await this.view(order)),
      },
      // The clerk's own daily budget: one clerk cannot text any number of strangers.
      actor.id,
    );
  }

  /** A sale as the till shows it, with its eTIMS signature once signed. */
  async view(order: OrderRecord): Promise<TillSaleView> {
    const [docs, promptFailed] = await Promise.all([
      this.etims.forOrder(order._id),
      this.promptFailed(order),
    ]);
    const signed = docs.find((d) => d.kind === 'sale' && d.signature && d.signedAt);
    return saleView(
      order,
      signed
        ? {
            invoiceNumber: signed.cuInvoiceNo ?? signed.trdInvcNo,
            signedAt: signed.signedAt!,
            qrUrl: signed.qrUrl ?? '',
          }
        : null,
      promptFailed,
    );
  }

  /** Whether a sale waiting for its M-Pesa prompt saw the prompt fail (declined, timed out). */
  private async promptFailed(order: OrderRecord): Promise<boolean> {
    const waiting =
      order.paymentStatus === 'Pending' &&
      order.orderStatus === 'Pending' &&
      order.till?.payments.some((p) => p.method === 'mpesa-express');
    if (!waiting || !this.mpesa.enabled) return false;
    return (await this.mpesa.payInfo(order.purchaseNumber)).lastPrompt?.status === 'failed';
  }

  /** A sale the caller may see: one of their own sessions' (any for an admin), else 404. */
  async readable(actor: Principal, orderId: string): Promise<OrderRecord> {
    const order = await this.gate.get(orderId);
    if (actor.role !== 'admin') {
      const session = await this.sessions.readable(actor, order.till!.sessionId).catch(() => null);
      if (!session) throw new NotFoundException('No gate sale with this id');
    }
    return order;
  }

  private async approvedBy(actor: Principal, order: OrderRecord, approval: Approval) {
    const { name } = await this.pins.approve(
      order.till!.sellerId,
      actor.id,
      approval.approverId,
      approval.pin,
    );
    return {
      byId: actor.id,
      byName: actor.fullName,
      approvedById: approval.approverId,
      approvedByName: name,
      reason: approval.reason,
    };
  }

  /**
   * Places the sale; the same key sent again while the first is being placed waits for it and
   * answers it (two at once make one sale).
   */
  private async placeOnce(actor: Principal, sale: GateSale, idempotencyKey?: string) {
    const deadline = Date.now() + REPLAY_WAIT_MS;
    for (;;) {
      try {
        return await this.gate.place(actor, sale, idempotencyKey);
      } catch (error) {
        if (!idempotencyKey || !inProgress(error) || Date.now() > deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, REPLAY_STEP_MS));
      const placed = await this.gate.placedUnder(idempotencyKey, actor);
      if (placed) return { order: placed, replayed: true };
    }
  }

  /**
   * Takes the payments made now (cash, an M-Pesa code) and hands the sale over once paid; a
   * refusal meanwhile (a code taken by another payment) undoes the sale and answers it.
   */
  private async payAndHandOver(
    actor: Principal,
    order: OrderRecord,
    payments: CheckedPayment[],
    prompt: string | null,
  ): Promise<OrderRecord> {
    let current = order;
    try {
      // The M-Pesa code first: a code refused leaves no cash to hand back.
      const rank = (p: CheckedPayment) => (p.method === 'mpesa-code' ? 0 : 1);
      for (const p of [...payments].sort((a, b) => rank(a) - rank(b))) {
        if (p.method === 'mpesa-express') continue;
        current = await this.gate.takePayment(actor, current, {
          code: p.code,
          amount: p.amount,
          ref: current._id,
        });
      }
      // The prompt for the rest: the sale waits for it, and is handed over once it pays
      // (`TillHandOver`).
      if (prompt) {
        await this.mpesa.push(current.purchaseNumber, prompt, actor);
        return current;
      }
    } catch (error) {
      await this.gate.undo(actor, current);
      throw error;
    }
    return this.gate.handOver(actor, current);
  }

  /**
   * The phone an M-Pesa Express payment prompts (its own, else the sale's), or null without one;
   * 400 when it is no Kenyan mobile number, 503 while M-Pesa is not set up.
   */
  private promptPhone(payments: CheckedPayment[], salePhone?: string): string | null {
    const express = payments.find((p) => p.method === 'mpesa-express');
    if (!express) return null;
    if (!this.mpesa.enabled) throw new ServiceUnavailableException(MPESA_MESSAGES.notAvailable);
    const phone = express.phone ?? salePhone ?? '';
    if (!toMpesaPhone(phone))
      throw new BadRequestException(
        "M-Pesa Express needs the buyer's Kenyan mobile number (07… or 01…)",
      );
    return phone;
  }
}

/**
 * The till's record of a sale's payments once settled (issue 47): the code taken offline counted
 * (`received`) when the settle counted that same code, else `failed` (never received) with the
 * settle's own payments added; the change the sale handed back in all.
 */
function settledPayments(
  order: OrderRecord,
  settle: CheckedPayment[],
): { payments: NonNullable<OrderRecord['till']>['payments']; change: number } {
  const till = order.till!;
  const code = till.attention?.code ?? null;
  const same = (p: CheckedPayment) => !!code && p.code === code;
  const payments = till.payments.map((p) =>
    p.method === 'mpesa-code' && p.code === code
      ? { ...p, state: settle.some(same) ? ('received' as const) : ('failed' as const) }
      : p,
  );
  const added = settle
    .filter((p) => !same(p))
    .map((p) => ({
      method: p.method,
      amount: p.amount,
      given: p.given,
      change: p.change,
      code: p.code,
      state: 'received' as const,
      entry: null,
    }));
  const change = till.change + added.reduce((n, p) => n + (p.change ?? 0), 0);
  return { payments: [...payments, ...added], change };
}

/** A sale handed over with its M-Pesa code not counted, not paid or voided since (issue 47). */
function needsAttention(o: OrderRecord): boolean {
  return !!o.till?.attention && o.paymentStatus !== 'Paid' && !o.till.voided;
}

/**
 * Where a sale placed under a key stands: `made` (paid, voided since, or waiting for its M-Pesa
 * prompt), `refused` (cancelled while being made), `unfinished` (placed, not yet paid).
 */
function saleStage(o: OrderRecord): 'made' | 'refused' | 'unfinished' {
  if (o.till?.voided) return 'made';
  if (o.orderStatus === 'Cancelled') return 'refused';
  // Handed over (with its M-Pesa code not counted, issue 47: waiting for the clerk), or paid and
  // handed over: made. Marked or paid but not handed over (a crash between): unfinished.
  const handed = o.orderStatus === 'InTransit' || o.orderStatus === 'Completed';
  if (o.till?.attention) return handed ? 'made' : 'unfinished';
  // Waiting for its M-Pesa prompt, or paid by it (`TillHandOver` hands it over): made.
  if (o.till?.payments.some((p) => p.method === 'mpesa-express')) return 'made';
  return o.paymentStatus === 'Paid' && handed ? 'made' : 'unfinished';
}

/** The sale placed: its lines, phone, the till's record, and what a key sent again must match. */
function gateSale(
  actor: Principal,
  sessionId: string,
  input: TillSaleInput,
  lines: CartLine[],
  payments: CheckedPayment[],
  offline: OfflineSale | null = null,
): GateSale {
  const fields = gateFields(actor, sessionId, payments);
  if (offline) {
    fields.till.offline = { soldAt: offline.soldAt, changed: offline.changed };
    fields.offlinePrices = offline.prices;
  }
  return {
    lines,
    phone: input.phone?.trim() || null,
    fields,
    // An offline sale's time and prices are its own: sent again, they must be the same.
    fingerprint: {
      sessionId,
      payments,
      ...(offline
        ? { offline: { soldAt: offline.soldAt.toISOString(), prices: offline.till } }
        : {}),
    },
  };
}

/** An offline sale as checked (issue 47): its time, the till's prices by line, what changed. */
interface OfflineSale extends OfflineShape {
  /** The till's unit price by `productId:unitId` (the unit resolved). */
  prices: Map<string, number>;
  changed: { productId: string; unitId: string; name: string; till: number; now: number }[];
  total: number;
}

/** What an offline sale says, read without the catalogue: its time and its price per line. */
interface OfflineShape {
  soldAt: Date;
  /** The till's price of each (merged) line, by the line as sent: the sale's fingerprint. */
  till: [string, number][];
}

const cartKey = (productId: string, unitId?: string) =>
  `${productId.toLowerCase()}:${unitId?.toLowerCase() ?? ''}`;

/** A sale's lines as placed: ids in one spelling, the same product and unit merged. */
function cartLines(input: TillSaleInput): CartLine[] {
  return mergeCartLines(
    input.lines.map((l) => ({
      _id: l.productId.toLowerCase(),
      quantity: l.quantity,
      ...(l.unitId ? { unitId: l.unitId.toLowerCase() } : {}),
    })),
  );
}

/** An ISO time with its date, time and zone (`Z` or ±hh:mm): a till's clock, never ambiguous. */
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * What an offline sale must be whatever the shop's prices (checked again when sent again): paid
 * in cash or by a code; its time an ISO time with its zone, not before its session opened (made
 * `now`: neither older than 30 days nor in the future beyond the clock drift); one price per
 * (merged) line for the same product and unit. 400 in TILL_MESSAGES' words.
 */
function offlineShape(
  input: TillSaleInput,
  session: TillSessionRecord,
  lines: CartLine[],
  now?: number,
): OfflineShape {
  const offline = input.offline!;
  if (input.payments.some((p) => !(TILL_OFFLINE_METHODS as readonly string[]).includes(p.method)))
    throw bad(TILL_MESSAGES.offlineMethod);
  const soldAt = new Date(offline.soldAt);
  if (
    typeof offline.soldAt !== 'string' ||
    !ZONED_TIME.test(offline.soldAt) ||
    Number.isNaN(soldAt.getTime())
  )
    throw bad('offline.soldAt must be an ISO time with its zone (e.g. 2026-11-27T09:15:00Z)');
  // Made now (not sent again): not older than 30 days, not in the future beyond the clock drift.
  if (now !== undefined) {
    const { maxAgeDays, clockDriftMs } = TILL_OFFLINE_LIMITS;
    if (soldAt.getTime() < now - maxAgeDays * 86_400_000) throw bad(TILL_MESSAGES.offlineTooOld);
    if (soldAt.getTime() > now + clockDriftMs) throw bad(TILL_MESSAGES.offlineInFuture);
  }
  if (soldAt.getTime() < new Date(session.openedAt).getTime() - TILL_OFFLINE_LIMITS.clockDriftMs)
    throw bad(TILL_MESSAGES.offlineBeforeSession);
  const given = new Map<string, number>();
  for (const p of offline.prices ?? []) {
    const key = cartKey(p.productId, p.unitId);
    if (given.has(key)) throw bad(TILL_MESSAGES.offlinePrices);
    given.set(key, p.unitPrice);
  }
  if (given.size !== lines.length) throw bad(TILL_MESSAGES.offlinePrices);
  const till = lines.map((line): [string, number] => {
    const key = cartKey(line._id, line.unitId);
    const price = given.get(key);
    if (price === undefined) throw bad(TILL_MESSAGES.offlinePrices);
    return [key, price];
  });
  return { soldAt, till };
}

/**
 * Refuses (400, TILL_MESSAGES' words) an offline sale out of its limits: its shape and time
 * (`offlineShape`); a price off the unit's price now by more than half or double.
 */
function checkOffline(
  input: TillSaleInput,
  session: TillSessionRecord,
  lines: CartLine[],
  priced: PricedLine[],
): OfflineSale {
  const shape = offlineShape(input, session, lines, Date.now());
  const { priceMin, priceMax } = TILL_OFFLINE_LIMITS;
  const prices = new Map<string, number>();
  const changed: OfflineSale['changed'] = [];
  let total = 0;
  lines.forEach((_line, i) => {
    const till = shape.till[i]![1];
    const p = priced[i]!;
    const name = `${p.productName} (${p.unitName})`;
    if (till < p.unitPrice * priceMin || till > p.unitPrice * priceMax)
      throw bad(TILL_MESSAGES.offlinePriceOut(name));
    prices.set(`${p.productId}:${p.unitId}`, till);
    if (till !== p.unitPrice)
      changed.push({ productId: p.productId, unitId: p.unitId, name, till, now: p.unitPrice });
    total += till * p.quantity;
  });
  return { ...shape, prices, changed, total };
}

function inProgress(error: unknown): boolean {
  if (!(error instanceof HttpException) || error.getStatus() !== 409) return false;
  const body = error.getResponse() as { code?: string };
  return body.code === 'IN_PROGRESS';
}

/** The till's record written with the order. */
function gateFields(
  actor: Principal,
  sessionId: string,
  payments: CheckedPayment[],
): GateSaleFields {
  return {
    channel: 'gate',
    till: {
      sessionId,
      sellerId: actor.id,
      sellerName: actor.fullName,
      payments: payments.map((p) => ({
        method: p.method,
        amount: p.amount,
        given: p.given,
        change: p.change,
        code: p.code,
        state: p.method === 'mpesa-express' ? 'waiting' : 'received',
        entry: null,
      })),
      change: payments.reduce((n, p) => n + (p.change ?? 0), 0),
      voided: null,
      refunds: [],
      refunded: 0,
      offline: null,
      attention: null,
      short: false,
    },
  };
}
