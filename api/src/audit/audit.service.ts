import { BadRequestException, Injectable, Logger } from '@nestjs/common';
import {
  AUDIT_COUNT_LIMIT,
  AUDIT_EXPORT_LIMIT,
  describeAuditActivity,
  PAGE_SIZE,
  toCsv,
  type CsvValue,
} from '@spc/shared-contracts';
import { pageRequest } from '../common/pagination';
import type { Actor, Principal } from '../common/principal';
import { addDays, startOfShopDay } from '../common/shop-clock';
import { AuditDirectoryRepository } from './audit-directory.repository';
import { AuditRepository, type AuditFilter } from './audit.repository';
import type {
  AuditFilterDto,
  AuditFilterOptionsData,
  AuditLogDto,
  AuditQueryDto,
} from './dto/audit-log.dto';

export interface AuditTargetRef {
  type: string;
  id: string;
  label?: string;
}

/** The roles whose people the trail's filter lists (customers, many, are reached by role), at most how many. */
const PEOPLE_ROLES = ['admin', 'staff', 'system'] as const;
const MAX_PEOPLE = 1000;

/** A page of the trail and how many entries match (at least, when `totalIsLowerBound`). */
export interface AuditPage {
  items: AuditLogDto[];
  total: number;
  totalIsLowerBound: boolean;
}

/** The audit trail: every change made by admin or staff, and every sign-in, as one entry each. */
@Injectable()
export class AuditService {
  private readonly logger = new Logger(AuditService.name);

  constructor(
    private readonly repository: AuditRepository,
    private readonly directory: AuditDirectoryRepository,
  ) {}

  /**
   * Writes one entry. A failure to write is logged, never thrown: the change it describes has
   * already happened and the caller must hear so.
   */
  async record(
    actor: Actor,
    action: string,
    message: string,
    target?: AuditTargetRef,
  ): Promise<void> {
    const entry = {
      action,
      message,
      performedBy: { id: actor.id, fullName: actor.fullName, role: actor.role },
      target,
      timestamp: new Date(),
    };
    // The entry and the directory of the trail's filters (its action and author), side by side.
    const [written, noted] = await Promise.allSettled([
      this.repository.insert(entry),
      this.directory.note(entry),
    ]);
    // Not the message: it names people (and e-mails), which the logs keep none of.
    const about = `${action}${target ? ` about ${target.type} ${target.id}` : ''}`;
    if (written.status === 'rejected')
      this.logger.error(
        `Could not write audit entry ${about}: ${(written.reason as Error).message}`,
      );
    else if (noted.status === 'rejected')
      this.logger.warn(
        `Could not note audit entry ${about} in the trail's filters: ${(noted.reason as Error).message}`,
      );
  }

  /**
   * One entry for a file taken out of the shop (a CSV export, an order's PDF): who (the entry's
   * author), when (its time), what and which range (`what`, e.g. "12 orders as CSV (from 2026-01-01
   * to 2026-01-31; status Pending)"). Never about an order's own timeline: its target is the file.
   */
  recordExport(actor: Principal, action: string, file: string, what: string): Promise<void> {
    return this.record(actor, action, `${actor.fullName} exported ${what}`, {
      type: 'export',
      id: file,
      label: what,
    });
  }

  /** A page of the trail; its total counted up to AUDIT_COUNT_LIMIT (or the page), then "or more". */
  async list(query: AuditQueryDto): Promise<AuditPage> {
    const { skip, limit } = pageRequest(query, PAGE_SIZE.auditLogs);
    return this.repository.list(toFilter(query), skip, limit, AUDIT_COUNT_LIMIT);
  }

  /**
   * The filtered trail as CSV, newest first: at most AUDIT_EXPORT_LIMIT entries (the newest), with
   * `total` saying how many matched. Cells starting like a formula are neutralised.
   */
  async exportCsv(
    actor: Principal,
    filter: AuditFilterDto,
  ): Promise<{ csv: string; rows: number; total: number; totalIsLowerBound: boolean }> {
    const { items, total, totalIsLowerBound } = await this.repository.list(
      toFilter(filter),
      0,
      AUDIT_EXPORT_LIMIT,
      AUDIT_COUNT_LIMIT,
    );
    const rows: CsvValue[][] = [
      ['timestamp', 'user', 'role', 'activity', 'action', 'message', 'record_type', 'record'],
    ];
    for (const e of items) {
      rows.push([
        e.timestamp,
        e.performedBy.fullName,
        e.performedBy.role,
        describeAuditActivity(e.action, e.target?.label),
        e.action,
        e.message,
        e.target?.type,
        e.target?.label ?? e.target?.id,
      ]);
    }
    const csv = toCsv(rows);
    await this.recordExport(
      actor,
      'audit.export',
      'audit-trail.csv',
      `${countOf(items.length, 'audit entry', 'audit entries')} as CSV (${describeFilters(filter)})`,
    );
    return { csv, rows: items.length, total, totalIsLowerBound };
  }

  /** Who and what the trail can be filtered on. */
  async filterOptions(): Promise<AuditFilterOptionsData> {
    const [people, actions] = await Promise.all([
      this.directory.people(PEOPLE_ROLES, MAX_PEOPLE),
      this.directory.actions(),
    ]);
    return { people, actions };
  }

  /** Every entry about one target (an order's timeline), oldest first. */
  forTarget(type: string, id: string, limit = 500): Promise<AuditLogDto[]> {
    return this.repository.forTarget(type, id, limit);
  }
}

/** The query's shop days as instants: from the start of `from` to the end of `to`. */
function toFilter(query: AuditFilterDto): AuditFilter {
  if (query.from && query.to && query.from > query.to)
    throw new BadRequestException('from must be on or before to');
  return {
    action: query.action,
    user: query.user,
    role: query.role,
    since: query.from ? startOfShopDay(query.from) : undefined,
    before: query.to ? startOfShopDay(addDays(query.to, 1)) : undefined,
    hideCustomerSignIns: query.hideCustomerSignIns === 'true',
  };
}

/** "1 order", "12 orders". */
export const countOf = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Paging and ordering say nothing about what an export holds. */
const NOT_FILTERS = new Set(['page', 'limit', 'sortBy', 'sortOrder']);

/**
 * The filters of a list or an export in words, dates first: "from 2026-01-01 to 2026-01-31; status
 * Pending", or "all dates" without any.
 */
export function describeFilters(query: object): string {
  const q = query as Record<string, unknown>;
  const from = typeof q.from === 'string' ? q.from : undefined;
  const to = typeof q.to === 'string' ? q.to : undefined;
  const range =
    from && to ? `from ${from} to ${to}` : from ? `from ${from}` : to ? `up to ${to}` : 'all dates';
  const others = Object.entries(q)
    .filter(
      ([k, v]) => !['from', 'to'].includes(k) && !NOT_FILTERS.has(k) && v !== undefined && v !== '',
    )
    // A search names a person (a phone, an e-mail, a name): the trail keeps that one was made, not
    // what it was, so an erased customer is not left in it (issue 39).
    .map(([k, v]) =>
      k === 'search' || k === 'q'
        ? `${k} [personal]`
        : `${k} ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`,
    );
  return [range, ...others].join('; ');
}
