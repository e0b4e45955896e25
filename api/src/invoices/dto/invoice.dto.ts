import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsMongoId, IsOptional, Max, Min } from 'class-validator';
import {
  CREDIT_NOTE_REASONS,
  INVOICE_FILTERS,
  INVOICE_PAYMENT_KINDS,
  INVOICE_REMINDERS,
  INVOICE_STATES,
  TRANCHE_LIMITS,
  type CreditNoteReason,
  type InvoiceFilter,
  type InvoicePaymentKind,
  type InvoiceReminder,
  type InvoiceState,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { PageQueryDto } from '../../common/pagination';
import { EtimsDocumentDto } from '../../etims/dto/etims-document.dto';

const TRANCHE_WORDS = `tranche must be the number of a tranche of the order, from 1 to ${TRANCHE_LIMITS.perOrder} (T1 is 1)`;

/** `POST /api/orders/:id/invoices`: a delivered tranche's invoice, or (none) the whole order's. */
export class IssueInvoiceDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: TRANCHE_LIMITS.perOrder,
    example: 1,
    description:
      'The delivered tranche to invoice (T1 is 1); left out: the whole order (an organisation invoiced once for the whole order, or an order without tranches)',
  })
  @IsOptional()
  @IsInt({ message: TRANCHE_WORDS })
  @Min(1, { message: TRANCHE_WORDS })
  @Max(TRANCHE_LIMITS.perOrder, { message: TRANCHE_WORDS })
  tranche?: number;
}

/** `GET /api/invoices`: a filter, an organisation's (the shop), a page. */
export class InvoiceListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: INVOICE_FILTERS,
    enumName: 'InvoiceFilter',
    default: 'all',
    description: 'overdue: open and past its due date (Africa/Nairobi), the oldest due first',
  })
  @IsOptional()
  @IsIn(INVOICE_FILTERS, { message: `filter must be one of: ${INVOICE_FILTERS.join(', ')}` })
  filter?: InvoiceFilter;

  @ApiPropertyOptional({
    description:
      "One organisation's invoices (the shop); an organisation's people read only their own",
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsMongoId({ message: 'organisationId must be the id of an organisation' })
  organisationId?: string;
}

export class InvoiceLineViewDto {
  @ApiProperty({ type: 'integer', description: "The order line's position" }) line!: number;
  @ApiProperty({ example: 'Grevillea robusta' }) productName!: string;
  @ApiProperty({ example: 'Tray of 50' }) unitName!: string;
  @ApiProperty({ type: 'integer', description: 'Units delivered (billed)' }) quantity!: number;
  @ApiProperty({ type: 'integer', description: 'Whole KES for one unit, as quoted' })
  unitPrice!: number;
  @ApiProperty({ type: 'integer' }) amount!: number;
}

export class InvoiceByDto {
  @ApiProperty() fullName!: string;
  @ApiProperty() role!: string;
}

export class InvoicePaymentViewDto {
  @ApiProperty({ description: "The money-ledger entry's id" }) id!: string;
  @ApiProperty({ enum: INVOICE_PAYMENT_KINDS, enumName: 'InvoicePaymentKind' })
  kind!: InvoicePaymentKind;
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty({ description: "The M-Pesa code, the bank's reference or the certificate number" })
  reference!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ type: 'integer', description: 'Part of it beyond what was owed' })
  excess!: number;
  @ApiProperty({ type: InvoiceByDto, nullable: true }) by!: InvoiceByDto | null;
}

export class CreditNoteViewDto {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'CN-000001' }) number!: string;
  @ApiProperty({ enum: CREDIT_NOTE_REASONS, enumName: 'CreditNoteReason' })
  reason!: CreditNoteReason;
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty() note!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ type: InvoiceByDto, nullable: true }) by!: InvoiceByDto | null;
}

export class InvoiceReminderViewDto {
  @ApiProperty({ enum: INVOICE_REMINDERS, enumName: 'InvoiceReminder' }) kind!: InvoiceReminder;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

export class InvoicePartyDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'P051234567X' }) kraPin!: string;
}

export class InvoiceShopDto {
  @ApiProperty() name!: string;
  @ApiProperty({ description: "SHOP_KRA_PIN; '' when not set" }) kraPin!: string;
}

/** An invoice (`InvoiceView` of shared-contracts). */
export class InvoiceViewDto {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'INV-000042' }) number!: string;
  @ApiProperty({ enum: INVOICE_STATES, enumName: 'InvoiceState' }) state!: InvoiceState;
  @ApiProperty({ type: InvoicePartyDto }) organisation!: InvoicePartyDto;
  @ApiProperty({ type: InvoiceShopDto }) shop!: InvoiceShopDto;
  @ApiProperty() orderId!: string;
  @ApiProperty({ example: 'SPD7K3MX9QA' }) purchaseNumber!: string;
  @ApiProperty({ example: 'LPO/2026/114' }) lpoNumber!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The tranche it bills (T1 is 1); null: the whole order',
  })
  tranche!: number | null;
  @ApiProperty({ type: [InvoiceLineViewDto] }) lines!: InvoiceLineViewDto[];
  @ApiProperty({
    type: 'integer',
    description: "The quoted delivery fee (on the whole-order invoice or the order's first)",
  })
  fee!: number;
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ format: 'date-time' }) issuedAt!: string;
  @ApiProperty({ format: 'date', description: "The shop's day it is due" }) dueDate!: string;
  @ApiProperty({ type: 'integer' }) paid!: number;
  @ApiProperty({ type: 'integer' }) withheld!: number;
  @ApiProperty({ type: 'integer' }) credited!: number;
  @ApiProperty({ type: 'integer', description: 'total − paid − withheld − credited, at least 0' })
  balance!: number;
  @ApiProperty({ type: 'integer' }) excess!: number;
  @ApiProperty() overdue!: boolean;
  @ApiProperty({ type: 'integer' }) daysOverdue!: number;
  @ApiProperty({ type: [InvoicePaymentViewDto] }) payments!: InvoicePaymentViewDto[];
  @ApiProperty({ type: [CreditNoteViewDto] }) creditNotes!: CreditNoteViewDto[];
  @ApiProperty({ type: [InvoiceReminderViewDto] }) reminders!: InvoiceReminderViewDto[];
}

export class InvoiceData {
  @ApiProperty({ type: InvoiceViewDto }) invoice!: InvoiceViewDto;
}
export class InvoiceResponseDto extends Envelope(InvoiceData) {}

/** One invoice as `GET /api/invoices/:id` answers it: with its KRA eTIMS signing. */
export class InvoiceDetailData extends InvoiceData {
  @ApiProperty({
    type: [EtimsDocumentDto],
    description:
      'The invoice and its credit notes as KRA eTIMS signed them, in number order; empty while none was queued or eTIMS is off',
  })
  etims!: EtimsDocumentDto[];
}
export class InvoiceDetailResponseDto extends Envelope(InvoiceDetailData) {}

export class InvoicesData {
  @ApiProperty({ type: [InvoiceViewDto] }) invoices!: InvoiceViewDto[];
}
export class OrderInvoicesResponseDto extends Envelope(InvoicesData) {}

export class InvoiceListData extends InvoicesData {
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: 'integer' }) page!: number;
  @ApiProperty({ type: 'integer' }) pages!: number;
  @ApiProperty({ type: 'integer', description: 'What the listed filter owes in all' })
  owed!: number;
}
export class InvoiceListResponseDto extends Envelope(InvoiceListData) {}
