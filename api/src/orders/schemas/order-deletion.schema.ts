import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * An order deleted, written just before it goes: what the order counts' rollup reads to rebuild the
 * day that counted it (a deleted order leaves no `updatedAt` to find it by). Ids and times only; the
 * rollup removes the ones it no longer needs.
 */
@Schema({ collection: 'order_deletions', versionKey: false })
export class OrderDeletion {
  /** The order's id. */
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) deletedAt!: Date;
}

export const OrderDeletionSchema = SchemaFactory.createForClass(OrderDeletion);
OrderDeletionSchema.index({ deletedAt: 1 });
