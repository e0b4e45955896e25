import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { MPESA_PUSH_STATUSES, type MpesaPushStatus } from '@spc/shared-contracts';
import { MONEY_WRITE_CONCERN } from '../../common/write-concern';

/** What a callback said, kept until the prompt is settled (the reconciler may finish the job). */
@Schema({ _id: false })
export class MpesaCallbackRecord {
  @Prop({ required: true }) resultCode!: number;
  @Prop({ default: '' }) resultDesc!: string;
  @Prop({ type: Number, default: null }) amount!: number | null;
  @Prop({ type: String, default: null }) receipt!: string | null;
  @Prop({ type: Date, default: null }) transactionDate!: Date | null;
  @Prop({ required: true }) receivedAt!: Date;
}

/**
 * One M-Pesa Express prompt. Its `_id` is Daraja's CheckoutRequestID, so a callback finds it by
 * `_id`.
 */
@Schema({
  collection: 'mpesa_pushes',
  timestamps: true,
  versionKey: false,
  writeConcern: MONEY_WRITE_CONCERN,
})
export class MpesaPush {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) merchantRequestId!: string;
  @Prop({ required: true }) orderId!: string;
  @Prop({ required: true }) purchaseNumber!: string;
  /** 2547XXXXXXXX, as Daraja was asked. */
  @Prop({ required: true }) phone!: string;
  /** Whole KES asked for: the order's total at the time of the prompt. */
  @Prop({ required: true }) amount!: number;
  @Prop({ type: String, enum: MPESA_PUSH_STATUSES, default: 'pending' }) status!: MpesaPushStatus;
  /** What the shopper is told. */
  @Prop({ default: '' }) message!: string;
  @Prop({ type: Number, default: null }) resultCode!: number | null;
  @Prop({ default: '' }) resultDesc!: string;
  /** The receipt number on the order: the one receipt the callbacks named, once Daraja confirmed the payment. */
  @Prop({ type: String, default: null }) receipt!: string | null;
  /**
   * Every receipt number a success callback with the right amount named (upper case, letters and
   * digits only). More than one means someone forged one: none of them is put on the order.
   */
  @Prop({ type: [String], default: [] }) receipts!: string[];
  /** Callbacks named different receipts for this prompt; the shop was asked to check its statement. */
  @Prop({ default: false }) receiptDisputed!: boolean;
  @Prop({ type: MpesaCallbackRecord, default: null }) callback!: MpesaCallbackRecord | null;
  @Prop({ default: 0 }) callbackCount!: number;
  @Prop({ type: Date, default: null }) lastQueriedAt!: Date | null;
  @Prop({ type: Date, default: null }) settledAt!: Date | null;
  /** A prompt settled as failed is asked about again at this time (null: no more). */
  @Prop({ type: Date, default: null }) nextRecheckAt!: Date | null;
  /** How often a failed prompt was asked about again. */
  @Prop({ default: 0 }) rechecks!: number;
  createdAt!: Date;
  updatedAt!: Date;
}

export const MpesaPushSchema = SchemaFactory.createForClass(MpesaPush);
MpesaPushSchema.index({ orderId: 1, createdAt: -1 });
MpesaPushSchema.index({ phone: 1, createdAt: -1 });
MpesaPushSchema.index({ status: 1, createdAt: 1 });
MpesaPushSchema.index({ status: 1, nextRecheckAt: 1 });
