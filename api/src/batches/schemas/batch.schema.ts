import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { STORED_BATCH_STATUSES, type StoredBatchStatus } from '@spc/shared-contracts';
import type { PendingMovement } from '../../inventory/stock-ledger';

/** One booking's seedlings held against the batch (recorded with the order's id: a retry counts once). */
@Schema({ _id: false })
export class BatchHold {
  @Prop({ required: true }) orderId!: string;
  @Prop({ required: true }) seedlings!: number;
  @Prop({ required: true }) at!: Date;
}

/**
 * A batch of one product's seedlings, sown on a day and ready weeks later. `quantity` is what the
 * batch holds now (its stock: started, less losses and what left it), changed only with a movement
 * of the stock ledger under `batch:<id>`, in the same update (see `stockUpdate`). `booked` is what
 * bookings hold of it and `available` what is left to book (started − lost − booked, never below 0);
 * a booking takes seedlings by one conditional update on `available`.
 */
@Schema({ collection: 'batches', versionKey: false })
export class Batch {
  @Prop({ required: true }) productId!: string;
  @Prop({ required: true }) productName!: string;
  /** Shop days, `YYYY-MM-DD`. */
  @Prop({ required: true }) sownOn!: string;
  @Prop({ required: true }) readyOn!: string;
  @Prop({ required: true }) started!: number;
  @Prop({ default: 0 }) lost!: number;
  @Prop({ default: 0 }) booked!: number;
  @Prop({ required: true }) available!: number;
  @Prop({ required: true }) quantity!: number;
  @Prop({ type: String, enum: STORED_BATCH_STATUSES, default: 'Growing' })
  status!: StoredBatchStatus;
  @Prop({ type: Date, default: null }) readyAt!: Date | null;
  @Prop({ type: Date, default: null }) failedAt!: Date | null;
  @Prop({ default: '' }) note!: string;
  @Prop({ type: [BatchHold], default: [] }) holds!: BatchHold[];
  /**
   * Bookings whose seedlings went from the ready batch into the product's ready stock: the
   * product's marker of each (which makes the move count once) is cleared a day later.
   */
  @Prop({ type: [Object], default: [] }) releasedFor!: { orderId: string; at: Date }[];
  /**
   * Parts of holds moved out of (or back into) the ready batch by key (an order's tranche sent out
   * or part of its load come back): each key moves once, whatever runs beside it or is retried.
   */
  @Prop({ type: [Object], default: [] }) partsMoved!: { key: string; at: Date }[];
  /** When the ready seedlings reached the product (its marker is cleared a day later). */
  @Prop({ type: Date, default: null }) readyStockAt!: Date | null;
  /**
   * A step whose bookings are still to be told (ready, short, failed), written in the step's own
   * update and cleared once the bookings' life has heard: a crash between is told again.
   */
  @Prop({ type: Object, default: null }) pendingTell!: {
    what: 'ready' | 'short' | 'failed';
    at: Date;
  } | null;
  @Prop({ default: 0 }) stockSeq!: number;
  @Prop({ type: [Object], default: [] }) pendingMovements!: PendingMovement[];
  @Prop({ required: true }) createdAt!: Date;
}

export const BatchSchema = SchemaFactory.createForClass(Batch);
// The desk's list by ready date, of a product or of a status; the storefront's bookable batches.
BatchSchema.index({ readyOn: 1 });
BatchSchema.index({ productId: 1, readyOn: 1 });
BatchSchema.index({ status: 1, readyOn: 1 });
BatchSchema.index({ productId: 1, status: 1, readyOn: 1 });
// The desk's Growing (something left to book) and Sold out lists, of all or of one product.
BatchSchema.index({ status: 1, available: 1, readyOn: 1 });
BatchSchema.index({ productId: 1, status: 1, available: 1, readyOn: 1 });
// The ledger's reconciler: movements left waiting by a crash.
BatchSchema.index({ 'pendingMovements.at': 1 });
BatchSchema.index({ readyStock: 1, readyStockAt: 1 });
BatchSchema.index({ 'releasedFor.at': 1 });
BatchSchema.index({ 'pendingTell.at': 1 });
