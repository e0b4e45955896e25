import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { StatementData, StatementQueryDto, StatementResponseDto } from './dto/statement.dto';
import { InvoiceStatements } from './invoice-statements';

/**
 * An organisation's statement of account (issue 44): as JSON, a PDF or CSV. The shop reads every
 * organisation's; its people (any role) their own, another's answers 404 as a missing one.
 */
@ApiTags('invoices')
@ApiExtraModels(StatementResponseDto)
@Controller('organisations')
export class StatementsController {
  constructor(private readonly statements: InvoiceStatements) {}

  @Get(':id/statement')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      "An organisation's statement of account over a period (at most two years, to today at the latest): opening balance, invoices and settlements with the running balance, closing balance, ageing; format=pdf|csv answers the file statement-<PIN>-<to>.pdf|.csv",
  })
  // The answer's three forms, each under its own content type (applied after `@Answer`, so it
  // replaces the JSON-only response that one declares).
  @ApiResponse({
    status: 200,
    description:
      'The statement as JSON; format=pdf: the PDF (A4, application/pdf), format=csv: CSV (text/csv), as an attachment',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(StatementResponseDto) } },
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @Answer('Statement', StatementResponseDto)
  @ApiNotFoundResponse({
    type: ErrorResponseDto,
    description: 'No such organisation, or not one the caller buys for',
  })
  async statement(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Query() query: StatementQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StatementData | Buffer | string> {
    const format = query.format ?? 'json';
    if (format === 'json') return this.statements.statement(actor, id, query);
    const file = await this.statements.file(actor, id, query, format);
    void reply
      .header('Content-Type', file.contentType)
      .header('Content-Disposition', `attachment; filename="${file.filename}"`)
      .header('Cache-Control', 'private, no-store');
    return file.body;
  }
}
