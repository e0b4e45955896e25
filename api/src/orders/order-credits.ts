import {
  BadRequestException,
  ConflictException,
  HttpException,
  Inject,
  Injectable,
} from '@nestjs/common';
import {
  checkOrderAction,
  formatMoney,
  toMpesaPhone,
  type PaymentMethod,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { canonicalPhone } from '../common/identifiers';
import type { Actor } from '../common/principal';
import { DomainEvents } from '../common/events/domain-events';
import type { MoneyEntryRecord } from '../money/money-ledger.repository';
import { MoneyLedgerService } from '../money/money-ledger.service';
import { UsersService } from '../users/users.service';
import type { CompletePaymentDto } from './dto/order.dto';
import {
  closedReason,
  gateSaleReason,
  creditRule,
  CREDIT_TERMS,
  OPEN,
  type CreditPlan,
  type CreditPurpose,
  type CreditTerms,
} from './order-credit-rule';
import { OrderMoney } from './order-money';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import { OrderHoldSlotsRepository } from './order-hold-slots.repository';
import { OrdersService } from './orders.service';
import { codeOf, CREDIT, type CreditResult } from './order-credit-step';
import { checkTimePaid, codeTaken, deskCode } from './desk-payment-checks';

export { closedReason, gateSaleReason } from './order-credit-rule';
export { type CreditResult } from './order-credit-step';

/** A claim or payback left midway this long (a crash) is finished or undone. */
const STALE_MS = 60_000;
/** Credits that met another credit's write are read again and tried this many times. */
const ATTEMPTS = 5;

/**
 * Money credited to orders, every way it comes (M-Pesa Express, paybill matched or assigned, a
 * code or cash at the desk, a deposit): the money-ledger entry is claimed first (its code
 * once across the ledger), then the order takes it in one conditional write of `CREDIT` that holds
 * the state rule (`creditRule`): read again and retried when another credit wrote first, refused
 * with nothing left behind otherwise. A claim a crash left is finished or undone by `reconcile`.
 */
@Injectable()
export class OrderCredits {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly holdSlots: OrderHoldSlotsRepository,
    private readonly runner: OrdersService,
    private readonly ledger: MoneyLedgerService,
    private readonly money: OrderMoney,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly events: DomainEvents,
    @Inject(CREDIT_TERMS) private readonly terms: CreditTerms,
  ) {}

  /**
   * Credits an entry claimed for this order (state `claimed`, its `orderId` this order's). 409 (or
   * 400 for a wrong amount at the desk) when the order cannot take it: the claim is undone.
   */
  async credit(
    actor: Actor,
    order: OrderRecord,
    entry: MoneyEntryRecord,
    how: { how: string; purpose?: CreditPurpose; method?: PaymentMethod; timePaid?: Date | null },
  ): Promise<CreditResult> {
    const purpose = how.purpose ?? 'any';
    let current = order;
    for (let attempt = 1; ; attempt++) {
      if (current.credited.includes(entry._id)) {
        await this.ledger.credited(
          entry._id,
          current._id,
          await this.orders.creditOf(current._id, entry._id),
        );
        return { state: 'already', order: current };
      }
      const plan = creditRule(current, entry.amount, purpose, closedReason(current));
      if ('refuse' in plan) {
        await this.ledger.unclaim(entry);
        if (plan.status === 400) throw new BadRequestException(plan.refuse);
        throw new ConflictException(`This payment cannot be credited: ${plan.refuse}`);
      }
      try {
        await this.runner.runOn(CREDIT, actor, current, {
          entry,
          plan,
          purpose,
          method: how.method ?? (entry.kind === 'cash' ? 'Cash' : 'Mpesa'),
          how: how.how,
          timePaid: how.timePaid === undefined ? new Date(entry.at) : how.timePaid,
          terms: this.terms,
        });
      } catch (error) {
        const changed =
          error instanceof ConflictException &&
          (error.getResponse() as { code?: string }).code === 'CONFLICT';
        const again = await this.orders.findById(order._id);
        // Taken meanwhile by another request crediting this same entry (a gate sale resumed
        // twice at once): answered `already` at the loop's top, the entry never unclaimed.
        if (again?.credited.includes(entry._id) && attempt < ATTEMPTS) {
          current = again;
          continue;
        }
        if (changed && again && attempt < ATTEMPTS) {
          current = again;
          continue;
        }
        if (!again?.credited.includes(entry._id)) await this.ledger.unclaim(entry);
        throw error;
      }
      const updated = (await this.orders.findById(order._id))!;
      await this.followUps(actor, current, updated, entry, plan);
      return plan.outcome === 'paid'
        ? { state: 'paid', order: updated, excess: plan.split.excess }
        : { state: 'part', order: updated };
    }
  }

  /**
   * A payment a clerk records at the desk (Complete Payment): cash, or an M-Pesa code they read
   * off the message; exactly what is due. The code is claimed in the ledger first: one already on
   * an entry is refused (409 naming its order).
   */
  async recordAtDesk(actor: Actor, id: string, dto: CompletePaymentDto): Promise<OrderRecord> {
    const order = await this.mustFind(id);
    const gate = gateSaleReason(order);
    if (gate) throw new ConflictException({ message: gate, code: 'ILLEGAL_TRANSITION' });
    const check = checkOrderAction(order, 'completePayment', actor.role);
    if (!check.allowed) throw new ConflictException({ message: check.reason, code: check.code });
    const { amount, transactionCode, timePaid } = dto.paymentDetails;
    if (dto.paymentMethod === 'Mpesa') {
      if (!transactionCode) throw new BadRequestException('Transaction code is required');
      if (!timePaid) throw new BadRequestException('Time paid is required');
    }
    const now = new Date();
    const paidTime = timePaid ? new Date(timePaid) : now;
    checkTimePaid(order, paidTime, now);
    const closed = closedReason(order);
    const plan = creditRule(order, amount, 'due', closed);
    if ('refuse' in plan) {
      if (plan.status === 400) throw new BadRequestException(plan.refuse);
      throw new ConflictException(`This payment cannot be recorded: ${plan.refuse}`);
    }
    const code = dto.paymentMethod === 'Mpesa' ? deskCode(transactionCode) : null;
    if (code) await this.notAReceiptlessPrompt(code, amount, paidTime);
    const entry = await this.claimNew(actor, order, {
      kind: code ? 'desk-mpesa' : 'cash',
      code,
      amount,
      at: paidTime,
    });
    const result = await this.credit(actor, order, entry, {
      how: 'recorded at the desk',
      purpose: 'due',
      method: dto.paymentMethod,
      timePaid: timePaid ? paidTime : null,
    });
    return result.order;
  }

  /**
   * A payment taken at the gate's till (issue 46): cash, or an M-Pesa code the buyer shows (one
   * entry per code across the ledger: 409 naming the order that has it), credited toward the sale.
   * With `ref`, cash is one entry per ref (`cash:gate:<ref>`), as a code is one per code: taken
   * again (a sale resumed after a crash, or two resumes at once) it is recorded and credited once.
   */
  async recordAtGate(
    actor: Actor,
    order: OrderRecord,
    payment: { code: string | null; amount: number; at?: Date; ref?: string },
  ): Promise<OrderRecord> {
    // An offline sale's cash was taken when the till sold it (issue 47): its day's reports count it.
    const at = payment.at ?? new Date();
    if (payment.code) await this.notAReceiptlessPrompt(payment.code, payment.amount, at);
    const entry = await this.claimNew(actor, order, {
      kind: payment.code ? 'desk-mpesa' : 'cash',
      code: payment.code,
      amount: payment.amount,
      at,
      ...(payment.ref ? { again: true } : {}),
      ...(payment.ref && !payment.code ? { id: `cash:gate:${payment.ref}` } : {}),
    });
    const result = await this.credit(actor, order, entry, {
      how: 'taken at the gate',
      method: payment.code ? 'Mpesa' : 'Cash',
      timePaid: at,
    });
    return result.order;
  }

  /**
   * A deposit a clerk saw paid: exactly what is left of it, with its M-Pesa code (one
   * entry per code across the ledger), credited like any payment.
   */
  async recordDeposit(
    actor: Actor,
    order: OrderRecord,
    dto: { amount: number; transactionCode: string },
  ): Promise<OrderRecord> {
    const plan = creditRule(order, dto.amount, 'deposit', closedReason(order));
    if ('refuse' in plan) {
      if (plan.status === 400) throw new BadRequestException(plan.refuse);
      throw new ConflictException({
        message: `This deposit cannot be recorded: ${plan.refuse}`,
        code: 'ILLEGAL_TRANSITION',
      });
    }
    const code = deskCode(dto.transactionCode);
    await this.notAReceiptlessPrompt(code, dto.amount, new Date());
    const entry = await this.claimNew(actor, order, {
      kind: 'desk-mpesa',
      code,
      amount: dto.amount,
      at: new Date(),
    });
    return (
      await this.credit(actor, order, entry, {
        how: 'deposit recorded by staff',
        purpose: 'deposit',
      })
    ).order;
  }

  /**
   * A confirmed M-Pesa Express payment: one entry per prompt (`stk:<CheckoutRequestID>`), with its
   * receipt as the code when M-Pesa named one no other entry has; credited toward what is due.
   */
  async creditPrompt(
    actor: Actor,
    order: OrderRecord,
    prompt: { id: string; amount: number; receipt: string | null; phone: string; timePaid: Date },
  ): Promise<CreditResult> {
    const base = {
      _id: MoneyLedgerService.inId('mpesa-express', null, prompt.id),
      kind: 'mpesa-express' as const,
      amount: prompt.amount,
      reference: prompt.id,
      orderId: order._id,
      purchaseNumber: order.purchaseNumber,
      payer: prompt.phone || null,
      state: 'claimed' as const,
      at: prompt.timePaid,
    };
    let written = await this.ledger.recordIn(actor, {
      ...base,
      ...(prompt.receipt ? { code: prompt.receipt } : {}),
    });
    if (written.state === 'code-taken') {
      await this.audit.record(
        actor,
        'payment.mpesa.receipt-disputed',
        `M-Pesa confirmed the prompt for order ${order.purchaseNumber}, but its receipt ${prompt.receipt} is already recorded${written.entry.purchaseNumber ? ` for order ${written.entry.purchaseNumber}` : ' in the payments inbox'}; the payment is recorded by the prompt's reference ${prompt.id}: check the M-Pesa statement`,
        { type: 'order', id: order._id, label: order.purchaseNumber },
      );
      written = await this.ledger.recordIn(actor, base);
    }
    let entry: MoneyEntryRecord | null = written.entry;
    if (entry.state === 'credited') return { state: 'already', order };
    // Settled again after a crash: an entry its order never took (back in the ledger with no
    // order) is claimed for it again; one claimed for another order is not ours.
    if (entry.state === 'open')
      entry = await this.ledger.claim(
        entry._id,
        { orderId: order._id, purchaseNumber: order.purchaseNumber },
        actor,
      );
    if (!entry || entry.orderId !== order._id) return { state: 'already', order };
    return this.credit(actor, order, entry, { how: 'M-Pesa Express', timePaid: prompt.timePaid });
  }

  /**
   * A prompt's receipt that came after it was credited becomes its entry's code, unless another
   * entry has that code. True when the entry has it now.
   */
  async promptReceipt(promptId: string, receipt: string): Promise<boolean> {
    const id = MoneyLedgerService.inId('mpesa-express', null, promptId);
    if (await this.ledger.update(id, { code: { $exists: false } }, { code: receipt })) return true;
    return (await this.ledger.findById(id))?.code === receipt;
  }

  /**
   * Open unpaid orders the paybill may credit by the payer's phone alone: those of signed-in
   * customers whose own phone it is: their account's phone, proven theirs by M-Pesa money from it
   * already credited to one of their orders (a prompt they answered, a paybill payment). A guest
   * order naming a stranger's phone, or an account that merely registered it, never collects the
   * stranger's payment. Newest first, at most `limit`.
   */
  async openOrdersOfPhone(e164: string, limit = 5): Promise<OrderRecord[]> {
    const orders = (await this.holdSlots.openUnpaidByPhone(e164, OPEN, 20)).filter(
      (o) => o.placedBy,
    );
    if (!orders.length) return [];
    const owners = await this.users.findManyByIds([...new Set(orders.map((o) => o.placedBy!))]);
    const registered = new Set(
      owners
        .filter((u) => u.phoneNumber && canonicalPhone(u.phoneNumber) === e164)
        .map((u) => u._id),
    );
    const payer = toMpesaPhone(e164);
    const paidFrom = payer ? await this.ledger.ordersPaidBy(payer) : [];
    const proven = new Set(
      (await Promise.all(paidFrom.map((id) => this.orders.findAnyById(id))))
        .map((o) => o?.placedBy)
        .filter((id): id is string => !!id && registered.has(id)),
    );
    return orders.filter((o) => proven.has(o.placedBy!)).slice(0, limit);
  }

  /**
   * Claims and paybacks a crash left midway: a claim the order took is marked credited, one it
   * never took is undone (a paybill payment back to the inbox); a payback whose step happened is
   * recorded, one whose step did not is given back. Safe on several instances. Answers how many.
   */
  async reconcile(now = new Date()): Promise<number> {
    let done = 0;
    for (const e of await this.ledger.unfinished(new Date(now.getTime() - STALE_MS))) {
      const order = e.orderId ? await this.orders.findAnyById(e.orderId) : null;
      if (e.state === 'claimed') {
        const credit = order ? await this.orders.creditOf(order._id, e._id) : null;
        if (credit)
          await this.ledger.credited(e._id, e.orderId!, {
            deposit: credit.deposit,
            balance: credit.balance,
            excess: credit.excess,
          });
        // Only the claim as read: one a resumed gate sale took up since (its claim time
        // refreshed) is that sale's to credit.
        else await this.ledger.unclaim(e, e.claimedAt);
      } else if (e.state === 'claiming') {
        // A cancellation's refund happened when the order's cancelling write named it (another
        // cancellation, a release that kept the deposit, did not); any other when it took its share.
        const stepDone =
          e.purpose === 'refund'
            ? !!order?.refundOut.includes(e._id)
            : await this.ledger.outTaken(e);
        if (stepDone && e.purpose === 'refund') await this.money.finishRefund(order!.refundOut);
        else if (stepDone) await this.ledger.finishOut([e._id]);
        else await this.ledger.abandonOut([e._id]);
      }
      done++;
    }
    return done;
  }

  /**
   * A code typed at the desk that the ledger does not know, of the amount of an M-Pesa Express
   * payment received about then without its receipt, may be that payment's receipt: refused (409)
   * until the shop has checked its statement, so one payment never pays two orders.
   */
  private async notAReceiptlessPrompt(code: string, amount: number, at: Date): Promise<void> {
    if (await this.ledger.findByCode(code)) return;
    const twin = await this.ledger.receiptlessTwin(amount, at);
    if (!twin) return;
    throw new ConflictException({
      message: `An M-Pesa Express payment of ${formatMoney(amount)} for order ${twin.purchaseNumber ?? twin.meantFor ?? '(none)'} came in at ${new Date(twin.at).toISOString()} without its receipt number; ${code} may be that payment. Check the M-Pesa statement before recording it`,
      code: 'CODE_TAKEN',
    });
  }

  /** A new entry claimed for the order; 409 naming the order when its code is on another entry. */
  private async claimNew(
    actor: Actor,
    order: OrderRecord,
    e: {
      kind: 'desk-mpesa' | 'cash';
      code: string | null;
      amount: number;
      at: Date;
      /** The entry's own id (a gate sale's cash: once per sale). */
      id?: string;
      /** Taken again for the same order (a gate sale resumed): its own entry answers. */
      again?: boolean;
    },
  ): Promise<MoneyEntryRecord> {
    for (let attempt = 1; ; attempt++) {
      const written = await this.writeNew(actor, order, e);
      // Taken again for the same order (a gate sale resumed after a crash): its own entry, once.
      // A claim a dead request left is taken up (its claim time refreshed, so the reconciler does
      // not undo it under the resume); undone by the reconciler meanwhile, it is written again.
      if (e.again && written.state !== 'new' && written.entry.orderId === order._id) {
        if (written.entry.state !== 'claimed') return written.entry;
        const taken = await this.ledger.reclaim(written.entry._id, order._id);
        if (taken) return taken;
        if (attempt < ATTEMPTS) continue;
      }
      if (written.state === 'code-taken') throw codeTaken(e.code!, written.entry);
      if (written.state === 'exists')
        throw new ConflictException({
          message: 'This payment is recorded for another order already',
          code: 'CONFLICT',
        });
      return written.entry;
    }
  }

  private writeNew(
    actor: Actor,
    order: OrderRecord,
    e: { kind: 'desk-mpesa' | 'cash'; code: string | null; amount: number; at: Date; id?: string },
  ) {
    return this.ledger.recordIn(actor, {
      _id: e.id ?? MoneyLedgerService.inId(e.kind, null),
      kind: e.kind,
      amount: e.amount,
      ...(e.code ? { code: e.code } : {}),
      orderId: order._id,
      purchaseNumber: order.purchaseNumber,
      payer: null,
      state: 'claimed',
      at: e.at,
    });
  }

  private async followUps(
    actor: Actor,
    before: OrderRecord,
    after: OrderRecord,
    entry: MoneyEntryRecord,
    plan: CreditPlan,
  ): Promise<void> {
    const target = { type: 'order', id: after._id, label: after.purchaseNumber };
    if (plan.split.excess > 0)
      await this.events.emit('order.overPaid', {
        actor,
        order: after,
        audit: {
          action: 'order.payment.excess',
          text: `Order ${after.purchaseNumber} was over-paid by ${formatMoney(plan.split.excess)} (M-Pesa ${codeOf(entry)}); the excess is to be refunded`,
          target,
        },
      });
    for (const next of this.terms.after(actor, before, after, plan))
      await this.events.emit(next.name, next.event);
  }

  private async mustFind(id: string): Promise<OrderRecord> {
    const order = await this.orders.findById(id);
    if (!order)
      throw new HttpException({ message: 'No order with this id', code: 'NOT_FOUND' }, 404);
    return order;
  }
}
