import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsMongoId,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  QUOTATION_LIMITS as L,
  QUOTATION_MESSAGES as QM,
  QUOTATION_STATUSES,
  TEXT_LIMITS,
  type QuotationStatus,
} from '@spc/shared-contracts';
import { IsCalendarDay } from '../../common/calendar-day';
import { PageQueryDto } from '../../common/pagination';
import { SINGLE_LINE_TEXT_PATTERN, singleLineText, trim } from '../../common/validation-decorators';
import { CountyField, SubCountyField } from '../../locations/place-fields';

const ID_EXAMPLE = '665f1c2b9d3e4a0012345678';
/** The most a delivery fee may be, in whole KES (a typo's guard, far above any real one). */
export const DELIVERY_FEE_MAX = 10_000_000;
/** The most one unit may be priced at, in whole KES. */
export const UNIT_PRICE_MAX = 10_000_000;

function OneLine(max: number, required: string, label: string) {
  return applyDecorators(
    ApiProperty({ maxLength: max, pattern: SINGLE_LINE_TEXT_PATTERN }),
    singleLineText,
    IsNotEmpty({ message: required }),
    IsString({ message: required }),
    MaxLength(max, { message: `${label} must be at most ${max} characters` }),
  );
}

/** Text of several lines (a note, a message): blanks around it trimmed. */
function Text(max: number, label: string, required?: string) {
  return applyDecorators(
    required ? ApiProperty({ maxLength: max }) : ApiPropertyOptional({ maxLength: max }),
    trim,
    ...(required
      ? [IsNotEmpty({ message: required }), IsString({ message: required })]
      : [IsOptional(), IsString({ message: `${label} must be text` })]),
    MaxLength(max, { message: `${label} must be at most ${max} characters` }),
  );
}

/** Where and when the organisation wants its seedlings. */
export class QuotationDeliveryDto {
  @OneLine(L.siteName, 'The delivery site needs a name', "The site's name")
  siteName!: string;

  @CountyField()
  county!: string;

  @SubCountyField()
  subCounty?: string | null;

  @OneLine(TEXT_LIMITS.streetAddress, 'The street address is required', 'The street address')
  streetAddress!: string;

  @ApiProperty({ example: '2026-10-15', format: 'date', description: "The shop's day" })
  @IsCalendarDay({ message: 'The delivery date must be a day written YYYY-MM-DD' })
  date!: string;
}

function DeliveryField(optional: boolean) {
  return applyDecorators(
    optional
      ? ApiPropertyOptional({ type: QuotationDeliveryDto })
      : ApiProperty({ type: QuotationDeliveryDto }),
    ...(optional ? [ValidateIf((_, value) => value !== undefined)] : []),
    IsObject({ message: 'The delivery must name a site, county, street address and date' }),
    ValidateNested(),
    Type(() => QuotationDeliveryDto),
  );
}

/** A line as a buyer asks for it (from the cart) or staff write it. */
export class QuotationRequestLineDto {
  @ApiProperty({ example: ID_EXAMPLE })
  @IsMongoId({ message: 'productId must be the id of a product' })
  productId!: string;

  @ApiProperty({ example: ID_EXAMPLE })
  @IsMongoId({ message: "unitId must be the id of one of the product's units" })
  unitId!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: L.lineSeedlings, example: 300 })
  @IsInt({ message: QM.lineQuantity })
  @Min(1, { message: QM.lineQuantity })
  @Max(L.lineSeedlings, { message: QM.lineQuantity })
  quantity!: number;

  @ApiPropertyOptional({
    example: ID_EXAMPLE,
    nullable: true,
    description: 'A batch of the product still growing; left out or null: ready stock',
  })
  @IsOptional()
  @IsMongoId({ message: 'batchId must be the id of a batch' })
  batchId?: string | null;
}

/** A line of the staff's draft: the request's, with the price agreed. */
export class QuotationDraftLineDto extends QuotationRequestLineDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: UNIT_PRICE_MAX,
    description: "Whole KES per unit; left out: the organisation's price list on the shop's price",
  })
  @IsOptional()
  @IsInt({ message: 'unitPrice must be a whole number of KES' })
  @Min(0, { message: 'unitPrice cannot be below zero' })
  @Max(UNIT_PRICE_MAX, { message: `unitPrice must be at most ${UNIT_PRICE_MAX}` })
  unitPrice?: number;
}

function Lines(type: typeof QuotationRequestLineDto) {
  return applyDecorators(
    ApiProperty({ type: [type], minItems: 1, maxItems: L.lines }),
    IsArray({ message: QM.linesRequired }),
    ArrayMinSize(1, { message: QM.linesRequired }),
    ArrayMaxSize(L.lines, { message: QM.tooManyLines }),
    ValidateNested({ each: true }),
    Type(() => type),
  );
}

/** `POST /api/quotations`: a buyer's request, or staff's for an organisation (`organisationId`). */
export class CreateQuotationDto {
  @Lines(QuotationRequestLineDto)
  lines!: QuotationRequestLineDto[];

  @Text(L.note, 'The note')
  note?: string;

  @DeliveryField(true)
  delivery?: QuotationDeliveryDto;

  @ApiPropertyOptional({
    example: ID_EXAMPLE,
    description: 'Staff and admins: the approved organisation it is for (required for them)',
  })
  @IsOptional()
  @IsMongoId({ message: 'organisationId must be the id of an organisation' })
  organisationId?: string;
}

/** `PUT /api/quotations/:id/draft`: the version staff will send. */
export class QuotationDraftDto {
  @Lines(QuotationDraftLineDto)
  lines!: QuotationDraftLineDto[];

  @DeliveryField(false)
  delivery!: QuotationDeliveryDto;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: DELIVERY_FEE_MAX, example: 15000 })
  @IsInt({ message: 'deliveryFee must be a whole number of KES' })
  @Min(0, { message: 'deliveryFee cannot be below zero' })
  @Max(DELIVERY_FEE_MAX, { message: `deliveryFee must be at most ${DELIVERY_FEE_MAX}` })
  deliveryFee!: number;

  @ApiProperty({ example: '2026-12-31', format: 'date', description: QM.validUntil })
  @IsCalendarDay({ message: QM.validUntil })
  validUntil!: string;

  @Text(L.note, 'The note')
  note?: string;
}

export class QuotationMessageDto {
  @Text(L.message, 'The message', QM.messageRequired)
  text!: string;
}

export class QuotationReasonDto {
  @Text(L.note, 'The reason')
  reason?: string;
}

export class AcceptQuotationDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: L.versions, example: 2 })
  @IsInt({ message: 'version must be the number of a version sent' })
  @Min(1, { message: 'version must be the number of a version sent' })
  @Max(L.versions, { message: 'version must be the number of a version sent' })
  version!: number;

  @ApiProperty({
    maxLength: L.lpoNumber,
    example: 'KCG/LPO/2026/0412',
    pattern: SINGLE_LINE_TEXT_PATTERN,
  })
  @singleLineText
  @IsNotEmpty({ message: QM.lpoRequired })
  @IsString({ message: QM.lpoRequired })
  @MaxLength(L.lpoNumber, { message: `The LPO number must be at most ${L.lpoNumber} characters` })
  lpoNumber!: string;
}

export class QuotationListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: QUOTATION_STATUSES, enumName: 'QuotationStatus' })
  @IsOptional()
  @IsIn(QUOTATION_STATUSES, {
    message: `status must be one of: ${QUOTATION_STATUSES.join(', ')}`,
  })
  status?: QuotationStatus;

  @ApiPropertyOptional({ example: ID_EXAMPLE })
  @IsOptional()
  @IsMongoId({ message: 'organisationId must be the id of an organisation' })
  organisationId?: string;

  @ApiPropertyOptional({
    description: "The number (QUO-000123, or 123), or part of the organisation's name",
    maxLength: 100,
  })
  @trim
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'search must be at most 100 characters' })
  search?: string;
}
