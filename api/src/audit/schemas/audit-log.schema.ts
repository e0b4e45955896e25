import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ACTOR_KINDS, type ActorKind } from '@spc/shared-contracts';

@Schema({ _id: false })
export class AuditActor {
  @Prop({ required: true })
  id!: string;

  @Prop({ required: true })
  fullName!: string;

  @Prop({ type: String, required: true, enum: ACTOR_KINDS })
  role!: ActorKind;
}

@Schema({ _id: false })
export class AuditTarget {
  @Prop({ required: true })
  type!: string;

  @Prop({ required: true })
  id!: string;

  @Prop()
  label?: string;
}

@Schema({ collection: 'audit_logs', versionKey: false })
export class AuditLog {
  @Prop({ required: true })
  action!: string;

  @Prop({ required: true })
  message!: string;

  @Prop({ type: AuditActor, required: true })
  performedBy!: AuditActor;

  @Prop({ type: AuditTarget })
  target?: AuditTarget;

  @Prop({ required: true, default: () => new Date() })
  timestamp!: Date;

  /**
   * A customer's sign-in, which the trail's screen hides by default: kept on the entry so that the
   * screen's page and count read an index of the others (`{ customerSignIn: false }`) instead of
   * looking at every entry (a customer base signs in hundreds of thousands of times in three years).
   * Set on insert (`isCustomerSignIn`); entries written before it by `migrateAuditSignIns`.
   */
  @Prop({ required: true })
  customerSignIn!: boolean;
}

export const AuditLogSchema = SchemaFactory.createForClass(AuditLog);
// The trail newest first, ties by id as the list sorts (`timestamp, _id`): an index without the
// id leaves the database sorting every match to break the ties (a million entries in three years).
AuditLogSchema.index({ timestamp: -1, _id: -1 });
AuditLogSchema.index({ action: 1, timestamp: -1, _id: -1 });
AuditLogSchema.index({ 'target.id': 1, timestamp: -1 });
// The trail's filters by person and by role, newest first.
AuditLogSchema.index({ 'performedBy.id': 1, timestamp: -1, _id: -1 });
AuditLogSchema.index({ 'performedBy.role': 1, timestamp: -1, _id: -1 });
// The trail without the customers' sign-ins (the screen's default), newest first.
AuditLogSchema.index({ customerSignIn: 1, timestamp: -1, _id: -1 });
