import { Injectable } from '@nestjs/common';
import { nextInSequence } from '../common/counters';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, Types, type FilterQuery, type Model } from 'mongoose';
import type {
  QuotationDelivery,
  QuotationRequestLine,
  QuotationStatus,
} from '@spc/shared-contracts';
import { escapeRegExp } from '../common/pagination';
import {
  quotationNumber,
  toRecord,
  type AcceptanceRecord,
  type LeanQuotation,
  type QuotationRecord,
  type VersionRecord,
} from './quotation-record';
import {
  Quotation,
  QuotationCounter,
  type StoredQuotationStatus,
} from './schemas/quotation.schema';

export interface NewQuotation {
  organisationId: string;
  organisationName: string;
  lines: QuotationRequestLine[];
  note: string;
  delivery: QuotationDelivery | null;
  requestedById: string;
  requestedByName: string;
  requestedByShop: boolean;
}

export interface QuotationFilter {
  status?: QuotationStatus;
  organisationId?: string;
  /** The start of the number (`QUO-0001`, `1`), or part of the organisation's name. */
  search?: string;
}

export interface NewMessage {
  from: 'organisation' | 'shop';
  authorId: string | null;
  authorName: string;
  text: string;
  at: Date;
}

/** The stored statuses a contract status is read from: `expired` is a `sent` one past its day. */
export function storedFor(statuses: readonly QuotationStatus[]): StoredQuotationStatus[] {
  return [
    ...new Set(
      statuses.flatMap((s): StoredQuotationStatus[] =>
        s === 'expired' ? ['sent'] : s === 'sent' ? ['sent'] : [s],
      ),
    ),
  ];
}

const storedVersion = (v: VersionRecord) => ({
  ...v,
  sentAt: v.sentAt ? new Date(v.sentAt) : null,
});

/**
 * The only place that touches the quotations collection. Each step is one conditional update of
 * one document: its condition is the rule (the statuses it may come from, the version it expects,
 * the claim it holds), so two steps at once never both happen.
 */
@Injectable()
export class QuotationsRepository {
  constructor(
    @InjectModel(Quotation.name) private readonly quotations: Model<Quotation>,
    @InjectModel(QuotationCounter.name) private readonly counters: Model<QuotationCounter>,
  ) {}

  private async one(
    filter: FilterQuery<Quotation>,
    update: Record<string, unknown>,
  ): Promise<QuotationRecord | null> {
    const doc = await this.quotations
      .findOneAndUpdate(filter, update, { new: true })
      .lean<LeanQuotation>();
    return doc ? toRecord(doc) : null;
  }

  /** The next number of the one sequence (`QUO-000001`, …). */
  async nextNumber(): Promise<string> {
    return quotationNumber(await nextInSequence(this.counters.collection, 'quotations'));
  }

  async insert(data: NewQuotation): Promise<QuotationRecord> {
    const number = await this.nextNumber();
    const doc = await this.quotations.create({
      number,
      organisationId: data.organisationId,
      organisationName: data.organisationName,
      status: 'requested',
      requestLines: data.lines.map((l) => ({ ...l, batchId: l.batchId ?? null })),
      requestNote: data.note,
      requestDelivery: data.delivery,
      requestedById: data.requestedById,
      requestedByName: data.requestedByName,
      requestedByShop: data.requestedByShop,
    });
    return toRecord(doc.toObject() as LeanQuotation);
  }

  async findById(id: string): Promise<QuotationRecord | null> {
    if (!isValidObjectId(id)) return null;
    const doc = await this.quotations.findById(id).lean<LeanQuotation>();
    return doc ? toRecord(doc) : null;
  }

  /** The condition of a contract status on the shop's day `today`. */
  private statusCondition(status: QuotationStatus, today: string): FilterQuery<Quotation> {
    if (status === 'sent')
      return { status: { $in: ['sent', 'accepting'] }, validUntil: { $gte: today } };
    if (status === 'expired')
      return { status: { $in: ['sent', 'accepting'] }, validUntil: { $lt: today } };
    return { status };
  }

  async page(
    filter: QuotationFilter,
    today: string,
    skip: number,
    limit: number,
  ): Promise<{ items: QuotationRecord[]; total: number }> {
    const query: FilterQuery<Quotation> = {
      ...(filter.status ? this.statusCondition(filter.status, today) : {}),
      ...(filter.organisationId ? { organisationId: filter.organisationId } : {}),
    };
    if (filter.search) {
      const text = escapeRegExp(filter.search);
      const digits = /^(QUO-?)?\d+$/i.test(filter.search)
        ? filter.search.replace(/^QUO-?/i, '').replace(/^0+/, '')
        : null;
      query.$or = [
        { number: { $regex: `^${escapeRegExp(filter.search.toUpperCase())}` } },
        { organisationName: { $regex: text, $options: 'i' } },
        ...(digits ? [{ number: { $regex: `^QUO-0*${digits}$` } }] : []),
      ];
    }
    const [docs, total] = await Promise.all([
      this.quotations
        .find(query)
        .sort({ updatedAt: -1, _id: -1 })
        .skip(skip)
        .limit(limit)
        .lean<LeanQuotation[]>(),
      this.quotations.countDocuments(query),
    ]);
    return { items: docs.map(toRecord), total };
  }

  /** Requests waiting for the shop to price them. */
  countAwaitingShop(): Promise<number> {
    return this.quotations.countDocuments({ status: 'requested' });
  }

  /** Saves the draft while the quotation may still be sent (not claimed, accepted or closed). */
  saveDraft(id: string, from: StoredQuotationStatus[], draft: VersionRecord) {
    return this.one({ _id: id, status: { $in: from } }, { $set: { draft: storedVersion(draft) } });
  }

  /** The draft becomes version `n + 1` when exactly `n` were sent (a concurrent send loses). */
  send(
    id: string,
    from: StoredQuotationStatus[],
    n: number,
    version: VersionRecord,
  ): Promise<QuotationRecord | null> {
    return this.one(
      {
        _id: id,
        status: { $in: from },
        draft: { $ne: null },
        [`versions.${n}`]: { $exists: false },
        ...(n > 0 ? { [`versions.${n - 1}`]: { $exists: true } } : {}),
      },
      {
        $push: { versions: storedVersion(version) },
        $set: { status: 'sent', validUntil: version.validUntil, draft: null, statusReason: '' },
      },
    );
  }

  /** Adds a message while there are fewer than `max`. */
  addMessage(id: string, message: NewMessage, max: number) {
    return this.one(
      { _id: id, [`messages.${max - 1}`]: { $exists: false } },
      { $push: { messages: { _id: new Types.ObjectId(), ...message } } },
    );
  }

  /** A step of the rules table: from the stored statuses `from`, to `to`. */
  changeStatus(
    id: string,
    from: StoredQuotationStatus[],
    to: StoredQuotationStatus,
    reason: string,
    message?: NewMessage,
  ) {
    return this.one(
      { _id: id, status: { $in: from } },
      {
        $set: { status: to, statusReason: reason },
        ...(message ? { $push: { messages: { _id: new Types.ObjectId(), ...message } } } : {}),
      },
    );
  }

  /**
   * Claims a sent quotation for acceptance (`sent → accepting`): only while it is valid on
   * `today` and `version` is its latest. The LPO's unique index refuses one already used.
   */
  claim(id: string, today: string, claim: AcceptanceRecord): Promise<QuotationRecord | null> {
    return this.one(
      {
        _id: id,
        status: 'sent',
        validUntil: { $gte: today },
        [`versions.${claim.version - 1}`]: { $exists: true },
        [`versions.${claim.version}`]: { $exists: false },
      },
      {
        $set: {
          status: 'accepting',
          acceptance: { ...claim, acceptedAt: new Date(claim.acceptedAt) },
        },
      },
    );
  }

  /** Gives the claim made at `claimedAt` back: the quotation is sent again. */
  release(id: string, claimedAt: string) {
    return this.one(
      { _id: id, status: 'accepting', 'acceptance.acceptedAt': new Date(claimedAt) },
      { $set: { status: 'sent', acceptance: null } },
    );
  }

  /** The claim made at `claimedAt` has its order: accepted. */
  markAccepted(id: string, claimedAt: string, orderId: string, purchaseNumber: string) {
    return this.one(
      { _id: id, status: 'accepting', 'acceptance.acceptedAt': new Date(claimedAt) },
      {
        $set: {
          status: 'accepted',
          'acceptance.orderId': orderId,
          'acceptance.purchaseNumber': purchaseNumber,
        },
      },
    );
  }

  /** The quotations this account asked for or wrote in (an export, an erasure). */
  async ofPerson(accountId: string): Promise<QuotationRecord[]> {
    const docs = await this.quotations
      .find({
        $or: [
          { requestedById: accountId },
          { 'messages.authorId': accountId },
          { 'acceptance.acceptedById': accountId },
        ],
      })
      .lean<LeanQuotation[]>();
    return docs.map(toRecord);
  }

  /**
   * Takes the person out of the quotations they asked for or wrote in: their account and name
   * (the request's, their messages', an acceptance's) become `anonymous`; every message, version
   * note and status reason of those quotations loses what `scrub` takes (names, phones, e-mails).
   */
  async forget(
    accountId: string,
    anonymous: string,
    scrub: (text: string) => string,
  ): Promise<void> {
    for (const q of await this.ofPerson(accountId)) {
      const scrubbed = new Map(q.messages.map((m) => [m._id, scrub(m.text)]));
      const set: Record<string, unknown> = {};
      if (q.requestedById === accountId) {
        set.requestedById = null;
        set.requestedByName = anonymous;
        set.requestNote = scrub(q.request.note);
      }
      q.messages.forEach((m, i) => {
        if (m.authorId === accountId) {
          set[`messages.${i}.authorId`] = null;
          set[`messages.${i}.authorName`] = anonymous;
        }
        const text = scrubbed.get(m._id);
        if (text !== undefined && text !== m.text) set[`messages.${i}.text`] = text;
      });
      // The shop's texts on them (a version's note, the draft's, the reason it was declined or
      // withdrawn with) may quote the person too.
      q.versions.forEach((v, i) => {
        const note = scrub(v.note);
        if (note !== v.note) set[`versions.${i}.note`] = note;
      });
      if (q.draft && scrub(q.draft.note) !== q.draft.note) set['draft.note'] = scrub(q.draft.note);
      if (scrub(q.statusReason) !== q.statusReason) set.statusReason = scrub(q.statusReason);
      if (q.acceptance?.acceptedById === accountId) {
        set['acceptance.acceptedById'] = null;
        set['acceptance.acceptedByName'] = anonymous;
      }
      if (Object.keys(set).length) await this.quotations.updateOne({ _id: q._id }, { $set: set });
    }
  }
}
