import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsMongoId,
  IsNotEmpty,
} from 'class-validator';
import {
  BULK_ORDER_ACTIONS,
  BULK_ORDERS_MAX,
  ERROR_CODES,
  ORDER_STATUSES,
  type BulkOrderAction,
  type ErrorCode,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';

/** The work queue: how many orders wait in each bucket, and how many there are in all. */
export class OrderQueueCountsDto {
  @ApiProperty({ description: 'Unpaid and still open (Pending, Processing, InTransit, Delivered)' })
  toConfirmPayment!: number;
  @ApiProperty({ description: 'Paid, not yet sent out (Pending or Processing)' })
  toDispatch!: number;
  @ApiProperty({ description: 'InTransit, paid or not' }) inTransit!: number;
  @ApiProperty({ description: 'Delivered, waiting to be completed' }) toComplete!: number;
  @ApiProperty({ description: 'Every order' }) all!: number;
}

export class OrderQueueData {
  @ApiProperty({ type: OrderQueueCountsDto }) counts!: OrderQueueCountsDto;
}

export class OrderQueueResponseDto extends Envelope(OrderQueueData) {}

export class BulkOrderActionDto {
  @ApiProperty({ enum: BULK_ORDER_ACTIONS })
  @IsNotEmpty({ message: 'action is required' })
  @IsIn(BULK_ORDER_ACTIONS, { message: `action must be one of ${BULK_ORDER_ACTIONS.join(', ')}` })
  action!: BulkOrderAction;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', pattern: '^[0-9a-fA-F]{24}$' },
    minItems: 1,
    maxItems: BULK_ORDERS_MAX,
    uniqueItems: true,
  })
  @IsArray({ message: 'orderIds must be a list of order ids' })
  @ArrayMinSize(1, { message: 'Select at least one order' })
  @ArrayMaxSize(BULK_ORDERS_MAX, {
    message: `At most ${BULK_ORDERS_MAX} orders can be changed at once`,
  })
  @ArrayUnique({ message: 'Each order may be listed only once' })
  @IsMongoId({ each: true, message: 'Each of orderIds must be a valid order id' })
  orderIds!: string[];
}

export class BulkDoneOrderDto {
  @ApiProperty() _id!: string;
  @ApiProperty() purchaseNumber!: string;
  @ApiProperty({ enum: ORDER_STATUSES }) orderStatus!: string;
}

export class BulkRefusedOrderDto {
  @ApiProperty() _id!: string;
  @ApiProperty({ nullable: true, type: String, description: 'null when no order has this id' })
  purchaseNumber!: string | null;
  @ApiProperty({ enum: Object.keys(ERROR_CODES), description: 'Why, as a stable error code' })
  code!: ErrorCode;
  @ApiProperty({ description: 'Why, in words a clerk can act on' }) message!: string;
}

export class BulkOrderResultData {
  @ApiProperty({ enum: BULK_ORDER_ACTIONS }) action!: BulkOrderAction;
  @ApiProperty({ description: 'How many orders were changed' }) done!: number;
  @ApiProperty({ type: [BulkDoneOrderDto] }) doneOrders!: BulkDoneOrderDto[];
  @ApiProperty({ type: [BulkRefusedOrderDto], description: 'The orders left as they were' })
  refused!: BulkRefusedOrderDto[];
}

export class BulkOrderResultResponseDto extends Envelope(BulkOrderResultData) {}
