import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import {
  CREDIT_NOTE_REASONS,
  INVOICE_REMINDERS,
  INVOICE_STATES,
  type CreditNoteReason,
  type InvoiceReminder,
  type InvoiceState,
} from '@spc/shared-contracts';
import { Schema as MongooseSchema, type Types } from 'mongoose';
import { MONEY_WRITE_CONCERN } from '../../common/write-concern';

/** A line of the order as billed: the units that arrived, at the quoted unit price. */
@Schema({ _id: false })
export class InvoiceLine {
  /** The order line's position. */
  @Prop({ required: true }) line!: number;
  @Prop({ required: true }) productName!: string;
  @Prop({ required: true }) unitName!: string;
  @Prop({ required: true }) quantity!: number;
  /** Whole KES for one unit, as quoted. */
  @Prop({ required: true }) unitPrice!: number;
  @Prop({ required: true }) amount!: number;
}

/** Where the billed tranche went (printed on the invoice). */
@Schema({ _id: false })
export class InvoiceSite {
  @Prop({ required: true }) name!: string;
  @Prop({ required: true }) county!: string;
  @Prop({ default: '' }) subCounty!: string;
}

/**
 * What settled part of the invoice, once: a money-ledger entry (paybill, bank, withholding; `id` is
 * the entry's id) or a credit note (`id` is the credit note's own id, `number` its CN- number).
 * Written in the same conditional update that moves the invoice's sums, so one `id` counts once.
 */
@Schema({ _id: false })
export class InvoiceSettlement {
  @Prop({ required: true }) id!: string;
  @Prop({ type: String, enum: ['paybill', 'bank', 'withholding', 'creditNote'], required: true })
  kind!: 'paybill' | 'bank' | 'withholding' | 'creditNote';
  /** What it took off the balance. */
  @Prop({ required: true }) amount!: number;
  /** What came beyond the balance, kept as a recorded excess (payments only). */
  @Prop({ default: 0 }) excess!: number;
  /** The M-Pesa code, the bank's reference or the certificate number, as typed (trimmed). */
  @Prop({ default: '' }) reference!: string;
  /** A credit note's number (CN-000001), reason and words. */
  @Prop({ type: String, default: null }) number!: string | null;
  @Prop({ type: String, enum: [...CREDIT_NOTE_REASONS, null], default: null })
  reason!: CreditNoteReason | null;
  @Prop({ default: '' }) note!: string;
  /** When the money moved (or the credit note was given). */
  @Prop({ type: Date, required: true }) at!: Date;
  @Prop({ default: '' }) byId!: string;
  @Prop({ default: '' }) byName!: string;
  @Prop({ default: '' }) byRole!: string;
}

/** A reminder to the billing contact, claimed before it is sent (two instances send one). */
@Schema({ _id: false })
export class InvoiceReminderSent {
  @Prop({ type: String, enum: INVOICE_REMINDERS, required: true }) kind!: InvoiceReminder;
  @Prop({ type: Date, required: true }) at!: Date;
}

/**
 * An invoice on account (issue 44): one per order and tranche (`trancheKey` 'T1', 'T2'…) or per
 * order ('order'), under a unique index, so issuing twice answers the first. Its number comes from
 * `invoice_counters` once the invoice is written (null until then; the invoices' sweep numbers one
 * a crash left without), so a refused or repeated issue takes no number. Its sums (`paid`,
 * `withheld`, `credited`, `excess`, `balance`) and `state` move only with a settlement added to
 * `settlements` in the same conditional write on `rev`.
 */
@Schema({ collection: 'invoices', versionKey: false, writeConcern: MONEY_WRITE_CONCERN })
export class Invoice {
  _id!: Types.ObjectId;
  /** INV-000001…; null for the moment between its insert and its numbering. */
  @Prop({ type: String, default: null }) number!: string | null;
  @Prop({ required: true }) organisationId!: string;
  /** The organisation's name and KRA PIN when it was issued (an invoice does not change). */
  @Prop({ required: true }) organisationName!: string;
  @Prop({ required: true }) organisationKraPin!: string;
  @Prop({ required: true }) shopName!: string;
  @Prop({ default: '' }) shopKraPin!: string;
  @Prop({ required: true }) orderId!: string;
  @Prop({ required: true }) purchaseNumber!: string;
  @Prop({ required: true }) lpoNumber!: string;
  /** The tranche billed (1 for T1), or null: the whole order. */
  @Prop({ type: Number, default: null }) tranche!: number | null;
  /** 'T1', 'T2'… or 'order': one invoice per order and key. */
  @Prop({ required: true }) trancheKey!: string;
  @Prop({ type: InvoiceSite, default: null }) site!: InvoiceSite | null;
  @Prop({ type: [InvoiceLine], required: true }) lines!: InvoiceLine[];
  /** The quoted delivery fee, on the whole-order invoice or the order's first. */
  @Prop({ default: 0 }) fee!: number;
  /** It bills the order's delivery fee: one invoice of an order does (a unique index). */
  @Prop({ default: false }) carriesFee!: boolean;
  @Prop({ required: true }) total!: number;
  @Prop({ type: Date, required: true }) issuedAt!: Date;
  /** The shop's day it is due (YYYY-MM-DD, Africa/Nairobi). */
  @Prop({ required: true }) dueDate!: string;
  @Prop({ default: 0 }) paid!: number;
  @Prop({ default: 0 }) withheld!: number;
  @Prop({ default: 0 }) credited!: number;
  @Prop({ default: 0 }) excess!: number;
  /** total − paid − withheld − credited, never below 0. */
  @Prop({ required: true }) balance!: number;
  @Prop({ type: String, enum: INVOICE_STATES, required: true }) state!: InvoiceState;
  @Prop({ type: [InvoiceSettlement], default: [] }) settlements!: InvoiceSettlement[];
  @Prop({ type: [InvoiceReminderSent], default: [] }) reminders!: InvoiceReminderSent[];
  /** Bumped by every change: a write names the `rev` it read. */
  @Prop({ required: true, default: 0 }) rev!: number;
  /** Who issued it ('' and 'system' when its tranche's delivery did). */
  @Prop({ default: '' }) byId!: string;
  @Prop({ default: '' }) byName!: string;
  @Prop({ default: 'system' }) byRole!: string;
}

export const InvoiceSchema = SchemaFactory.createForClass(Invoice);
export const INVOICE_ONE_PER_TRANCHE = 'one_invoice_per_order_tranche';
InvoiceSchema.index({ orderId: 1, trancheKey: 1 }, { unique: true, name: INVOICE_ONE_PER_TRANCHE });
InvoiceSchema.index(
  { number: 1 },
  { unique: true, partialFilterExpression: { number: { $type: 'string' } } },
);
// The order's delivery fee is billed once, whichever invoice of the order takes it first.
export const INVOICE_ONE_FEE_PER_ORDER = 'one_delivery_fee_per_order';
InvoiceSchema.index(
  { orderId: 1 },
  { unique: true, name: INVOICE_ONE_FEE_PER_ORDER, partialFilterExpression: { carriesFee: true } },
);
// The sweep's invoices a crash left without a number (`number: null`; not a partial index: a
// server planning by rules does not take one for a `$type`).
InvoiceSchema.index({ number: 1, issuedAt: 1, _id: 1 }, { name: 'invoices_by_number_issued' });
// An organisation's list and statement; the back office's lists by state and due day.
InvoiceSchema.index({ organisationId: 1, issuedAt: -1, _id: -1 });
InvoiceSchema.index({ state: 1, dueDate: 1, _id: 1 });
InvoiceSchema.index({ issuedAt: -1, _id: -1 });
// A settlement (a ledger entry, a credit note) is in one invoice at most.
InvoiceSchema.index(
  { 'settlements.id': 1 },
  { unique: true, partialFilterExpression: { 'settlements.id': { $exists: true } } },
);

/** One counter document per sequence: `{ _id: 'invoices' | 'creditNotes', seq }`. */
@Schema({ collection: 'invoice_counters', versionKey: false })
export class InvoiceCounter {
  @Prop({ type: MongooseSchema.Types.Mixed, required: true })
  _id!: string;
  @Prop({ required: true, default: 0 })
  seq!: number;
}
export const InvoiceCounterSchema = SchemaFactory.createForClass(InvoiceCounter);
