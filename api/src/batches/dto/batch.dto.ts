import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsMongoId,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  BATCH_LIMITS,
  BATCH_STATUSES,
  BOOKING_STATES,
  LOSS_REASONS,
  SEASON_KEYS,
  STOCK_MESSAGES,
  type BatchStatus,
  type BookingState,
  type LossReason,
  type SeasonKey,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { IsCalendarDay } from '../../common/calendar-day';
import { PageQueryDto } from '../../common/pagination';

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;
const DAY_MESSAGE = (field: string) => `${field} must be a day written YYYY-MM-DD`;
/** What a day looks like in the document (a day that does not exist, 2027-02-30, still refused). */
const DAY_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const STARTED_MESSAGE = `The seedlings started must be a whole number from 1 to ${BATCH_LIMITS.maxStarted.toLocaleString('en-GB')}`;
const NOTE_MESSAGE = `The note can be at most ${BATCH_LIMITS.noteMaxLength} characters`;

/** `POST /api/batches`: a batch sown on a day, ready on a later one. */
export class CreateBatchDto {
  @ApiProperty({ description: 'The product the batch grows' })
  @IsMongoId({ message: 'productId must be the id of a product' })
  productId!: string;

  @ApiProperty({
    example: '2027-01-10',
    description: 'Sowing day (YYYY-MM-DD)',
    pattern: DAY_PATTERN,
  })
  @IsCalendarDay({ message: DAY_MESSAGE('sownOn') })
  sownOn!: string;

  @ApiProperty({
    example: '2027-03-12',
    description: 'Expected ready day (YYYY-MM-DD), not before the sowing day',
    pattern: DAY_PATTERN,
  })
  @IsCalendarDay({ message: DAY_MESSAGE('readyOn') })
  readyOn!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: BATCH_LIMITS.maxStarted, example: 500 })
  @IsInt({ message: STARTED_MESSAGE })
  @Min(1, { message: STARTED_MESSAGE })
  @Max(BATCH_LIMITS.maxStarted, { message: STARTED_MESSAGE })
  started!: number;

  @ApiPropertyOptional({ maxLength: BATCH_LIMITS.noteMaxLength, example: 'Tunnel 3' })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @MaxLength(BATCH_LIMITS.noteMaxLength, { message: NOTE_MESSAGE })
  note?: string;
}

/** `PATCH /api/batches/:id`: a growing batch's ready day or note. */
export class UpdateBatchDto {
  @ApiPropertyOptional({ example: '2027-03-19', pattern: DAY_PATTERN })
  @IsOptional()
  @IsCalendarDay({ message: DAY_MESSAGE('readyOn') })
  readyOn?: string;

  @ApiPropertyOptional({ maxLength: BATCH_LIMITS.noteMaxLength })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @MaxLength(BATCH_LIMITS.noteMaxLength, { message: NOTE_MESSAGE })
  note?: string;
}

/** `POST /api/batches/:id/losses`: seedlings of a growing batch lost. */
export class BatchLossDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 20 })
  @IsInt({ message: STOCK_MESSAGES.lossQuantity })
  @Min(1, { message: STOCK_MESSAGES.lossQuantity })
  @Max(BATCH_LIMITS.maxStarted, { message: STOCK_MESSAGES.lossQuantity })
  quantity!: number;

  @ApiPropertyOptional({ enum: LOSS_REASONS, default: 'died' })
  // Left out, it is 'died'; given (null included), it must be one of the form's reasons.
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(LOSS_REASONS, { message: STOCK_MESSAGES.lossReason })
  reason?: LossReason;

  @ApiProperty({ maxLength: BATCH_LIMITS.noteMaxLength, example: 'damping off' })
  @Transform(trimmed)
  @IsString({ message: 'Say what happened in the note' })
  @IsNotEmpty({ message: 'Say what happened in the note' })
  @MaxLength(BATCH_LIMITS.noteMaxLength, { message: NOTE_MESSAGE })
  note!: string;
}

/** `POST /api/batches/:id/fail`: the batch failed. */
export class FailBatchDto {
  @ApiProperty({ maxLength: BATCH_LIMITS.noteMaxLength, example: 'hail' })
  @Transform(trimmed)
  @IsString({ message: 'Say why the batch failed in the note' })
  @IsNotEmpty({ message: 'Say why the batch failed in the note' })
  @MaxLength(BATCH_LIMITS.noteMaxLength, { message: NOTE_MESSAGE })
  note!: string;
}

export class BatchListQueryDto extends PageQueryDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsMongoId({ message: 'productId must be the id of a product' })
  productId?: string;

  @ApiPropertyOptional({ enum: BATCH_STATUSES })
  @IsOptional()
  @IsIn(BATCH_STATUSES, { message: `status must be one of: ${BATCH_STATUSES.join(', ')}` })
  status?: BatchStatus;

  @ApiPropertyOptional({ example: '2027-03-01', description: 'Ready on or after this day' })
  @IsOptional()
  @IsCalendarDay({ message: DAY_MESSAGE('readyFrom') })
  readyFrom?: string;

  @ApiPropertyOptional({ example: '2027-05-31', description: 'Ready on or before this day' })
  @IsOptional()
  @IsCalendarDay({ message: DAY_MESSAGE('readyTo') })
  readyTo?: string;
}

export class BookableBatchesQueryDto {
  @ApiPropertyOptional({ description: 'Only this product’s batches' })
  @IsOptional()
  @IsMongoId({ message: 'productId must be the id of a product' })
  productId?: string;
}

export class BatchDto {
  @ApiProperty() _id!: string;
  @ApiProperty() productId!: string;
  @ApiProperty({ example: 'Hass avocado' }) productName!: string;
  @ApiProperty({ example: '2027-01-10' }) sownOn!: string;
  @ApiProperty({ example: '2027-03-12' }) readyOn!: string;
  @ApiProperty({ type: 'integer', description: 'Seedlings sown' }) started!: number;
  @ApiProperty({ type: 'integer', description: 'Seedlings lost so far' }) lost!: number;
  @ApiProperty({ type: 'integer', description: 'Seedlings the bookings hold' }) booked!: number;
  @ApiProperty({
    type: 'integer',
    description: 'Left to book: started − lost − booked while growing (never below 0), else 0',
  })
  available!: number;
  @ApiProperty({
    type: 'integer',
    description: 'What the batch holds now (its stock on the ledger under batch:<id>)',
  })
  quantity!: number;
  @ApiProperty({ enum: BATCH_STATUSES, description: '`Sold out`: growing, nothing left to book' })
  status!: BatchStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) readyAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) failedAt!: string | null;
  @ApiProperty() note!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class BatchListItemDto extends BatchDto {
  @ApiProperty({ type: 'integer', description: 'Bookings holding seedlings of it' })
  bookings!: number;
}

export class BatchBookingDto {
  @ApiProperty() orderId!: string;
  @ApiProperty({ example: 'SPD1A2B3C4D' }) purchaseNumber!: string;
  @ApiProperty({ example: 'Wanjiru Kamau' }) customer!: string;
  @ApiProperty({ type: 'integer' }) seedlings!: number;
  @ApiProperty({ enum: BOOKING_STATES }) state!: BookingState;
  @ApiProperty({ format: 'date-time' }) placedAt!: string;
}

/** An order that holds seedlings of the batch without being a booking (from a quotation). */
export class BatchOrderHoldDto {
  @ApiProperty() orderId!: string;
  @ApiProperty({ example: 'SPD1A2B3C4D' }) purchaseNumber!: string;
  @ApiProperty({ example: 'Kiambu County Government' }) customer!: string;
  @ApiProperty({ type: 'integer' }) seedlings!: number;
  @ApiProperty({ format: 'date-time' }) placedAt!: string;
}

export class BatchDetailDto extends BatchDto {
  @ApiProperty({ type: [BatchBookingDto], description: 'In booking order' })
  bookings!: BatchBookingDto[];
  @ApiProperty({
    type: [BatchOrderHoldDto],
    description:
      'Orders holding seedlings of it that are not bookings (orders from quotations: no deposit), in the order they held them',
  })
  orders!: BatchOrderHoldDto[];
}

export class BatchData {
  @ApiProperty({ type: BatchDetailDto }) batch!: BatchDetailDto;
}
export class BatchResponseDto extends Envelope(BatchData) {}

export class BatchListData {
  @ApiProperty({ type: [BatchListItemDto] }) items!: BatchListItemDto[];
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: 'integer' }) page!: number;
  @ApiProperty({ type: 'integer' }) limit!: number;
  @ApiProperty({ type: 'integer' }) totalPages!: number;
}
export class BatchListResponseDto extends Envelope(BatchListData) {}

export class BookableBatchDto {
  @ApiProperty() _id!: string;
  @ApiProperty() productId!: string;
  @ApiProperty({ example: '2027-03-12' }) readyOn!: string;
  @ApiProperty({ type: 'integer', description: 'Seedlings left to book' }) available!: number;
}
export class BookableBatchesData {
  @ApiProperty({ type: [BookableBatchDto], description: 'Soonest first' })
  batches!: BookableBatchDto[];
}
export class BookableBatchesResponseDto extends Envelope(BookableBatchesData) {}

export class SeasonDto {
  @ApiProperty({ enum: SEASON_KEYS }) key!: SeasonKey;
  @ApiProperty({ example: 'Long rains' }) name!: string;
  @ApiProperty({ example: '2027-03-01', description: 'Start of the coming occurrence' })
  from!: string;
  @ApiProperty({ example: '2027-05-31', description: 'End of the coming occurrence' })
  to!: string;
}
export class BookingSettingsData {
  @ApiProperty({ type: 'integer', example: 30 }) depositPercent!: number;
  @ApiProperty({ type: 'integer', example: 7 }) balanceDays!: number;
  @ApiProperty({ type: [SeasonDto] }) seasons!: SeasonDto[];
}
export class BookingSettingsResponseDto extends Envelope(BookingSettingsData) {}
