import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

export const C2B_STATUSES = ['verifying', 'matching', 'matched', 'inbox', 'refund'] as const;
export type C2bStatus = (typeof C2B_STATUSES)[number];

/**
 * One paybill payment (Daraja C2B confirmation). Its `_id` is M-Pesa's TransID in its one spelling,
 * so a replayed confirmation is the same document and is recorded once. `verifying` until Daraja's
 * transaction status query confirms it, `matching` while it is credited, then `matched` (to an
 * order), `inbox` (matched nothing or several: staff decide) or `refund` (staff chose to give it
 * back).
 */
@Schema({ collection: 'mpesa_c2b_payments', timestamps: true, versionKey: false })
export class C2bPayment {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) amount!: number;
  /** BillRefNumber as the payer typed it. */
  @Prop({ default: '' }) account!: string;
  /** MSISDN as Daraja sent it (may be masked); the status query's payer number replaces it. */
  @Prop({ default: '' }) phone!: string;
  @Prop({ default: '' }) payerName!: string;
  @Prop({ type: Date, required: true }) paidAt!: Date;
  @Prop({ default: '' }) shortcode!: string;
  @Prop({ type: String, enum: C2B_STATUSES, required: true }) status!: C2bStatus;
  /** Why it is in the inbox. */
  @Prop({ default: '' }) reason!: string;
  @Prop({ type: String, default: null }) orderId!: string | null;
  @Prop({ type: String, default: null }) purchaseNumber!: string | null;
  /**
   * The invoice it paid (issue 44: the account was an open invoice's number); `purchaseNumber`
   * then holds the invoice's number and `orderId` stays null.
   */
  @Prop({ type: String, default: undefined }) invoiceId?: string | null;
  @Prop({ type: String, default: null }) matchedBy!: 'account' | 'phone' | 'staff' | null;
  /** Paid beyond the order's amount due, to give back. */
  @Prop({ default: 0 }) excess!: number;
  /** The refund of this payment (or of its excess), once asked for. */
  @Prop({ type: String, default: null }) refundId!: string | null;
  @Prop({ default: 0 }) confirmations!: number;
  @Prop({ type: String, default: null }) queryConversationId!: string | null;
  @Prop({ default: 0 }) queries!: number;
  @Prop({ type: Date, default: null }) lastQueriedAt!: Date | null;
  /** The payer was erased while this waited to be given back: the number goes once it is. */
  @Prop({ type: Boolean, default: undefined }) forgetPayer?: boolean;
  /** Not stored: M-Pesa did not confirm it (its ledger entry says so), as the inbox answers it. */
  unconfirmed?: boolean;
  createdAt!: Date;
  updatedAt!: Date;
}

export const C2bPaymentSchema = SchemaFactory.createForClass(C2bPayment);
C2bPaymentSchema.index({ status: 1, createdAt: -1 });
C2bPaymentSchema.index({ orderId: 1 });
C2bPaymentSchema.index({ queryConversationId: 1 });
// The payments an erasure marked to forget once given back (the refunds sweep looks for them).
C2bPaymentSchema.index({ forgetPayer: 1 }, { sparse: true });

export const REFUND_TRANSFER_STATUSES = ['queued', 'sending', 'pending', 'sent', 'failed'] as const;
export type RefundTransferStatus = (typeof REFUND_TRANSFER_STATUSES)[number];

/**
 * Money the shop sends back through Daraja: a Reversal of one payment, or B2C to the payer. Its
 * `_id` names what it refunds (`order:<id>`, `payment:<TransID>`, `excess:<TransID>`), so each is
 * refunded once. `queued` → `sending` (claimed, the request on its way) → `pending` (Daraja took
 * it) → `sent` or `failed` by the result callback; only a failed one is sent again.
 */
@Schema({ collection: 'mpesa_refunds', timestamps: true, versionKey: false })
export class MpesaRefund {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: String, enum: ['reversal', 'b2c'], required: true }) method!: 'reversal' | 'b2c';
  @Prop({ required: true }) amount!: number;
  @Prop({ type: String, default: null }) orderId!: string | null;
  @Prop({ type: String, default: null }) purchaseNumber!: string | null;
  /** The M-Pesa transaction reversed (reversal), or the payment refunded (B2C). */
  @Prop({ type: String, default: null }) originalTransId!: string | null;
  /** 2547XXXXXXXX for B2C. */
  @Prop({ default: '' }) phone!: string;
  @Prop({ type: String, enum: REFUND_TRANSFER_STATUSES, required: true })
  status!: RefundTransferStatus;
  @Prop({ default: 0 }) attempts!: number;
  @Prop({ type: String, default: null }) originatorConversationId!: string | null;
  @Prop({ type: String, default: null }) conversationId!: string | null;
  @Prop({ type: String, default: null }) resultCode!: string | null;
  @Prop({ default: '' }) resultDesc!: string;
  /** M-Pesa's code for the money sent back. */
  @Prop({ type: String, default: null }) transactionId!: string | null;
  @Prop({ required: true }) requestedByName!: string;
  @Prop({ type: Date, default: null }) claimedAt!: Date | null;
  /** The payer was erased while this was still to be sent: the number goes once it is sent. */
  @Prop({ type: Boolean, default: undefined }) forgetPhone?: boolean;
  createdAt!: Date;
  updatedAt!: Date;
}

export const MpesaRefundSchema = SchemaFactory.createForClass(MpesaRefund);
MpesaRefundSchema.index({ originatorConversationId: 1 });
MpesaRefundSchema.index({ conversationId: 1 });
MpesaRefundSchema.index({ orderId: 1 });
MpesaRefundSchema.index({ status: 1, updatedAt: 1 });
