import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth } from '../common/access.decorators';
import { AuditService } from './audit.service';
import { AuditLogDto, AuditQueryDto } from './dto/audit-log.dto';

@ApiTags('audit')
@Controller('audit-logs')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Auth('admin')
  @ApiOperation({
    summary: 'Audit trail, newest first (a plain array; the total is in X-Total-Count)',
  })
  @ApiOkResponse({
    type: [AuditLogDto],
    headers: {
      'X-Total-Count': { description: 'Entries matching, all pages', schema: { type: 'integer' } },
    },
  })
  async list(
    @Query() query: AuditQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuditLogDto[]> {
    const { items, total } = await this.audit.list(query);
    reply.header('X-Total-Count', String(total));
    return items;
  }
}
