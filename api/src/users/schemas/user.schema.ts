import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ROLES, type Role } from '@spc/shared-contracts';
import type { HydratedDocument } from 'mongoose';

@Schema({ collection: 'users', timestamps: true })
export class User {
  @Prop({ required: true, trim: true })
  fullName!: string;

  @Prop({ required: true, lowercase: true, trim: true })
  email!: string;

  @Prop({ trim: true, default: '' })
  phoneNumber!: string;

  /** argon2id hash; never selected unless asked for. */
  @Prop({ required: true, select: false })
  passwordHash!: string;

  @Prop({ type: String, required: true, enum: ROLES })
  role!: Role;

  /** False once deactivated (soft-deleted): cannot sign in or refresh. */
  @Prop({ default: true })
  isActive!: boolean;

  @Prop({ trim: true, default: '' })
  county!: string;

  @Prop({ trim: true, default: '' })
  streetAddress!: string;

  /** False when the customer turned order text messages (SMS) off in their profile. */
  @Prop({ default: true })
  smsNotifications!: boolean;

  /** The KRA PIN the customer's receipts are tax invoices to (issue 45); null: none. */
  @Prop({ type: String, default: null })
  kraPin?: string | null;

  /** URL path of the picture (256 px WebP), or empty. */
  @Prop({ default: '' })
  profilePicture!: string;

  /** Storage keys of every stored size of the picture, to delete them together. */
  @Prop({ type: [String], default: [], select: false })
  profilePictureKeys!: string[];

  /**
   * Raised by every password change or reset: access tokens carry the version they were issued
   * under and stop working when it moves on.
   */
  @Prop({ default: 0, select: false })
  tokenVersion!: number;

  /** Wrong passwords given at sign-in since the last good one (the lockout's backoff counts them). */
  @Prop({ default: 0, select: false })
  failedLogins!: number;

  /** Sign-in is refused until then after repeated wrong passwords. */
  @Prop({ type: Date, default: null, select: false })
  lockedUntil!: Date | null;

  createdAt!: Date;
  updatedAt!: Date;
}

export type UserDocument = HydratedDocument<User>;
export const UserSchema = SchemaFactory.createForClass(User);
UserSchema.index({ email: 1 }, { unique: true });
UserSchema.index({ role: 1, isActive: 1, createdAt: -1 });
