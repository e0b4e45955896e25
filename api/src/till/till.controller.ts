import {
  BadRequestException,
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiUnprocessableEntityResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer, MessageDto, said, type Answered } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import {
  CloseTillSessionDto,
  TillCollectDto,
  OpenTillSessionDto,
  SetOwnTillPinDto,
  SetTillPinDto,
  TillRefundDto,
  TillSaleDto,
  TillSettleDto,
  TillSalesQueryDto,
  TillSessionsQueryDto,
  TillSmsReceiptDto,
  TillVoidDto,
} from './dto/till-input.dto';
import {
  TillCashUpData,
  TillCashUpResponseDto,
  TillCurrentSessionData,
  TillCurrentSessionResponseDto,
  TillSaleData,
  TillSaleListData,
  TillSaleListResponseDto,
  TillSaleResponseDto,
  TillSessionData,
  TillSessionListData,
  TillSessionListResponseDto,
  TillSessionResponseDto,
} from './dto/till-view.dto';
import { TillCashUpDocuments } from './till-cash-up-documents';
import { TillPins } from './till-pins.service';
import { TillSales } from './till-sales.service';
import { TillSessions } from './till-sessions.service';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,100}$/;

/** The gate's till (issue 46): PINs, sessions and their cash-up, sales, voids and refunds. */
@ApiTags('till')
@Controller('till')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class TillController {
  constructor(
    private readonly pins: TillPins,
    private readonly sessions: TillSessions,
    private readonly sales: TillSales,
    private readonly documents: TillCashUpDocuments,
  ) {}

  @Put('pin')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Set your own till PIN (4-6 digits), confirmed with your password' })
  @Answer('Till PIN set', MessageDto)
  async setOwnPin(@CurrentUser() actor: Principal, @Body() dto: SetOwnTillPinDto): Promise<object> {
    await this.pins.setOwn(actor, dto.pin, dto.currentPassword);
    return {};
  }

  @Put('pin/:staffId')
  @Auth('admin')
  @ApiOperation({ summary: "Set (and so unlock) a staff member's till PIN" })
  @Answer('Till PIN set', MessageDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such staff member' })
  async setPin(
    @CurrentUser() actor: Principal,
    @Param('staffId', ParseObjectIdPipe) staffId: string,
    @Body() dto: SetTillPinDto,
  ): Promise<object> {
    await this.pins.setFor(actor, staffId, dto.pin);
    return {};
  }

  @Post('sessions')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Open your till session with a float (one open at a time)' })
  @Answer('Till session opened', TillSessionResponseDto, { status: 201 })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'You have a session open already' })
  async open(
    @CurrentUser() actor: Principal,
    @Body() dto: OpenTillSessionDto,
  ): Promise<TillSessionData> {
    return { session: await this.sessions.open(actor, dto.float) };
  }

  @Get('sessions/current')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Your open till session, or null' })
  @Answer('Till session retrieved', TillCurrentSessionResponseDto)
  async current(@CurrentUser() actor: Principal): Promise<TillCurrentSessionData> {
    return { session: await this.sessions.current(actor) };
  }

  @Get('sessions')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: "A day's till sessions: your own, or every one for an admin" })
  @Answer('Till sessions retrieved', TillSessionListResponseDto)
  async list(
    @CurrentUser() actor: Principal,
    @Query() query: TillSessionsQueryDto,
  ): Promise<TillSessionListData> {
    return { sessions: await this.sessions.ofDay(actor, query.day) };
  }

  @Get('sessions/:id')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary: "A session's cash-up: expected against counted, sellers, voids, refunds",
  })
  @Answer('Cash-up retrieved', TillCashUpResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such session of yours' })
  async cashUp(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<TillCashUpData> {
    return { cashUp: await this.sessions.cashUp(actor, id) };
  }

  @Post('sessions/:id/close')
  @HttpCode(200)
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Close a session with the cash counted (once)' })
  @Answer('Till session closed', TillCashUpResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such session of yours' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Closed already' })
  async close(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: CloseTillSessionDto,
  ): Promise<TillCashUpData> {
    return { cashUp: await this.sessions.close(actor, id, dto.countedCash) };
  }

  @Post('sessions/:id/reopen')
  @HttpCode(200)
  @Auth('admin')
  @ApiOperation({ summary: 'Reopen a closed session' })
  @Answer('Till session reopened', TillSessionResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Open already, or another is open' })
  async reopen(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<TillSessionData> {
    return { session: await this.sessions.reopen(actor, id) };
  }

  @Get('sessions/:id/cash-up.csv')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: "A session's cash-up as CSV (formula-looking cells written as text)" })
  @ApiOkResponse({ description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async cashUpCsv(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { csv, fileName } = this.documents.csv(await this.sessions.cashUp(actor, id));
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store');
    return csv;
  }

  @Get('sessions/:id/cash-up.pdf')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: "A session's cash-up as a PDF (A4)" })
  @ApiOkResponse({
    description: 'The PDF (A4)',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async cashUpPdf(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { pdf, fileName } = await this.documents.pdf(await this.sessions.cashUp(actor, id));
    await reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="${fileName}"`)
      .header('Cache-Control', 'private, no-store')
      .send(pdf);
  }

  @Post('sales')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Ring up a gate sale in your open session: placed, paid (cash, an M-Pesa code, or split) and handed over at once; or one sold while the till was offline (`offline`: its time and prices), sent when the network returns',
    description:
      'Stock is taken even below zero (a hand-over is never refused): the sale is `short` and its products flagged until counted. An offline sale needs an Idempotency-Key; its M-Pesa code counts only when its C2B confirmation (that code and amount) waits unclaimed in the inbox, else the sale is handed over marked `needs-attention`.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'The same key answers the same sale, however long after (till sale keys never expire); required offline (8-100 letters, digits, _ . : -)',
  })
  @Answer('Sale made', TillSaleResponseDto, { status: 201 })
  @ApiOkResponse({ type: TillSaleResponseDto, description: 'The same key again: the first sale' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not your session' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such session or product' })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'The session is closed, stock is short, or the M-Pesa code is in the ledger',
  })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponseDto,
    description: 'The Idempotency-Key was used for another sale',
  })
  async sell(
    @CurrentUser() actor: Principal,
    @Body() dto: TillSaleDto,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Answered<TillSaleData>> {
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key))
      throw new BadRequestException(
        'The Idempotency-Key header must be 8-100 letters, digits or _ . : -',
      );
    const { sale, replayed } = await this.sales.sell(actor, dto, key);
    reply.status(replayed ? HttpStatus.OK : HttpStatus.CREATED);
    return replayed ? said('This sale was already made', { sale }) : { sale };
  }

  @Get('sales')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: "A session's sales, oldest first (the day's list for reprints)" })
  @Answer('Sales retrieved', TillSaleListResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async listSales(
    @CurrentUser() actor: Principal,
    @Query() query: TillSalesQueryDto,
  ): Promise<TillSaleListData> {
    return { sales: await this.sales.list(actor, query.sessionId) };
  }

  @Get('sales/:orderId')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'One gate sale, as its receipt prints it (with eTIMS once signed)' })
  @Answer('Sale retrieved', TillSaleResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async sale(
    @CurrentUser() actor: Principal,
    @Param('orderId', ParseObjectIdPipe) orderId: string,
  ): Promise<TillSaleData> {
    return { sale: await this.sales.get(actor, orderId) };
  }

  @Post('sales/:orderId/settle')
  @HttpCode(200)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Pay what a sale needing attention owes (cash, or an M-Pesa code checked against the inbox again) in the sale’s own session, open (its clerk or an admin): it becomes paid',
  })
  @Answer('Sale settled (or still needing attention, with why)', TillSaleResponseDto)
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not your session' })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description:
      'The sale does not need attention, its session is closed (an admin reopens it), or another session was named',
  })
  async settle(
    @CurrentUser() actor: Principal,
    @Param('orderId', ParseObjectIdPipe) orderId: string,
    @Body() dto: TillSettleDto,
  ): Promise<TillSaleData> {
    return { sale: await this.sales.settle(actor, orderId, dto) };
  }

  @Post('bookings/:orderId/collect')
  @HttpCode(200)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Collect a booking at the gate: its balance taken (cash, an M-Pesa code, or split) and handed over in one call',
  })
  @Answer('Booking collected', TillSaleResponseDto)
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not your session' })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'The session is closed, the batch not ready, collected already, or the code taken',
  })
  async collect(
    @CurrentUser() actor: Principal,
    @Param('orderId', ParseObjectIdPipe) orderId: string,
    @Body() dto: TillCollectDto,
  ): Promise<TillSaleData> {
    return { sale: await this.sales.collect(actor, orderId, dto) };
  }

  @Post('sales/:orderId/sms')
  @HttpCode(202)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      "Text the sale's receipt to its phone (or the one given), within the SMS budgets; once per sale and number",
  })
  @Answer('SMS receipt queued', MessageDto, { status: 202 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async smsReceipt(
    @CurrentUser() actor: Principal,
    @Param('orderId', ParseObjectIdPipe) orderId: string,
    @Body() dto: TillSmsReceiptDto,
  ): Promise<object> {
    await this.sales.smsReceipt(actor, orderId, dto.phone);
    return {};
  }

  @Post('sales/:orderId/void')
  @HttpCode(200)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary: "Void a sale with a second person's PIN: its cash back, its stock returned (once)",
  })
  @Answer('Sale voided', TillSaleResponseDto)
  @ApiForbiddenResponse({
    type: ErrorResponseDto,
    description: 'No second person, a wrong or locked PIN',
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Voided already' })
  async void(
    @CurrentUser() actor: Principal,
    @Param('orderId', ParseObjectIdPipe) orderId: string,
    @Body() dto: TillVoidDto,
  ): Promise<TillSaleData> {
    return { sale: await this.sales.void(actor, orderId, dto) };
  }

  @Post('sales/:orderId/refund')
  @HttpCode(200)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary: "Refund part of a sale in cash with a second person's PIN (never above what is left)",
  })
  @Answer('Sale refunded', TillSaleResponseDto)
  @ApiForbiddenResponse({
    type: ErrorResponseDto,
    description: 'No second person, a wrong or locked PIN',
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Above what is left, or voided' })
  async refund(
    @CurrentUser() actor: Principal,
    @Param('orderId', ParseObjectIdPipe) orderId: string,
    @Body() dto: TillRefundDto,
  ): Promise<TillSaleData> {
    return { sale: await this.sales.refund(actor, orderId, dto.amount, dto) };
  }
}
