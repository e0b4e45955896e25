import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsDateString,
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
  ETIMS_CU_INVOICE_NUMBER,
  ETIMS_DOCUMENT_STATES,
  ETIMS_LIST_STATES,
  ETIMS_OFFICE_LIMITS as L,
  ETIMS_OFFICE_MESSAGES as M,
  ETIMS_TAX_TYPES,
  KRA_PIN_PATTERN,
  normaliseKraPin,
  type EtimsDocumentState,
  type EtimsListState,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { IsCalendarDay } from '../../common/calendar-day';
import { PageQueryDto } from '../../common/pagination';
import { singleLineText } from '../../common/validation-decorators';

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const upper = Transform(({ value }) =>
  typeof value === 'string' ? value.trim().toUpperCase() : value,
);
const trimmed = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** `GET /api/etims/documents`: a state (none: every document not signed yet), days, a page. */
export class EtimsDocumentListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: ETIMS_LIST_STATES,
    enumName: 'EtimsListState',
    description:
      'failed: KRA refused it; pending: KRA had its number and gave no signature; queued: waiting its turn or being sent; signed. None: every document not signed yet',
  })
  @IsOptional()
  @IsIn(ETIMS_LIST_STATES, { message: `state must be one of: ${ETIMS_LIST_STATES.join(', ')}` })
  state?: EtimsListState;

  @ApiPropertyOptional({
    example: '2026-11-01',
    description: 'First day of the tax point (Africa/Nairobi), inclusive',
  })
  @IsOptional()
  @Matches(DAY, { message: 'from must be a date as YYYY-MM-DD' })
  @IsCalendarDay({ message: 'from must be a real day between 2000-01-01 and 2099-12-31' })
  from?: string;

  @ApiPropertyOptional({
    example: '2026-11-30',
    description: 'Last day of the tax point (Africa/Nairobi), inclusive',
  })
  @IsOptional()
  @Matches(DAY, { message: 'to must be a date as YYYY-MM-DD' })
  @IsCalendarDay({ message: 'to must be a real day between 2000-01-01 and 2099-12-31' })
  to?: string;
}

/** A buyer's KRA PIN, or empty: the buyer removed. */
const PIN_OR_EMPTY = new RegExp(`^$|${KRA_PIN_PATTERN.source}`);

/**
 * `POST /api/etims/documents/:source/resend`: nothing (as it is), the buyer's PIN or name fixed,
 * or the buyer removed (`buyerPin: ''`).
 */
export class ResendEtimsDocumentDto {
  @ApiPropertyOptional({
    example: 'P051234567X',
    pattern: PIN_OR_EMPTY.source,
    description:
      "The buyer's KRA PIN (trimmed, upper-cased; blanks alone are refused). Empty: the buyer removed (never on an invoice on account, which names who owes it), their PIN and name with it (KRA does not know the PIN and the buyer has no other): the document is sent as a sale to no one named. Absent: the buyer stays",
  })
  @IsOptional()
  // Blanks alone are a PIN mistyped, not a removal: only an empty buyerPin removes the buyer.
  @Transform(({ value }) =>
    typeof value === 'string' && (value === '' || value.trim() !== '')
      ? normaliseKraPin(value)
      : value,
  )
  @IsString({ message: M.buyerPin })
  @Matches(PIN_OR_EMPTY, { message: M.buyerPin })
  buyerPin?: string;

  @ApiPropertyOptional({
    maxLength: L.buyerName,
    example: 'Kiambu County Government',
    description: "The buyer's name as KRA should print it",
  })
  @IsOptional()
  @singleLineText
  @IsString({ message: M.buyerName })
  @IsNotEmpty({ message: M.buyerName })
  @MaxLength(L.buyerName, { message: M.buyerName })
  buyerName?: string;
}

/** `POST /api/etims/documents/:source/signature`: what KRA's portal shows of the signed invoice. */
export class EtimsSignatureEntryDto {
  @ApiProperty({
    example: 'KRACU0100000001/12',
    pattern: ETIMS_CU_INVOICE_NUMBER.source,
    description: 'The control unit invoice number: the SCU ID, a slash and the receipt number',
  })
  @upper
  @IsString({ message: M.cuInvoiceNumber })
  @Matches(ETIMS_CU_INVOICE_NUMBER, { message: M.cuInvoiceNumber })
  cuInvoiceNumber!: string;

  @ApiProperty({
    example: 'VZBRUTNY5NM6RKYS',
    minLength: L.signatureMin,
    maxLength: L.signatureMax,
    description: "The receipt signature (KRA's rcptSign)",
  })
  @trimmed
  @IsString({ message: M.signature })
  @Matches(new RegExp(`^[A-Za-z0-9]{${L.signatureMin},${L.signatureMax}}$`), {
    message: M.signature,
  })
  rcptSign!: string;

  @ApiProperty({
    format: 'date-time',
    example: '2026-11-20T09:41:00+03:00',
    description: 'When KRA signed it, as its portal shows it',
  })
  @IsDateString({ strict: true }, { message: M.signedAt })
  signedAt!: string;

  @ApiPropertyOptional({ maxLength: L.internalDataMax, description: "KRA's internal data" })
  @IsOptional()
  @trimmed
  @IsString({ message: M.internalData })
  @Matches(new RegExp(`^[A-Za-z0-9]{1,${L.internalDataMax}}$`), { message: M.internalData })
  intrlData?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'The total receipt number' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: M.totalReceiptNumber })
  @Min(1, { message: M.totalReceiptNumber })
  totRcptNo?: number;
}

export class EtimsSignatureViewDto {
  @ApiProperty({ example: 'KRACU0100000001/12' }) cuInvoiceNumber!: string;
  @ApiProperty({ type: String, nullable: true }) sdcId!: string | null;
  @ApiProperty({ type: String, nullable: true }) mrcNo!: string | null;
  @ApiProperty({ type: 'integer' }) rcptNo!: number;
  @ApiProperty({ type: 'integer', nullable: true }) totRcptNo!: number | null;
  @ApiProperty({ type: String, nullable: true }) intrlData!: string | null;
  @ApiProperty() rcptSign!: string;
  @ApiProperty({ format: 'date-time' }) signedAt!: string;
  @ApiProperty({ description: "KRA's receipt check page (the QR code)" }) qrUrl!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "Who copied it from KRA's portal, when a clerk did",
  })
  enteredBy!: string | null;
}

export class EtimsBuyerDto {
  @ApiProperty({ example: 'P051234567X' }) pin!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
}

/** A document of the eTIMS queue (`EtimsDocumentView` of shared-contracts). */
export class EtimsDocumentViewDto {
  @ApiProperty({ example: 'order:6650f0c2a1b2c3d4e5f6a001:sale' }) source!: string;
  @ApiProperty({ enum: ['sale', 'credit-note'] }) kind!: 'sale' | 'credit-note';
  @ApiProperty({ example: 'SPD7K3MX9QA' }) trdInvcNo!: string;
  @ApiProperty({ type: 'integer' }) invcNo!: number;
  @ApiProperty({ enum: ETIMS_DOCUMENT_STATES, enumName: 'EtimsDocumentState' })
  state!: EtimsDocumentState;
  @ApiProperty({ type: 'integer' }) attempts!: number;
  @ApiProperty({ type: String, nullable: true, example: '910' }) lastCode!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "KRA's words" })
  lastMessage!: string | null;
  @ApiProperty({ format: 'date-time', description: 'The tax point' }) at!: string;
  @ApiProperty({ format: 'date-time' }) queuedAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextTryAt!: string | null;
  @ApiProperty({ description: 'KES, tax included' }) total!: number;
  @ApiProperty({ type: EtimsBuyerDto, nullable: true }) buyer!: EtimsBuyerDto | null;
  @ApiProperty({ type: String, nullable: true }) orderId!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "A credit note's sale (its source)" })
  original!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'SPD7K3MX9QA',
    description:
      'A queued credit note set aside until its sale (this number) is signed: KRA refuses a credit note before. Sent by itself once the sale is signed',
  })
  waitsFor!: string | null;
  @ApiProperty({ type: EtimsSignatureViewDto, nullable: true })
  signature!: EtimsSignatureViewDto | null;
}

export class EtimsDocumentData {
  @ApiProperty({ type: EtimsDocumentViewDto }) document!: EtimsDocumentViewDto;
}
export class EtimsDocumentResponseDto extends Envelope(EtimsDocumentData) {}

export class EtimsDocumentListData {
  @ApiProperty({ description: 'False with ETIMS_ENV=off: the list is empty, nothing is sent' })
  enabled!: boolean;
  @ApiProperty({ type: [EtimsDocumentViewDto] }) documents!: EtimsDocumentViewDto[];
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: 'integer' }) page!: number;
  @ApiProperty({ type: 'integer' }) pages!: number;
}
export class EtimsDocumentListResponseDto extends Envelope(EtimsDocumentListData) {}

/** `GET /api/reports/etims` and `.csv`: both days required. */
export class EtimsSummaryQueryDto {
  @ApiProperty({ example: '2026-11-01', description: 'First day (Africa/Nairobi), inclusive' })
  @IsNotEmpty({ message: 'from is required (YYYY-MM-DD)' })
  @Matches(DAY, { message: 'from must be a date as YYYY-MM-DD' })
  @IsCalendarDay({ message: 'from must be a real day between 2000-01-01 and 2099-12-31' })
  from!: string;

  @ApiProperty({ example: '2026-11-30', description: 'Last day (Africa/Nairobi), inclusive' })
  @IsNotEmpty({ message: 'to is required (YYYY-MM-DD)' })
  @Matches(DAY, { message: 'to must be a date as YYYY-MM-DD' })
  @IsCalendarDay({ message: 'to must be a real day between 2000-01-01 and 2099-12-31' })
  to!: string;
}

export class EtimsTaxAmountsDto {
  @ApiProperty({ description: 'KES' }) taxable!: number;
  @ApiProperty({ description: 'KES' }) tax!: number;
}

export class EtimsTaxByTypeDto {
  @ApiProperty({ type: EtimsTaxAmountsDto, description: 'A exempt' }) A!: EtimsTaxAmountsDto;
  @ApiProperty({ type: EtimsTaxAmountsDto, description: 'B 16 %' }) B!: EtimsTaxAmountsDto;
  @ApiProperty({ type: EtimsTaxAmountsDto, description: 'C zero-rated' }) C!: EtimsTaxAmountsDto;
  @ApiProperty({ type: EtimsTaxAmountsDto, description: 'D non-VAT' }) D!: EtimsTaxAmountsDto;
  @ApiProperty({ type: EtimsTaxAmountsDto, description: 'E 8 %' }) E!: EtimsTaxAmountsDto;
}

export class EtimsSummaryFiguresDto {
  @ApiProperty({ type: 'integer', description: 'Documents signed (sales and credit notes)' })
  signed!: number;
  @ApiProperty({ type: 'integer', description: 'Of them, credit notes' }) creditNotes!: number;
  @ApiProperty({ type: 'integer' }) pending!: number;
  @ApiProperty({ type: 'integer' }) failed!: number;
  @ApiProperty({ type: 'integer', description: 'Queued or being sent' }) waiting!: number;
  @ApiProperty({
    type: EtimsTaxByTypeDto,
    description: `Signed documents' taxable amounts and tax by type (${ETIMS_TAX_TYPES.join(', ')}); credit notes subtract`,
  })
  taxByType!: EtimsTaxByTypeDto;
  @ApiProperty({ description: "Signed documents' total, KES (credit notes subtract)" })
  total!: number;
}

export class EtimsSummaryDayDto extends EtimsSummaryFiguresDto {
  @ApiProperty({ example: '2026-11-20', description: "The shop day of the documents' tax point" })
  date!: string;
}

export class EtimsSummaryData {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ example: '2026-11-01' }) from!: string;
  @ApiProperty({ example: '2026-11-30' }) to!: string;
  @ApiProperty({ type: [EtimsSummaryDayDto] }) days!: EtimsSummaryDayDto[];
  @ApiProperty({ type: EtimsSummaryFiguresDto }) totals!: EtimsSummaryFiguresDto;
}
export class EtimsSummaryResponseDto extends Envelope(EtimsSummaryData) {}
