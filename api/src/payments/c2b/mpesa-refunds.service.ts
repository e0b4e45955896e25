import { randomUUID } from 'node:crypto';
import { ConflictException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { formatMoney } from '@spc/shared-contracts';
import { AuditService } from '../../audit/audit.service';
import { isDuplicateKeyError } from '../../common/mongo-errors';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { MpesaConfig } from '../../config/mpesa-config';
import { maskPhone } from '../../common/personal-data';
import { MoneyLedgerService } from '../../money/money-ledger.service';
import { OrderRefund } from '../../orders/schemas/order-refund.schema';
import { DarajaClient, DarajaError } from '../daraja.client';
import { MPESA_ACTOR } from '../mpesa.service';
import { C2bPayment, MpesaRefund } from './c2b.schemas';
import type { DarajaResult } from './daraja-messages';

/** A refund claimed for sending this long ago without Daraja's answer is sent again. */
/** How often (every 250 ms) a result naming no known refund looks again while one is being sent. */
const RESULT_WAIT_TRIES = 20;
const STALE_SENDING_MS = 60_000;

export type NewRefund = Pick<
  MpesaRefund,
  '_id' | 'method' | 'amount' | 'orderId' | 'purchaseNumber' | 'originalTransId' | 'phone'
>;

/**
 * Refunds sent through Daraja: a Reversal of the payment when one M-Pesa transaction paid exactly
 * the amount, else B2C to the payer. Each refund is one document keyed by what it refunds, so it is
 * asked for once; sending is an atomic claim on it (`queued`/`failed` → `sending`), so two clerks
 * or instances never send it twice; a B2C request carries our own OriginatorConversationID, reused
 * when an unanswered request is sent again, so Daraja refuses a duplicate. Only a result callback
 * that says it failed lets it be sent again.
 */
@Injectable()
export class MpesaRefundsService {
  private readonly logger = new Logger(MpesaRefundsService.name);
  private readonly settings: MpesaConfig | null;

  constructor(
    @InjectModel(MpesaRefund.name) private readonly refunds: Model<MpesaRefund>,
    @InjectModel(C2bPayment.name) private readonly paybill: Model<C2bPayment>,
    @InjectModel(OrderRefund.name) private readonly orderRefunds: Model<OrderRefund>,
    private readonly daraja: DarajaClient,
    private readonly ledger: MoneyLedgerService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = config.mpesa;
  }

  /** Records a refund to send (once per `_id`) and sends it; answers it as it stands. */
  async request(actor: Actor, refund: NewRefund): Promise<MpesaRefund> {
    try {
      await this.refunds.create({
        ...refund,
        status: 'queued',
        attempts: 0,
        requestedByName: actor.fullName,
      });
      await this.audit.record(
        actor,
        'payment.mpesa.refund.requested',
        `${actor.fullName} asked for a refund of ${formatMoney(refund.amount)} by M-Pesa ${refund.method === 'reversal' ? `reversal of ${refund.originalTransId}` : `B2C to ${maskPhone(refund.phone)}`}${refund.purchaseNumber ? ` for order ${refund.purchaseNumber}` : ''}`,
        this.target(refund),
      );
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    await this.send(refund._id);
    return (await this.refunds.findById(refund._id).lean<MpesaRefund>())!;
  }

  /** A failed refund sent again by staff; 409 unless it failed. */
  async retry(actor: Actor, id: string): Promise<MpesaRefund> {
    const refund = await this.refunds.findById(id).lean<MpesaRefund>();
    if (!refund) throw new NotFoundException('No M-Pesa refund with this id');
    // Claimed back to `queued` from `failed` once: of two retries at once, one sends it.
    const claimed = await this.refunds.updateOne(
      { _id: id, status: 'failed', attempts: refund.attempts },
      { $set: { status: 'queued' } },
    );
    if (claimed.modifiedCount !== 1) {
      const now = await this.refunds.findById(id).lean<MpesaRefund>();
      throw new ConflictException(
        now?.status === 'sent'
          ? 'This refund was sent already'
          : 'This refund is being sent: wait for M-Pesa’s answer',
      );
    }
    await this.audit.record(
      actor,
      'payment.mpesa.refund.retried',
      `${actor.fullName} sent the failed M-Pesa refund of ${formatMoney(refund.amount)} again`,
      this.target(refund),
    );
    await this.send(id);
    return (await this.refunds.findById(id).lean<MpesaRefund>())!;
  }

  /** The M-Pesa refunds of an order (or of the paybill payments credited to it). */
  forOrder(orderId: string): Promise<MpesaRefund[]> {
    return this.refunds.find({ orderId }).sort({ createdAt: 1 }).lean<MpesaRefund[]>();
  }

  /**
   * Sends a refund once: claims it (only from queued, or a send that got no answer), then
   * asks Daraja. Daraja refusing outright fails it; no answer leaves it claimed for a later resend.
   */
  async send(id: string): Promise<void> {
    const s = this.settings;
    const current = await this.refunds.findById(id).lean<MpesaRefund>();
    if (!s || !current) return;
    const stale = new Date(Date.now() - STALE_SENDING_MS);
    const resend = current.status === 'sending' && current.claimedAt && current.claimedAt < stale;
    // Never from `failed`: a failed refund goes again only when a clerk retries it (which puts it
    // back to `queued`); the sweep asking again for a payback whose refund had just failed (its
    // ledger entry not yet marked sent) would otherwise send it without anyone deciding to.
    if (current.status !== 'queued' && !resend) return;
    const originator =
      resend && current.originatorConversationId ? current.originatorConversationId : randomUUID();
    const claimed = await this.refunds
      .findOneAndUpdate(
        { _id: id, status: current.status, attempts: current.attempts },
        {
          $set: {
            status: 'sending',
            claimedAt: new Date(),
            originatorConversationId: originator,
            resultCode: null,
            resultDesc: '',
          },
          $inc: { attempts: resend ? 0 : 1 },
        },
        { new: true },
      )
      .lean<MpesaRefund>();
    if (!claimed) return;
    const remarks = `Refund ${claimed.purchaseNumber ?? claimed.originalTransId ?? ''}`.slice(
      0,
      100,
    );
    let ack: { originatorConversationId: string; conversationId: string };
    try {
      ack =
        claimed.method === 'reversal'
          ? await this.daraja.resultRequest('reversal', {
              CommandID: 'TransactionReversal',
              TransactionID: claimed.originalTransId,
              Amount: claimed.amount,
              ReceiverParty: s.shortcode,
              RecieverIdentifierType: '11',
              Remarks: remarks,
              Occasion: claimed.purchaseNumber ?? '',
            })
          : await this.daraja.resultRequest('b2c', {
              OriginatorConversationID: originator,
              CommandID: 'BusinessPayment',
              Amount: claimed.amount,
              PartyA: s.shortcode,
              PartyB: claimed.phone,
              Remarks: remarks,
              Occasion: claimed.purchaseNumber ?? '',
            });
    } catch (error) {
      const refused = error instanceof DarajaError && error.status >= 400 && error.status < 500;
      // Daraja already holds this B2C request (same OriginatorConversationID): await its result.
      if (error instanceof DarajaError && error.status === 409) {
        await this.refunds.updateOne(
          { _id: id, status: 'sending', originatorConversationId: originator },
          { $set: { status: 'pending' } },
        );
        return;
      }
      this.logger.warn(`M-Pesa refund ${id} not sent: ${(error as Error).message}`);
      if (refused)
        await this.finish(claimed, {
          success: false,
          resultCode: (error as DarajaError).errorCode ?? String((error as DarajaError).status),
          resultDesc: (error as Error).message,
          transactionId: '',
          from: 'sending',
        });
      return;
    }
    await this.refunds.updateOne(
      { _id: id, status: 'sending', originatorConversationId: originator },
      {
        $set: {
          status: 'pending',
          // A reversal's ids are Daraja's; a B2C payment keeps ours.
          originatorConversationId: ack.originatorConversationId || originator,
          conversationId: ack.conversationId || null,
        },
      },
    );
  }

  /** Daraja's result for a reversal or B2C payment: sent or failed, once. */
  async onResult(result: DarajaResult, quietIfUnknown = false): Promise<void> {
    const ids = [result.originatorConversationId, result.conversationId].filter(Boolean);
    const find = () =>
      this.refunds
        .findOne({
          $or: [{ originatorConversationId: { $in: ids } }, { conversationId: { $in: ids } }],
        })
        .lean<MpesaRefund>();
    let refund = await find();
    // A reversal is known by Daraja's ids only once its answer is written: a result that comes
    // back before (a busy database) waits for it a few seconds, or the refund would stay pending.
    for (let i = 0; !refund && i < RESULT_WAIT_TRIES && (await this.anySending()); i++) {
      await new Promise((r) => setTimeout(r, 250));
      refund = await find();
    }
    if (!refund) {
      if (quietIfUnknown) return;
      await this.audit.record(
        MPESA_ACTOR,
        'payment.mpesa.unknown',
        `An M-Pesa result named a refund the shop never asked for (${ids.join(', ').slice(0, 120)}); ignored`,
      );
      return;
    }
    await this.finish(refund, {
      success: result.success,
      resultCode: result.resultCode,
      resultDesc: result.resultDesc,
      transactionId: result.transactionId,
      from: 'pending',
    });
  }

  /** Whether a request is on its way to Daraja (its answer, with Daraja's ids, not yet written). */
  private async anySending(): Promise<boolean> {
    return !!(await this.refunds.exists({ status: 'sending' }));
  }

  /**
   * A queue timeout: Daraja did not process the request, so a refund may be sent again (a status
   * query's timeout is the C2B sweep's: it asks again).
   */
  async onTimeout(result: DarajaResult): Promise<void> {
    await this.onResult(
      { ...result, success: false, resultDesc: 'Timed out in M-Pesa’s queue' },
      true,
    );
  }

  /**
   * Paybacks the money ledger recorded to send by M-Pesa that have no transfer yet (a cancelled
   * order's refund, a released or refunded booking's), and sends still unanswered.
   */
  async sweep(): Promise<void> {
    for (const out of await this.ledger.toSend()) {
      const of = out.of ? await this.ledger.findById(out.of) : null;
      if (!of || (out.kind !== 'reversal' && out.kind !== 'b2c')) continue;
      await this.request(
        { id: out.byId || 'refund', role: 'system', fullName: out.byName || 'The shop' },
        {
          _id: out._id,
          method: out.kind,
          amount: out.amount,
          orderId: out.orderId,
          purchaseNumber: out.purchaseNumber,
          originalTransId: of.code ?? of.reference,
          // B2C only ever to the number that paid.
          phone: out.kind === 'b2c' ? (out.payer ?? '') : '',
        },
      );
      await this.ledger.update(out._id, { transfer: null }, { transfer: out._id });
    }
    const due = await this.refunds
      .find({
        $or: [
          { status: 'queued' },
          { status: 'sending', claimedAt: { $lt: new Date(Date.now() - STALE_SENDING_MS) } },
        ],
      })
      .limit(20)
      .lean<MpesaRefund[]>();
    for (const r of due) await this.send(r._id);
    await this.forgetLeftPayers();
  }

  /**
   * A crash between a refund recorded `sent` and its erased payer forgotten (`finish`) leaves the
   * number on the transfer, the paybill payment it gave back or the ledger: forgotten here, on the
   * next sweep of any instance. Only for transfers sent: one still to go keeps its number.
   */
  private async forgetLeftPayers(): Promise<void> {
    const left = await this.refunds
      .find({ status: 'sent', forgetPhone: true })
      .select({ _id: 1, originalTransId: 1 })
      .limit(100)
      .lean<MpesaRefund[]>();
    const payments = await this.paybill
      .find({ forgetPayer: true, status: { $ne: 'inbox' }, refundId: { $ne: null } })
      .select({ refundId: 1 })
      .limit(100)
      .lean<{ refundId: string }[]>();
    const given = payments.length
      ? await this.refunds
          .find({ _id: { $in: payments.map((p) => p.refundId) }, status: 'sent' })
          .select({ _id: 1, originalTransId: 1 })
          .lean<MpesaRefund[]>()
      : [];
    for (const refund of [...left, ...given]) await this.forgetErasedPayer(refund);
    await this.ledger.forgetSettledPayers();
  }

  private async finish(
    refund: MpesaRefund,
    r: {
      success: boolean;
      resultCode: string;
      resultDesc: string;
      transactionId: string;
      from: 'sending' | 'pending';
    },
  ): Promise<void> {
    const done = await this.refunds.updateOne(
      {
        _id: refund._id,
        status: r.from,
        originatorConversationId: refund.originatorConversationId,
      },
      {
        $set: {
          status: r.success ? 'sent' : 'failed',
          resultCode: r.resultCode,
          resultDesc: r.resultDesc,
          transactionId: r.success ? r.transactionId || null : null,
        },
      },
    );
    if (done.modifiedCount !== 1) return;
    if (r.success && r.transactionId)
      await this.ledger.update(refund._id, { direction: 'out' }, { reference: r.transactionId });
    if (r.success) await this.forgetErasedPayer(refund);
    if (r.success && refund.orderId)
      await this.orderRefunds.updateOne(
        { orderId: refund.orderId, sendByMpesa: true, reference: '' },
        { $set: { reference: r.transactionId || (refund.originatorConversationId ?? '') } },
      );
    await this.audit.record(
      MPESA_ACTOR,
      r.success ? 'payment.mpesa.refund.sent' : 'payment.mpesa.refund.failed',
      r.success
        ? `M-Pesa sent the refund of ${formatMoney(refund.amount)}${refund.purchaseNumber ? ` for order ${refund.purchaseNumber}` : ''} (${refund.method}${r.transactionId ? `, ${r.transactionId}` : ''})`
        : `The M-Pesa refund of ${formatMoney(refund.amount)}${refund.purchaseNumber ? ` for order ${refund.purchaseNumber}` : ''} failed: ${r.resultDesc || r.resultCode}; it can be sent again`,
      this.target(refund),
    );
  }

  /**
   * A payer erased while their money was still to go back kept their number for it (issue 39):
   * once it is sent, the number goes from this transfer, from the paybill payment it gave back and
   * from the ledger's entries.
   */
  private async forgetErasedPayer(refund: Pick<MpesaRefund, '_id' | 'originalTransId'>) {
    const paybill = refund.originalTransId
      ? await this.paybill.findOneAndUpdate(
          { _id: refund.originalTransId, forgetPayer: true, status: { $ne: 'inbox' } },
          { $set: { phone: '', payerName: '', account: '' }, $unset: { forgetPayer: '' } },
        )
      : null;
    await this.refunds.updateOne(
      paybill ? { _id: refund._id } : { _id: refund._id, forgetPhone: true },
      { $set: { phone: '' }, $unset: { forgetPhone: '' } },
    );
    await this.ledger.forgetSettledPayers();
  }

  private target(refund: Pick<MpesaRefund, 'orderId' | 'purchaseNumber' | '_id'>) {
    return refund.orderId
      ? { type: 'order', id: refund.orderId, label: refund.purchaseNumber ?? refund._id }
      : { type: 'mpesa-refund', id: refund._id, label: refund._id };
  }
}
