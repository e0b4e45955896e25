import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { PAYMENT_METHODS, type PaymentMethod } from '@spc/shared-contracts';
import { MONEY_WRITE_CONCERN } from '../../common/write-concern';

/** Money given back when a paid order is cancelled: one per order, kept with the sales record. */
@Schema({ collection: 'order_refunds', writeConcern: MONEY_WRITE_CONCERN })
export class OrderRefund {
  @Prop({ required: true }) orderId!: string;
  @Prop({ required: true }) purchaseNumber!: string;
  @Prop({ type: String, enum: PAYMENT_METHODS, required: true }) method!: PaymentMethod;
  @Prop({ required: true }) amount!: number;
  /** M-Pesa reversal or transaction code, or a note for cash. */
  @Prop({ default: '' }) reference!: string;
  /** To be sent through Daraja (reversal or B2C) rather than by hand; see payments/refunds. */
  @Prop({ default: false }) sendByMpesa!: boolean;
  @Prop({ required: true }) refundedById!: string;
  @Prop({ required: true }) refundedByName!: string;
  @Prop({ required: true }) refundedAt!: Date;
}

export const OrderRefundSchema = SchemaFactory.createForClass(OrderRefund);
OrderRefundSchema.index({ orderId: 1 }, { unique: true });
OrderRefundSchema.index({ refundedAt: 1 });
OrderRefundSchema.index({ sendByMpesa: 1, refundedAt: 1 });
