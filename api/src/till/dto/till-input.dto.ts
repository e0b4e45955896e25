import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsMongoId,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  TILL_MESSAGES,
  TILL_OFFLINE_LIMITS,
  TILL_PAYMENT_METHODS,
  TILL_PIN_PATTERN,
  type TillPaymentMethod,
} from '@spc/shared-contracts';
import { IsCalendarDay } from '../../common/calendar-day';
import { PasswordField, trim } from '../../common/validation-decorators';

/** The most KES one till figure may hold (a float, a count, a payment). */
const KES_MAX = 100_000_000;
const wholeKes = (field: string) => ({ message: `${field} must be whole shillings, 0 or more` });

/** A till PIN: 4 to 6 digits, refused in TILL_MESSAGES' words. */
function PinField() {
  return applyDecorators(
    ApiProperty({ example: '4821', description: TILL_MESSAGES.pinForm }),
    IsString({ message: TILL_MESSAGES.pinForm }),
    Matches(TILL_PIN_PATTERN, { message: TILL_MESSAGES.pinForm }),
  );
}

/** `PUT /api/till/pin`: the caller's own PIN, confirmed with their password. */
export class SetOwnTillPinDto {
  @PinField() pin!: string;
  @PasswordField() currentPassword!: string;
}

/** `PUT /api/till/pin/:staffId`: an admin sets (and so unlocks) another's PIN. */
export class SetTillPinDto {
  @PinField() pin!: string;
}

export class OpenTillSessionDto {
  @ApiProperty({ example: 2000, description: 'The cash in the drawer at the start, whole KES' })
  @IsInt(wholeKes('float'))
  @Min(0, wholeKes('float'))
  @Max(KES_MAX)
  float!: number;
}

export class CloseTillSessionDto {
  @ApiProperty({ example: 15400, description: 'The cash counted in the drawer, whole KES' })
  @IsInt(wholeKes('countedCash'))
  @Min(0, wholeKes('countedCash'))
  @Max(KES_MAX)
  countedCash!: number;
}

export class TillSessionsQueryDto {
  @ApiProperty({ example: '2026-11-29', description: "The shop's day the sessions opened" })
  @IsCalendarDay({ message: 'day must be a date as YYYY-MM-DD' })
  day!: string;
}

export class TillSalesQueryDto {
  @ApiProperty({ description: 'The till session' })
  @IsMongoId({ message: 'sessionId must be a till session id' })
  sessionId!: string;
}

export class TillSaleLineDto {
  @ApiProperty() @IsMongoId({ message: 'productId must be a product id' }) productId!: string;

  @ApiPropertyOptional({ description: "The product's unit (its first unit when left out)" })
  @IsOptional()
  @IsMongoId({ message: 'unitId must be a unit id' })
  unitId?: string;

  @ApiProperty({ example: 3 })
  @IsInt({ message: 'quantity must be a whole number' })
  @Min(1, { message: 'quantity must be at least 1' })
  @Max(1_000_000, { message: 'quantity must be at most 1,000,000' })
  quantity!: number;
}

export class TillPaymentDto {
  @ApiProperty({ enum: TILL_PAYMENT_METHODS })
  @IsIn(TILL_PAYMENT_METHODS, {
    message: `method must be one of ${TILL_PAYMENT_METHODS.join(', ')}`,
  })
  method!: TillPaymentMethod;

  @ApiProperty({ example: 700, description: 'Whole KES this payment pays of the sale' })
  @IsInt({ message: 'amount must be whole shillings' })
  @Min(1, { message: 'amount must be at least KES 1' })
  @Max(KES_MAX)
  amount!: number;

  @ApiPropertyOptional({ example: 1000, description: 'Cash: what the buyer handed over' })
  @IsOptional()
  @IsInt(wholeKes('given'))
  @Min(0, wholeKes('given'))
  @Max(KES_MAX)
  given?: number;

  @ApiPropertyOptional({ example: 'SGR4T5Y6U7', description: 'mpesa-code: the code shown' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  code?: string;

  @ApiPropertyOptional({ example: '0712345678', description: 'mpesa-express: the phone to prompt' })
  @trim
  @IsOptional()
  @IsString()
  @MaxLength(20)
  phone?: string;
}

/** The price one line was sold at offline (issue 47): the unit the till showed. */
export class TillOfflinePriceDto {
  @ApiProperty() @IsMongoId({ message: 'productId must be a product id' }) productId!: string;

  @ApiPropertyOptional({ description: "The product's unit (its first unit when left out)" })
  @IsOptional()
  @IsMongoId({ message: 'unitId must be a unit id' })
  unitId?: string;

  @ApiProperty({ example: 250, description: 'Whole KES per unit, as the till showed it' })
  @IsInt({ message: 'unitPrice must be whole shillings' })
  @Min(0, { message: 'unitPrice must be whole shillings, 0 or more' })
  @Max(KES_MAX)
  unitPrice!: number;
}

/**
 * A sale made while the till was offline (issue 47): when, and at what prices. Its limits
 * (TILL_OFFLINE_LIMITS) are checked against its session and the prices now, 400 in TILL_MESSAGES'
 * words.
 */
export class TillOfflineDto {
  @ApiProperty({
    example: '2026-11-27T09:15:00.000Z',
    description: `When the till charged it (ISO): at most ${TILL_OFFLINE_LIMITS.maxAgeDays} days ago, not in the future beyond ${TILL_OFFLINE_LIMITS.clockDriftMs / 60_000} minutes, not before its session opened`,
  })
  @IsString({ message: 'offline.soldAt must be an ISO time' })
  @IsISO8601({ strict: true }, { message: 'offline.soldAt must be an ISO time' })
  soldAt!: string;

  @ApiProperty({
    type: [TillOfflinePriceDto],
    description: `One per line; each within ${TILL_OFFLINE_LIMITS.priceMin}× and ${TILL_OFFLINE_LIMITS.priceMax}× of the unit's price now`,
  })
  @IsArray({ message: TILL_MESSAGES.offlinePrices })
  @ArrayMinSize(1, { message: TILL_MESSAGES.offlinePrices })
  @ArrayMaxSize(100, { message: TILL_MESSAGES.offlinePrices })
  @ValidateNested({ each: true })
  @Type(() => TillOfflinePriceDto)
  prices!: TillOfflinePriceDto[];
}

/** `POST /api/till/sales`. */
export class TillSaleDto {
  @ApiProperty() @IsMongoId({ message: 'sessionId must be a till session id' }) sessionId!: string;

  @ApiProperty({ type: [TillSaleLineDto] })
  @IsArray()
  @ArrayMinSize(1, { message: 'A sale needs at least one line' })
  @ArrayMaxSize(100, { message: 'A sale holds at most 100 lines' })
  @ValidateNested({ each: true })
  @Type(() => TillSaleLineDto)
  lines!: TillSaleLineDto[];

  @ApiProperty({ type: [TillPaymentDto] })
  @IsArray()
  @ArrayMinSize(1, { message: 'A sale needs a payment' })
  @ArrayMaxSize(2, { message: 'A sale is paid by cash, M-Pesa, or both split' })
  @ValidateNested({ each: true })
  @Type(() => TillPaymentDto)
  payments!: TillPaymentDto[];

  @ApiPropertyOptional({ example: '0712345678', description: 'For an SMS receipt' })
  @trim
  @IsOptional()
  @IsString()
  @Matches(/^\+?[0-9 ]{9,15}$/, { message: 'phone must be a phone number' })
  phone?: string;

  @ApiPropertyOptional({
    type: TillOfflineDto,
    description:
      'Set when sold while the till was offline (issue 47): needs an Idempotency-Key; paid in cash or by an M-Pesa code only',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => TillOfflineDto)
  offline?: TillOfflineDto;
}

/** `POST /api/till/sales/:orderId/settle`: what a sale needing attention still owes, paid now. */
export class TillSettleDto {
  @ApiProperty() @IsMongoId({ message: 'sessionId must be a till session id' }) sessionId!: string;

  @ApiProperty({
    type: [TillPaymentDto],
    description: 'Cash and/or the M-Pesa code the buyer shows',
  })
  @IsArray()
  @ArrayMinSize(1, { message: 'Settling needs a payment' })
  @ArrayMaxSize(2)
  @ValidateNested({ each: true })
  @Type(() => TillPaymentDto)
  payments!: TillPaymentDto[];
}

/** A second person's approval of a void or a refund. */
export class TillVoidDto {
  @ApiProperty({ description: 'The approving staff member (not the seller)' })
  @IsMongoId({ message: 'approverId must be a staff member id' })
  approverId!: string;

  @PinField() pin!: string;

  @ApiProperty({ example: 'Rung up twice' })
  @trim
  @IsString({ message: 'A reason is required' })
  @IsNotEmpty({ message: 'A reason is required' })
  @MaxLength(200, { message: 'reason must be at most 200 characters' })
  reason!: string;
}

export class TillRefundDto extends TillVoidDto {
  @ApiProperty({ example: 300, description: 'Whole KES handed back in cash' })
  @IsInt({ message: 'amount must be whole shillings' })
  @Min(1, { message: 'amount must be at least KES 1' })
  @Max(KES_MAX)
  amount!: number;
}

/** `POST /api/till/bookings/:orderId/collect`: the balance taken at the gate, handed over. */
export class TillCollectDto {
  @ApiProperty() @IsMongoId({ message: 'sessionId must be a till session id' }) sessionId!: string;

  @ApiProperty({ type: [TillPaymentDto] })
  @IsArray()
  @ArrayMinSize(1, { message: 'Collecting needs a payment' })
  @ArrayMaxSize(2)
  @ValidateNested({ each: true })
  @Type(() => TillPaymentDto)
  payments!: TillPaymentDto[];
}

/** `POST /api/till/sales/:orderId/sms`: the receipt to the sale's phone, or to this one. */
export class TillSmsReceiptDto {
  @ApiPropertyOptional({ example: '0712345678', description: "Else the sale's phone" })
  @trim
  @IsOptional()
  @IsString()
  @Matches(/^\+?[0-9 ]{9,15}$/, { message: 'phone must be a phone number' })
  phone?: string;
}
