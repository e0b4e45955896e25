import {
  BadRequestException,
  ConflictException,
  HttpException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { formatMoney, type TillAttentionReason } from '@spc/shared-contracts';
import { AuditService } from '../../audit/audit.service';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { MpesaConfig } from '../../config/mpesa-config';
import type { MoneyEntryRecord } from '../../money/money-ledger.repository';
import { MoneyLedgerService } from '../../money/money-ledger.service';
import { closedReason, gateSaleReason, OrderCredits } from '../../orders/order-credits';
import type { OrderRecord } from '../../orders/order.types';
import { OrdersService } from '../../orders/orders.service';
import { C2bPayment } from './c2b.schemas';
import { MpesaRefundsService } from './mpesa-refunds.service';

import { accountKey, C2bService } from './c2b.service';
import { excessLeft, promptAsPayment } from './inbox-entries';

/**
 * The payments inbox: paybill payments that matched nothing (or several orders), over-payments
 * whose excess is still to give back, and M-Pesa Express payments no order could take. Staff assign
 * one to an order, have it given back (reversed, sent by B2C, or recorded as given back by hand), or
 * ask M-Pesa again about one it did not confirm.
 */
@Injectable()
export class C2bInboxService {
  private readonly settings: MpesaConfig | null;

  constructor(
    @InjectModel(C2bPayment.name) private readonly payments: Model<C2bPayment>,
    private readonly c2b: C2bService,
    private readonly orders: OrdersService,
    private readonly credits: OrderCredits,
    private readonly refunds: MpesaRefundsService,
    private readonly ledger: MoneyLedgerService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = config.mpesa;
  }

  /** Staff assign an inbox payment to an order, with the rules of recording a payment. */
  async assign(actor: Actor, transId: string, purchaseNumber: string): Promise<C2bPayment> {
    const order = await this.orders.findByPurchaseNumber(accountKey(purchaseNumber));
    if (!order) throw new NotFoundException('No order with this purchase number');
    const gate = gateSaleReason(order);
    if (gate) throw new ConflictException({ message: gate, code: 'ILLEGAL_TRANSITION' });
    const closed = closedReason(order);
    if (closed) throw new ConflictException(`This payment cannot be assigned: ${closed}`);
    if (!(await this.payments.exists({ _id: transId }))) {
      const prompt = await this.strayPrompt(transId);
      if (prompt) return this.assignPrompt(actor, prompt, order);
    }
    await this.usable(transId);
    const claimed = await this.payments.updateOne(
      { _id: transId, status: 'inbox' },
      { $set: { status: 'matching' } },
    );
    if (claimed.modifiedCount !== 1) throw await this.notInInbox(transId);
    const payment = (await this.payments.findById(transId).lean<C2bPayment>())!;
    try {
      await this.c2b.apply(actor, payment, order, 'staff', 'matching', true);
    } catch (error) {
      await this.payments.updateOne(
        { _id: transId, status: 'matching' },
        { $set: { status: 'inbox' } },
      );
      throw error;
    }
    return (await this.payments.findById(transId).lean<C2bPayment>())!;
  }

  /**
   * An M-Pesa code a gate sale took offline (issue 47), checked when the sale arrives: money only
   * when a C2B confirmation of exactly this code and amount waits in the inbox unclaimed (confirmed
   * by M-Pesa); it is then claimed for the sale through the money ledger, once (the inbox's
   * `matching` step, then the ledger's claim, decide between two at once). Otherwise why not:
   * no such confirmation (`code-unconfirmed`), the code in the ledger for something else
   * (`code-taken`), or confirmed for another amount (`code-amount`). Never throws for those.
   */
  async claimForGateSale(
    actor: Actor,
    order: OrderRecord,
    code: string,
    amount: number,
    attempt = 0,
  ): Promise<{ order: OrderRecord } | { reason: TillAttentionReason }> {
    const entry = await this.ledger.findByCode(code);
    if (!entry) return { reason: 'code-unconfirmed' };
    // Claimed for this very sale (a settle sent twice at once): answered once it is credited.
    if (entry.orderId === order._id) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const now = await this.ledger.findById(entry._id);
        if (now?.orderId !== order._id) break;
        if (now.state === 'credited') {
          const sale = await this.orders.findAnyOrder(order._id);
          if (sale) return { order: sale };
        }
        if (Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const payment = await this.payments.findById(code).lean<C2bPayment>();
    const own = entry._id === MoneyLedgerService.inId('paybill', code);
    if (payment?.status === 'matching' && own && attempt < 20) {
      // Being claimed right now: for this sale (a settle sent twice at once), or another's.
      await new Promise((resolve) => setTimeout(resolve, 150));
      return this.claimForGateSale(actor, order, code, amount, attempt + 1);
    }
    // Its confirmation in, M-Pesa's status query not answered yet: not confirmed (yet), not taken.
    if (own && payment?.status === 'verifying' && entry.state === 'open' && !entry.returned)
      return { reason: 'code-unconfirmed' };
    if (!own || !payment || payment.status !== 'inbox' || entry.state !== 'open' || entry.returned)
      return { reason: 'code-taken' };
    if (entry.unconfirmed) return { reason: 'code-unconfirmed' };
    if (entry.amount !== amount || payment.amount !== amount) return { reason: 'code-amount' };
    const claimed = await this.payments.updateOne(
      { _id: code, status: 'inbox' },
      { $set: { status: 'matching' } },
    );
    if (claimed.modifiedCount !== 1)
      return this.claimForGateSale(actor, order, code, amount, attempt + 1);
    try {
      await this.c2b.apply(actor, payment, order, 'staff', 'matching', true);
    } catch (error) {
      await this.payments.updateOne(
        { _id: code, status: 'matching' },
        { $set: { status: 'inbox' } },
      );
      if (error instanceof HttpException && error.getStatus() === 409)
        return { reason: 'code-taken' };
      throw error;
    }
    return { order: (await this.orders.findAnyOrder(order._id))! };
  }

  /**
   * Staff have a payment given back: an inbox payment is reversed whole; a matched one's excess
   * (an over-payment) goes back by B2C to the number M-Pesa confirmed paid it. Each is an outgoing
   * ledger entry against the payment's entry, so nothing goes back twice or beyond what came in.
   */
  async refund(actor: Actor, transId: string, byHand?: string): Promise<C2bPayment> {
    const payment = await this.payments.findById(transId).lean<C2bPayment>();
    const own = await this.ledger.findById(MoneyLedgerService.inId('paybill', transId));
    // A code that is a prompt's (a confirmation replaying its receipt has no entry of its own).
    if (!payment || !own) {
      const prompt = await this.strayPrompt(transId);
      if (prompt) return this.refundPrompt(actor, prompt, byHand);
      if (!payment) throw new NotFoundException('No paybill payment with this M-Pesa code');
    }
    // The ledger first (its claim decides between two clerks and survives a crash), then the
    // paybill record's status, then the transfer (the ledger's sweep sends one a crash cut off).
    if (payment!.status === 'inbox' || (payment!.status === 'refund' && own?.returned === 0)) {
      const entry = await this.usable(transId);
      if (entry.state !== 'open' || entry.returned > 0) throw await this.notInInbox(transId);
      await this.payOut(
        actor,
        payment!,
        entry,
        'inbox',
        entry.amount,
        byHand ?? 'reversal',
        `payment:${transId}`,
      );
      await this.payments.updateOne(
        { _id: transId, status: { $in: ['inbox', 'refund'] } },
        { $set: { status: 'refund', refundId: `payment:${transId}` } },
      );
    } else if (payment!.status === 'matched' && own && excessLeft(own) > 0) {
      if (!byHand && (!own.payer || !own.verified))
        throw new BadRequestException(
          "M-Pesa has not confirmed the payer's number (the status query did not check it): give the excess back by hand, then record it here with its code",
        );
      await this.payOut(
        actor,
        payment!,
        own,
        'excess',
        excessLeft(own),
        byHand ?? 'b2c',
        `excess:${transId}`,
      );
      await this.payments.updateOne(
        { _id: transId, refundId: null },
        { $set: { refundId: `excess:${transId}` } },
      );
    } else {
      throw new ConflictException(
        payment!.refundId || (own && own.returned > 0)
          ? 'This payment is being refunded already'
          : 'This payment has nothing to refund',
      );
    }
    return (await this.payments.findById(transId).lean<C2bPayment>())!;
  }

  /** Asks M-Pesa again about an inbox payment it did not confirm (its status query). */
  async checkAgain(actor: Actor, transId: string): Promise<C2bPayment> {
    if (!this.settings?.c2b.verify)
      throw new ConflictException(
        'Paybill payments are not checked with M-Pesa (MPESA_C2B_VERIFY is off)',
      );
    const moved = await this.payments.updateOne(
      { _id: transId, status: 'inbox' },
      { $set: { status: 'verifying', queries: 0, lastQueriedAt: null, reason: '' } },
    );
    if (moved.modifiedCount !== 1) throw await this.notInInbox(transId);
    await this.audit.record(
      actor,
      'payment.mpesa.c2b.check',
      `${actor.fullName} asked M-Pesa again about paybill payment ${transId}`,
    );
    await this.c2b.query(transId);
    return (await this.payments.findById(transId).lean<C2bPayment>())!;
  }

  /**
   * The entry of an inbox payment that may be used (assigned, given back): 409 when it has none
   * (a code already recorded, an amount not believed) or M-Pesa did not confirm it.
   */
  private async usable(transId: string): Promise<MoneyEntryRecord> {
    const entry = await this.ledger.findById(MoneyLedgerService.inId('paybill', transId));
    if (!entry) {
      const payment = await this.payments.findById(transId).lean<C2bPayment>();
      if (!payment) throw new NotFoundException('No paybill payment with this M-Pesa code');
      throw new ConflictException(
        `This payment is not money the shop can use: ${payment.reason || 'it has no entry in the money ledger'}`,
      );
    }
    if (entry.unconfirmed)
      throw new ConflictException(
        'M-Pesa did not confirm this payment: check it again; it cannot be assigned or paid out until it is confirmed',
      );
    return entry;
  }

  /**
   * One outgoing entry against a payment's entry, recorded, and its M-Pesa transfer asked for; or,
   * given back by hand already (`how` is then the clerk's code or note), recorded only.
   */
  private async payOut(
    actor: Actor,
    payment: C2bPayment,
    entry: MoneyEntryRecord,
    purpose: 'inbox' | 'excess',
    amount: number,
    how: string,
    id: string,
  ): Promise<void> {
    const sent = how === 'reversal' || how === 'b2c';
    const [out] = await this.ledger.takeOut(
      actor,
      [{ of: entry, amount, kind: sent ? how : 'mpesa-by-hand', send: sent }],
      purpose,
      sent ? '' : how,
      [id],
    );
    await this.ledger.finishOut([out!]);
    if (!sent) {
      await this.audit.record(
        actor,
        'payment.mpesa.refund.by-hand',
        `${actor.fullName} recorded ${formatMoney(amount)} of M-Pesa payment ${payment._id} as given back by hand (${how.slice(0, 120)})`,
        payment.orderId
          ? { type: 'order', id: payment.orderId, label: payment.purchaseNumber ?? payment._id }
          : undefined,
      );
      return;
    }
    await this.refunds.request(actor, {
      _id: out!,
      method: how as 'reversal' | 'b2c',
      amount,
      orderId: payment.orderId,
      purchaseNumber: payment.purchaseNumber,
      originalTransId: payment._id,
      phone: how === 'b2c' ? entry.payer! : (entry.payer ?? ''),
    });
    await this.ledger.update(out!, { transfer: null }, { transfer: out! });
  }

  /**
   * The inbox: payments that matched nothing (or several), over-payments whose excess is still to
   * give back, and M-Pesa Express payments whose order could not take them (paid another way, or
   * closed) or that paid beyond its total. The money ledger decides what still waits: a payment
   * given back (whoever did it, a crash midway or not) no longer does.
   */
  async inbox(): Promise<C2bPayment[]> {
    return (await this.waitingPayments()).slice(0, 200);
  }

  /** How many payments wait in the inbox (the back office's badge). */
  async countWaiting(): Promise<number> {
    return (await this.waitingPayments()).length;
  }

  private async waitingPayments(): Promise<C2bPayment[]> {
    const [paybill, prompts, promptExcess] = await Promise.all([
      this.payments
        .find({
          $or: [
            { status: { $in: ['inbox', 'refund'] } },
            { status: 'matched', excess: { $gt: 0 } },
          ],
        })
        .sort({ createdAt: -1 })
        .limit(1000)
        .lean<C2bPayment[]>(),
      this.ledger.openOfKind('mpesa-express'),
      this.ledger.withExcess('mpesa-express'),
    ]);
    const entries = new Map(
      (
        await this.ledger.findByIds(paybill.map((p) => MoneyLedgerService.inId('paybill', p._id)))
      ).map((e) => [e.code, e]),
    );
    const waitingPaybill = paybill
      .filter((p) => {
        const e = entries.get(p._id);
        // Without an entry of its own (a code already recorded, an amount not believed) it waits
        // for a person; with one, while it is neither credited nor given back.
        if (p.status === 'inbox') return !e || (e.state === 'open' && e.returned === 0);
        // Marked to be given back by a process that stopped before the ledger took it.
        if (p.status === 'refund') return !!e && e.state === 'open' && e.returned === 0;
        return !!e && excessLeft(e) > 0;
      })
      .map((p) => {
        const e = entries.get(p._id);
        return {
          ...p,
          status: p.status === 'refund' ? 'inbox' : p.status,
          unconfirmed: !!e?.unconfirmed,
          ...(p.status === 'matched' && e ? { excess: excessLeft(e) } : {}),
        };
      });
    return [
      ...prompts.filter((e) => e.returned === 0).map(promptAsPayment),
      ...promptExcess.filter((e) => excessLeft(e) > 0).map(promptAsPayment),
      ...waitingPaybill,
    ];
  }

  /** A prompt's payment waiting with no order, by its receipt (or its prompt's reference). */
  private async strayPrompt(transId: string): Promise<MoneyEntryRecord | null> {
    const entry =
      (await this.ledger.findByCode(transId)) ??
      (await this.ledger.findById(MoneyLedgerService.inId('mpesa-express', null, transId)));
    return entry?.kind === 'mpesa-express' ? entry : null;
  }

  /** Staff assign a prompt's payment that waits with no order to an open unpaid order. */
  private async assignPrompt(
    actor: Actor,
    entry: MoneyEntryRecord,
    order: OrderRecord,
  ): Promise<C2bPayment> {
    const claimed =
      entry.state === 'open' && entry.returned === 0
        ? await this.ledger.claim(
            entry._id,
            { orderId: order._id, purchaseNumber: order.purchaseNumber },
            actor,
          )
        : null;
    if (!claimed)
      throw new ConflictException(
        entry.orderId
          ? `This payment is already credited to order ${entry.purchaseNumber}`
          : 'This payment is being refunded',
      );
    await this.credits.credit(actor, order, claimed, {
      how: 'assigned',
      timePaid: new Date(entry.at),
    });
    return promptAsPayment((await this.ledger.findById(entry._id))!);
  }

  /**
   * Staff give back a prompt's payment: one that waits with no order whole (reversed, or B2C to
   * its payer), one credited beyond its order's total its excess (B2C to its payer).
   */
  private async refundPrompt(
    actor: Actor,
    entry: MoneyEntryRecord,
    byHand?: string,
  ): Promise<C2bPayment> {
    const whole = entry.state === 'open' && entry.returned === 0;
    const excess = entry.state === 'credited' ? excessLeft(entry) : 0;
    if (!whole && excess <= 0)
      throw new ConflictException(
        entry.returned > 0
          ? 'This payment is being refunded already'
          : 'This payment has nothing to refund',
      );
    const kind = whole && entry.code ? 'reversal' : 'b2c';
    if (kind === 'b2c' && !entry.payer && !byHand)
      throw new BadRequestException("The payer's phone is not known: give it back by hand");
    const ref = entry.code ?? entry.reference;
    const id = whole ? `payment:${ref}` : `excess:${ref}`;
    const amount = whole ? entry.amount : excess;
    const [out] = await this.ledger.takeOut(
      actor,
      [{ of: entry, amount, kind: byHand ? 'mpesa-by-hand' : kind, send: !byHand }],
      whole ? 'inbox' : 'excess',
      byHand ?? '',
      [id],
    );
    await this.ledger.finishOut([out!]);
    if (byHand) return promptAsPayment((await this.ledger.findById(entry._id))!);
    await this.refunds.request(actor, {
      _id: out!,
      method: kind,
      amount,
      orderId: entry.orderId,
      purchaseNumber: entry.purchaseNumber ?? entry.meantFor,
      originalTransId: ref,
      phone: kind === 'b2c' ? entry.payer! : '',
    });
    await this.ledger.update(out!, { transfer: null }, { transfer: out! });
    return promptAsPayment((await this.ledger.findById(entry._id))!);
  }

  private async notInInbox(transId: string): Promise<HttpException> {
    const now = await this.payments.findById(transId).lean<C2bPayment>();
    if (!now) return new NotFoundException('No paybill payment with this M-Pesa code');
    return new ConflictException(
      now.status === 'matched'
        ? `This payment is already credited to order ${now.purchaseNumber}`
        : now.status === 'refund'
          ? 'This payment is being refunded'
          : 'This payment is not in the inbox',
    );
  }
}
