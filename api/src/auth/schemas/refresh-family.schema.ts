import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * One sign-in's refresh-token family: which generation of its tokens is the current one, and whether
 * it has ended. Rotating and ending are conditional updates of this one document, so two uses of a
 * token at once, on any instance, cannot both pass, and the one that loses ends the family for the
 * token the winner was given as well.
 */
@Schema({ collection: 'refresh_families', versionKey: false })
export class RefreshFamily {
  /** The family id the family's tokens carry. */
  @Prop({ type: String, required: true }) _id!: string;

  @Prop({ required: true })
  userId!: string;

  /** The generation of the one token that may still be exchanged; each rotation adds one. */
  @Prop({ required: true })
  generation!: number;

  /** Set when the family ended (reuse of a rotated token, logout, password change); final. */
  @Prop({ type: Date, default: null })
  revokedAt!: Date | null;

  /** When its newest token expires; the family is deleted then. */
  @Prop({ required: true })
  expiresAt!: Date;
}

export const RefreshFamilySchema = SchemaFactory.createForClass(RefreshFamily);
RefreshFamilySchema.index({ userId: 1 });
RefreshFamilySchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
