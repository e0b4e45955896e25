import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model } from 'mongoose';
import { AUDIT_SIGN_IN_ACTION, isCustomerSignIn, type Role } from '@spc/shared-contracts';
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

  async insert(entry: Omit<AuditLog, 'customerSignIn'>): Promise<void> {
    await this.logs.create({ ...entry, customerSignIn: isCustomerSignIn(entry) });
  }

  /**
   * A page of the filtered trail, newest first, and its total counted up to `countUpTo` or the
   * page's end, whichever is further: past that the total is a lower bound (`totalIsLowerBound`).
   *
   * Read by windows of time back from the newest (`trailWindows`: an hour, then each four times the
   * last): in each, the matches are counted, and the page's part is read in the order of an index,
   * until the page is filled and the count has passed its bound, or the filter's first day is
   * reached. A range read costs the keys in its range, whatever its limit (on SecantusDB: measured,
   * about 4 µs a key), so a page of the whole trail costs the entries of its last hours and a
   * thousand more, not the years.
   */
  async list(
    filter: AuditFilter,
    skip: number,
    limit: number,
    countUpTo: number,
  ): Promise<{ items: AuditLogDto[]; total: number; totalIsLowerBound: boolean }> {
    const query = toQuery(filter);
    const bound = Math.max(countUpTo, skip + limit);
    const docs: LeanAudit[] = [];
    let counted = 0;
    for (const window of trailWindows(filter)) {
      const inWindow = { ...query, timestamp: window };
      // The page starts here or before: its part is read beside the count.
      const reading = skip <= counted && docs.length < limit;
      const [n, read] = await Promise.all([
        // One more than the bound: whether there are more than it.
        this.count(inWindow, bound - counted + 1),
        reading ? this.page(inWindow, 0, limit - docs.length) : [],
      ]);
      if (!reading && docs.length < limit && skip < counted + n)
        docs.push(...(await this.page(inWindow, skip - counted, limit - docs.length)));
      docs.push(...read);
      counted += n;
      if (counted > bound) break;
    }
    const totalIsLowerBound = counted > bound;
    return {
      items: docs.map(toView),
      total: totalIsLowerBound ? bound : counted,
      totalIsLowerBound,
    };
  }

  /** The entries matching, up to `limit` (the count may stop there), from an index. */
  private count(query: FilterQuery<AuditLog>, limit: number): Promise<number> {
    return this.logs.countDocuments(query).limit(limit).exec();
  }

  private page(query: FilterQuery<AuditLog>, skip: number, limit: number) {
    return this.logs
      .find(query)
      .sort({ timestamp: -1, _id: -1 })
      .skip(skip)
      .limit(limit)
      .lean<LeanAudit[]>();
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

/** The trail's first window: the last hour (of the filter's last day); each next is GROWTH times longer. */
const FIRST_WINDOW_MS = 3_600_000;
const GROWTH = 4;

/**
 * The filter's time range as windows, newest first, each a range of `timestamp` meeting the next
 * (inclusive start, exclusive end): the first open-ended when no last day is given (an entry of an
 * instance whose clock runs ahead is in it), the last starting at the filter's first instant (the
 * first instant of all without a first day).
 */
export function* trailWindows(filter: AuditFilter): Generator<{ $gte: Date; $lt?: Date }> {
  const first = filter.since?.getTime() ?? 0;
  const anchor = filter.before?.getTime() ?? Date.now();
  let end = filter.before?.getTime();
  for (let span = FIRST_WINDOW_MS; ; span *= GROWTH) {
    const start = Math.max(first, anchor - span);
    yield { $gte: new Date(start), ...(end !== undefined ? { $lt: new Date(end) } : {}) };
    if (start <= first) return;
    end = start;
  }
}

/**
 * The filters but the days (`trailWindows` gives the range): each with a range of `timestamp` is a
 * prefix of one of the trail's indexes, newest first (SecantusDB plans no sort alone).
 */
function toQuery(filter: AuditFilter): FilterQuery<AuditLog> {
  const query: FilterQuery<AuditLog> = {};
  if (filter.action) query.action = filter.action;
  if (filter.user) query['performedBy.id'] = filter.user;
  if (filter.role) query['performedBy.role'] = filter.role;
  // Only where the other filters leave customers' sign-ins in.
  const signInsMatch =
    (!filter.role || filter.role === 'customer') &&
    (!filter.action || filter.action === AUDIT_SIGN_IN_ACTION);
  if (filter.hideCustomerSignIns && signInsMatch) query.customerSignIn = false;
  return query;
}
