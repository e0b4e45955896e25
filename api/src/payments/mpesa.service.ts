import { createHash, timingSafeEqual } from 'node:crypto';
import {
  BadGatewayException,
  ConflictException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  MPESA_EXPRESS_NAME,
  MPESA_MAX_AMOUNT_KES,
  MPESA_MESSAGES,
  MPESA_RESULT_CODES,
  mpesaResultMessage,
  toMpesaPhone,
  type MpesaPushStatus,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { MpesaConfig } from '../config/mpesa-config';
import { ClaimsService } from '../common/claims';
import { OrdersService } from '../orders/orders.service';
import { DarajaClient, DarajaError } from './daraja.client';
import { parseMpesaCallback, type MpesaCallback } from './mpesa-callback';
import { MpesaPushesRepository, type MpesaPushRecord } from './mpesa-pushes.repository';
import { PromptLimits } from './prompt-limits';

/** Who the audit trail names for what M-Pesa Express does on its own. */
export const MPESA_ACTOR: Principal = {
  id: 'mpesa-express',
  role: 'staff',
  fullName: MPESA_EXPRESS_NAME,
};

/** A prompt still without an answer this long after it was sent is given up (and audited). */
const GIVE_UP_AFTER_MS = 15 * 60_000;
/** A settlement claimed this long ago but never finished (a crash) is finished by the next one. */
const STALE_CLAIM_MS = 60_000;
const RECONCILE_BATCH = 20;
const CHECKOUT_REQUEST_ID = /^[A-Za-z0-9_-]{1,100}$/;

type Outcome =
  | { status: 'paid'; transactionCode: string; receipt: string | null; timePaid: Date }
  | { status: 'failed'; resultCode: number | null; resultDesc: string; message: string };

const hash = (value: string) => createHash('sha256').update(value).digest();

/**
 * M-Pesa Express at checkout. A prompt is sent for a pending, unpaid order (amount from the order);
 * Daraja's callback says how it ended. A success is believed only when its amount is the one asked
 * for and Daraja's own status query confirms it, so a forged or replayed callback cannot mark an
 * order paid; a failure is taken from the callback as it moves no money. Prompts that hear nothing
 * are asked about by a reconciler, so a lost callback costs a short delay, not a payment.
 */
export const OTHER_PHONE_MESSAGE =
  'The M-Pesa prompt can only go to the phone number on the order. To pay from another phone, sign in to the account that placed the order, or ask the shop.';

@Injectable()
export class MpesaService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MpesaService.name);
  private readonly settings: MpesaConfig | null;
  private timer?: NodeJS.Timeout;
  private reconciling = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly pushes: MpesaPushesRepository,
    private readonly daraja: DarajaClient,
    private readonly orders: OrdersService,
    private readonly audit: AuditService,
    private readonly claims: ClaimsService,
    private readonly limits: PromptLimits,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = config.mpesa;
  }

  get enabled(): boolean {
    return this.settings !== null;
  }

  onApplicationBootstrap(): void {
    if (!this.settings) return;
    this.timer = setInterval(
      () => this.track(this.reconcile()),
      Math.max(500, Math.floor(this.settings.reconcileAfterMs / 2)),
    );
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Sends the PIN prompt for an order to a phone; the amount is the order's total. Anyone who knows
   * the order number may prompt the order's own phone; another phone only the customer who placed
   * the order (signed in) or staff.
   */
  async push(
    purchaseNumber: string,
    phoneNumber: string,
    actor?: Principal,
  ): Promise<{ checkoutRequestId: string }> {
    if (!this.settings) throw new ServiceUnavailableException(MPESA_MESSAGES.notAvailable);
    const phone = toMpesaPhone(phoneNumber);
    if (!phone) throw new HttpException(MPESA_MESSAGES.invalidPhone, HttpStatus.BAD_REQUEST);
    const order = await this.orders.findByPurchaseNumber(purchaseNumber);
    if (!order) throw new NotFoundException(MPESA_MESSAGES.unknownOrder);
    if (order.paymentStatus === 'Paid')
      throw new ConflictException({ message: MPESA_MESSAGES.alreadyPaid, code: 'ALREADY_PAID' });
    if (order.orderStatus === 'Cancelled')
      throw new ConflictException({
        message: MPESA_MESSAGES.orderCancelled,
        code: 'ILLEGAL_TRANSITION',
      });
    if (order.orderStatus !== 'Pending')
      throw new ConflictException({
        message: MPESA_MESSAGES.orderNotPending,
        code: 'ILLEGAL_TRANSITION',
      });
    if (order.totalAmount > MPESA_MAX_AMOUNT_KES)
      throw new ConflictException(MPESA_MESSAGES.tooLarge);
    const mayUseAnyPhone =
      !!actor && (actor.role !== 'customer' || (!!order.placedBy && order.placedBy === actor.id));
    if (!mayUseAnyPhone && toMpesaPhone(order.guestInfo.phoneNumber) !== phone) {
      throw new ForbiddenException(OTHER_PHONE_MESSAGE);
    }

    const ticket = await this.limits.claim(order._id, phone);

    let sent: { checkoutRequestId: string; merchantRequestId: string };
    try {
      sent = await this.daraja.stkPush({
        amount: order.totalAmount,
        phone,
        accountReference: order.purchaseNumber,
        description: 'Seedlings',
      });
    } catch (error) {
      if (!(error instanceof DarajaError)) throw error;
      // Refused outright, no prompt reached the phone; a timeout may have sent one, so it counts.
      if (error.status >= 400 && error.status < 500) await this.limits.release(ticket);
      this.logger.warn(
        `Daraja refused the prompt for ${order.purchaseNumber}: ${error.status} ${error.errorCode ?? ''} ${error.message}`,
      );
      if (error.status === 0 || error.status >= 500)
        throw new ServiceUnavailableException(MPESA_MESSAGES.unreachable);
      throw new BadGatewayException(MPESA_MESSAGES.rejected);
    }
    await this.pushes.insert({
      _id: sent.checkoutRequestId,
      merchantRequestId: sent.merchantRequestId,
      orderId: order._id,
      purchaseNumber: order.purchaseNumber,
      phone,
      amount: order.totalAmount,
    });
    return { checkoutRequestId: sent.checkoutRequestId };
  }

  /** What the checkout may know about a prompt: pending, paid or failed, and the message. */
  async status(checkoutRequestId: string): Promise<{ status: MpesaPushStatus; message: string }> {
    const push = CHECKOUT_REQUEST_ID.test(checkoutRequestId)
      ? await this.pushes.findById(checkoutRequestId)
      : null;
    if (!push) throw new NotFoundException(MPESA_MESSAGES.unknownPrompt);
    return {
      status: push.status,
      message: push.status === 'pending' ? MPESA_MESSAGES.waiting : push.message,
    };
  }

  /**
   * Checks that a callback may be heard (path token, optional address allow-list) and hands it to
   * the background, so Daraja gets its answer at once.
   */
  acceptCallback(token: string, ip: string, body: unknown): void {
    const s = this.settings;
    if (!s || !timingSafeEqual(hash(token), hash(s.callbackToken))) throw new NotFoundException();
    if (s.callbackAllowedIps.length && !s.callbackAllowedIps.includes(ip)) {
      this.logger.warn(`Refused an M-Pesa callback from ${ip}`);
      throw new ForbiddenException('This address may not send M-Pesa callbacks');
    }
    const callback = parseMpesaCallback(body);
    if (!callback) {
      this.logger.warn('Ignored an M-Pesa callback that is not an STK callback');
      return;
    }
    this.track(this.handleCallback(callback));
  }

  /** Asks Daraja about every prompt that has had no callback for a while, and settles what it can. */
  async reconcile(): Promise<void> {
    if (!this.settings || this.reconciling) return;
    this.reconciling = true;
    try {
      const before = new Date(Date.now() - this.settings.reconcileAfterMs);
      for (const push of await this.pushes.unanswered(before, RECONCILE_BATCH))
        await this.settle(push._id, 'reconciler');
    } catch (error) {
      this.logger.error(`M-Pesa reconciliation failed: ${(error as Error).message}`);
    } finally {
      this.reconciling = false;
    }
  }

  private async handleCallback(callback: MpesaCallback): Promise<void> {
    const id = callback.checkoutRequestId;
    const push = CHECKOUT_REQUEST_ID.test(id) ? await this.pushes.findById(id) : null;
    if (!push) {
      await this.audit.record(
        MPESA_ACTOR,
        'payment.mpesa.unknown',
        `An M-Pesa callback named a prompt the shop never sent (${id.slice(0, 100)}); ignored`,
      );
      return;
    }
    if (push.status === 'failed' && callback.resultCode === MPESA_RESULT_CODES.success) {
      // A success after a failure (a forged or early failure): the success wins once Daraja confirms it.
      await this.pushes.countCallback(id);
      await this.reopenIfPaid(push, callback);
      return;
    }
    if (push.status === 'pending') {
      await this.pushes.recordCallback(id, { ...callback, receivedAt: new Date() });
    } else {
      await this.pushes.countCallback(id);
      if (push.status === 'paid' && !push.receipt && callback.resultCode === 0) {
        await this.attachReceipt(push, callback);
        return;
      }
    }
    await this.settle(id, 'callback');
  }

  /**
   * A prompt settled as failed that a success callback contradicts: if Daraja's status query says it
   * was paid and the amount is the one asked for, the payment is recorded (or, when the order can no
   * longer take it, the refund alert raised) as for any success.
   */
  private async reopenIfPaid(push: MpesaPushRecord, callback: MpesaCallback): Promise<void> {
    const current = await this.pushes.findById(push._id);
    if (!current || current.status !== 'failed' || callback.amount !== current.amount) {
      if (current) await this.auditDuplicate(current);
      return;
    }
    let answer;
    try {
      answer = await this.daraja.stkQuery(current._id);
    } catch (error) {
      this.logger.warn(`M-Pesa query for ${current._id} failed: ${(error as Error).message}`);
      answer = null;
    }
    if (
      !answer ||
      answer.state === 'processing' ||
      answer.resultCode !== MPESA_RESULT_CODES.success ||
      // Daraja confirmed it; of several success callbacks racing here, one reopens the prompt.
      !(await this.claims.claimOnce(`mpesa-reopen:${current._id}`))
    ) {
      await this.auditDuplicate(current);
      return;
    }
    await this.audit.record(
      MPESA_ACTOR,
      'payment.mpesa.reopened',
      `M-Pesa confirmed a payment for order ${current.purchaseNumber} after the prompt was marked failed; the payment counts`,
      this.target(current),
    );
    await this.apply(current, {
      status: 'paid',
      transactionCode: callback.receipt ?? current._id,
      receipt: callback.receipt ?? null,
      timePaid: callback.transactionDate ? new Date(callback.transactionDate) : new Date(),
    });
  }

  /**
   * A success callback for a prompt the status query already settled as paid (the callback was late,
   * not lost): its receipt number replaces the prompt's reference on the order.
   */
  private async attachReceipt(push: MpesaPushRecord, callback: MpesaCallback): Promise<void> {
    const current = await this.pushes.findById(push._id);
    if (
      !current ||
      current.receipt ||
      !callback.receipt ||
      callback.amount !== current.amount ||
      !(await this.claims.claimOnce(`mpesa-receipt:${push._id}`))
    ) {
      await this.auditDuplicate(push);
      return;
    }
    await this.orders.attachMpesaReceipt(MPESA_ACTOR, current.orderId, {
      reference: current._id,
      receipt: callback.receipt,
      timePaid: callback.transactionDate ?? new Date(),
    });
    await this.pushes.setReceipt(current._id, callback.receipt);
  }

  /** Decides and applies a prompt's outcome once; later callbacks for it change nothing. */
  private async settle(id: string, source: 'callback' | 'reconciler'): Promise<void> {
    const push = await this.pushes.findById(id);
    if (!push) return;
    if (push.status !== 'pending') {
      if (source === 'callback') await this.auditDuplicate(push);
      return;
    }
    const outcome = await this.decide(push);
    if (!outcome) return;
    if (!(await this.claims.claimOnce(`mpesa-settle:${id}`))) {
      // Someone else is settling it, or claimed it and died
      // before finishing: finish only the latter.
      if (Date.now() - new Date(push.updatedAt).getTime() < STALE_CLAIM_MS) {
        if (source === 'callback') await this.auditDuplicate(push);
        return;
      }
      this.logger.warn(`Finishing the interrupted settlement of M-Pesa prompt ${id}`);
    }
    await this.apply(push, outcome);
  }

  /**
   * The outcome of a pending prompt, or null while it is not known yet. Every callback, success or
   * failure, is confirmed with Daraja's status query before it counts: a forged failure must not
   * settle a prompt whose money then moves.
   */
  private async decide(push: MpesaPushRecord): Promise<Outcome | null> {
    const cb = push.callback;
    if (cb && cb.resultCode === MPESA_RESULT_CODES.success && cb.amount !== push.amount) {
      return {
        status: 'failed',
        resultCode: cb.resultCode,
        resultDesc: `The callback reported KES ${cb.amount ?? 'no amount'}; KES ${push.amount} was asked for`,
        message: MPESA_MESSAGES.amountMismatch,
      };
    }

    // A success (or silence) is confirmed with Daraja itself before anyone is told it is paid.
    let answer;
    try {
      answer = await this.daraja.stkQuery(push._id);
    } catch (error) {
      this.logger.warn(`M-Pesa query for ${push._id} failed: ${(error as Error).message}`);
      answer = null;
    }
    if (!answer || answer.state === 'processing') {
      await this.pushes.markQueried(push._id);
      if (Date.now() - new Date(push.createdAt).getTime() < GIVE_UP_AFTER_MS) return null;
      return {
        status: 'failed',
        resultCode: null,
        resultDesc: 'No outcome from M-Pesa in time',
        message: MPESA_MESSAGES.unconfirmed,
      };
    }
    if (answer.resultCode !== MPESA_RESULT_CODES.success) {
      return {
        status: 'failed',
        resultCode: answer.resultCode,
        resultDesc: answer.resultDesc,
        message: mpesaResultMessage(answer.resultCode, answer.resultDesc),
      };
    }
    // A failure callback's receipt and time are not trusted (there was none): the query's success wins.
    const paidCallback = cb?.resultCode === MPESA_RESULT_CODES.success ? cb : undefined;
    return {
      status: 'paid',
      // Daraja's query carries no receipt number; without a callback the prompt's reference stands in.
      transactionCode: paidCallback?.receipt ?? push._id,
      receipt: paidCallback?.receipt ?? null,
      timePaid: paidCallback?.transactionDate ? new Date(paidCallback.transactionDate) : new Date(),
    };
  }

  private async apply(push: MpesaPushRecord, outcome: Outcome): Promise<void> {
    if (outcome.status === 'failed') {
      await this.pushes.settle(push._id, {
        status: 'failed',
        message: outcome.message,
        resultCode: outcome.resultCode,
        resultDesc: outcome.resultDesc,
        receipt: null,
      });
      await this.audit.record(
        MPESA_ACTOR,
        'payment.mpesa.failed',
        `M-Pesa Express payment for order ${push.purchaseNumber} did not go through: ${outcome.resultDesc || outcome.message}${outcome.resultCode !== null ? ` (code ${outcome.resultCode})` : ''}`,
        this.target(push),
      );
      return;
    }

    let message: string = MPESA_MESSAGES.paid;
    try {
      await this.orders.recordMpesaExpressPayment(MPESA_ACTOR, push.orderId, {
        amount: push.amount,
        transactionCode: outcome.transactionCode,
        timePaid: outcome.timePaid,
      });
    } catch (error) {
      if (!(error instanceof HttpException) || error.getStatus() >= 500) throw error;
      // The money moved but the order can no longer take it (cancelled, or paid another way).
      message = MPESA_MESSAGES.paidButOrderClosed;
      await this.audit.record(
        MPESA_ACTOR,
        'payment.mpesa.refund',
        `M-Pesa payment ${outcome.transactionCode} of KES ${push.amount.toLocaleString('en-US')} for order ${push.purchaseNumber} could not be recorded (${error.message}); refund or reconcile it by hand`,
        this.target(push),
      );
    }
    await this.pushes.settle(push._id, {
      status: 'paid',
      message,
      resultCode: MPESA_RESULT_CODES.success,
      resultDesc: 'Paid',
      receipt: outcome.receipt,
    });
  }

  private auditDuplicate(push: MpesaPushRecord): Promise<void> {
    return this.audit.record(
      MPESA_ACTOR,
      'payment.mpesa.duplicate',
      `A repeated M-Pesa callback for order ${push.purchaseNumber} was ignored (the prompt is already settled)`,
      this.target(push),
    );
  }

  private target(push: MpesaPushRecord) {
    return { type: 'order', id: push.orderId, label: push.purchaseNumber };
  }

  private track(work: Promise<unknown>): void {
    const p = work.catch((error: Error) =>
      this.logger.error(`M-Pesa background work failed: ${error.message}`),
    );
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }
}
