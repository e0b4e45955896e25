import { BadRequestException, Injectable, Logger } from '@nestjs/common';
import {
  AUDIT_EXPORT_LIMIT,
  describeAuditActivity,
  PAGE_SIZE,
  toCsv,
  type CsvValue,
} from '@spc/shared-contracts';
import { pageRequest } from '../common/pagination';
import type { Principal } from '../common/principal';
import { addDays, startOfShopDay } from '../reports/shop-time';
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

/** The audit trail: every change made by admin or staff, and every sign-in, as one entry each. */
@Injectable()
export class AuditService {
  private readonly logger = new Logger(AuditService.name);

  constructor(private readonly repository: AuditRepository) {}

  /**
   * Writes one entry. A failure to write is logged, never thrown: the change it describes has
   * already happened and the caller must hear so.
   */
  async record(
    actor: Principal,
    action: string,
    message: string,
    target?: AuditTargetRef,
  ): Promise<void> {
    try {
      await this.repository.insert({
        action,
        message,
        performedBy: { id: actor.id, fullName: actor.fullName, role: actor.role },
        target,
      });
    } catch (error) {
      this.logger.error(
        `Could not write audit entry ${action} (${message}): ${(error as Error).message}`,
      );
    }
  }

  async list(query: AuditQueryDto): Promise<{ items: AuditLogDto[]; total: number }> {
    const { skip, limit } = pageRequest(query, PAGE_SIZE.auditLogs);
    return this.repository.list(toFilter(query), skip, limit);
  }

  /**
   * The filtered trail as CSV, newest first: at most AUDIT_EXPORT_LIMIT entries (the newest), with
   * `total` saying how many matched. Cells starting like a formula are neutralised.
   */
  async exportCsv(filter: AuditFilterDto): Promise<{ csv: string; rows: number; total: number }> {
    const { items, total } = await this.repository.list(toFilter(filter), 0, AUDIT_EXPORT_LIMIT);
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
    return { csv: toCsv(rows), rows: items.length, total };
  }

  /** Who and what the trail can be filtered on. */
  async filterOptions(): Promise<AuditFilterOptionsData> {
    const [people, actions] = await Promise.all([
      this.repository.people(),
      this.repository.actions(),
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
