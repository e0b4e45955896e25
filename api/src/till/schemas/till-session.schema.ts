import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { TillSessionState } from '@spc/shared-contracts';
import { MONEY_WRITE_CONCERN } from '../../common/write-concern';

/** An admin reopening a closed session. */
@Schema({ _id: false })
export class TillReopening {
  @Prop({ required: true }) byName!: string;
  @Prop({ required: true }) at!: Date;
}

/** A sale, collection, void or refund being made in a session (closing waits for it). */
@Schema({ _id: false })
export class TillWork {
  @Prop({ required: true }) id!: string;
  @Prop({ required: true }) at!: Date;
}

/**
 * A clerk's till session (issue 46): opened with a float, closed with the cash counted. A partial
 * unique index lets a clerk hold one open session, however many open at once.
 */
@Schema({ collection: 'till_sessions', versionKey: false, writeConcern: MONEY_WRITE_CONCERN })
export class TillSession {
  @Prop({ required: true }) staffId!: string;
  @Prop({ required: true }) staffName!: string;
  @Prop({ type: String, required: true }) state!: TillSessionState;
  /** The shop's day it was opened (`YYYY-MM-DD`): the day's list reads it. */
  @Prop({ required: true }) day!: string;
  @Prop({ required: true }) openedAt!: Date;
  @Prop({ required: true }) float!: number;
  @Prop({ type: Date, default: null }) closedAt!: Date | null;
  @Prop({ type: Number, default: null }) countedCash!: number | null;
  @Prop({ type: [TillReopening], default: [] }) reopened!: TillReopening[];
  /** What is being sold or given back in it now: a close waits for these, a crashed one goes stale. */
  @Prop({ type: [TillWork], default: [] }) working?: TillWork[];
  /** Set while a close waits for the work in it: no new work starts meanwhile. */
  @Prop({ type: Date, default: null }) closingAt?: Date | null;
}

export const TillSessionSchema = SchemaFactory.createForClass(TillSession);
TillSessionSchema.index(
  { staffId: 1 },
  { unique: true, partialFilterExpression: { state: 'open' }, name: 'one_open_session' },
);
TillSessionSchema.index({ day: 1, staffId: 1 });
TillSessionSchema.index({ staffId: 1, state: 1 });
