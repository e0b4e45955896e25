import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { MONEY_WRITE_CONCERN } from '../../common/write-concern';

/**
 * Ways money comes in: a prompt, the paybill, a code a clerk typed at the desk, cash; and against
 * invoices (issue 44) a bank transfer a clerk records and tax a public body withheld (its
 * certificate stands for the shillings it paid the KRA).
 */
export const MONEY_IN_KINDS = [
  'mpesa-express',
  'paybill',
  'desk-mpesa',
  'cash',
  'bank',
  'withholding',
] as const;
/** Ways money goes back: a reversal of its code, B2C to who paid, by hand (M-Pesa or cash). */
export const MONEY_OUT_KINDS = ['reversal', 'b2c', 'mpesa-by-hand', 'cash'] as const;
export type MoneyInKind = (typeof MONEY_IN_KINDS)[number];
export type MoneyOutKind = (typeof MONEY_OUT_KINDS)[number];
export type MoneyKind = MoneyInKind | MoneyOutKind;

/**
 * An incoming entry is `open` while it waits in the payments inbox with no order, `claimed` while
 * it is being credited to its order, `credited` once it counts there. An outgoing one is `claiming`
 * while it takes what it gives back from its incoming entry and the order's step, `recorded` once
 * it counts.
 */
export const MONEY_ENTRY_STATES = ['open', 'claimed', 'credited', 'claiming', 'recorded'] as const;
export type MoneyEntryState = (typeof MONEY_ENTRY_STATES)[number];

/** How a payment's amount was counted on a booking: toward its deposit, its balance, beyond. */
@Schema({ _id: false })
export class MoneySplit {
  @Prop({ default: 0 }) deposit!: number;
  @Prop({ default: 0 }) balance!: number;
  @Prop({ default: 0 }) excess!: number;
}

/** What an outgoing entry took of an incoming one. */
@Schema({ _id: false })
export class MoneyReturn {
  @Prop({ required: true }) out!: string;
  @Prop({ required: true }) amount!: number;
}

/**
 * One movement of shillings: money in (a payment, a deposit, a balance) or money back (a refund, a
 * reversal, a payout), in whole KES. An incoming M-Pesa entry holds the transaction's code in its
 * one spelling under a unique index: one code is one entry, whichever way the money arrived. An
 * outgoing entry names the incoming entry it gives back (`of`); the incoming one keeps what may
 * still be given back (`returnable`), taken by a conditional update, so nothing goes back twice or
 * beyond what came in.
 */
@Schema({
  collection: 'money_entries',
  timestamps: true,
  versionKey: false,
  writeConcern: MONEY_WRITE_CONCERN,
})
export class MoneyEntry {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: String, enum: ['in', 'out'], required: true }) direction!: 'in' | 'out';
  @Prop({ type: String, required: true }) kind!: MoneyKind;
  @Prop({ required: true }) amount!: number;
  /** An incoming M-Pesa entry's transaction code, canonical; absent on cash and outgoing entries. */
  @Prop({ type: String, default: undefined }) code?: string;
  /** A prompt's CheckoutRequestID, a payback's M-Pesa code or a clerk's note. */
  @Prop({ default: '' }) reference!: string;
  @Prop({ type: String, default: null }) orderId!: string | null;
  @Prop({ type: String, default: null }) purchaseNumber!: string | null;
  /**
   * The invoice it is credited to (issue 44; an incoming entry credited to an invoice names no
   * order): its id is in that invoice's `settlements` once, written after the entry. `split` stays
   * null until the invoice counted it (then `balance` is what it took off, `excess` the rest).
   */
  @Prop({ type: String, default: undefined }) invoiceId?: string | null;
  /** The number that paid (2547XXXXXXXX) where M-Pesa named it; null at the desk and for cash. */
  @Prop({ type: String, default: null }) payer!: string | null;
  /** The order a payment was meant for when that order could not take it (it waits, open). */
  @Prop({ type: String, default: null }) meantFor!: string | null;
  @Prop({ type: String, enum: MONEY_ENTRY_STATES, required: true }) state!: MoneyEntryState;
  /** M-Pesa did not confirm it (paybill status query): it can be checked again, not used. */
  @Prop({ type: Boolean, default: undefined }) unconfirmed?: boolean;
  /** The paybill was checked with M-Pesa's status query (MPESA_C2B_VERIFY): B2C may pay it back. */
  @Prop({ type: Boolean, default: undefined }) verified?: boolean;
  @Prop({ type: MoneySplit, default: null }) split!: MoneySplit | null;
  /** Incoming: what may still be given back, and what was. */
  @Prop({ default: 0 }) returnable!: number;
  @Prop({ default: 0 }) returned!: number;
  @Prop({ type: [MoneyReturn], default: [] }) returns!: MoneyReturn[];
  /** Outgoing: the incoming entry it gives back, why, and whether Daraja sends it. */
  @Prop({ type: String, default: null }) of!: string | null;
  @Prop({ type: String, default: null }) purpose!: 'refund' | 'excess' | 'inbox' | null;
  @Prop({ default: false }) send!: boolean;
  /** The M-Pesa transfer (reversal or B2C) that sends it, once asked for. */
  @Prop({ type: String, default: null }) transfer!: string | null;
  @Prop({ default: '' }) byId!: string;
  @Prop({ default: '' }) byName!: string;
  @Prop({ default: '' }) byRole!: string;
  /** When the money moved (the payment's time; a refund's recording). */
  @Prop({ type: Date, required: true }) at!: Date;
  @Prop({ type: Date, default: null }) claimedAt!: Date | null;
  /** The payer was erased while their money was still to be sent back: forget them once sent. */
  @Prop({ type: Boolean, default: undefined }) forgetPayer?: boolean;
  createdAt!: Date;
  updatedAt!: Date;
}

export const MoneyEntrySchema = SchemaFactory.createForClass(MoneyEntry);
export const MONEY_CODE_INDEX = 'one_code_one_entry';
MoneyEntrySchema.index(
  { code: 1 },
  { unique: true, name: MONEY_CODE_INDEX, partialFilterExpression: { code: { $type: 'string' } } },
);
MoneyEntrySchema.index({ orderId: 1, createdAt: 1 });
MoneyEntrySchema.index({ state: 1, claimedAt: 1 });
MoneyEntrySchema.index({ direction: 1, at: 1 });
MoneyEntrySchema.index({ kind: 1, state: 1, at: 1 });
MoneyEntrySchema.index({ payer: 1, direction: 1, state: 1 });
MoneyEntrySchema.index({ kind: 1, 'split.excess': 1, state: 1 });
MoneyEntrySchema.index({ send: 1, transfer: 1, state: 1 });
MoneyEntrySchema.index(
  { meantFor: 1 },
  { partialFilterExpression: { meantFor: { $type: 'string' } } },
);
MoneyEntrySchema.index({ forgetPayer: 1 }, { sparse: true });
// An invoice's entries.
MoneyEntrySchema.index(
  { invoiceId: 1, split: 1 },
  { partialFilterExpression: { invoiceId: { $type: 'string' } } },
);
// The settlements' sweep: entries credited to an invoice and not yet counted by it.
MoneyEntrySchema.index({ split: 1, state: 1, invoiceId: 1, _id: 1 });
