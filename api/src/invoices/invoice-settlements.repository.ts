import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { nextInSequence } from '../common/counters';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { Types, type Connection, type Model } from 'mongoose';
import {
  creditNoteNumber,
  INVOICE_MESSAGES,
  type CreditNoteReason,
  type InvoiceState,
} from '@spc/shared-contracts';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { OrderTranchesRecord } from '../tranches/tranche-record';
import { Invoice, InvoiceCounter, type InvoiceSettlement } from './schemas/invoice.schema';

/** An invoice as the settlements read it. */
export type InvoiceRecord = Invoice;

/** What settles part of an invoice: a ledger entry (payment, withholding) or a credit note. */
export interface SettlementInput {
  /** The money-ledger entry's id, or the credit note's own id. */
  id: string;
  kind: InvoiceSettlement['kind'];
  /** The whole amount: a payment's shillings, the tax withheld, the credit note's amount. */
  amount: number;
  /** The M-Pesa code, the bank's reference or the certificate number, as typed (trimmed). */
  reference: string;
  at: Date;
  by: { id: string; fullName: string; role: string };
  number?: string | null;
  reason?: CreditNoteReason | null;
  note?: string;
}

/** What a settle came to: counted now, or counted before (a replay: the invoice unchanged). */
export type Settled = {
  state: 'new' | 'replay';
  invoice: InvoiceRecord;
  settlement: InvoiceSettlement;
};

/** Why a settlement does not fit the invoice as read; the caller answers the 409. */
export class SettlementRefused extends ConflictException {}

const ATTEMPTS = 10;

/** The sums and state an invoice has once `s` is counted on it, or the refusal. */
export function counted(
  inv: Pick<InvoiceRecord, 'total' | 'paid' | 'withheld' | 'credited' | 'excess' | 'balance'>,
  s: SettlementInput,
  allowExcess: boolean,
): {
  set: Pick<InvoiceRecord, 'paid' | 'withheld' | 'credited' | 'excess' | 'balance' | 'state'>;
  applied: number;
  excess: number;
} {
  const kes = (n: number) => `KES ${n.toLocaleString('en-US')}`;
  let { paid, withheld, credited, excess } = inv;
  let applied = s.amount;
  let beyond = 0;
  if (s.kind === 'creditNote') {
    const left = inv.total - inv.credited;
    if (s.amount > left)
      throw new SettlementRefused({
        message: INVOICE_MESSAGES.creditAboveInvoice(kes(left)),
        code: 'ABOVE_INVOICE',
      });
    // A credit note on what was paid already leaves that much paid beyond what is owed: an excess.
    beyond = Math.max(0, s.amount - inv.balance);
    credited += s.amount;
  } else if (s.kind === 'withholding') {
    if (s.amount > inv.balance)
      throw new SettlementRefused({
        message: INVOICE_MESSAGES.withholdingAboveBalance(kes(inv.balance)),
        code: 'ABOVE_BALANCE',
      });
    withheld += s.amount;
  } else {
    if (s.amount > inv.balance) {
      if (!allowExcess)
        throw new SettlementRefused({
          message: INVOICE_MESSAGES.aboveBalance(kes(inv.balance)),
          code: 'ABOVE_BALANCE',
        });
      applied = inv.balance;
      beyond = s.amount - inv.balance;
    }
    paid += applied;
  }
  excess += beyond;
  const balance = Math.max(0, inv.total - paid - withheld - credited);
  const state: InvoiceState = balance > 0 ? 'Open' : paid + withheld > 0 ? 'Paid' : 'Credited';
  return {
    set: { paid, withheld, credited, excess, balance, state },
    applied: s.kind === 'creditNote' ? s.amount : applied,
    excess: beyond,
  };
}

/**
 * The settlements' own access to invoices (issue 44): reads, and the one conditional write on
 * `rev` that counts a settlement (pushed only when its id is not there yet, the sums and state
 * moved in the same write). The invoices' issuing has its own repository.
 */
@Injectable()
export class InvoiceSettlementsRepository {
  constructor(
    @InjectModel(Invoice.name) private readonly invoices: Model<Invoice>,
    @InjectModel(InvoiceCounter.name) private readonly counters: Model<InvoiceCounter>,
    @InjectConnection() private readonly connection: Connection,
  ) {}

  /**
   * An order's tranches and lines (null: not delivered in tranches), to see it fully invoiced:
   * every live tranche delivered and invoiced, and nothing of its lines left to plan.
   */
  async tranchesOf(
    orderId: string,
  ): Promise<Pick<OrderTranchesRecord, 'lines' | 'tranches'> | null> {
    if (!Types.ObjectId.isValid(orderId)) return null;
    return this.connection
      .collection<Pick<OrderTranchesRecord, 'lines' | 'tranches'> & { _id: Types.ObjectId }>(
        'order_tranches',
      )
      .findOne({ _id: new Types.ObjectId(orderId) }, { projection: { lines: 1, tranches: 1 } });
  }

  findById(id: string): Promise<InvoiceRecord | null> {
    if (!Types.ObjectId.isValid(id)) return Promise.resolve(null);
    return this.invoices.findById(id).lean<InvoiceRecord>().exec();
  }

  async mustFind(id: string): Promise<InvoiceRecord> {
    const inv = await this.findById(id);
    if (!inv || !inv.number)
      throw new NotFoundException({ message: INVOICE_MESSAGES.notFound, code: 'NOT_FOUND' });
    return inv;
  }

  findByNumber(number: string): Promise<InvoiceRecord | null> {
    return this.invoices.findOne({ number }).lean<InvoiceRecord>().exec();
  }

  ofOrder(orderId: string): Promise<InvoiceRecord[]> {
    return this.invoices.find({ orderId }).lean<InvoiceRecord[]>().exec();
  }

  /** The invoice holding this settlement id, if any. */
  holding(settlementId: string): Promise<InvoiceRecord | null> {
    return this.invoices.findOne({ 'settlements.id': settlementId }).lean<InvoiceRecord>().exec();
  }

  /**
   * The next credit note number (CN-000001…), taken from `invoice_counters` 'creditNotes'. A
   * number taken by a request that then failed or lost (a crash, the invoice changed to refuse
   * it) is skipped, never reused: the sequence may have gaps, never duplicates.
   */
  async nextCreditNoteNumber(): Promise<string> {
    return creditNoteNumber(await nextInSequence(this.counters.collection, 'creditNotes'));
  }

  /**
   * Counts a settlement on the invoice once: a conditional write on the `rev` read that pushes it
   * (only while its id is not there) with the sums and state it brings; read again and tried again
   * when another write came first. Its id already there answers the invoice unchanged (a replay).
   * 404 when the invoice does not exist; `SettlementRefused` (409) when it does not fit.
   */
  async settle(invoiceId: string, s: SettlementInput, allowExcess: boolean): Promise<Settled> {
    for (let attempt = 1; ; attempt++) {
      const inv = await this.mustFind(invoiceId);
      const already = inv.settlements.find((x) => x.id === s.id);
      if (already) return { state: 'replay', invoice: inv, settlement: already };
      const { set, applied, excess } = counted(inv, s, allowExcess);
      const settlement: InvoiceSettlement = {
        id: s.id,
        kind: s.kind,
        amount: applied,
        excess,
        reference: s.reference,
        number: s.number ?? null,
        reason: s.reason ?? null,
        note: s.note ?? '',
        at: s.at,
        byId: s.by.id,
        byName: s.by.fullName,
        byRole: s.by.role,
      };
      let updated: InvoiceRecord | null;
      try {
        updated = await this.invoices
          .findOneAndUpdate(
            { _id: inv._id, rev: inv.rev, 'settlements.id': { $ne: s.id } },
            { $set: set, $push: { settlements: settlement }, $inc: { rev: 1 } },
            { new: true },
          )
          .lean<InvoiceRecord>()
          .exec();
      } catch (error) {
        // The settlement id is on another invoice already (the unique index).
        if (!isDuplicateKeyError(error)) throw error;
        const other = await this.holding(s.id);
        throw new ConflictException({
          message: `This ${s.kind === 'creditNote' ? 'credit note' : 'payment'} is already counted on ${other?.number ?? 'another invoice'}`,
          code: 'CONFLICT',
        });
      }
      if (updated) return { state: 'new', invoice: updated, settlement };
      if (attempt >= ATTEMPTS)
        throw new ConflictException({
          message: 'The invoice changed while you were working on it; please reload and try again',
          code: 'CONFLICT',
        });
    }
  }
}
