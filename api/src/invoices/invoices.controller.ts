import { Body, Controller, Get, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { InvoiceListResponse, InvoiceView } from '@spc/shared-contracts';
import { Answer, said, type Answered } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { EtimsQueue } from '../etims/etims-queue.service';
import type { EtimsDocumentView } from '../etims/etims-views';
import {
  InvoiceListQueryDto,
  InvoiceDetailResponseDto,
  InvoiceListResponseDto,
  InvoiceResponseDto,
  IssueInvoiceDto,
  OrderInvoicesResponseDto,
} from './dto/invoice.dto';
import { InvoiceIssuing } from './invoice-issuing';
import { invoiceView, InvoiceViews } from './invoice-views';
import { InvoicePdf } from './invoice-pdf';

const Id = () => Param('id', ParseObjectIdPipe);

/**
 * Invoices on account (issue 44): the shop reads every organisation's; an organisation's people
 * their own (another's: 404 in the same words as a missing one). Their PDFs.
 */
@ApiTags('invoices')
@Controller('invoices')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class InvoicesController {
  constructor(
    private readonly views: InvoiceViews,
    private readonly pdfs: InvoicePdf,
    private readonly etims: EtimsQueue,
  ) {}

  @Get()
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      "Invoices, newest first (overdue: the oldest due first), by filter (all, open, overdue, paid): the shop every organisation's or one's, an organisation's people their own",
  })
  @Answer('Invoices retrieved', InvoiceListResponseDto)
  list(
    @CurrentUser() actor: Principal,
    @Query() query: InvoiceListQueryDto,
  ): Promise<InvoiceListResponse> {
    return this.views.list(actor, query);
  }

  @Get(':id')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      'One invoice, with its payments, credit notes and reminders, and their KRA eTIMS signing',
  })
  @Answer('Invoice retrieved', InvoiceDetailResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Invoice not found' })
  async one(
    @CurrentUser() actor: Principal,
    @Id() id: string,
  ): Promise<{ invoice: InvoiceView; etims: EtimsDocumentView[] }> {
    const invoice = await this.views.one(actor, id);
    // KRA's signing of the invoice and of the credit notes against it (empty with eTIMS off).
    return { invoice, etims: await this.etims.withCredits(`invoice:${invoice.id}`) };
  }

  @Get(':id/pdf')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      'The invoice as a PDF (A4): both KRA PINs, the LPO, the lines delivered, the total, the due date, the balance and how to pay',
  })
  @ApiResponse({
    status: 200,
    description: 'The PDF (A4), `INV-000001.pdf`',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Invoice not found' })
  async pdf(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { filename, pdf } = await this.pdfs.pdf(actor, id);
    await reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="${filename}"`)
      .header('Cache-Control', 'private, no-store')
      .send(pdf);
  }
}

/** An order's invoices, and issuing one by hand (staff and admins). */
@ApiTags('invoices')
@Controller('orders')
@ApiBadRequestResponse({ type: ErrorResponseDto })
@ApiNotFoundResponse({
  type: ErrorResponseDto,
  description:
    "No such order, not one the caller may see (another organisation's), or no such tranche",
})
export class OrderInvoicesController {
  constructor(
    private readonly views: InvoiceViews,
    private readonly issuing: InvoiceIssuing,
  ) {}

  @Get(':id/invoices')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({ summary: "An order's invoices (the whole order's, then by tranche)" })
  @Answer('Invoices retrieved', OrderInvoicesResponseDto)
  async ofOrder(
    @CurrentUser() actor: Principal,
    @Id() id: string,
  ): Promise<{ invoices: InvoiceView[] }> {
    return { invoices: await this.views.ofOrder(actor, id) };
  }

  @Post(':id/invoices')
  @Auth('staff', 'admin')
  @ApiOperation({
    summary:
      "Issue the invoice of a delivered tranche (`tranche`) or of the whole order (none), as its organisation's terms say; the one there is when it exists (200)",
  })
  @Answer('Invoice issued', InvoiceResponseDto, { status: 201 })
  @ApiResponse({
    status: 200,
    type: InvoiceResponseDto,
    description: 'Invoiced already: that invoice',
  })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description:
      "ILLEGAL_TRANSITION: not an order from a quotation, the tranche or order not delivered, or not as its organisation's terms invoice it",
  })
  async issue(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Body() dto: IssueInvoiceDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Answered<{ invoice: InvoiceView }>> {
    const { invoice, created } = await this.issuing.issueByHand(actor, id, dto.tranche ?? null);
    reply.status(created ? HttpStatus.CREATED : HttpStatus.OK);
    const view = { invoice: invoiceView(invoice) };
    return created ? view : said(`Invoiced already on ${invoice.number}`, view);
  }
}
