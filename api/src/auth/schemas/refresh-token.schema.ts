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

  /** Set when the token was exchanged for a new pair; a second use means it was stolen. */
  @Prop({ type: Date, default: null })
  usedAt!: Date | null;

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
