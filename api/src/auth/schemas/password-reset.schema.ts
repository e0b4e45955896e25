import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A password-reset code, stored as its SHA-256: single use, valid one hour. */
@Schema({ collection: 'password_resets', versionKey: false })
export class PasswordReset {
  @Prop({ required: true })
  tokenHash!: string;

  @Prop({ required: true })
  userId!: string;

  @Prop({ required: true })
  expiresAt!: Date;

  @Prop({ type: Date, default: null })
  usedAt!: Date | null;
}

export const PasswordResetSchema = SchemaFactory.createForClass(PasswordReset);
PasswordResetSchema.index({ tokenHash: 1 }, { unique: true });
PasswordResetSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
