import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { TRANCHE_STATES, type TrancheState } from '@spc/shared-contracts';
import type { Types } from 'mongoose';

@Schema({ _id: false })
export class TrancheContact {
  @Prop({ required: true }) name!: string;
  /** As typed (trimmed); its texts go to its +254 form. */
  @Prop({ required: true }) phone!: string;
}

/** Where a load goes: a planting site of the organisation, and who receives it there. */
@Schema({ _id: false })
export class TrancheSite {
  @Prop({ required: true }) name!: string;
  /** The location list's spelling of one of the 47 counties. */
  @Prop({ required: true }) county!: string;
  @Prop({ default: '' }) subCounty!: string;
  @Prop({ type: TrancheContact, required: true }) contact!: TrancheContact;
}

/** Units of one line of the order in a tranche: planned, then sent, then what arrived. */
@Schema({ _id: false })
export class TrancheLine {
  /** The order line's position in the order (its lines never change after placement). */
  @Prop({ required: true }) line!: number;
  /** Units planned (of the order line's unit). */
  @Prop({ required: true }) quantity!: number;
  /** Units that left, once dispatched (the planned quantity); null before. */
  @Prop({ type: Number, default: null }) dispatched!: number | null;
  /** Units the signed note says arrived; null before it is recorded. */
  @Prop({ type: Number, default: null }) delivered!: number | null;
  /** Why fewer arrived than left (the rest came back, to go in a later tranche). */
  @Prop({ type: String, default: null }) shortReason!: string | null;
}

@Schema({ _id: false })
export class Tranche {
  /** 1, 2, 3… in the order (T1, T2…): never reused, a cancelled tranche keeps its number. */
  @Prop({ required: true }) number!: number;
  @Prop({ type: String, enum: TRANCHE_STATES, required: true }) state!: TrancheState;
  /** The shop's day it is to be delivered on (`YYYY-MM-DD`, Africa/Nairobi). */
  @Prop({ required: true }) date!: string;
  @Prop({ type: TrancheSite, required: true }) site!: TrancheSite;
  @Prop({ type: [TrancheLine], required: true }) lines!: TrancheLine[];
  @Prop({ required: true }) plannedAt!: Date;
  @Prop({ type: Date, default: null }) changedAt!: Date | null;
  @Prop({ type: Date, default: null }) dispatchedAt!: Date | null;
  /** Who signed the delivery note at the site, and when; recorded by the clerk at `recordedAt`. */
  @Prop({ type: String, default: null }) signedBy!: string | null;
  @Prop({ type: Date, default: null }) signedAt!: Date | null;
  @Prop({ type: Date, default: null }) recordedAt!: Date | null;
  @Prop({ type: Date, default: null }) cancelledAt!: Date | null;
  /** The day whose eve its contact was texted for (a new date is texted again). */
  @Prop({ type: String, default: null }) remindedFor!: string | null;
}

/** A copy of one line of the order, as the tranches count it (the order's lines never change). */
@Schema({ _id: false })
export class TrancheOrderLine {
  @Prop({ required: true }) productId!: string;
  @Prop({ required: true }) productName!: string;
  @Prop({ required: true }) unitId!: string;
  @Prop({ required: true }) unitName!: string;
  /** Seedlings one unit holds. */
  @Prop({ required: true }) seedlings!: number;
  /** The batch holding the line, or null: ready stock. */
  @Prop({ type: String, default: null }) batchId!: string | null;
  /** Units the order holds on this line. */
  @Prop({ required: true }) quantity!: number;
}

/**
 * What a step left to finish (the load's stock handed over, its short part brought back, the
 * order's status, the audit entry and texts), written in the step's own update and removed once
 * done: a crash between is finished by the tranches' sweep. `by` is who took the step.
 */
@Schema({ _id: false })
export class TrancheWork {
  @Prop({ type: String, enum: ['dispatched', 'delivered'], required: true })
  what!: 'dispatched' | 'delivered';
  @Prop({ required: true }) number!: number;
  @Prop({ required: true }) at!: Date;
  @Prop({ type: Object, required: true }) by!: { id: string; fullName: string; role: string };
}

/**
 * The tranches of one order from a quotation (issue 43), in one document keyed by the order's id:
 * what every tranche takes of each line is one document's invariant (never more than the line
 * holds), so each change is one conditional write on `rev` (compare and set), whatever runs beside
 * it on this instance or another; numbers come from `next` in the same write.
 */
@Schema({ collection: 'order_tranches', versionKey: false })
export class OrderTranches {
  /** The order's id. */
  _id!: Types.ObjectId;
  @Prop({ required: true }) purchaseNumber!: string;
  @Prop({ required: true }) organisationId!: string;
  @Prop({ required: true }) lpoNumber!: string;
  @Prop({ type: [TrancheOrderLine], required: true }) lines!: TrancheOrderLine[];
  @Prop({ type: [Tranche], default: [] }) tranches!: Tranche[];
  /** The number the next tranche takes. */
  @Prop({ required: true }) next!: number;
  /** Bumped by every change: a write names the `rev` it read. */
  @Prop({ required: true }) rev!: number;
  @Prop({ type: [TrancheWork], default: [] }) work!: TrancheWork[];
  @Prop({ required: true }) createdAt!: Date;
  @Prop({ required: true }) updatedAt!: Date;
}

export const OrderTranchesSchema = SchemaFactory.createForClass(OrderTranches);
// The dispatch desk's lists and counts (by state and day), an organisation's, the eve's texts.
OrderTranchesSchema.index({ 'tranches.state': 1, 'tranches.date': 1 });
OrderTranchesSchema.index({ organisationId: 1, 'tranches.state': 1, 'tranches.date': 1 });
// The invoices' sweep: the signed notes recorded lately.
OrderTranchesSchema.index({ 'tranches.recordedAt': 1 });
// The sweep that finishes what a crash left.
OrderTranchesSchema.index({ 'work.at': 1 });
