import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model } from 'mongoose';
import { AUDIT_SIGN_IN_ACTION, type Role } from '@spc/shared-contracts';
import type { AuditLogDto, AuditPersonDto } from './dto/audit-log.dto';
import { AuditLog } from './schemas/audit-log.schema';

type LeanAudit = AuditLog & { _id: { toString(): string } };

/** The roles whose people the trail's filter lists, and at most how many people. */
const PEOPLE_ROLES = ['admin', 'staff', 'system'] as const;
const MAX_PEOPLE = 1000;

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

  async insert(entry: Omit<AuditLog, 'timestamp'>): Promise<void> {
    await this.logs.create({ ...entry, timestamp: new Date() });
  }

  async list(
    filter: AuditFilter,
    skip: number,
    limit: number,
  ): Promise<{ items: AuditLogDto[]; total: number }> {
    const query = toQuery(filter);
    const [docs, total] = await Promise.all([
      this.logs
        .find(query)
        .sort({ timestamp: -1, _id: -1 })
        .skip(skip)
        .limit(limit)
        .lean<LeanAudit[]>(),
      this.logs.countDocuments(query),
    ]);
    return { items: docs.map(toView), total };
  }

  /**
   * The admins, staff and the shop's own actors (system) in the trail, each as their latest entry
   * names them: one indexed seek per person and role (the next person's id after the last, newest
   * entry first), so its cost follows the number of people, not the years of entries.
   */
  async people(): Promise<AuditPersonDto[]> {
    const latest = new Map<string, { fullName: string; role: string; at: number }>();
    for (const role of PEOPLE_ROLES) {
      let after: string | undefined;
      for (let n = 0; n < MAX_PEOPLE; n++) {
        const doc = await this.logs
          .findOne({
            'performedBy.role': role,
            'performedBy.id': after === undefined ? { $gte: '' } : { $gt: after },
          })
          .sort({ 'performedBy.id': 1, timestamp: -1 })
          .select('performedBy timestamp')
          .lean<Pick<LeanAudit, 'performedBy' | 'timestamp'>>();
        if (!doc) break;
        const { id, fullName } = doc.performedBy;
        after = id;
        const at = new Date(doc.timestamp).getTime();
        // One who changed role (staff made admin) is named as their latest entry names them.
        if ((latest.get(id)?.at ?? -Infinity) < at) latest.set(id, { fullName, role, at });
      }
    }
    return [...latest]
      .map(([id, p]) => ({ id, fullName: p.fullName, role: p.role }))
      .sort((a, b) =>
        a.fullName !== b.fullName ? (a.fullName < b.fullName ? -1 : 1) : a.id < b.id ? -1 : 1,
      )
      .slice(0, MAX_PEOPLE) as AuditPersonDto[];
  }

  /** Every action code in the trail, sorted. */
  async actions(): Promise<string[]> {
    // Grouped from the {action, timestamp} index (a bare distinct is a scan on SecantusDB).
    const rows = await this.logs.aggregate<{ _id: string }>([
      { $match: { action: { $gte: '' } } },
      { $group: { _id: '$action' } },
    ]);
    return rows.map((r) => r._id).sort();
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
