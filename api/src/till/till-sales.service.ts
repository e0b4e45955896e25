import {
  BadRequestException,
  ConflictException,
  HttpException,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  MPESA_MESSAGES,
  TILL_MESSAGES,
  toMpesaPhone,
  type TillSaleInput,
  type TillSaleView,
} from '@spc/shared-contracts';
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
import { checkPayments, type CheckedPayment } from './till-payments';
import { TillPins } from './till-pins.service';
import { TillSessions } from './till-sessions.service';

/** How long a sale sent again waits for the same sale, still being placed, to be placed. */
const REPLAY_WAIT_MS = 15_000;
const REPLAY_STEP_MS = 100;

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
    const earlier = idempotencyKey ? await this.placedBefore(actor, input, idempotencyKey) : null;
    if (earlier) return { sale: await this.view(earlier), replayed: true };
    return this.sessions.within(
      input.sessionId,
      TILL_MESSAGES.sessionClosed,
      async (session) => {
        const { lines, payments, prompt } = await this.checkSale(input);
        for (const p of payments) if (p.code) p.code = await this.gate.checkCode(p.code);
        const sale = gateSale(actor, session._id, input, lines, payments);
        const { order, replayed } = await this.placeOnce(actor, sale, idempotencyKey);
        if (replayed) return { sale: await this.view(await this.made(order)), replayed: true };
        const paid = await this.payAndHandOver(actor, order, payments, prompt);
        return { sale: await this.view(paid), replayed: false };
      },
      actor.id,
    );
  }

  /**
   * The sale placed before under this key when the same sale is sent again (null when none): 422
   * when the key was used for a different sale, 409 in words when that sale was refused or never
   * finished (`made`). Its session may have closed since: it is answered all the same.
   */
  private async placedBefore(
    actor: Principal,
    input: TillSaleInput,
    idempotencyKey: string,
  ): Promise<OrderRecord | null> {
    if (!(await this.gate.placedUnder(idempotencyKey, actor))) return null;
    const session = await this.sessions.own(actor, input.sessionId);
    const { lines, payments } = await this.checkSale(input);
    for (const p of payments) if (p.code) p.code = this.gate.codeSpelling(p.code);
    const sale = gateSale(actor, session._id, input, lines, payments);
    const order = await this.gate.placedUnderSame(actor, sale, idempotencyKey);
    return order ? this.made(order) : null;
  }

  /**
   * A sale placed under a key sent again, once its first request is done with it: answered when
   * paid (handed over, or voided since) or waiting for its M-Pesa prompt; 409 in words when it was
   * refused (cancelled: its code taken meanwhile) or never paid (its request died midway; it waits
   * for the order expiry).
   */
  private async made(order: OrderRecord): Promise<OrderRecord> {
    const deadline = Date.now() + REPLAY_WAIT_MS;
    let current = order;
    while (saleStage(current) === 'unfinished' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, REPLAY_STEP_MS));
      current = await this.gate.get(order._id);
    }
    const stage = saleStage(current);
    if (stage === 'refused') throw new ConflictException(TILL_MESSAGES.saleRefused);
    if (stage === 'unfinished') throw new ConflictException(TILL_MESSAGES.saleUnfinished);
    return current;
  }

  /**
   * What a sale must be before anything is written: its lines priced (the unit's rules), its
   * payments adding up, a phone to prompt. Its M-Pesa code is checked against the ledger apart.
   */
  private async checkSale(input: TillSaleInput) {
    const lines = mergeCartLines(
      input.lines.map((l) => ({
        _id: l.productId.toLowerCase(),
        quantity: l.quantity,
        ...(l.unitId ? { unitId: l.unitId.toLowerCase() } : {}),
      })),
    );
    const { total } = await this.gate.price(lines);
    const payments = checkPayments(input.payments, total);
    return { lines, payments, prompt: this.promptPhone(payments, input.phone) };
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
        current = await this.gate.takePayment(actor, current, { code: p.code, amount: p.amount });
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
 * Where a sale placed under a key stands: `made` (paid, voided since, or waiting for its M-Pesa
 * prompt), `refused` (cancelled while being made), `unfinished` (placed, not yet paid).
 */
function saleStage(o: OrderRecord): 'made' | 'refused' | 'unfinished' {
  if (o.till?.voided) return 'made';
  if (o.orderStatus === 'Cancelled') return 'refused';
  if (o.paymentStatus === 'Paid') return 'made';
  return o.till?.payments.some((p) => p.method === 'mpesa-express') ? 'made' : 'unfinished';
}

/** The sale placed: its lines, phone, the till's record, and what a key sent again must match. */
function gateSale(
  actor: Principal,
  sessionId: string,
  input: TillSaleInput,
  lines: CartLine[],
  payments: CheckedPayment[],
): GateSale {
  return {
    lines,
    phone: input.phone?.trim() || null,
    fields: gateFields(actor, sessionId, payments),
    fingerprint: { sessionId, payments },
  };
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
    },
  };
}
