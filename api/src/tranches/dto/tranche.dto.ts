import { applyDecorators, type Type as ClassType } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDateString,
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
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import {
  LIMITS,
  MPESA_PHONE_PATTERN,
  toKenyanMsisdn,
  TRANCHE_LIMITS as L,
  TRANCHE_MESSAGES as TM,
  TRANCHE_QUEUES,
  TRANCHE_STATES,
  type TrancheQueue,
  type TrancheState,
} from '@spc/shared-contracts';
import { IsCalendarDay } from '../../common/calendar-day';
import { PageQueryDto } from '../../common/pagination';
import {
  PhoneField,
  SINGLE_LINE_TEXT_PATTERN,
  singleLineText,
  trim,
} from '../../common/validation-decorators';
import { CountyField, SubCountyField } from '../../locations/place-fields';

const ID_EXAMPLE = '665f1c2b9d3e4a0012345678';

function OneLine(max: number, required: string, label: string, example?: string) {
  return applyDecorators(
    ApiProperty({ maxLength: max, pattern: SINGLE_LINE_TEXT_PATTERN, example }),
    singleLineText,
    IsNotEmpty({ message: required }),
    IsString({ message: required }),
    MaxLength(max, { message: `${label} must be at most ${max} characters` }),
  );
}

function Nested(type: () => new () => object, message: string, optional = false) {
  return applyDecorators(
    optional ? ApiPropertyOptional({ type: type() }) : ApiProperty({ type: type() }),
    ...(optional ? [IsOptional()] : []),
    IsObject({ message }),
    ValidateNested(),
    Type(type),
  );
}

/** A phone the load's texts can reach: a Kenyan mobile number. */
const KenyanMobile = () =>
  ValidateBy({
    name: 'kenyanMobile',
    validator: {
      validate: (value) => typeof value === 'string' && !!toKenyanMsisdn(value),
      defaultMessage: () => TM.contactPhone,
    },
  });

/** Who receives the load at the site and signs its note. */
export class TrancheContactDto {
  @OneLine(L.contactName, TM.contactNameRequired, "The contact's name", 'Peter Mwangi')
  name!: string;

  // A Kenyan mobile, as the OpenAPI document says (the texts go to it).
  @PhoneField(LIMITS.checkoutPhoneMaxLength, {
    pattern: MPESA_PHONE_PATTERN,
    invalidMessage: TM.contactPhone,
  })
  @KenyanMobile()
  phone!: string;
}

/** A planting site of the organisation. */
export class TrancheSiteDto {
  @OneLine(L.siteName, TM.siteRequired, "The site's name", 'Gatundu North planting site')
  name!: string;

  @CountyField()
  county!: string;

  @SubCountyField()
  subCounty?: string | null;

  @Nested(() => TrancheContactDto, TM.contactRequired)
  contact!: TrancheContactDto;
}

/** Which line of the order: its product, unit and source (a batch, or ready stock). */
export class TrancheLineRefDto {
  @ApiProperty({ example: ID_EXAMPLE })
  @IsMongoId({ message: 'productId must be the id of a product of the order' })
  productId!: string;

  @ApiProperty({ example: ID_EXAMPLE })
  @IsMongoId({ message: "unitId must be the id of the order line's unit" })
  unitId!: string;

  @ApiPropertyOptional({
    type: String,
    example: ID_EXAMPLE,
    nullable: true,
    description: "The batch holding the order's line; left out or null: ready stock",
  })
  @IsOptional()
  @IsMongoId({ message: 'batchId must be the id of a batch' })
  batchId?: string | null;
}

export class TrancheLineDto extends TrancheLineRefDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: L.lineQuantity, example: 200 })
  @IsInt({ message: TM.lineQuantity })
  @Min(1, { message: TM.lineQuantity })
  @Max(L.lineQuantity, { message: TM.lineQuantity })
  quantity!: number;
}

function Lines(type: () => ClassType<object>, optional = false, description?: string) {
  const docs = {
    type: [type()] as [ClassType<object>],
    minItems: 1,
    maxItems: L.lines,
    description,
  };
  return applyDecorators(
    optional ? ApiPropertyOptional(docs) : ApiProperty(docs),
    ...(optional ? [IsOptional()] : []),
    IsArray({ message: TM.linesRequired }),
    ArrayMinSize(1, { message: TM.linesRequired }),
    ArrayMaxSize(L.lines, { message: TM.tooManyLines }),
    ValidateNested({ each: true }),
    Type(type),
  );
}

function Day(optional = false) {
  const docs = {
    example: '2026-10-15',
    format: 'date',
    description:
      "The shop's day it is delivered on: from today, and not before a batch of its lines is ready",
  };
  return applyDecorators(
    optional ? ApiPropertyOptional(docs) : ApiProperty(docs),
    ...(optional ? [IsOptional()] : []),
    IsCalendarDay({ message: "The tranche's date must be a day written YYYY-MM-DD" }),
  );
}

/** `POST /api/orders/:id/tranches`: a part of the order for a site on a day. */
export class PlanTrancheDto {
  @Nested(() => TrancheSiteDto, TM.siteRequired)
  site!: TrancheSiteDto;

  @Day()
  date!: string;

  @Lines(() => TrancheLineDto)
  lines!: TrancheLineDto[];
}

/** `PATCH /api/orders/:id/tranches/:number`: any of these, while it is planned. */
export class ChangeTrancheDto {
  @Nested(() => TrancheSiteDto, TM.siteRequired, true)
  site?: TrancheSiteDto;

  @Day(true)
  date?: string;

  @Lines(() => TrancheLineDto, true)
  lines?: TrancheLineDto[];
}

const DELIVERED = `delivered must be a whole number of units, from 0 to ${L.lineQuantity.toLocaleString('en-US')}`;

/** What arrived of one line of the load, and why not all of it. */
export class DeliveredLineDto extends TrancheLineRefDto {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: L.lineQuantity, example: 190 })
  @IsInt({ message: DELIVERED })
  @Min(0, { message: DELIVERED })
  @Max(L.lineQuantity, { message: DELIVERED })
  delivered!: number;

  @ApiPropertyOptional({
    maxLength: L.shortReason,
    example: '10 trays were crushed on the road and came back',
    description: 'Required when fewer arrived than left',
  })
  @trim
  @IsOptional()
  @IsString({ message: 'shortReason must be text' })
  @MaxLength(L.shortReason, {
    message: `The reason must be at most ${L.shortReason} characters`,
  })
  shortReason?: string;
}

/** `POST /api/orders/:id/tranches/:number/delivery`: the signed delivery note, as the clerk reads it. */
export class RecordDeliveryDto {
  @OneLine(L.signedBy, TM.signedByRequired, 'Who signed', 'Peter Mwangi')
  signedBy!: string;

  @ApiProperty({
    format: 'date-time',
    example: '2026-10-15T11:30:00.000Z',
    description: 'When the note was signed: not in the future, not before the load left',
  })
  @IsDateString({}, { message: 'signedAt must be a date and time (ISO 8601)' })
  signedAt!: string;

  @Lines(
    () => DeliveredLineDto,
    true,
    'Each line of the load once, with what arrived; left out: everything arrived',
  )
  lines?: DeliveredLineDto[];
}

/** The dispatch desk's list of tranches. */
/** The photo or scan of a tranche's signed delivery note, as a multipart form. */
export class SignedNoteUploadDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description:
      'A PDF (kept as sent) or a photo: JPEG, PNG or WebP (kept as an upright JPEG without its metadata); at most 5 MB. Told by its content, not its name or type',
  })
  file!: unknown;
}

export class TrancheListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: TRANCHE_STATES, enumName: 'TrancheState' })
  @IsOptional()
  @IsIn(TRANCHE_STATES, { message: `state must be one of: ${TRANCHE_STATES.join(', ')}` })
  state?: TrancheState;

  @ApiPropertyOptional({
    enum: TRANCHE_QUEUES,
    enumName: 'TrancheQueue',
    description:
      'A bucket of the desk: planned and due (today or earlier), planned later, or dispatched and awaiting the signed note',
  })
  @IsOptional()
  @IsIn(TRANCHE_QUEUES, { message: `queue must be one of: ${TRANCHE_QUEUES.join(', ')}` })
  queue?: TrancheQueue;

  @ApiPropertyOptional({ format: 'date', description: 'Tranches dated from this day' })
  @IsOptional()
  @IsCalendarDay({ message: 'from must be a day written YYYY-MM-DD' })
  from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'Tranches dated up to this day' })
  @IsOptional()
  @IsCalendarDay({ message: 'to must be a day written YYYY-MM-DD' })
  to?: string;
}
