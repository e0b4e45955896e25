import {
  HttpException,
  Inject,
  NotFoundException,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { MPESA_MESSAGES, MPESA_RESULT_CODES, mpesaResultMessage } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { ClaimsService } from '../common/claims';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { MpesaConfig } from '../config/mpesa-config';
import { closedReason, OrderCredits } from '../orders/order-credits';
import { OrdersService } from '../orders/orders.service';
import { SmsService } from '../sms/sms.service';
import { checkDarajaCaller } from './daraja-caller';
import { DarajaClient } from './daraja.client';
import { parseMpesaCallback, type MpesaCallback } from './mpesa-callback';
import { canonicalReceipt, paidOutcome, type Confirmation, type Outcome } from './mpesa-outcome';
import { MpesaPushesRepository, type MpesaPushRecord } from './mpesa-pushes.repository';
import { CHECKOUT_REQUEST_ID, MPESA_ACTOR } from './mpesa.service';

/** A prompt still without an answer this long after it was sent is given up (and audited). */
const GIVE_UP_AFTER_MS = 15 * 60_000;
/** A settlement claimed this long ago but never finished (a crash) is finished by the next one. */
const STALE_CLAIM_MS = 60_000;
const RECONCILE_BATCH = 20;
/**
 * A prompt settled as failed is asked about again this many times, each wait four times the last
 * (from MPESA_RECONCILE_AFTER_MS: 30 s, 2 min, 8 min, 32 min, 2 h 8 min, 8 h 32 min by default), so
 * a payment that went through after all (or a failure that was forged) is still recorded.
 */
const RECHECKS = 6;

/**
 * M-Pesa Express at checkout, the settling half: how a prompt ends. Money is confirmed, never
 * inferred: every callback (success or failure, right amount or wrong) and every prompt the
 * reconciler picks up is checked with Daraja's status query, and the query's answer settles the
 * prompt; receipts from callbacks are kept in line with the order.
 */
@Injectable()
export class MpesaSettlementService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(MpesaSettlementService.name);
  private readonly settings: MpesaConfig | null;
  private reconciling = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly pushes: MpesaPushesRepository,
    private readonly daraja: DarajaClient,
    private readonly orders: OrdersService,
    private readonly audit: AuditService,
    private readonly claims: ClaimsService,
    private readonly sms: SmsService,
    private readonly credits: OrderCredits,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = config.mpesa;
  }

  onModuleInit(): void {
    const s = this.settings;
    this.scheduler.declare({
      name: 'payments.mpesa-reconcile',
      everyMs: s && Math.max(500, Math.floor(s.reconcileAfterMs / 2)),
      runsOn: 'one',
      run: () => this.reconcile(),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Checks that a callback may be heard (path token, optional address allow-list) and hands it to
   * the background, so Daraja gets its answer at once.
   */
  acceptCallback(token: string, ip: string, body: unknown): void {
    checkDarajaCaller(this.settings, token, ip, this.logger);
    const callback = parseMpesaCallback(body);
    if (!callback) {
      this.logger.warn('Ignored an M-Pesa callback that is not an STK callback');
      return;
    }
    this.track(this.handleCallback(callback));
  }

  /**
   * Asks Daraja about every prompt that has had no callback for a while, and settles what it can;
   * then asks again about prompts settled as failed whose time has come.
   */
  async reconcile(): Promise<void> {
    if (!this.settings || this.reconciling) return;
    this.reconciling = true;
    try {
      const before = new Date(Date.now() - this.settings.reconcileAfterMs);
      for (const push of await this.pushes.unanswered(before, RECONCILE_BATCH))
        await this.settle(push._id, 'reconciler');
      for (const push of await this.pushes.dueForRecheck(new Date(), RECONCILE_BATCH))
        await this.recheck(push);
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
    const success = callback.resultCode === MPESA_RESULT_CODES.success;
    // A success that names another amount than the one asked for says nothing to trust: not its
    // receipt, not its time. It is only a reason to ask Daraja, as any callback is.
    const trusted = !success || callback.amount === push.amount;
    if (!trusted) {
      await this.audit.record(
        MPESA_ACTOR,
        'payment.mpesa.mismatch',
        `An M-Pesa callback for order ${push.purchaseNumber} reported KES ${callback.amount ?? 'no amount'}; KES ${push.amount} was asked for. Its receipt ${callback.receipt ?? '(none)'} is not used; M-Pesa's status query decides`,
        this.target(push),
      );
    }
    const receipt = success && trusted ? canonicalReceipt(callback.receipt) : null;
    if (receipt) await this.pushes.addReceipt(id, receipt);

    if (push.status === 'pending') {
      if (trusted) await this.pushes.recordCallback(id, { ...callback, receivedAt: new Date() });
      else await this.pushes.countCallback(id);
      await this.settle(id, 'callback');
    } else {
      await this.pushes.countCallback(id);
      // A success after a failure (a forged or early failure): Daraja is asked whether it was paid.
      if (push.status === 'failed' && success) await this.reopenIfPaid(push);
      else if (!receipt || (push.receipts ?? []).includes(receipt)) await this.auditDuplicate(push);
    }
    if (receipt) await this.settleReceipt(id);
  }

  /** A failed prompt whose time has come is asked about again (one instance takes each turn). */
  private async recheck(push: MpesaPushRecord): Promise<void> {
    const done = (push.rechecks ?? 0) + 1;
    const next =
      done < RECHECKS ? new Date(Date.now() + this.settings!.reconcileAfterMs * 4 ** done) : null;
    if (!(await this.pushes.claimRecheck(push, next))) return;
    await this.reopenIfPaid(push);
  }

  /**
   * A prompt settled as failed that a success callback or the reconciler questions: if Daraja's
   * status query now says it was paid, the payment is recorded (or, when the order can no longer
   * take it, the refund alert raised) as for any success.
   */
  private async reopenIfPaid(push: MpesaPushRecord): Promise<void> {
    const current = await this.pushes.findById(push._id);
    if (!current || current.status !== 'failed') return;
    if (
      (await this.confirmation(current._id)).state !== 'paid' ||
      // Daraja confirmed it; of several callbacks or instances racing here, one reopens the prompt.
      !(await this.claims.claimOnce(`mpesa-reopen:${current._id}`))
    ) {
      return;
    }
    await this.audit.record(
      MPESA_ACTOR,
      'payment.mpesa.reopened',
      `M-Pesa confirmed a payment for order ${current.purchaseNumber} after the prompt was marked failed; the payment counts`,
      this.target(current),
    );
    await this.apply(current, paidOutcome(current));
  }

  /**
   * Brings the order's receipt number in line with what the callbacks of a paid prompt said: the
   * one receipt they named replaces the prompt's reference; when they named two different ones
   * (one of them forged), none is kept, the order goes back to the prompt's reference and the shop
   * is told to check its M-Pesa statement. Safe to run again and from several callbacks at once:
   * every change is conditional on what the order carries, and it runs once more after one.
   */
  private async settleReceipt(id: string, again = true): Promise<void> {
    const push = await this.pushes.findById(id);
    const receipts = push?.receipts ?? [];
    if (!push || push.status !== 'paid' || receipts.length === 0) return;
    const order = await this.orders.findByPurchaseNumber(push.purchaseNumber);
    const code = order?.paymentMethod === 'Mpesa' ? order.paymentDetails?.transactionCode : null;
    if (!order || !code) {
      // A stray prompt: its order was paid another way (or closed) before its money came, and its
      // entry waits in the inbox. The receipt becomes that entry's code all the same, so a paybill
      // confirmation replaying it is known, and the shop gives it back by the code it sees.
      if (receipts.length === 1 && !push.receiptDisputed && push.receipt !== receipts[0])
        await this.strayReceipt(push, receipts[0]!);
      return;
    }

    if (receipts.length > 1) {
      if (await this.pushes.markDisputed(id)) {
        await this.audit.record(
          MPESA_ACTOR,
          'payment.mpesa.receipt-disputed',
          `M-Pesa callbacks named ${receipts.length} different receipts (${receipts.join(', ')}) for one payment of KES ${push.amount.toLocaleString('en-US')} for order ${push.purchaseNumber}; at most one is real. The order keeps the prompt's reference ${push._id}: check the M-Pesa statement, and change MPESA_CALLBACK_TOKEN (someone who has it sent a forged callback)`,
          this.target(push),
        );
      }
      if (receipts.includes(code))
        await this.orders.withdrawMpesaReceipt(MPESA_ACTOR, order._id, {
          receipt: code,
          reference: push._id,
        });
      return;
    }

    const [receipt] = receipts as [string];
    if (code !== push._id || push.receiptDisputed) return;
    // The receipt becomes the prompt's entry's code first: one code, one entry in the ledger.
    if (!(await this.credits.promptReceipt(push._id, receipt))) {
      await this.audit.record(
        MPESA_ACTOR,
        'payment.mpesa.receipt-disputed',
        `M-Pesa named receipt ${receipt} for the prompt of order ${push.purchaseNumber}, but that code is already recorded for another payment; the order keeps the prompt's reference ${push._id}: check the M-Pesa statement`,
        this.target(push),
      );
      return;
    }
    const attached = await this.orders.attachMpesaReceipt(MPESA_ACTOR, order._id, {
      reference: push._id,
      receipt,
      timePaid: push.callback?.transactionDate ?? new Date(),
    });
    if (attached) await this.pushes.setReceipt(id, receipt);
    // A second receipt that came meanwhile undoes this one.
    if (attached && again) await this.settleReceipt(id, false);
  }

  /** The one receipt of a stray prompt's callbacks made its waiting entry's code (see above). */
  private async strayReceipt(push: MpesaPushRecord, receipt: string): Promise<void> {
    if (await this.credits.promptReceipt(push._id, receipt)) {
      await this.pushes.setReceipt(push._id, receipt);
      return;
    }
    await this.audit.record(
      MPESA_ACTOR,
      'payment.mpesa.receipt-disputed',
      `M-Pesa named receipt ${receipt} for the prompt of order ${push.purchaseNumber}, but that code is already recorded for another payment; its payment keeps the prompt's reference ${push._id}: check the M-Pesa statement`,
      this.target(push),
    );
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
   * What Daraja's status query says of a prompt: paid, failed (with Daraja's code), or unknown while
   * it is still processing or could not be asked. The one place the query's errors are handled.
   */
  private async confirmation(id: string): Promise<Confirmation> {
    let answer;
    try {
      answer = await this.daraja.stkQuery(id);
    } catch (error) {
      this.logger.warn(`M-Pesa query for ${id} failed: ${(error as Error).message}`);
      return { state: 'unknown' };
    }
    if (answer.state === 'processing') return { state: 'unknown' };
    if (answer.resultCode === MPESA_RESULT_CODES.success) return { state: 'paid' };
    return { state: 'failed', resultCode: answer.resultCode, resultDesc: answer.resultDesc };
  }

  /**
   * The outcome of a pending prompt, or null while it is not known yet. Whatever a callback said,
   * Daraja's status query decides: a forged failure must not settle a prompt whose money then
   * moves, and a forged success (or one naming another amount) must not pay or fail an order.
   */
  private async decide(push: MpesaPushRecord): Promise<Outcome | null> {
    const answer = await this.confirmation(push._id);
    if (answer.state === 'unknown') {
      await this.pushes.markQueried(push._id);
      if (Date.now() - new Date(push.createdAt).getTime() < GIVE_UP_AFTER_MS) return null;
      return {
        status: 'failed',
        resultCode: null,
        resultDesc: 'No outcome from M-Pesa in time',
        message: MPESA_MESSAGES.unconfirmed,
      };
    }
    if (answer.state === 'failed') {
      return {
        status: 'failed',
        resultCode: answer.resultCode,
        resultDesc: answer.resultDesc,
        message: mpesaResultMessage(answer.resultCode, answer.resultDesc),
      };
    }
    return paidOutcome(push);
  }

  private async apply(push: MpesaPushRecord, outcome: Outcome): Promise<void> {
    if (outcome.status === 'failed') {
      await this.pushes.settle(push._id, {
        status: 'failed',
        message: outcome.message,
        resultCode: outcome.resultCode,
        resultDesc: outcome.resultDesc,
        receipt: null,
        // Asked about again later: a failure is the one outcome that may still turn out paid.
        nextRecheckAt: new Date(Date.now() + this.settings!.reconcileAfterMs),
      });
      await this.audit.record(
        MPESA_ACTOR,
        'payment.mpesa.failed',
        `M-Pesa Express payment for order ${push.purchaseNumber} did not go through: ${outcome.resultDesc || outcome.message}${outcome.resultCode !== null ? ` (code ${outcome.resultCode})` : ''}`,
        this.target(push),
      );
      await this.offerPaybill(push);
      return;
    }

    let message: string = MPESA_MESSAGES.paid;
    try {
      // One money-ledger entry per prompt, with its receipt as its code: credited toward what is
      // due (a payment in full, a deposit, a balance, or one more part after paybill payments).
      const order = await this.orders.findAnyOrder(push.orderId);
      if (!order) throw new NotFoundException('No order with this id');
      await this.credits.creditPrompt(MPESA_ACTOR, order, {
        id: push._id,
        amount: push.amount,
        receipt: outcome.receipt,
        phone: push.phone,
        timePaid: outcome.timePaid,
      });
    } catch (error) {
      if (!(error instanceof HttpException) || error.getStatus() >= 500) throw error;
      // The money moved but the order can no longer take it (cancelled, or paid another way): its
      // entry stays in the ledger with no order, its code taken, for the shop to give back.
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
      nextRecheckAt: null,
    });
    // A receipt that came while it was being settled is put on (or, if it disputes, taken off).
    await this.settleReceipt(push._id);
  }

  /**
   * A second chance after a failed prompt: one SMS (once per order, whatever fails next) with the
   * paybill, the purchase number as account and the amount due. The prompt limits still apply to
   * "Try M-Pesa again".
   */
  private async offerPaybill(push: MpesaPushRecord): Promise<void> {
    const order = await this.orders.findByPurchaseNumber(push.purchaseNumber);
    if (order && !closedReason(order)) await this.sms.notifyOrder(order, 'paybill');
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
