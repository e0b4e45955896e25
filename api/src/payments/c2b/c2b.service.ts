import { ConflictException, HttpException, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { formatMoney, invoiceNumberOf, toMpesaPhone } from '@spc/shared-contracts';
import { AuditService } from '../../audit/audit.service';
import { canonicalPhone } from '../../common/identifiers';
import { maskContacts } from '../../common/personal-data';
import { isDuplicateKeyError } from '../../common/mongo-errors';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { MpesaConfig } from '../../config/mpesa-config';
import { InvoiceSettlements } from '../../invoices/invoice-settlements';
import type { InvoiceRecord } from '../../invoices/invoice-settlements.repository';
import type { MoneyEntryRecord } from '../../money/money-ledger.repository';
import { badAmount, MoneyLedgerService, MPESA_CEILING_KES } from '../../money/money-ledger.service';
import { closedReason, gateSaleReason, OrderCredits } from '../../orders/order-credits';
import type { OrderRecord } from '../../orders/order.types';
import { OrdersService } from '../../orders/orders.service';
import { DarajaClient } from '../daraja.client';
import { MPESA_ACTOR } from '../mpesa.service';
import { C2bPayment } from './c2b.schemas';
import type { C2bNotice, DarajaResult } from './daraja-messages';

/** Daraja's answers to a validation request. */
export const C2B_ACCEPT = { ResultCode: '0', ResultDesc: 'Accepted' } as const;
export const C2B_REJECT_ACCOUNT = { ResultCode: 'C2B00012', ResultDesc: 'Rejected' } as const;

/** A payment still unconfirmed after this many status queries goes to the inbox. */
const MAX_QUERIES = 4;
/** A payment left `matching` this long (a crash) is matched again (crediting is idempotent). */
const STALE_MATCHING_MS = 60_000;

/** An account number as a purchase number: no blanks, upper case. */
export const accountKey = (account: string) => account.replace(/[\s\p{C}]/gu, '').toUpperCase();

/**
 * Paybill (Daraja C2B) payments: validation, the confirmation recorded once per TransID, the check
 * with Daraja's transaction status query, and matching to an order: by the account number as a
 * purchase number, else by the payer's phone when exactly one open order has it. What matches
 * nothing, several orders or a closed order waits in the inbox for staff (c2b-inbox.service.ts),
 * who assign it to an order or have it refunded.
 */
@Injectable()
export class C2bService {
  private readonly logger = new Logger(C2bService.name);
  private readonly settings: MpesaConfig | null;

  constructor(
    @InjectModel(C2bPayment.name) private readonly payments: Model<C2bPayment>,
    private readonly daraja: DarajaClient,
    private readonly orders: OrdersService,
    private readonly credits: OrderCredits,
    private readonly ledger: MoneyLedgerService,
    private readonly audit: AuditService,
    private readonly invoices: InvoiceSettlements,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = config.mpesa;
  }

  /**
   * Validation: an open order's purchase number, an open invoice's number (issue 44, as
   * `invoiceNumberOf` reads it), or (MPESA_C2B_ANY_ACCOUNT) any account. A settled invoice's
   * number is refused as an unknown account is.
   */
  async validate(notice: C2bNotice | null) {
    if (!notice) return C2B_REJECT_ACCOUNT;
    if (this.settings?.c2b.anyAccount) return C2B_ACCEPT;
    const invoice = invoiceNumberOf(notice.account);
    if (invoice) {
      const inv = await this.invoices.findByNumber(invoice);
      return inv?.state === 'Open' ? C2B_ACCEPT : C2B_REJECT_ACCOUNT;
    }
    const order = await this.orders.findByPurchaseNumber(accountKey(notice.account));
    return order && !closedReason(order) && !gateSaleReason(order)
      ? C2B_ACCEPT
      : C2B_REJECT_ACCOUNT;
  }

  /**
   * A confirmation: recorded once (its TransID is the document's id: a replay changes nothing but
   * a counter), then confirmed with Daraja's status query (MPESA_C2B_VERIFY) or matched at once.
   */
  async confirm(notice: C2bNotice): Promise<void> {
    try {
      await this.payments.create({
        _id: notice.transId,
        amount: notice.amount,
        account: notice.account,
        phone: notice.phone,
        payerName: notice.payerName,
        paidAt: notice.paidAt,
        shortcode: notice.shortcode,
        status: this.settings?.c2b.verify ? 'verifying' : 'matching',
        confirmations: 1,
      });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      await this.payments.updateOne({ _id: notice.transId }, { $inc: { confirmations: 1 } });
      return;
    }
    // The money ledger's entry: one per code, whichever way the money came. An amount that is not
    // whole shillings within bounds, or a code already on an entry, waits in the inbox with why.
    const held = await this.entryOf(notice.transId);
    if (typeof held === 'string') {
      await this.toInbox(
        (await this.payments.findById(notice.transId).lean<C2bPayment>())!,
        held,
        this.settings?.c2b.verify ? 'verifying' : 'matching',
      );
      return;
    }
    if (this.settings?.c2b.verify) await this.query(notice.transId);
    else await this.match(notice.transId);
  }

  /**
   * The ledger entry of a paybill payment (written once, open in the inbox until credited), or why
   * it has none: an amount that is not whole shillings within bounds, or a code already recorded.
   */
  private async entryOf(transId: string): Promise<MoneyEntryRecord | string> {
    const p = await this.payments.findById(transId).lean<C2bPayment>();
    if (!p) return 'No such paybill payment';
    const bad = badAmount(p.amount, MPESA_CEILING_KES);
    if (bad) return `${bad}: it is not credited to any order; give it back by hand`;
    const written = await this.ledger.recordIn(MPESA_ACTOR, {
      _id: MoneyLedgerService.inId('paybill', p._id),
      kind: 'paybill',
      code: p._id,
      amount: p.amount,
      orderId: null,
      purchaseNumber: null,
      payer: toMpesaPhone(p.phone) ?? null,
      state: 'open',
      at: new Date(p.paidAt),
      // Checked already when the status query moved it on (its entry written after a crash).
      ...(this.settings?.c2b.verify
        ? p.status === 'matching' || p.status === 'matched'
          ? { verified: true }
          : { unconfirmed: true }
        : {}),
    });
    if (written.state === 'code-taken')
      return `M-Pesa code ${p._id} is already recorded ${written.entry.purchaseNumber ? `for order ${written.entry.purchaseNumber}` : 'for another payment'}; this confirmation counts for nothing`;
    return written.entry;
  }

  /** The status query's result: the payment counts only if M-Pesa knows it, completed, for this amount. */
  async onStatusResult(result: DarajaResult): Promise<void> {
    const ids = [result.conversationId, result.originatorConversationId].filter(Boolean);
    const payment = await this.payments
      .findOne({ queryConversationId: { $in: ids }, status: 'verifying' })
      .lean<C2bPayment>();
    if (!payment) return;
    const p = result.parameters;
    const confirmed =
      result.success &&
      String(p.get('ReceiptNo') ?? '').toUpperCase() === payment._id &&
      Number(p.get('Amount')) === payment.amount &&
      String(p.get('TransactionStatus') ?? '') === 'Completed';
    if (!confirmed) {
      await this.toInbox(
        payment,
        `M-Pesa did not confirm this payment: ${result.resultDesc || 'other details'}`,
        'verifying',
      );
      await this.audit.record(
        MPESA_ACTOR,
        'payment.mpesa.c2b.unconfirmed',
        `A paybill confirmation ${payment._id} of ${formatMoney(payment.amount)} was not confirmed by M-Pesa's status query (${result.resultDesc || result.resultCode}); it waits in the payments inbox and nothing was credited`,
      );
      return;
    }
    // The status query names the payer's number where the confirmation may carry it masked.
    const debit = /^(254\d{9})\b/.exec(String(p.get('DebitPartyName') ?? ''))?.[1];
    await this.ledger.update(
      MoneyLedgerService.inId('paybill', payment._id),
      { state: 'open' },
      { unconfirmed: false, verified: true, ...(debit ? { payer: debit } : {}) },
    );
    // A prompt's payment the shop got without its receipt, from this payer, of this amount: this
    // code may be its receipt (replayed as a paybill confirmation). Staff check the statement.
    const payer = debit ?? toMpesaPhone(payment.phone) ?? undefined;
    const twin = payer
      ? await this.ledger.receiptlessTwin(payment.amount, new Date(payment.paidAt), payer)
      : null;
    if (twin) {
      await this.payments.updateOne(
        { _id: payment._id, status: 'verifying' },
        { $set: { ...(debit ? { phone: debit } : {}) } },
      );
      await this.toInbox(
        payment,
        `This may be the M-Pesa Express payment of ${formatMoney(payment.amount)} for order ${twin.purchaseNumber ?? twin.meantFor ?? '(none)'} (prompt ${twin.reference}), whose receipt the shop never received: check the M-Pesa statement before assigning it`,
        'verifying',
      );
      return;
    }
    const moved = await this.payments.updateOne(
      { _id: payment._id, status: 'verifying' },
      { $set: { status: 'matching', ...(debit ? { phone: debit } : {}) } },
    );
    if (moved.modifiedCount === 1) await this.match(payment._id);
  }

  /** Credits a `matching` payment to its order, or puts it in the inbox. */
  async match(transId: string): Promise<void> {
    const payment = await this.payments.findById(transId).lean<C2bPayment>();
    if (!payment || payment.status !== 'matching') return;
    const key = accountKey(payment.account);
    // Credited before a crash kept this record from saying so: it is that order's (never the inbox's).
    const held = await this.ledger.findById(MoneyLedgerService.inId('paybill', transId));
    const creditedTo =
      held?.state === 'credited' && held.orderId
        ? await this.orders.findAnyOrder(held.orderId)
        : null;
    if (creditedTo) {
      const how = creditedTo.purchaseNumber === key ? 'account' : 'phone';
      return this.apply(MPESA_ACTOR, payment, creditedTo, how, 'matching');
    }
    // Credited to an invoice before a crash kept this record from saying so: finish it there.
    const invoiceOf = held?.state === 'credited' && held.invoiceId;
    const inv = invoiceOf ? await this.invoices.findById(invoiceOf) : null;
    if (inv) return this.applyToInvoice(payment, inv);
    // An invoice's number (issue 44): an open invoice takes it; a settled or unknown one does not,
    // and the payment waits in the inbox (no guess by the payer's phone for an invoice's money).
    const invoiceNumber = invoiceNumberOf(payment.account);
    if (invoiceNumber) {
      const named = await this.invoices.findByNumber(invoiceNumber);
      if (named?.state === 'Open') return this.applyToInvoice(payment, named);
      return this.toInbox(
        payment,
        named
          ? `The account names invoice ${invoiceNumber}, which is settled (${named.state.toLowerCase()})`
          : `No invoice has the number ${invoiceNumber}`,
        'matching',
      );
    }
    const byAccount = key ? await this.orders.findByPurchaseNumber(key) : null;
    if (byAccount) {
      const closed = gateSaleReason(byAccount) ?? closedReason(byAccount);
      if (closed) return this.toInbox(payment, `The account names ${closed}`, 'matching');
      return this.apply(MPESA_ACTOR, payment, byAccount, 'account', 'matching');
    }
    const phone = toMpesaPhone(payment.phone);
    const candidates = phone ? await this.credits.openOrdersOfPhone(canonicalPhone(phone), 2) : [];
    const unknown = key
      ? `No open order has the account number "${maskContacts(payment.account.slice(0, 40))}"`
      : 'No account number';
    if (candidates.length === 1)
      return this.apply(MPESA_ACTOR, payment, candidates[0]!, 'phone', 'matching');
    return this.toInbox(
      payment,
      candidates.length > 1
        ? `${unknown}, and the payer's phone has several open orders`
        : `${unknown}, and no open order has the payer's phone`,
      'matching',
    );
  }

  /** Paybill payments credited to an order. */
  forOrder(orderId: string): Promise<C2bPayment[]> {
    return this.payments.find({ orderId }).sort({ createdAt: 1 }).lean<C2bPayment[]>();
  }

  /** Payments whose status query got no answer are asked about again; crashed matches finished. */
  async sweep(): Promise<void> {
    if (!this.settings) return;
    const before = new Date(Date.now() - this.settings.reconcileAfterMs);
    const unanswered = await this.payments
      .find({
        status: 'verifying',
        $or: [{ lastQueriedAt: null }, { lastQueriedAt: { $lt: before } }],
      })
      .limit(20)
      .lean<C2bPayment[]>();
    for (const p of unanswered) {
      if (p.queries >= MAX_QUERIES)
        await this.toInbox(p, 'M-Pesa did not confirm this payment in time', 'verifying');
      else await this.query(p._id);
    }
    const stuck = await this.payments
      .find({ status: 'matching', updatedAt: { $lt: new Date(Date.now() - STALE_MATCHING_MS) } })
      .limit(20)
      .lean<C2bPayment[]>();
    for (const p of stuck) await this.match(p._id);
  }

  /** Asks Daraja's transaction status query about a paybill payment (its answer: onStatusResult). */
  async query(transId: string): Promise<void> {
    const s = this.settings!;
    await this.payments.updateOne(
      { _id: transId },
      { $set: { lastQueriedAt: new Date() }, $inc: { queries: 1 } },
    );
    try {
      const ack = await this.daraja.resultRequest('status', {
        CommandID: 'TransactionStatusQuery',
        TransactionID: transId,
        PartyA: s.shortcode,
        IdentifierType: '4',
        Remarks: 'Paybill payment check',
        Occasion: '',
      });
      await this.payments.updateOne(
        { _id: transId, status: 'verifying' },
        { $set: { queryConversationId: ack.conversationId || ack.originatorConversationId } },
      );
    } catch (error) {
      this.logger.warn(`M-Pesa status query for ${transId} failed: ${(error as Error).message}`);
    }
  }

  /**
   * Credits a payment to an order through the money ledger, and marks it matched; a refusal sends it
   * to the inbox (or, `rethrow`, to the clerk who assigned it).
   */
  async apply(
    actor: Actor,
    payment: C2bPayment,
    order: OrderRecord,
    how: 'account' | 'phone' | 'staff',
    from: 'matching',
    rethrow = false,
  ): Promise<void> {
    let result;
    try {
      const held = await this.entryOf(payment._id);
      if (typeof held === 'string') throw new ConflictException(held);
      const entry = await this.ledger.claim(
        held._id,
        { orderId: order._id, purchaseNumber: order.purchaseNumber },
        actor,
      );
      if (!entry) {
        const now = await this.ledger.findById(held._id);
        if (now?.state !== 'credited' || now.orderId !== order._id)
          throw new ConflictException(
            now?.unconfirmed
              ? 'M-Pesa did not confirm this payment: check it again'
              : `This payment is already credited${now?.purchaseNumber ? ` to order ${now.purchaseNumber}` : ''}`,
          );
        result = { state: 'already' as const };
      } else {
        result = await this.credits.credit(actor, order, entry, {
          how: {
            account: 'by its account number',
            phone: "by the payer's phone",
            staff: 'assigned',
          }[how],
          timePaid: new Date(payment.paidAt),
        });
      }
    } catch (error) {
      if (rethrow || !(error instanceof HttpException) || error.getStatus() >= 500) throw error;
      return this.toInbox(payment, error.message, from);
    }
    await this.payments.updateOne(
      { _id: payment._id, status: from },
      {
        $set: {
          status: 'matched',
          reason: '',
          orderId: order._id,
          purchaseNumber: order.purchaseNumber,
          matchedBy: how,
          ...(result.state === 'already'
            ? {}
            : { excess: result.state === 'paid' ? result.excess : 0 }),
        },
      },
    );
  }

  /**
   * Credits a payment to the invoice its account names (issue 44): its ledger entry credited to the
   * invoice and counted there (above the balance, the rest is an excess), then marked matched; a
   * refusal sends it to the inbox.
   */
  private async applyToInvoice(payment: C2bPayment, inv: InvoiceRecord): Promise<void> {
    let excess = 0;
    try {
      const held = await this.entryOf(payment._id);
      if (typeof held === 'string') throw new ConflictException(held);
      const settled = await this.invoices.creditPaybill(MPESA_ACTOR, held, inv);
      excess = settled.settlement.excess;
    } catch (error) {
      if (!(error instanceof HttpException) || error.getStatus() >= 500) throw error;
      return this.toInbox(payment, error.message, 'matching');
    }
    await this.payments.updateOne(
      { _id: payment._id, status: 'matching' },
      {
        $set: {
          status: 'matched',
          reason: '',
          orderId: null,
          purchaseNumber: inv.number,
          invoiceId: inv._id.toString(),
          matchedBy: 'account',
          excess,
        },
      },
    );
  }

  private async toInbox(payment: C2bPayment, reason: string, from: string): Promise<void> {
    const moved = await this.payments.updateOne(
      { _id: payment._id, status: from },
      { $set: { status: 'inbox', reason } },
    );
    if (moved.modifiedCount === 1)
      await this.audit.record(
        MPESA_ACTOR,
        'payment.mpesa.c2b.inbox',
        `Paybill payment ${payment._id} of ${formatMoney(payment.amount)} (account "${maskContacts(payment.account.slice(0, 40))}") waits in the payments inbox: ${reason}`,
      );
  }
}
