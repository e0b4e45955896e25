import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  DELIVERY_MESSAGES as D,
  DELIVERY_METHODS,
  DELIVERY_ZONE_LIMITS as L,
  type DeliveryMethod,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { singleLineText } from '../../common/validation-decorators';
import { CountyField, SubCountyField } from '../../locations/place-fields';

export class DeliveryAreaDto {
  @CountyField()
  county!: string;

  @SubCountyField('One sub-county of that county; leave out to cover the whole county')
  subCounty?: string;
}

/** A delivery zone as the back office sends it (create and replace alike). */
export class DeliveryZoneInputDto {
  @ApiProperty({ example: 'Nairobi', maxLength: L.nameMax })
  @singleLineText
  @IsNotEmpty({ message: D.nameRequired })
  @IsString({ message: D.nameRequired })
  @MaxLength(L.nameMax, { message: D.nameMax })
  name!: string;

  @ApiProperty({ example: 300, minimum: 0, maximum: L.feeMax, description: 'Whole KES' })
  @IsInt({ message: D.feeWhole })
  @Min(0, { message: D.feeRange })
  @Max(L.feeMax, { message: D.feeRange })
  fee!: number;

  @ApiProperty({ example: 2, minimum: L.daysMin, maximum: L.daysMax })
  @IsInt({ message: D.daysWhole })
  @Min(L.daysMin, { message: D.daysRange })
  @Max(L.daysMax, { message: D.daysRange })
  days!: number;

  @ApiPropertyOptional({
    default: false,
    description: 'Covers every place no other zone covers (at most one such zone)',
  })
  @IsOptional()
  @IsBoolean({ message: 'restOfKenya must be true or false' })
  restOfKenya?: boolean;

  @ApiProperty({ type: [DeliveryAreaDto], description: 'Whole counties or single sub-counties' })
  @IsArray({ message: 'areas must be a list' })
  @ArrayMaxSize(L.areasMax, { message: D.areasMax })
  @ValidateNested({ each: true })
  @Type(() => DeliveryAreaDto)
  areas!: DeliveryAreaDto[];
}

export class DeliveryOptionsQueryDto {
  @CountyField()
  county!: string;

  @SubCountyField()
  subCounty?: string;
}

/** The shopper's choice sent with an order (any other field in it is ignored). */
export class DeliveryChoiceDto {
  @ApiPropertyOptional({ enum: DELIVERY_METHODS, default: 'delivery' })
  @IsOptional()
  @IsIn(DELIVERY_METHODS, { message: D.methodInvalid })
  method?: DeliveryMethod;

  @ApiPropertyOptional({ description: 'Ignored: the zone comes from the address' })
  @Allow()
  zoneName?: unknown;
  @ApiPropertyOptional({ description: 'Ignored: the days come from the zone' })
  @Allow()
  days?: unknown;
  @ApiPropertyOptional({ description: 'Ignored: the fee comes from the zone' })
  @Allow()
  fee?: unknown;
}

// Answers ------------------------------------------------------------------------------------

export class DeliveryAreaViewDto {
  @ApiProperty() county!: string;
  @ApiPropertyOptional() subCounty?: string;
}

export class DeliveryZoneDto {
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [DeliveryAreaViewDto] }) areas!: DeliveryAreaViewDto[];
  @ApiProperty() restOfKenya!: boolean;
  @ApiProperty({ description: 'Whole KES' }) fee!: number;
  @ApiProperty() days!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class DeliveryZoneData {
  @ApiProperty({ type: DeliveryZoneDto }) zone!: DeliveryZoneDto;
}
export class DeliveryZoneResponseDto extends Envelope(DeliveryZoneData) {}

export class DeliveryFallbackDto {
  @ApiProperty({ example: 'All of Kenya' }) name!: string;
  @ApiProperty() fee!: number;
  @ApiProperty() days!: number;
}

export class DeliveryZoneListData {
  @ApiProperty({ type: [DeliveryZoneDto] }) zones!: DeliveryZoneDto[];
  @ApiProperty({
    description: 'What applies where no zone covers a place (all of Kenya while there are none)',
  })
  fallback!: DeliveryFallbackDto;
}

export class DeliveryZoneListResponseDto extends Envelope(DeliveryZoneListData) {}

export class DeliveryOptionDto {
  @ApiProperty({ enum: DELIVERY_METHODS }) method!: DeliveryMethod;
  @ApiProperty({ example: 'Nairobi', description: 'The zone, or "Collect at the nursery"' })
  zoneName!: string;
  @ApiProperty({ description: 'Whole KES' }) fee!: number;
  @ApiProperty() days!: number;
  @ApiProperty({ format: 'date-time', description: 'Expected delivery, or ready to collect from' })
  estimatedDeliveryDate!: string;
  @ApiPropertyOptional({ description: 'Collection only: where' }) address?: string;
  @ApiPropertyOptional({ description: 'Collection only: when' }) openingHours?: string;
}

export class DeliveryOptionsData {
  @ApiProperty({ type: [DeliveryOptionDto] }) options!: DeliveryOptionDto[];
}
export class DeliveryOptionsResponseDto extends Envelope(DeliveryOptionsData) {}

/** The delivery part of an order. */
export class OrderDeliveryDto {
  @ApiProperty({ enum: DELIVERY_METHODS }) method!: DeliveryMethod;
  @ApiProperty({ example: 'Nairobi' }) zoneName!: string;
  @ApiProperty() days!: number;
}
