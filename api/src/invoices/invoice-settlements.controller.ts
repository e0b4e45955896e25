import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { CreditNoteReason, InvoicePaymentKind } from '@spc/shared-contracts';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal } from '../common/principal';
import {
  InvoiceBankPaymentDto,
  InvoiceCreditNoteDto,
  InvoiceSettledResponseDto,
  InvoiceWithholdingDto,
  type InvoiceSettledData,
  type InvoiceSettledDto,
} from './dto/invoice-settlement.dto';
import { InvoiceSettlements } from './invoice-settlements';
import type { InvoiceRecord } from './invoice-settlements.repository';

const by = (s: { byName: string; byRole: string }) =>
  s.byName ? { fullName: s.byName, role: s.byRole } : null;

/** The money fields of an invoice after a settlement (the `InvoiceView` fields it moves). */
export function settledView(inv: InvoiceRecord): InvoiceSettledDto {
  return {
    id: inv._id.toString(),
    number: inv.number ?? '',
    state: inv.state,
    total: inv.total,
    paid: inv.paid,
    withheld: inv.withheld,
    credited: inv.credited,
    balance: inv.balance,
    excess: inv.excess,
    payments: inv.settlements
      .filter((s) => s.kind !== 'creditNote')
      .map((s) => ({
        id: s.id,
        kind: s.kind as InvoicePaymentKind,
        amount: s.amount,
        reference: s.reference,
        at: new Date(s.at).toISOString(),
        excess: s.excess,
        by: by(s),
      })),
    creditNotes: inv.settlements
      .filter((s) => s.kind === 'creditNote')
      .map((s) => ({
        id: s.id,
        number: s.number ?? '',
        reason: s.reason as CreditNoteReason,
        amount: s.amount,
        note: s.note,
        at: new Date(s.at).toISOString(),
        by: by(s),
      })),
  };
}

/** Money against an invoice (issue 44): bank transfers, tax withheld, credit notes. Staff only. */
@ApiTags('invoices')
@Controller('invoices')
export class InvoiceSettlementsController {
  constructor(private readonly settlements: InvoiceSettlements) {}

  @Post(':id/payments')
  @HttpCode(201)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Record a bank transfer against an invoice: its reference once per organisation; above the balance only with `excess: true`',
  })
  @Answer('Payment recorded', InvoiceSettledResponseDto, { status: 201 })
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
  ): Promise<InvoiceSettledData> {
    const { invoice } = await this.settlements.recordBank(actor, id, dto);
    return { invoice: settledView(invoice) };
  }

  @Post(':id/withholding')
  @HttpCode(201)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Record tax withheld by a public body: its certificate once per organisation, never above the balance',
  })
  @Answer('Tax withheld recorded', InvoiceSettledResponseDto, { status: 201 })
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
  ): Promise<InvoiceSettledData> {
    const { invoice } = await this.settlements.recordWithholding(actor, id, dto);
    return { invoice: settledView(invoice) };
  }

  @Post(':id/credit-notes')
  @HttpCode(201)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Give a credit note (short delivery, return, price correction), numbered CN-000001…; never above the invoice less its credit notes',
  })
  @Answer('Credit note given', InvoiceSettledResponseDto, { status: 201 })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such invoice' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Above what is left to credit' })
  async creditNote(
    @CurrentUser() actor: Principal,
    @Param('id') id: string,
    @Body() dto: InvoiceCreditNoteDto,
  ): Promise<InvoiceSettledData> {
    const { invoice } = await this.settlements.recordCreditNote(actor, id, dto);
    return { invoice: settledView(invoice) };
  }
}
