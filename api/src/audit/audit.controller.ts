import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AUDIT_COUNT_LIMIT,
  AUDIT_EXPORT_LIMIT,
  TOTAL_IS_LOWER_BOUND_HEADER,
} from '@spc/shared-contracts';
import type { FastifyReply } from 'fastify';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import type { Principal } from '../common/principal';
import { AuditService } from './audit.service';
import {
  AuditFilterDto,
  AuditFilterOptionsData,
  AuditFilterOptionsDto,
  AuditLogDto,
  AuditQueryDto,
} from './dto/audit-log.dto';

const TOTAL_HEADERS = {
  'X-Total-Count': {
    description: `Entries matching, all pages: counted up to ${AUDIT_COUNT_LIMIT} (or the end of the page asked for, if further), then a lower bound`,
    schema: { type: 'integer' },
  },
  [TOTAL_IS_LOWER_BOUND_HEADER]: {
    description:
      'true when more entries match than X-Total-Count says (the count stopped at its bound: show it as "1,000+", and a next page exists), else false. The orders list\'s totalIsLowerBound, beside the total: this answer is a plain array.',
    schema: { type: 'boolean' },
  },
};

@ApiTags('audit')
@Controller('audit-logs')
@Auth('admin')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({
    summary:
      'Audit trail, newest first (a plain array; the total is in X-Total-Count, a lower bound when X-Total-Is-Lower-Bound is true)',
  })
  @ApiOkResponse({ type: [AuditLogDto], headers: TOTAL_HEADERS })
  async list(
    @Query() query: AuditQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuditLogDto[]> {
    const { items, total, totalIsLowerBound } = await this.audit.list(query);
    reply
      .header('X-Total-Count', String(total))
      .header(TOTAL_IS_LOWER_BOUND_HEADER, String(totalIsLowerBound));
    return items;
  }

  @Get('filters')
  @ApiOperation({ summary: 'The people (admins and staff) and action codes the trail holds' })
  @Answer('Audit trail filters', AuditFilterOptionsDto)
  filters(): Promise<AuditFilterOptionsData> {
    return this.audit.filterOptions();
  }

  @Get('export')
  @ApiOperation({
    summary: `The filtered audit trail as CSV, newest first, at most ${AUDIT_EXPORT_LIMIT} entries`,
    description:
      'X-Total-Count says how many entries matched (at least, when X-Total-Is-Lower-Bound is true); when it is above the limit, or a lower bound, only the newest are in the file.',
  })
  @ApiOkResponse({
    description: 'CSV, one entry a row',
    content: { 'text/csv': { schema: { type: 'string' } } },
    headers: TOTAL_HEADERS,
  })
  async export(
    @CurrentUser() actor: Principal,
    @Query() query: AuditFilterDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { csv, total, totalIsLowerBound } = await this.audit.exportCsv(actor, query);
    reply
      .header('X-Total-Count', String(total))
      .header(TOTAL_IS_LOWER_BOUND_HEADER, String(totalIsLowerBound))
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="audit-trail.csv"');
    return csv;
  }
}
