import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
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
} from 'class-validator';
import { Envelope } from '../../common/answer';
import { trim } from '../../common/validation-decorators';
import { OrderDto } from '../../orders/dto/order-view.dto';

export const BOOKING_QUEUE_TABS = ['deposits', 'balances', 'dispatch', 'affected'] as const;
export type BookingQueueTab = (typeof BOOKING_QUEUE_TABS)[number];

/** A deposit staff saw paid (M-Pesa or cash with a receipt code): exactly the deposit. */
export class RecordDepositDto {
  @ApiProperty({
    example: 'SGH7K2LP9Q',
    description: 'The M-Pesa (or receipt) code of the deposit',
  })
  @trim
  @IsString({ message: 'Transaction code is required' })
  @IsNotEmpty({ message: 'Transaction code is required' })
  @MaxLength(40)
  transactionCode!: string;

  @ApiProperty({ example: 4500, description: "Whole KES; must equal the booking's deposit" })
  @IsInt({ message: 'Amount must be a whole number of KES' })
  @Min(1, { message: 'Amount must be at least KES 1' })
  @Max(100_000_000)
  amount!: number;
}

export class MoveBookingDto {
  @ApiProperty({ description: 'A growing batch of the same product with room for the booking' })
  @IsMongoId({ message: 'batchId must be a batch id' })
  batchId!: string;
}

export class BookingQueueQueryDto {
  @ApiProperty({ enum: BOOKING_QUEUE_TABS })
  @IsIn(BOOKING_QUEUE_TABS, { message: `tab must be one of ${BOOKING_QUEUE_TABS.join(', ')}` })
  tab!: BookingQueueTab;

  @ApiPropertyOptional({ default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be at least 1' })
  page?: number;

  @ApiPropertyOptional({ default: 10, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(100, { message: 'limit must be at most 100' })
  limit?: number;
}

export class BookingQueueData {
  @ApiProperty({ type: [OrderDto] }) orders!: OrderDto[];
  @ApiProperty() totalOrders!: number;
  @ApiProperty() totalPages!: number;
  @ApiProperty() page!: number;
}

export class BookingQueueResponseDto extends Envelope(BookingQueueData) {}

export class BookingCountsData {
  @ApiProperty({ description: 'Deposit due: deposits to confirm' }) deposits!: number;
  @ApiProperty({ description: 'Balance due within the next seven days (shop time) or overdue' })
  balances!: number;
  @ApiProperty({ description: 'Paid bookings not yet sent out' }) dispatch!: number;
  @ApiProperty({ description: 'Their batch failed or fell short: to move or refund' })
  affected!: number;
}

export class BookingCountsResponseDto extends Envelope(BookingCountsData) {}
