import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  LOSS_REASONS,
  STOCK_LIMITS,
  STOCK_MESSAGES as S,
  STOCK_REASONS,
  type LossReason,
  type StockReason,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { PageQueryDto } from '../../common/pagination';
import { ProductDto } from '../../catalog/dto/product.dto';

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;

/** `POST /api/stock/products/:id/losses`: seedlings that died, were damaged or given away. */
export class RecordLossDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 3 })
  @IsInt({ message: S.lossQuantity })
  @Min(1, { message: S.lossQuantity })
  @Max(STOCK_LIMITS.maxQuantity, { message: S.lossQuantity })
  quantity!: number;

  @ApiProperty({ enum: LOSS_REASONS, example: 'died' })
  @IsIn(LOSS_REASONS, { message: S.lossReason })
  reason!: LossReason;

  @ApiPropertyOptional({ maxLength: STOCK_LIMITS.noteMaxLength, example: 'frost' })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @MaxLength(STOCK_LIMITS.noteMaxLength, { message: S.noteTooLong })
  note?: string;
}

/** `POST /api/stock/products/:id/counts`: what a count of the shed found. */
export class RecordCountDto {
  @ApiProperty({ type: 'integer', minimum: 0, example: 7 })
  @IsInt({ message: S.countedQuantity })
  @Min(0, { message: S.countedQuantity })
  @Max(STOCK_LIMITS.maxQuantity, { message: S.countedQuantity })
  countedQuantity!: number;

  @ApiPropertyOptional({ maxLength: STOCK_LIMITS.noteMaxLength, example: 'Monday count' })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @MaxLength(STOCK_LIMITS.noteMaxLength, { message: S.noteTooLong })
  note?: string;
}

/** `PATCH /api/stock/products/:id/threshold`: a whole number, or null for the shop's default. */
export class LowStockThresholdDto {
  @ApiProperty({ type: 'integer', minimum: 0, nullable: true, example: 10 })
  @ValidateIf((_, value) => value !== null)
  @IsInt({ message: S.threshold })
  @Min(0, { message: S.threshold })
  @Max(STOCK_LIMITS.maxQuantity, { message: S.threshold })
  lowStockThreshold!: number | null;
}

export class MovementsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Only these reasons (comma-separated); `loss` means died, damaged and given away',
    example: 'died,damaged',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean)
          .flatMap((r) => (r === 'loss' ? [...LOSS_REASONS] : [r]))
      : value,
  )
  @IsIn(STOCK_REASONS, {
    each: true,
    message: `reason must be one of: ${STOCK_REASONS.join(', ')}, loss`,
  })
  @ArrayMaxSize(STOCK_REASONS.length)
  reason?: StockReason[];
}

export class MovementActorDto {
  @ApiProperty()
  id!: string;
  @ApiProperty({ example: 'Peter Mwangi' })
  fullName!: string;
  @ApiProperty({ example: 'staff' })
  role!: string;
}

export class StockMovementDto {
  @ApiProperty()
  _id!: string;
  @ApiProperty()
  productId!: string;
  @ApiProperty({ example: 'Mango (Apple)' })
  productName!: string;
  @ApiProperty({ type: 'integer', description: 'Order of the product’s movements (1, 2, ...)' })
  seq!: number;
  @ApiProperty({ enum: STOCK_REASONS })
  reason!: StockReason;
  @ApiProperty({ type: 'integer', example: -3, description: 'Signed change of the stock' })
  change!: number;
  @ApiProperty({ type: 'integer', example: 9, description: 'The stock right after this movement' })
  quantityAfter!: number;
  @ApiProperty({ example: 'frost' })
  note!: string;
  @ApiProperty({ type: MovementActorDto, nullable: true, description: 'Null: a guest or the shop' })
  @Type(() => MovementActorDto)
  by!: MovementActorDto | null;
  @ApiProperty({ type: String, nullable: true })
  orderId!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'SPD1A2B3C4D' })
  purchaseNumber!: string | null;
  @ApiProperty({ format: 'date-time' })
  at!: string;
  @ApiProperty({
    description:
      'It took the stock below zero (a gate sale, never refused): kept as it happened until the stock is counted again',
  })
  short!: boolean;
}

export class StockLevelDto {
  @ApiProperty({ type: 'integer', nullable: true, description: 'The product’s own threshold' })
  lowStockThreshold!: number | null;
  @ApiProperty({ type: 'integer', description: 'The threshold in force (own, else the default)' })
  threshold!: number;
  @ApiProperty({ enum: ['ok', 'low', 'out'] })
  level!: 'ok' | 'low' | 'out';
}

export class MovementsData {
  @ApiProperty({ type: ProductDto })
  product!: ProductDto;
  @ApiProperty({ type: StockLevelDto })
  stock!: StockLevelDto;
  @ApiProperty({ type: [StockMovementDto], description: 'Newest first' })
  movements!: StockMovementDto[];
  @ApiProperty({ type: 'integer' })
  total!: number;
  @ApiProperty({ type: 'integer' })
  page!: number;
  @ApiProperty({ type: 'integer' })
  limit!: number;
  @ApiProperty({ type: 'integer' })
  totalPages!: number;
}
export class MovementsResponseDto extends Envelope(MovementsData) {}

export class StockChangeData {
  @ApiProperty({ type: ProductDto })
  product!: ProductDto;
  @ApiProperty({
    type: StockMovementDto,
    nullable: true,
    description: 'Null when the stock did not change (a count equal to the stock)',
  })
  movement!: StockMovementDto | null;
}
export class StockChangeResponseDto extends Envelope(StockChangeData) {}

export class LowStockItemDto {
  @ApiProperty()
  _id!: string;
  @ApiProperty()
  productName!: string;
  @ApiProperty({ type: 'integer' })
  productQuantity!: number;
  @ApiProperty({ type: 'integer' })
  threshold!: number;
  @ApiProperty({ enum: ['low', 'out'] })
  level!: 'low' | 'out';
  @ApiProperty({
    example: '2 × Tray of 50',
    description:
      "The stock in whole units of the product's larger sale units; empty when sold singly only",
  })
  inUnits!: string;
}

export class LowStockData {
  @ApiProperty({
    type: [LowStockItemDto],
    description: 'Out of stock first, then fewest left; at most 200 (the counts cover all)',
  })
  products!: LowStockItemDto[];
  @ApiProperty({ type: 'integer', description: 'The shop-wide default threshold' })
  defaultThreshold!: number;
  @ApiProperty({ type: 'integer' })
  lowCount!: number;
  @ApiProperty({ type: 'integer' })
  outCount!: number;
}
export class LowStockResponseDto extends Envelope(LowStockData) {}

export class ThresholdData {
  @ApiProperty({ type: ProductDto })
  product!: ProductDto;
  @ApiProperty({ type: StockLevelDto })
  stock!: StockLevelDto;
}
export class ThresholdResponseDto extends Envelope(ThresholdData) {}
