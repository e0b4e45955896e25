import { Injectable, Logger } from '@nestjs/common';
import { PAGE_SIZE } from '@spc/shared-contracts';
import { pageRequest } from '../common/pagination';
import type { Principal } from '../common/principal';
import { AuditRepository } from './audit.repository';
import type { AuditLogDto, AuditQueryDto } from './dto/audit-log.dto';

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
    return this.repository.list({ action: query.action }, skip, limit);
  }

  /** Every entry about one target (an order's timeline), oldest first. */
  forTarget(type: string, id: string, limit = 500): Promise<AuditLogDto[]> {
    return this.repository.forTarget(type, id, limit);
  }
}
