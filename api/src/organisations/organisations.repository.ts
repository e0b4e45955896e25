import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, type FilterQuery, type Model, type UpdateQuery } from 'mongoose';
import type {
  OrganisationContact,
  OrganisationKind,
  OrganisationRole,
  OrganisationStatus,
  OrganisationTerms,
  PriceList,
} from '@spc/shared-contracts';
import { canonicalPhone } from '../common/identifiers';
import { escapeRegExp } from '../common/pagination';
import { toRecord, type LeanOrganisation, type OrganisationRecord } from './organisation-record';
import { Organisation } from './schemas/organisation.schema';

export interface NewOrganisation {
  name: string;
  kraPin: string;
  kind: OrganisationKind;
  status: OrganisationStatus;
  billingContact: OrganisationContact;
  deliveryContact: OrganisationContact;
  /** The first person: the customer who signed it up, as its approver. */
  firstApprover?: string;
}

export interface OrganisationFilter {
  status?: OrganisationStatus;
  kind?: OrganisationKind;
  /** Part of the name, or the start of the KRA PIN. */
  search?: string;
}

export type OrganisationChanges = Partial<
  Pick<OrganisationRecord, 'name' | 'kraPin' | 'kind' | 'billingContact' | 'deliveryContact'>
>;

/** An erased contact's phone is blank: it keys nothing. */
const contactPhoneKey = (phone: string) => (phone ? canonicalPhone(phone) : '');
const withKey = (c: OrganisationContact) => ({ ...c, phoneKey: contactPhoneKey(c.phone) });

/** "Another approver than `accountId` remains": the condition of every change that loses one. */
const anotherApprover = (accountId: string) => ({
  members: { $elemMatch: { accountId: { $ne: accountId }, role: 'approver' } },
});

/**
 * The only place that touches the organisations collection. Each method is one atomic operation;
 * those about people carry the organisation's rules in their condition (a customer in one
 * organisation, at least one approver), so two changes at once can never break them.
 */
@Injectable()
export class OrganisationsRepository {
  constructor(@InjectModel(Organisation.name) private readonly orgs: Model<Organisation>) {}

  /** Inserts it; a KRA PIN or a first approver already taken throws the duplicate-key error. */
  async insert(data: NewOrganisation, at: Date): Promise<OrganisationRecord> {
    const { firstApprover, ...fields } = data;
    const doc = await this.orgs.create({
      ...fields,
      billingContact: withKey(fields.billingContact),
      deliveryContact: withKey(fields.deliveryContact),
      members: firstApprover ? [{ accountId: firstApprover, role: 'approver', joinedAt: at }] : [],
    });
    return toRecord(doc.toObject() as LeanOrganisation);
  }

  async findById(id: string): Promise<OrganisationRecord | null> {
    if (!isValidObjectId(id)) return null;
    const doc = await this.orgs.findById(id).lean<LeanOrganisation>();
    return doc ? toRecord(doc) : null;
  }

  /** The organisation this account buys for, if any. */
  async findByMember(accountId: string): Promise<OrganisationRecord | null> {
    const doc = await this.orgs
      .findOne({ 'members.accountId': accountId })
      .lean<LeanOrganisation>();
    return doc ? toRecord(doc) : null;
  }

  async page(
    filter: OrganisationFilter,
    skip: number,
    limit: number,
  ): Promise<{ items: OrganisationRecord[]; total: number }> {
    const query: FilterQuery<Organisation> = {};
    if (filter.status) query.status = filter.status;
    if (filter.kind) query.kind = filter.kind;
    if (filter.search) {
      const text = escapeRegExp(filter.search);
      query.$or = [
        { name: { $regex: text, $options: 'i' } },
        { kraPin: { $regex: `^${escapeRegExp(filter.search.toUpperCase())}` } },
      ];
    }
    const [docs, total] = await Promise.all([
      this.orgs
        .find(query)
        .sort({ createdAt: -1, _id: -1 })
        .skip(skip)
        .limit(limit)
        .lean<LeanOrganisation[]>(),
      this.orgs.countDocuments(query),
    ]);
    return { items: docs.map(toRecord), total };
  }

  /** Changes its details; a KRA PIN taken by another throws the duplicate-key error. */
  update(id: string, changes: OrganisationChanges): Promise<OrganisationRecord | null> {
    const set: Record<string, unknown> = { ...changes };
    if (changes.billingContact) set.billingContact = withKey(changes.billingContact);
    if (changes.deliveryContact) set.deliveryContact = withKey(changes.deliveryContact);
    return this.change({ _id: id }, { $set: set });
  }

  /** Moves it to `to` only from one of `from` (null: it was in none of them, or is gone). */
  changeStatus(
    id: string,
    from: readonly OrganisationStatus[],
    to: OrganisationStatus,
    reason: string,
  ): Promise<OrganisationRecord | null> {
    return this.change(
      { _id: id, status: { $in: [...from] } },
      { $set: { status: to, statusReason: reason } },
    );
  }

  /** Sets the terms given; `invoicing` left out keeps what the organisation has. */
  setTerms(
    id: string,
    terms: Omit<OrganisationTerms, 'invoicing'> & Partial<Pick<OrganisationTerms, 'invoicing'>>,
  ): Promise<OrganisationRecord | null> {
    const set = Object.fromEntries(
      Object.entries(terms)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [`terms.${k}`, v]),
    );
    return this.change({ _id: id }, { $set: set });
  }

  setPriceList(id: string, priceList: PriceList): Promise<OrganisationRecord | null> {
    return this.change({ _id: id }, { $set: { priceList } });
  }

  /**
   * Adds a person, unless the organisation was declined, already has them, or has `maxPeople`;
   * an account already in another organisation throws the duplicate-key error.
   */
  addMember(
    id: string,
    member: { accountId: string; role: OrganisationRole; joinedAt: Date },
    maxPeople: number,
  ): Promise<OrganisationRecord | null> {
    return this.change(
      {
        _id: id,
        status: { $ne: 'declined' },
        'members.accountId': { $ne: member.accountId },
        [`members.${maxPeople - 1}`]: { $exists: false },
      },
      { $push: { members: member } },
    );
  }

  /** Gives a person another role; making an approver a buyer needs another approver to remain. */
  changeRole(
    id: string,
    accountId: string,
    role: OrganisationRole,
  ): Promise<OrganisationRecord | null> {
    const filter: FilterQuery<Organisation> = { _id: id, 'members.accountId': accountId };
    if (role !== 'approver') Object.assign(filter, anotherApprover(accountId));
    return this.change(
      filter,
      { $set: { 'members.$[person].role': role } },
      { arrayFilters: [{ 'person.accountId': accountId }] },
    );
  }

  /** Removes a person: a buyer, or an approver while another approver remains. */
  removeMember(id: string, accountId: string): Promise<OrganisationRecord | null> {
    return this.change(
      {
        _id: id,
        $or: [
          { members: { $elemMatch: { accountId, role: 'buyer' } } },
          { 'members.accountId': accountId, ...anotherApprover(accountId) },
        ],
      },
      { $pull: { members: { accountId } } },
    );
  }

  /** Rewrites the shop's reason for its status (an erasure takes a person out of it). */
  async setStatusReason(id: string, reason: string): Promise<void> {
    await this.orgs.updateOne({ _id: id }, { $set: { statusReason: reason } });
  }

  /** Takes the account out of any organisation, whatever its role (an erasure); how many. */
  async forgetMember(accountId: string): Promise<number> {
    const res = await this.orgs.updateMany(
      { 'members.accountId': accountId },
      { $pull: { members: { accountId } } },
    );
    return res.modifiedCount;
  }

  /**
   * The organisations whose billing or delivery contact has one of these e-mails (lower case) or
   * phones (E.164).
   */
  async withContacts(emails: string[], phones: string[]): Promise<OrganisationRecord[]> {
    if (!emails.length && !phones.length) return [];
    const or: FilterQuery<Organisation>[] = [];
    for (const which of ['billingContact', 'deliveryContact']) {
      if (emails.length) or.push({ [`${which}.email`]: { $in: emails } });
      if (phones.length) or.push({ [`${which}.phoneKey`]: { $in: phones } });
    }
    const docs = await this.orgs.find({ $or: or }).lean<LeanOrganisation[]>();
    return docs.map(toRecord);
  }

  /** Replaces one organisation's contacts (an erasure writes them without the person). */
  async setContacts(
    id: string,
    contacts: Partial<Record<'billingContact' | 'deliveryContact', OrganisationContact>>,
  ): Promise<void> {
    const set: Record<string, unknown> = {};
    for (const [which, c] of Object.entries(contacts))
      set[which] = { ...c, phoneKey: contactPhoneKey(c.phone) };
    await this.orgs.updateOne({ _id: id }, { $set: set });
  }

  private async change(
    filter: FilterQuery<Organisation>,
    update: UpdateQuery<Organisation>,
    options: { arrayFilters?: Record<string, unknown>[] } = {},
  ): Promise<OrganisationRecord | null> {
    if (!isValidObjectId(filter._id)) return null;
    const doc = await this.orgs
      .findOneAndUpdate(filter, update, { new: true, runValidators: true, ...options })
      .lean<LeanOrganisation>();
    return doc ? toRecord(doc) : null;
  }
}
