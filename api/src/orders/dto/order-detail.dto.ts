import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ERROR_CODE_LIST, ORDER_ACTIONS } from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { OrderDto } from './order-view.dto';

export class OrderTimelineEntryDto {
  @ApiProperty({ example: 'Payment recorded' }) step!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "Who did it: staff and admin only (null in a customer's view)",
  })
  by!: string | null;
  @ApiProperty({ example: 'Jane Clerk recorded a Mpesa payment of KES 1,250 for SPD7K3MX9QA' })
  text!: string;
}

export class OrderActionCheckDto {
  @ApiProperty({ enum: ORDER_ACTIONS }) action!: string;
  @ApiProperty() allowed!: boolean;
  @ApiPropertyOptional({ description: 'Why the state machine refuses it' }) reason?: string;
  @ApiPropertyOptional({ enum: ERROR_CODE_LIST }) code?: string;
}

export class OrderDocumentAvailabilityDto {
  @ApiProperty() available!: boolean;
  @ApiPropertyOptional() reason?: string;
}

export class OrderDocumentsDto {
  @ApiProperty({ type: OrderDocumentAvailabilityDto }) receipt!: OrderDocumentAvailabilityDto;
  @ApiProperty({ type: OrderDocumentAvailabilityDto }) deliveryNote!: OrderDocumentAvailabilityDto;
}

export class OrderShopDto {
  @ApiProperty({ example: 'Seedling Propagation Centre' }) name!: string;
  @ApiProperty({ example: 'Kiambu, Kenya' }) place!: string;
  @ApiProperty({ example: '+254700000000' }) phone!: string;
  @ApiProperty({ example: 'shop.example.co.ke' }) website!: string;
}

export class OrderDetailData {
  @ApiProperty({
    type: OrderDto,
    description:
      "The order; in a customer's view the payment's recorder is the shop, not a staff member",
  })
  order!: OrderDto;
  @ApiProperty({ type: [OrderTimelineEntryDto], description: 'Every step, oldest first' })
  timeline!: OrderTimelineEntryDto[];
  @ApiProperty({
    type: [OrderActionCheckDto],
    description: "The actions the caller's role has on orders, each allowed or refused with why",
  })
  actions!: OrderActionCheckDto[];
  @ApiProperty({ type: OrderDocumentsDto }) documents!: OrderDocumentsDto;
  @ApiProperty({
    type: OrderShopDto,
    description: 'What receipts and delivery notes print as the seller',
  })
  shop!: OrderShopDto;
}

export class OrderDetailResponseDto extends Envelope(OrderDetailData) {}

/** The signed link's parameters (from the payment e-mail); signed-in callers send neither. */
export class OrderDocumentQueryDto {
  @ApiPropertyOptional({ description: 'Expiry of a signed link, seconds since 1970' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  expires?: string;

  @ApiPropertyOptional({ description: 'HMAC signature of a signed link' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  signature?: string;
}
