import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ORGANISATION_ROLES, type OrganisationRole } from '@spc/shared-contracts';

/**
 * A person asked to buy for an organisation, by the e-mail address the inviter typed. `accountId`
 * is the customer account that had this address when they were invited (null when none had): only
 * that account may accept, so an invitation never reaches whoever signs up with the address later.
 * Gone when accepted, declined, withdrawn, or at `expiresAt` (TTL).
 */
@Schema({ collection: 'organisation_invitations', versionKey: false })
export class OrganisationInvitation {
  @Prop({ required: true })
  organisationId!: string;
  /** Trimmed, lower case. */
  @Prop({ required: true })
  email!: string;
  @Prop({ type: String, default: null })
  accountId!: string | null;
  @Prop({ type: String, required: true, enum: ORGANISATION_ROLES })
  role!: OrganisationRole;
  @Prop({ required: true })
  invitedAt!: Date;
  @Prop({ required: true })
  expiresAt!: Date;
}

export const OrganisationInvitationSchema = SchemaFactory.createForClass(OrganisationInvitation);
OrganisationInvitationSchema.index({ organisationId: 1, email: 1 }, { unique: true });
OrganisationInvitationSchema.index(
  { accountId: 1, expiresAt: 1 },
  { partialFilterExpression: { accountId: { $type: 'string' } } },
);
OrganisationInvitationSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
