import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model } from 'mongoose';
import { AUDIT_SIGN_IN_ACTION, type Role } from '@spc/shared-contracts';
import type { AuditLogDto } from './dto/audit-log.dto';
import { AuditLog } from './schemas/audit-log.schema';

type LeanAudit = AuditLog & { _id: { toString(): string } };

export function toView(doc: LeanAudit): AuditLogDto {
  return {
    _id: doc._id.toString(),
    action: doc.action,
    message: doc.message,
    performedBy: {
      id: doc.performedBy.id,
      fullName: doc.performedBy.fullName,
      role: doc.performedBy.role,
    },
    user: doc.performedBy.id,
    ...(doc.target
      ? { target: { type: doc.target.type, id: doc.target.id, label: doc.target.label } }
      : {}),
    timestamp: new Date(doc.timestamp).toISOString(),
  };
}

@Injectable()
export class AuditRepository {
  constructor(@InjectModel(AuditLog.name) private readonly logs: Model<AuditLog>) {}

  async insert(entry: AuditLog): Promise<void> {
    await this.logs.create(entry);
  }

  /**
   * A page of the filtered trail, newest first, read in the order of an index, and its total
   * counted up to `countUpTo` or the page's end, whichever is further: past that the total is a
   * lower bound (`totalIsLowerBound`), so a trail of years costs a page and a bounded count.
   */
  async list(
    filter: AuditFilter,
    skip: number,
    limit: number,
    countUpTo: number,
  ): Promise<{ items: AuditLogDto[]; total: number; totalIsLowerBound: boolean }> {
    const query = toQuery(filter);
    const bound = Math.max(countUpTo, skip + limit);
    const [docs, counted] = await Promise.all([
      this.logs
        .find(query)
        .sort({ timestamp: -1, _id: -1 })
        .skip(skip)
        .limit(limit)
        .lean<LeanAudit[]>(),
      // One more than the bound: whether there are more than it.
      this.logs.countDocuments(query).limit(bound + 1),
    ]);
    const totalIsLowerBound = counted > bound;
    return {
      items: docs.map(toView),
      total: totalIsLowerBound ? bound : counted,
      totalIsLowerBound,
    };
  }

  /**
   * Entries a person made or that are about them (their account, orders, requests), oldest first:
   * `by` for their own, `about` for every id. A cursor: a customer of years has many sign-ins.
   */
  ofPerson(by: string | null, about: string[]) {
    const or: FilterQuery<AuditLog>[] = [{ 'target.id': { $in: about } }];
    if (by) or.push({ 'performedBy.id': by });
    return this.logs.find({ $or: or }).sort({ timestamp: 1, _id: 1 }).lean<LeanAudit[]>().cursor();
  }

  /** Rewrites entries' texts and names (an erasure): the action, time and ids stay. */
  async rewrite(
    changes: {
      id: unknown;
      set: { message?: string; 'performedBy.fullName'?: string; 'target.label'?: string };
    }[],
  ): Promise<void> {
    if (!changes.length) return;
    await this.logs.bulkWrite(
      changes.map((c) => ({ updateOne: { filter: { _id: c.id }, update: { $set: c.set } } })),
      { ordered: false },
    );
  }

  /** Every entry about one target (e.g. one order), oldest first, at most `limit`. */
  async forTarget(type: string, id: string, limit: number): Promise<AuditLogDto[]> {
    const docs = await this.logs
      .find({ 'target.id': id, 'target.type': type })
      .sort({ timestamp: 1, _id: 1 })
      .limit(limit)
      .lean<LeanAudit[]>();
    return docs.map(toView);
  }
}

/** An audit filter in database terms: instants, not days. */
export interface AuditFilter {
  action?: string;
  user?: string;
  role?: Role;
  /** Inclusive. */
  since?: Date;
  /** Exclusive. */
  before?: Date;
  hideCustomerSignIns?: boolean;
}

function toQuery(filter: AuditFilter): FilterQuery<AuditLog> {
  const query: FilterQuery<AuditLog> = {};
  if (filter.action) query.action = filter.action;
  if (filter.user) query['performedBy.id'] = filter.user;
  if (filter.role) query['performedBy.role'] = filter.role;
  // Always a time range (from the first instant when no day is given), so every filter is a prefix
  // of one of the trail's indexes, newest first (SecantusDB plans no sort alone).
  query.timestamp = {
    $gte: filter.since ?? new Date(0),
    ...(filter.before ? { $lt: filter.before } : {}),
  };
  if (filter.hideCustomerSignIns) {
    query.$nor = [{ action: AUDIT_SIGN_IN_ACTION, 'performedBy.role': 'customer' }];
  }
  return query;
}
