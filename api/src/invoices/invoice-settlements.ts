import {
  BadRequestException,
  ConflictException,
  HttpException,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { Types } from 'mongoose';
import {
  CREDIT_NOTE_REASON_LABELS,
  formatMoney,
  INVOICE_MESSAGES,
  INVOICE_PAYMENT_KIND_LABELS,
  type CreditNoteReason,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { DomainEvents, type DomainEvent } from '../common/events/domain-events';
import type { Actor } from '../common/principal';
import { Scheduler } from '../common/scheduler/scheduler';
import { shopDay } from '../common/shop-clock';
import type { MoneyEntryRecord } from '../money/money-ledger.repository';
import { badAmount, MoneyLedgerService } from '../money/money-ledger.service';
import { CreditLimitUseRepository } from '../orders/credit-limit-use.repository';
import { OrdersService } from '../orders/orders.service';
import { SHOP_ACTOR } from '../orders/shop-actor';
import { lineStandings } from '../tranches/tranche-record';
import { INVOICES_SETTLED } from './invoice-settlements-order';
import type { InvoiceSettlement } from './schemas/invoice.schema';
import {
  InvoiceSettlementsRepository,
  type InvoiceRecord,
  type Settled,
} from './invoice-settlements.repository';

/** An entry written this long ago and not yet counted by its invoice is a crash's, not in flight. */
export const SETTLE_STALE_MS = 60_000;

/**
 * A bank reference or certificate number as its code's key: upper case, no blanks, no dashes (a
 * bank prints FT-24123 where a clerk types FT 24123 or FT24123: one transfer, one key).
 */
export const referenceKey = (typed: string) => typed.replace(/[\s\p{C}\p{Pd}]/gu, '').toUpperCase();

export interface BankPaymentInput {
  amount: number;
  reference: string;
  paidOn: string;
  excess?: boolean;
}

export interface WithholdingInput {
  amount: number;
  certificate: string;
}

/** A credit note was given on an invoice (its audit entry is written by the settlement itself). */
export interface CreditNoteEvent extends DomainEvent {
  invoiceId: string;
  creditNote: InvoiceSettlement;
}

declare module '../common/events/domain-events' {
  interface DomainEventMap {
    'invoice.creditNoted': CreditNoteEvent;
  }
}

export interface CreditNoteInput {
  reason: CreditNoteReason;
  amount: number;
  note: string;
}

const kes = (n: number) => formatMoney(n);

/**
 * Money against invoices (issue 44, docs/invoices.md): bank transfers and tax withheld a clerk
 * records, paybill payments whose account is an invoice number, and credit notes. A payment is a
 * money-ledger entry first (its code unique: `BANK:<organisationId>:<REFERENCE>`,
 * `WHT:<organisationId>:<CERTIFICATE>`, the M-Pesa code), credited to the invoice (`invoiceId`),
 * then counted by the invoice in one conditional write on its `rev` (`settle`); the entry's `split`
 * says it was counted. A crash between the two is finished by the request's replay (after
 * `SETTLE_STALE_MS`) and by the sweep. Each settlement takes its amount off the order's
 * credit-limit claim (once per settlement id) and an order whose invoices all settle is Paid.
 */
@Injectable()
export class InvoiceSettlements implements OnModuleInit {
  private readonly logger = new Logger(InvoiceSettlements.name);

  constructor(
    private readonly invoices: InvoiceSettlementsRepository,
    private readonly ledger: MoneyLedgerService,
    private readonly creditUse: CreditLimitUseRepository,
    private readonly orders: OrdersService,
    private readonly audit: AuditService,
    private readonly scheduler: Scheduler,
    private readonly events: DomainEvents,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'invoices.settlements',
      everyMs: 30_000,
      runsOn: 'one',
      atStart: true,
      run: (now) => this.sweep(now),
    });
  }

  findById(id: string): Promise<InvoiceRecord | null> {
    return this.invoices.findById(id);
  }

  /** The invoice of a number (INV-000042), numbered ones only. */
  findByNumber(number: string): Promise<InvoiceRecord | null> {
    return this.invoices.findByNumber(number);
  }

  /** A bank transfer a clerk records against an invoice (its reference once per organisation). */
  async recordBank(actor: Actor, invoiceId: string, input: BankPaymentInput): Promise<Settled> {
    const inv = await this.invoices.mustFind(invoiceId);
    const bad = badAmount(input.amount);
    if (bad)
      throw new BadRequestException({ message: INVOICE_MESSAGES.amountWhole, code: 'BAD_REQUEST' });
    const reference = input.reference.trim();
    const key = referenceKey(reference);
    if (!key) throw new BadRequestException(INVOICE_MESSAGES.referenceRequired);
    const at = paidOnInstant(input.paidOn);
    if (inv.balance === 0 && !input.excess)
      throw new ConflictException({ message: INVOICE_MESSAGES.settled, code: 'CONFLICT' });
    if (input.amount > inv.balance && !input.excess)
      throw new ConflictException({
        message: INVOICE_MESSAGES.aboveBalance(kes(inv.balance)),
        code: 'ABOVE_BALANCE',
      });
    const code = `BANK:${inv.organisationId}:${key}`;
    return this.recordEntry(actor, inv, {
      kind: 'bank',
      code,
      amount: input.amount,
      reference,
      at,
      allowExcess: input.excess === true,
      used: (number) => INVOICE_MESSAGES.referenceUsed(reference, number),
    });
  }

  /** Tax a public body withheld, by its certificate (once per organisation), never above the balance. */
  async recordWithholding(
    actor: Actor,
    invoiceId: string,
    input: WithholdingInput,
  ): Promise<Settled> {
    const inv = await this.invoices.mustFind(invoiceId);
    const bad = badAmount(input.amount);
    if (bad)
      throw new BadRequestException({ message: INVOICE_MESSAGES.amountWhole, code: 'BAD_REQUEST' });
    const certificate = input.certificate.trim();
    const key = referenceKey(certificate);
    if (!key) throw new BadRequestException(INVOICE_MESSAGES.certificateRequired);
    if (input.amount > inv.balance)
      throw new ConflictException({
        message: INVOICE_MESSAGES.withholdingAboveBalance(kes(inv.balance)),
        code: 'ABOVE_BALANCE',
      });
    return this.recordEntry(actor, inv, {
      kind: 'withholding',
      code: `WHT:${inv.organisationId}:${key}`,
      amount: input.amount,
      reference: certificate,
      at: new Date(),
      allowExcess: false,
      used: (number) => INVOICE_MESSAGES.certificateUsed(certificate, number),
    });
  }

  /**
   * A credit note (short delivery, return, price correction), never above the invoice's total less
   * the credit notes before it. No shilling moves, so no ledger entry: the note is the settlement.
   * Its number is taken after the checks; a note refused at the write (another came first and left
   * too little) keeps its number unused: the CN- sequence may have gaps, never a duplicate.
   */
  async recordCreditNote(
    actor: Actor,
    invoiceId: string,
    input: CreditNoteInput,
  ): Promise<Settled> {
    const inv = await this.invoices.mustFind(invoiceId);
    if (badAmount(input.amount))
      throw new BadRequestException({ message: INVOICE_MESSAGES.amountWhole, code: 'BAD_REQUEST' });
    const note = input.note.trim();
    if (!note) throw new BadRequestException(INVOICE_MESSAGES.noteRequired);
    const left = inv.total - inv.credited;
    if (input.amount > left)
      throw new ConflictException({
        message: INVOICE_MESSAGES.creditAboveInvoice(kes(left)),
        code: 'ABOVE_INVOICE',
      });
    const number = await this.invoices.nextCreditNoteNumber();
    const settled = await this.invoices.settle(
      inv._id.toString(),
      {
        id: `cn:${new Types.ObjectId().toHexString()}`,
        kind: 'creditNote',
        amount: input.amount,
        reference: number,
        at: new Date(),
        by: actor,
        number,
        reason: input.reason,
        note,
      },
      false,
    );
    await this.followUps(actor, settled);
    if (settled.state === 'new')
      await this.events.emit('invoice.creditNoted', {
        actor,
        invoiceId: settled.invoice._id.toString(),
        creditNote: settled.settlement,
      });
    return settled;
  }

  /**
   * A paybill payment whose account is this invoice's number: its inbox entry credited to the
   * invoice (once: a replayed confirmation finds it credited already), then counted; above the
   * balance, the balance is settled and the rest is the entry's and the invoice's excess. 409 when
   * the entry cannot be credited (the caller sends the payment to the inbox).
   */
  async creditPaybill(actor: Actor, entry: MoneyEntryRecord, inv: InvoiceRecord): Promise<Settled> {
    const invoiceId = inv._id.toString();
    const credited = await this.ledger.creditToInvoice(entry._id, {
      invoiceId,
      number: inv.number!,
    });
    if (!credited)
      throw new ConflictException(
        `This payment cannot be credited to invoice ${inv.number}: it is not in the payments inbox`,
      );
    return this.count(actor, credited, true);
  }

  /** The entries a crash left credited to an invoice and not counted: counted now. */
  async sweep(now = new Date()): Promise<number> {
    let done = 0;
    for (const e of await this.ledger.uncountedForInvoices(
      new Date(now.getTime() - SETTLE_STALE_MS),
    )) {
      try {
        await this.count(SHOP_ACTOR, e, true);
        done++;
      } catch (error) {
        this.logger.error(
          `Entry ${e._id} credited to invoice ${e.invoiceId} could not be counted: ${(error as Error).message}`,
        );
      }
    }
    return done;
  }

  /** Writes the entry once under its code, then counts it on the invoice. */
  private async recordEntry(
    actor: Actor,
    inv: InvoiceRecord,
    e: {
      kind: 'bank' | 'withholding';
      code: string;
      amount: number;
      reference: string;
      at: Date;
      allowExcess: boolean;
      used: (number: string) => string;
    },
  ): Promise<Settled> {
    const invoiceId = inv._id.toString();
    const written = await this.ledger.recordIn(actor, {
      _id: MoneyLedgerService.inId(e.kind, e.code),
      kind: e.kind,
      code: e.code,
      amount: e.amount,
      reference: e.reference,
      orderId: null,
      purchaseNumber: inv.number,
      payer: null,
      state: 'credited',
      at: e.at,
      invoiceId,
    });
    if (written.state !== 'new') {
      const other = written.entry;
      // The same request again after a crash cut it off before the invoice counted it: finish it.
      const leftByCrash =
        other.invoiceId === invoiceId &&
        other.amount === e.amount &&
        other.split == null &&
        Date.now() - new Date(other.createdAt).getTime() >= SETTLE_STALE_MS;
      if (leftByCrash) return this.count(actor, other, true);
      const number = other.invoiceId
        ? ((await this.invoices.findById(other.invoiceId))?.number ?? other.purchaseNumber ?? '')
        : (other.purchaseNumber ?? '');
      throw new ConflictException({
        message: e.used(number || 'another invoice'),
        code: 'REFERENCE_USED',
      });
    }
    try {
      return await this.count(actor, written.entry, e.allowExcess);
    } catch (error) {
      // The invoice refused it (it changed since it was read): the entry it was written for goes.
      if (error instanceof HttpException && error.getStatus() < 500)
        await this.ledger.removeUncounted(written.entry._id, invoiceId);
      throw error;
    }
  }

  /** An entry credited to its invoice counted there (once), its split recorded, the follow-ups. */
  private async count(
    actor: Actor,
    entry: MoneyEntryRecord,
    allowExcess: boolean,
  ): Promise<Settled> {
    const invoiceId = entry.invoiceId!;
    const kind =
      entry.kind === 'withholding' ? 'withholding' : entry.kind === 'bank' ? 'bank' : 'paybill';
    const settled = await this.invoices.settle(
      invoiceId,
      {
        id: entry._id,
        kind,
        amount: entry.amount,
        reference: kind === 'paybill' ? (entry.code ?? '') : entry.reference,
        at: new Date(entry.at),
        by: { id: entry.byId, fullName: entry.byName, role: entry.byRole },
      },
      allowExcess,
    );
    await this.ledger.invoiceCounted(entry._id, invoiceId, {
      deposit: 0,
      balance: settled.settlement.amount,
      excess: settled.settlement.excess,
    });
    await this.followUps(actor, settled);
    return settled;
  }

  /**
   * What follows a settlement (each idempotent, so a replay or the sweep may run them again): the
   * audit entry (only when counted now), the order's credit-limit claim reduced, the order Paid
   * once all its invoices are settled.
   */
  private async followUps(actor: Actor, settled: Settled): Promise<void> {
    const { invoice: inv, settlement: s } = settled;
    if (settled.state === 'new') {
      const action =
        s.kind === 'creditNote'
          ? 'invoice.credit-note'
          : s.kind === 'withholding'
            ? 'invoice.withholding'
            : 'invoice.payment';
      const what =
        s.kind === 'creditNote'
          ? `credit note ${s.number} (${CREDIT_NOTE_REASON_LABELS[s.reason!]}) of ${kes(s.amount)}`
          : `${INVOICE_PAYMENT_KIND_LABELS[s.kind]} ${s.reference} of ${kes(s.amount + s.excess)}${s.excess ? ` (${kes(s.excess)} beyond the balance, kept as an excess)` : ''}`;
      await this.audit.record(
        actor,
        action,
        `${actor.fullName} recorded ${what} on invoice ${inv.number} of ${inv.organisationName}: ${inv.state === 'Open' ? `${kes(inv.balance)} still owed` : inv.state.toLowerCase()}`,
        { type: 'invoice', id: inv._id.toString(), label: inv.number ?? '' },
      );
    }
    try {
      if (s.amount > 0)
        await this.creditUse.reduce(inv.organisationId, inv.orderId, s.id, s.amount);
      if (inv.balance === 0) await this.markOrderPaid(inv);
    } catch (error) {
      // The settlement counts; the order's side is finished by the next settlement or sweep.
      this.logger.error(
        `After ${s.id} on invoice ${inv.number}: the order's side failed: ${(error as Error).message}`,
      );
    }
  }

  /**
   * The order is Paid when it is fully invoiced and every invoice of it is settled: a whole-order
   * invoice, or (per tranche) one invoice per tranche not cancelled, each tranche delivered and
   * nothing of the order left to plan (a part delivered and paid leaves the rest owed).
   */
  private async markOrderPaid(inv: InvoiceRecord): Promise<void> {
    const order = await this.orders.findAnyOrder(inv.orderId);
    if (!order || !order.onAccount || order.paymentStatus !== 'Pending') return;
    if (order.orderStatus === 'Cancelled') return;
    const all = await this.invoices.ofOrder(inv.orderId);
    if (!all.length || all.some((i) => i.balance > 0 || !i.number)) return;
    const keys = new Set(all.map((i) => i.trancheKey));
    if (!keys.has('order')) {
      const doc = await this.invoices.tranchesOf(inv.orderId);
      const live = (doc?.tranches ?? []).filter((t) => t.state !== 'Cancelled');
      if (!live.length) return;
      if (live.some((t) => t.state !== 'Delivered' || !keys.has(`T${t.number}`))) return;
      if (lineStandings(doc!).some((s) => s.toPlan > 0)) return;
    }
    try {
      await this.orders.apply(INVOICES_SETTLED, SHOP_ACTOR, order, {
        numbers: all.map((i) => i.number!),
        total: all.reduce((n, i) => n + i.total, 0),
      });
    } catch (error) {
      // Paid meanwhile by another settlement's follow-up: nothing to do.
      if (!(error instanceof ConflictException)) throw error;
    }
  }
}

/** The instant of a `paidOn` day (noon at the shop), or 400: YYYY-MM-DD, a real day, not after today. */
export function paidOnInstant(paidOn: string, now = new Date()): Date {
  const bad = () => new BadRequestException(INVOICE_MESSAGES.paidOnInvalid);
  if (typeof paidOn !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(paidOn)) throw bad();
  const at = new Date(`${paidOn}T12:00:00+03:00`);
  if (Number.isNaN(at.getTime()) || shopDay(at) !== paidOn) throw bad();
  if (paidOn > shopDay(now)) throw bad();
  return at;
}
