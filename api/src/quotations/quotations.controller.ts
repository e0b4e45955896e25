import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiBadRequestResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ParseIntPipe } from '@nestjs/common';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import {
  AcceptQuotationDto,
  CreateQuotationDto,
  QuotationDraftDto,
  QuotationListQueryDto,
  QuotationMessageDto,
  QuotationReasonDto,
} from './dto/quotation-input.dto';
import {
  AcceptedQuotationResponseDto,
  QuotationCountResponseDto,
  QuotationListResponseDto,
  QuotationResponseDto,
} from './dto/quotation-view.dto';
import { QuotationAcceptanceService } from './quotation-acceptance.service';
import { QuotationDocuments } from './quotation-documents';
import { QuotationStepsService } from './quotation-steps.service';
import { QuotationsService } from './quotations.service';

const NOT_FOUND = "No such quotation, or not one of the caller's organisation";
const ILLEGAL = 'ILLEGAL_TRANSITION: not from its status (the rule in words)';
const Id = () => Param('id', ParseObjectIdPipe);

/**
 * Quotations (issue 42). A customer acts on their organisation's (any other id answers 404) as its
 * approver or buyer; staff and admins on every one. The rules table QUOTATION_RULES says who takes
 * which step from which status.
 */
@ApiTags('quotations')
@Controller('quotations')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class QuotationsController {
  constructor(
    private readonly quotations: QuotationsService,
    private readonly steps: QuotationStepsService,
    private readonly acceptance: QuotationAcceptanceService,
    private readonly documents: QuotationDocuments,
  ) {}

  @Post()
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      'Ask for a quotation: a person of an approved organisation (its lines, note, delivery), or staff for one (organisationId)',
  })
  @Answer('Quotation requested', QuotationResponseDto, { status: 201 })
  @ApiForbiddenResponse({
    type: ErrorResponseDto,
    description: 'Not a person of an approved organisation',
  })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'Too many requests today' })
  async create(@CurrentUser() actor: Principal, @Body() dto: CreateQuotationDto) {
    return { quotation: await this.quotations.create(actor, dto) };
  }

  @Get()
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      "Quotations, latest change first, by status, organisation or number: staff all, a customer their organisation's",
  })
  @Answer('Quotations retrieved', QuotationListResponseDto)
  list(@CurrentUser() actor: Principal, @Query() query: QuotationListQueryDto) {
    return this.quotations.list(actor, query);
  }

  @Get('awaiting-shop/count')
  @Auth('staff', 'admin')
  @ApiOperation({ summary: 'How many quotations wait for the shop to price them' })
  @Answer('Quotations counted', QuotationCountResponseDto)
  async awaitingCount() {
    return { count: await this.quotations.countAwaitingShop() };
  }

  @Get(':id')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({ summary: 'A quotation with its versions and messages (the draft for the shop)' })
  @Answer('Quotation retrieved', QuotationResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  async get(@CurrentUser() actor: Principal, @Id() id: string) {
    return { quotation: await this.quotations.get(actor, id) };
  }

  @Put(':id/draft')
  @Auth('staff', 'admin')
  @ApiOperation({
    summary:
      "Price the quotation: lines (a price each, else the organisation's price list on the shop's price), delivery, fee, validity, note",
  })
  @Answer('Draft saved', QuotationResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: ILLEGAL })
  async saveDraft(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Body() dto: QuotationDraftDto,
  ) {
    return { quotation: await this.quotations.saveDraft(actor, id, dto) };
  }

  @Post(':id/send')
  @Auth('staff', 'admin')
  @ApiOperation({
    summary: 'Send the draft as the next version; its requester and approvers are e-mailed',
  })
  @Answer('Quotation sent', QuotationResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: `${ILLEGAL}; no draft` })
  async send(@CurrentUser() actor: Principal, @Id() id: string) {
    return { quotation: await this.quotations.send(actor, id) };
  }

  @Get(':id/versions/:version/pdf')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({ summary: 'A version sent, as a PDF (A4)' })
  @ApiParam({ name: 'version', schema: { type: 'integer', minimum: 1, maximum: 20 } })
  @ApiResponse({
    status: 200,
    description: 'The PDF (A4)',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: `${NOT_FOUND}; or no such version` })
  async pdf(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Param('version', new ParseIntPipe({ errorHttpStatusCode: 400 })) version: number,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { filename, pdf } = await this.documents.pdf(actor, id, version);
    await reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="${filename}"`)
      .header('Cache-Control', 'private, no-store')
      .send(pdf);
  }

  @Post(':id/messages')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary: "Write in the quotation's thread (its organisation's people, the shop)",
  })
  @Answer('Message sent', QuotationResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The thread is full' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'Too many messages today' })
  async write(@CurrentUser() actor: Principal, @Id() id: string, @Body() dto: QuotationMessageDto) {
    return { quotation: await this.steps.write(actor, id, dto.text) };
  }

  @Post(':id/ask-changes')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary: 'Ask for a revision (its people): the message says what; it waits for the shop again',
  })
  @Answer('Changes asked for', QuotationResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'The shop' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: ILLEGAL })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'Too many messages today' })
  async askChanges(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Body() dto: QuotationMessageDto,
  ) {
    return { quotation: await this.steps.act(actor, id, 'askChanges', dto.text) };
  }

  @Post(':id/decline')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({ summary: 'Decline a quotation sent (an approver of its organisation)' })
  @Answer('Quotation declined', QuotationResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not an approver' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: ILLEGAL })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'Too many messages today' })
  async decline(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Body() dto: QuotationReasonDto,
  ) {
    return { quotation: await this.steps.act(actor, id, 'decline', dto.reason) };
  }

  @Post(':id/withdraw')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({ summary: 'Withdraw a quotation (the shop)' })
  @Answer('Quotation withdrawn', QuotationResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not the shop' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: ILLEGAL })
  async withdraw(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Body() dto: QuotationReasonDto,
  ) {
    return { quotation: await this.steps.act(actor, id, 'withdraw', dto.reason) };
  }

  @Post(':id/accept')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      "Accept the latest version, still valid, with the LPO number (an approver, or staff on the buyer's written word): it becomes an order",
  })
  @Answer('Quotation accepted', AcceptedQuotationResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not an approver' })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: `${ILLEGAL}: expired, not the latest version; LPO_TAKEN: the LPO number was used; SHORT (with lines), CREDIT_LIMIT: the order cannot be placed`,
  })
  async accept(@CurrentUser() actor: Principal, @Id() id: string, @Body() dto: AcceptQuotationDto) {
    return this.acceptance.accept(actor, id, dto);
  }
}
