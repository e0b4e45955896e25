import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** One refresh token, stored as its SHA-256; a family is one sign-in and every rotation after it. */
@Schema({ collection: 'refresh_tokens', versionKey: false })
export class RefreshToken {
  @Prop({ required: true })
  tokenHash!: string;

  @Prop({ required: true })
  userId!: string;

  @Prop({ required: true })
  familyId!: string;

  @Prop({ required: true })
  expiresAt!: Date;

  /**
   * Which of its family's tokens this is (0 for the sign-in's, one more per rotation); only the
   * family's current generation may be exchanged. Absent on tokens issued before families had a
   * record of their own (they expire within a week of that change).
   */
  @Prop({ type: Number })
  generation?: number;

  /** Set when a token issued before families had a record was exchanged; a second use meant theft. */
  @Prop({ type: Date, default: null })
  usedAt!: Date | null;

  /** Set on tokens of a family ended before families had a record; the family records it now. */
  @Prop({ type: Date, default: null })
  revokedAt!: Date | null;

  @Prop({ required: true, default: () => new Date() })
  createdAt!: Date;
}

export const RefreshTokenSchema = SchemaFactory.createForClass(RefreshToken);
RefreshTokenSchema.index({ tokenHash: 1 }, { unique: true });
RefreshTokenSchema.index({ familyId: 1 });
RefreshTokenSchema.index({ userId: 1 });
RefreshTokenSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
