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
  type CreditNoteReason,
} from '@spc/shared-contracts';
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
      "The bank's reference: once per organisation (compared upper case, blanks and dashes removed)",
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
