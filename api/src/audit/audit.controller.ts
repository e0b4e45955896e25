import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AUDIT_EXPORT_LIMIT } from '@spc/shared-contracts';
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

const TOTAL_HEADER = {
  'X-Total-Count': { description: 'Entries matching, all pages', schema: { type: 'integer' } },
};

@ApiTags('audit')
@Controller('audit-logs')
@Auth('admin')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({
    summary: 'Audit trail, newest first (a plain array; the total is in X-Total-Count)',
  })
  @ApiOkResponse({ type: [AuditLogDto], headers: TOTAL_HEADER })
  async list(
    @Query() query: AuditQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuditLogDto[]> {
    const { items, total } = await this.audit.list(query);
    reply.header('X-Total-Count', String(total));
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
      'X-Total-Count says how many entries matched; when it is above the limit only the newest are in the file.',
  })
  @ApiOkResponse({
    description: 'CSV, one entry a row',
    content: { 'text/csv': { schema: { type: 'string' } } },
    headers: TOTAL_HEADER,
  })
  async export(
    @CurrentUser() actor: Principal,
    @Query() query: AuditFilterDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { csv, total } = await this.audit.exportCsv(actor, query);
    reply
      .header('X-Total-Count', String(total))
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="audit-trail.csv"');
    return csv;
  }
}
