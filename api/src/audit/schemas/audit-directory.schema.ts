import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ACTOR_KINDS, type ActorKind } from '@spc/shared-contracts';

/**
 * One action code the trail holds, written when an entry with it is first recorded: the trail's
 * filter lists these (a few dozen) instead of grouping every entry. The code is the `_id`, so two
 * API instances recording it at once leave one row.
 */
@Schema({ collection: 'audit_actions', versionKey: false })
export class AuditAction {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) firstAt!: Date;
}

/**
 * One author of entries (a person's account id, or the shop's own actor), as their latest entry
 * names them: the trail's filter of people reads these. The id is the `_id` (one row a person);
 * `at` is that latest entry's time, so an older entry written late never renames them.
 */
@Schema({ collection: 'audit_people', versionKey: false })
export class AuditPerson {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) fullName!: string;
  @Prop({ type: String, required: true, enum: ACTOR_KINDS }) role!: ActorKind;
  @Prop({ required: true }) at!: Date;
}

export const AuditActionSchema = SchemaFactory.createForClass(AuditAction);
export const AuditPersonSchema = SchemaFactory.createForClass(AuditPerson);
// The filter's people of one role by name (customers, many, are reached through the role filter).
AuditPersonSchema.index({ role: 1, fullName: 1, _id: 1 });
