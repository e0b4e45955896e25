import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal } from '../common/principal';
import { InvoiceResponseDto, type InvoiceData } from './dto/invoice.dto';
import {
  InvoiceBankPaymentDto,
  InvoiceCreditNoteDto,
  InvoiceWithholdingDto,
} from './dto/invoice-settlement.dto';
import { InvoiceSettlements } from './invoice-settlements';
import { InvoiceViews } from './invoice-views';

/** Money against an invoice (issue 44): bank transfers, tax withheld, credit notes. Staff only. */
@ApiTags('invoices')
@Controller('invoices')
export class InvoiceSettlementsController {
  constructor(
    private readonly settlements: InvoiceSettlements,
    private readonly views: InvoiceViews,
  ) {}

  @Post(':id/payments')
  @HttpCode(201)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Record a bank transfer against an invoice: its reference once per organisation; above the balance only with `excess: true`',
  })
  @Answer('Payment recorded', InvoiceResponseDto, { status: 201 })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such invoice' })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'The reference is recorded already, or the amount is above the balance',
  })
  async payment(
    @CurrentUser() actor: Principal,
    @Param('id') id: string,
    @Body() dto: InvoiceBankPaymentDto,
  ): Promise<InvoiceData> {
    await this.settlements.recordBank(actor, id, dto);
    // The whole invoice as GET answers it (read again: its view names the order's tranche and site).
    return { invoice: await this.views.one(actor, id) };
  }

  @Post(':id/withholding')
  @HttpCode(201)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Record tax withheld by a public body: its certificate once per organisation, never above the balance',
  })
  @Answer('Tax withheld recorded', InvoiceResponseDto, { status: 201 })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such invoice' })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'The certificate is recorded already, or the amount is above the balance',
  })
  async withholding(
    @CurrentUser() actor: Principal,
    @Param('id') id: string,
    @Body() dto: InvoiceWithholdingDto,
  ): Promise<InvoiceData> {
    await this.settlements.recordWithholding(actor, id, dto);
    // The whole invoice as GET answers it (read again: its view names the order's tranche and site).
    return { invoice: await this.views.one(actor, id) };
  }

  @Post(':id/credit-notes')
  @HttpCode(201)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Give a credit note (short delivery, return, price correction), numbered CN-000001…; never above the invoice less its credit notes',
  })
  @Answer('Credit note given', InvoiceResponseDto, { status: 201 })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such invoice' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Above what is left to credit' })
  async creditNote(
    @CurrentUser() actor: Principal,
    @Param('id') id: string,
    @Body() dto: InvoiceCreditNoteDto,
  ): Promise<InvoiceData> {
    await this.settlements.recordCreditNote(actor, id, dto);
    // The whole invoice as GET answers it (read again: its view names the order's tranche and site).
    return { invoice: await this.views.one(actor, id) };
  }
}
