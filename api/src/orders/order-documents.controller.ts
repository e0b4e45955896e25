import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { OrderDocument } from '@spc/shared-contracts';
import { Answer } from '../common/answer';
import { Auth, Public } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { RateLimit } from '../common/rate-limit';
import {
  OrderDetailData,
  OrderDetailResponseDto,
  OrderDocumentQueryDto,
} from './dto/order-detail.dto';
import { OrderDetailService, type OrderPdf } from './order-detail.service';

const PDF_ANSWER = {
  status: 200,
  description: 'The PDF (A4)',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
};

/** The order detail screen's data, and an order's receipt and delivery note as PDFs. */
@ApiTags('orders')
@Controller('orders')
@ApiNotFoundResponse({ type: ErrorResponseDto })
export class OrderDocumentsController {
  constructor(private readonly detail: OrderDetailService) {}

  @Get(':id/detail')
  @Auth()
  @ApiOperation({
    summary:
      "One order with its timeline, the caller's actions (allowed, or refused with the reason) and its documents; a customer only their own, without staff names",
  })
  @Answer('Order retrieved', OrderDetailResponseDto)
  get(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<OrderDetailData> {
    return this.detail.detail(actor, id);
  }

  @Get(':id/receipt.pdf')
  @Public({ optionalUser: true })
  @RateLimit('tracking')
  @ApiOperation({
    summary:
      "The receipt of a paid order as a PDF: staff and admin any order, a customer their own; or anyone with the e-mail's signed link (`expires`, `signature`)",
  })
  @ApiResponse(PDF_ANSWER)
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The order is not paid' })
  @ApiGoneResponse({ type: ErrorResponseDto, description: 'The signed link has expired' })
  async receipt(
    @CurrentUser() actor: Principal | undefined,
    @Param('id', ParseObjectIdPipe) id: string,
    @Query() link: OrderDocumentQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.send(reply, await this.detail.document(actor, id, 'receipt', link));
  }

  @Get(':id/delivery-note.pdf')
  @Public({ optionalUser: true })
  @RateLimit('tracking')
  @ApiOperation({
    summary:
      'The delivery note (address, phone, lines, a signature line) as a PDF: staff and admin any order, a customer their own paid one; or with a signed link',
  })
  @ApiResponse(PDF_ANSWER)
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The order is not paid (customer)' })
  @ApiGoneResponse({ type: ErrorResponseDto, description: 'The signed link has expired' })
  async deliveryNote(
    @CurrentUser() actor: Principal | undefined,
    @Param('id', ParseObjectIdPipe) id: string,
    @Query() link: OrderDocumentQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const kind: OrderDocument = 'delivery-note';
    await this.send(reply, await this.detail.document(actor, id, kind, link));
  }

  private async send(reply: FastifyReply, { filename, pdf }: OrderPdf): Promise<void> {
    await reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="${filename}"`)
      .header('Cache-Control', 'private, no-store')
      .send(pdf);
  }
}
