import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
} from 'class-validator';
import {
  CREDIT_NOTE_REASONS,
  INVOICE_LIMITS as L,
  INVOICE_MESSAGES as IM,
  INVOICE_PAYMENT_KINDS,
  INVOICE_STATES,
  type CreditNoteReason,
  type InvoicePaymentKind,
  type InvoiceState,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { trim } from '../../common/validation-decorators';

/** A bank transfer a clerk records against an invoice. */
export class InvoiceBankPaymentDto {
  @ApiProperty({ description: 'Whole KES received', example: 58000 })
  @IsInt({ message: IM.amountWhole })
  @Min(1, { message: IM.amountWhole })
  amount!: number;

  @ApiProperty({
    maxLength: L.reference,
    description:
      "The bank's reference: once per organisation (compared upper case, blanks removed)",
    example: 'FT24123ABC',
  })
  @trim
  @IsString({ message: IM.referenceRequired })
  @IsNotEmpty({ message: IM.referenceRequired })
  @MaxLength(L.reference, { message: `reference must be at most ${L.reference} characters` })
  reference!: string;

  @ApiProperty({
    description: 'The day it was paid, YYYY-MM-DD, not after today',
    example: '2026-11-20',
  })
  @IsString({ message: IM.paidOnInvalid })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: IM.paidOnInvalid })
  paidOn!: string;

  @ApiPropertyOptional({
    description: 'It really was paid above the balance: keep the part above as a recorded excess',
  })
  @IsOptional()
  @IsBoolean({ message: 'excess must be true or false' })
  excess?: boolean;
}

/** Tax a public body withheld, by its certificate. */
export class InvoiceWithholdingDto {
  @ApiProperty({ description: 'Whole KES withheld', example: 1160 })
  @IsInt({ message: IM.amountWhole })
  @Min(1, { message: IM.amountWhole })
  amount!: number;

  @ApiProperty({
    maxLength: L.certificate,
    description: 'The withholding certificate number: once per organisation',
  })
  @trim
  @IsString({ message: IM.certificateRequired })
  @IsNotEmpty({ message: IM.certificateRequired })
  @MaxLength(L.certificate, {
    message: `certificate must be at most ${L.certificate} characters`,
  })
  certificate!: string;
}

/** A credit note on an invoice. */
export class InvoiceCreditNoteDto {
  @ApiProperty({ enum: CREDIT_NOTE_REASONS })
  @IsIn(CREDIT_NOTE_REASONS as unknown as string[], { message: IM.reasonInvalid })
  reason!: CreditNoteReason;

  @ApiProperty({ description: 'Whole KES credited', example: 2500 })
  @IsInt({ message: IM.amountWhole })
  @Min(1, { message: IM.amountWhole })
  amount!: number;

  @ApiProperty({ maxLength: L.note, description: 'Why it is given' })
  @trim
  @IsString({ message: IM.noteRequired })
  @IsNotEmpty({ message: IM.noteRequired })
  @MaxLength(L.note, { message: `note must be at most ${L.note} characters` })
  note!: string;
}

class SettledByDto {
  @ApiProperty() fullName!: string;
  @ApiProperty() role!: string;
}

export class InvoiceSettledPaymentDto {
  @ApiProperty({ description: "The money-ledger entry's id" }) id!: string;
  @ApiProperty({ enum: INVOICE_PAYMENT_KINDS }) kind!: InvoicePaymentKind;
  @ApiProperty({ description: 'Whole KES it took off the balance' }) amount!: number;
  @ApiProperty({ description: "The M-Pesa code, the bank's reference or the certificate" })
  reference!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ description: 'KES beyond the balance, kept as a recorded excess' })
  excess!: number;
  @ApiProperty({ type: SettledByDto, nullable: true }) by!: SettledByDto | null;
}

export class InvoiceSettledCreditNoteDto {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'CN-000001' }) number!: string;
  @ApiProperty({ enum: CREDIT_NOTE_REASONS }) reason!: CreditNoteReason;
  @ApiProperty() amount!: number;
  @ApiProperty() note!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ type: SettledByDto, nullable: true }) by!: SettledByDto | null;
}

/** An invoice's money after a settlement (the fields of `InvoiceView` a settlement moves). */
export class InvoiceSettledDto {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'INV-000001' }) number!: string;
  @ApiProperty({ enum: INVOICE_STATES }) state!: InvoiceState;
  @ApiProperty() total!: number;
  @ApiProperty() paid!: number;
  @ApiProperty() withheld!: number;
  @ApiProperty() credited!: number;
  @ApiProperty({ description: 'total − paid − withheld − credited, never below 0' })
  balance!: number;
  @ApiProperty() excess!: number;
  @ApiProperty({ type: [InvoiceSettledPaymentDto] }) payments!: InvoiceSettledPaymentDto[];
  @ApiProperty({ type: [InvoiceSettledCreditNoteDto] })
  creditNotes!: InvoiceSettledCreditNoteDto[];
}

export class InvoiceSettledData {
  @ApiProperty({ type: InvoiceSettledDto }) invoice!: InvoiceSettledDto;
}
export class InvoiceSettledResponseDto extends Envelope(InvoiceSettledData) {}
