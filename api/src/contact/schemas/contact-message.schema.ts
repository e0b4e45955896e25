import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A message a shopper sent from the contact page, kept for the back office's Messages list. */
@Schema({ collection: 'contact_messages', timestamps: { createdAt: true, updatedAt: false } })
export class ContactMessage {
  @Prop({ required: true })
  name!: string;

  @Prop({ required: true, lowercase: true })
  email!: string;

  @Prop({ required: true })
  subject!: string;

  @Prop({ required: true })
  message!: string;

  /** The account signed in when it was sent, if any: its export shows it, its erasure deletes it. */
  @Prop({ type: String, default: null })
  accountId!: string | null;

  /** The client address it came from (the per-address hourly limit counts these). */
  @Prop({ default: '' })
  clientAddress!: string;

  @Prop({ default: false })
  read!: boolean;

  @Prop({ type: Date, default: null })
  readAt!: Date | null;

  @Prop({ type: String, default: null })
  readByName!: string | null;

  createdAt!: Date;
}

export const ContactMessageSchema = SchemaFactory.createForClass(ContactMessage);
// Newest first, optionally only unread.
ContactMessageSchema.index({ read: 1, createdAt: -1 });
ContactMessageSchema.index({ createdAt: -1 });
ContactMessageSchema.index(
  { accountId: 1 },
  { partialFilterExpression: { accountId: { $type: 'string' } } },
);
