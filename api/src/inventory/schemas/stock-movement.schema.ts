import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { STOCK_REASONS, type StockReason } from '@spc/shared-contracts';

/** Who made a movement; null for a guest's order or the shop itself (an expired order). */
export interface MovementActor {
  id: string;
  fullName: string;
  role: string;
}

/**
 * One change of a product's stock. Written first inside the product document (in the same atomic
 * update as the stock change, as a pending movement) and then copied here under the same `_id`, so
 * a copy retried after a crash is refused as a duplicate instead of counted twice.
 */
@Schema({ collection: 'stock_movements', versionKey: false })
export class StockMovement {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ required: true })
  productId!: string;

  /** The product's name when the movement was made (kept after a rename or deletion). */
  @Prop({ default: '' })
  productName!: string;

  /** Order of the movements of one product (1, 2, ...; an unchanged stock takes no number). */
  @Prop({ required: true })
  seq!: number;

  @Prop({ type: String, required: true, enum: STOCK_REASONS })
  reason!: StockReason;

  /** Signed: what the stock changed by. */
  @Prop({ required: true })
  change!: number;

  @Prop({ required: true })
  quantityAfter!: number;

  @Prop({ default: '' })
  note!: string;

  @Prop({ type: Object, default: null })
  by!: MovementActor | null;

  @Prop({ type: String, default: null })
  orderId!: string | null;

  @Prop({ type: String, default: null })
  purchaseNumber!: string | null;

  @Prop({ required: true })
  at!: Date;

  /** It took the stock below zero (a gate sale's hand-over, issue 47). */
  @Prop({ type: Boolean, default: undefined })
  short?: boolean;
}

export const StockMovementSchema = SchemaFactory.createForClass(StockMovement);
// A product's ledger newest first, alone or of one reason; one number per movement of a product.
StockMovementSchema.index({ productId: 1, seq: -1 }, { unique: true });
StockMovementSchema.index({ productId: 1, reason: 1, seq: -1 });
// An erasure finds the movements of a person's orders, and those they made (a cancel of their own).
StockMovementSchema.index({ orderId: 1 });
StockMovementSchema.index({ 'by.id': 1 });
