import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  type PipeTransform,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  ETIMS_OFFICE_MESSAGES as M,
  type EtimsDocumentListResponse,
  type EtimsDocumentView,
  type EtimsSummaryResponse,
} from '@spc/shared-contracts';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal } from '../common/principal';
import {
  EtimsDocumentListQueryDto,
  EtimsDocumentListResponseDto,
  EtimsDocumentResponseDto,
  EtimsSignatureEntryDto,
  EtimsSummaryQueryDto,
  EtimsSummaryResponseDto,
  ResendEtimsDocumentDto,
} from './dto/etims-office.dto';
import { EtimsOffice } from './etims-office.service';

/** A document's source key as the queue writes it: `order:<id>:sale`, `refund:<entry>@<original>`… */
const SOURCE = /^[A-Za-z0-9][A-Za-z0-9:@._-]{0,199}$/;

class ParseSourcePipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (typeof value !== 'string' || !SOURCE.test(value)) throw new BadRequestException(M.source);
    return value;
  }
}

const Source = () => Param('source', new ParseSourcePipe());
const SOURCE_PARAM = ApiParam({
  name: 'source',
  example: 'order:6650f0c2a1b2c3d4e5f6a001:sale',
  description: "The document's source key (URL-encoded or not)",
});

/** The eTIMS queue in the back office (issue 45): what KRA has not signed, a resend, a signature by hand. */
@ApiTags('etims')
@Controller('etims/documents')
@Auth('staff', 'admin')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class EtimsDocumentsController {
  constructor(private readonly office: EtimsOffice) {}

  @Get()
  @ApiOperation({
    summary:
      "eTIMS documents by state (none: every one not signed yet) and tax-point days, newest first, with KRA's last code and words; empty with enabled false when eTIMS is off",
  })
  @Answer('eTIMS documents retrieved', EtimsDocumentListResponseDto)
  list(@Query() query: EtimsDocumentListQueryDto): Promise<EtimsDocumentListResponse> {
    return this.office.list(query);
  }

  @Post(':source/resend')
  @HttpCode(200)
  @SOURCE_PARAM
  @ApiOperation({
    summary:
      "Send a failed or pending document to KRA again under its number, with the buyer's KRA PIN or name fixed when given (audited)",
  })
  @Answer('Sent to KRA again', EtimsDocumentResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such document' })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description:
      'Signed already, on its way to KRA, a change to a pending one (KRA has its number), or eTIMS is off',
  })
  async resend(
    @CurrentUser() actor: Principal,
    @Source() source: string,
    @Body() dto: ResendEtimsDocumentDto,
  ): Promise<{ document: EtimsDocumentView }> {
    return { document: await this.office.resend(actor, source, dto ?? {}) };
  }

  @Post(':source/signature')
  @HttpCode(200)
  @SOURCE_PARAM
  @ApiOperation({
    summary:
      "Save the signature a clerk copied from KRA's portal for a pending document (KRA had its number and gave no signature) (audited)",
  })
  @Answer('Signature saved', EtimsDocumentResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such document' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Not pending, or eTIMS is off' })
  async signature(
    @CurrentUser() actor: Principal,
    @Source() source: string,
    @Body() dto: EtimsSignatureEntryDto,
  ): Promise<{ document: EtimsDocumentView }> {
    return { document: await this.office.signByHand(actor, source, dto) };
  }
}

/** The owner's daily eTIMS summary and its CSV. */
@ApiTags('reports')
@Controller('reports')
@Auth('staff', 'admin')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class EtimsReportsController {
  constructor(private readonly office: EtimsOffice) {}

  @Get('etims')
  @ApiOperation({
    summary:
      "Per shop day (Africa/Nairobi) of the documents' tax point: signed, pending, failed and waiting counts, and the signed documents' taxable amounts and tax by type A–E (credit notes subtract); at most 366 days",
  })
  @Answer('eTIMS summary', EtimsSummaryResponseDto)
  summary(@Query() query: EtimsSummaryQueryDto): Promise<EtimsSummaryResponse> {
    return this.office.summary(query.from, query.to);
  }

  @Get('etims.csv')
  @ApiOperation({
    summary:
      'The daily eTIMS summary as CSV: a row per day, then the totals (audited). Cells a spreadsheet would run as a formula are written as text',
  })
  @ApiOkResponse({
    description: 'CSV, one day a row',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  async summaryCsv(
    @CurrentUser() actor: Principal,
    @Query() query: EtimsSummaryQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { csv, fileName } = await this.office.summaryCsv(actor, query.from, query.to);
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store');
    return csv;
  }
}
