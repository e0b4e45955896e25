import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, type FilterQuery, type Model } from 'mongoose';
import type { OrganisationRole } from '@spc/shared-contracts';
import { upsertReturning } from '../common/counters';
import { OrganisationInvitation } from './schemas/organisation-invitation.schema';

export interface InvitationRecord {
  _id: string;
  organisationId: string;
  email: string;
  accountId: string | null;
  role: OrganisationRole;
  invitedAt: string;
  expiresAt: string;
}

type Lean = OrganisationInvitation & { _id: { toString(): string } };

function toRecord(doc: Lean): InvitationRecord {
  return {
    _id: doc._id.toString(),
    organisationId: doc.organisationId,
    email: doc.email,
    accountId: doc.accountId ?? null,
    role: doc.role,
    invitedAt: new Date(doc.invitedAt).toISOString(),
    expiresAt: new Date(doc.expiresAt).toISOString(),
  };
}

/**
 * The only place that touches organisation_invitations. Expired invitations are filtered out of
 * every read (the TTL index deletes them within a minute or so, not at once).
 */
@Injectable()
export class OrganisationInvitationsRepository {
  constructor(
    @InjectModel(OrganisationInvitation.name)
    private readonly invitations: Model<OrganisationInvitation>,
  ) {}

  /**
   * The invitation of this address to this organisation, made or renewed (role, account, dates):
   * one per address and organisation.
   */
  async upsert(
    data: Omit<InvitationRecord, '_id' | 'invitedAt' | 'expiresAt'> & {
      invitedAt: Date;
      expiresAt: Date;
    },
  ): Promise<InvitationRecord> {
    const doc = await upsertReturning((upsert) =>
      this.invitations
        .findOneAndUpdate(
          { organisationId: data.organisationId, email: data.email },
          { $set: data },
          { upsert, new: true },
        )
        .lean<Lean>()
        .exec(),
    );
    return toRecord(doc);
  }

  /** The organisation's invitations still open, oldest first. */
  async ofOrganisation(organisationId: string, now: Date): Promise<InvitationRecord[]> {
    const docs = await this.invitations
      .find({ organisationId, expiresAt: { $gt: now } })
      .sort({ invitedAt: 1, _id: 1 })
      .lean<Lean[]>();
    return docs.map(toRecord);
  }

  /** How many invitations of the organisation are open. */
  countOpen(organisationId: string, now: Date): Promise<number> {
    return this.invitations.countDocuments({ organisationId, expiresAt: { $gt: now } });
  }

  /** The open invitations this account may accept, oldest first. */
  async ofAccount(accountId: string, now: Date): Promise<InvitationRecord[]> {
    const docs = await this.invitations
      .find({ accountId, expiresAt: { $gt: now } })
      .sort({ invitedAt: 1, _id: 1 })
      .lean<Lean[]>();
    return docs.map(toRecord);
  }

  /** One open invitation, when `filter` also holds (its account, its organisation). */
  async findOpen(
    id: string,
    filter: { accountId?: string; organisationId?: string },
    now: Date,
  ): Promise<InvitationRecord | null> {
    if (!isValidObjectId(id)) return null;
    const doc = await this.invitations
      .findOne({ _id: id, ...filter, expiresAt: { $gt: now } })
      .lean<Lean>();
    return doc ? toRecord(doc) : null;
  }

  /** Deletes it, once: true for the caller that deleted it. */
  async delete(
    id: string,
    filter: { accountId?: string; organisationId?: string },
  ): Promise<boolean> {
    if (!isValidObjectId(id)) return false;
    const res = await this.invitations.deleteOne({ _id: id, ...filter });
    return res.deletedCount === 1;
  }

  /** Deletes the invitations to this account or these addresses (an erasure); how many. */
  async forget(accountId: string | null, emails: string[]): Promise<number> {
    const or: FilterQuery<OrganisationInvitation>[] = [];
    if (accountId) or.push({ accountId });
    if (emails.length) or.push({ email: { $in: emails } });
    if (!or.length) return 0;
    const res = await this.invitations.deleteMany({ $or: or });
    return res.deletedCount;
  }
}
