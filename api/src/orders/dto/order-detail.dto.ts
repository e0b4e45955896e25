import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ERROR_CODE_LIST, ORDER_ACTIONS } from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { EtimsDocumentDto } from '../../etims/dto/etims-document.dto';
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

export class MoneyEntryByDto {
  @ApiProperty({ example: 'Jane Clerk' }) fullName!: string;
  @ApiProperty({ example: 'staff' }) role!: string;
}

export class MoneySplitDto {
  @ApiProperty({ description: 'KES counted toward a booking deposit' }) deposit!: number;
  @ApiProperty({ description: 'KES counted toward the rest of the total' }) balance!: number;
  @ApiProperty({ description: 'KES beyond the total, to be given back' }) excess!: number;
}

/** One money-ledger entry of the order: money in, or money given back. */
export class MoneyEntryViewDto {
  @ApiProperty({ example: 'c2b:SGR4T5Y6U7' }) id!: string;
  @ApiProperty({ enum: ['in', 'out'] }) direction!: 'in' | 'out';
  @ApiProperty({
    enum: [
      'mpesa-express',
      'paybill',
      'desk-mpesa',
      'cash',
      'bank',
      'withholding',
      'reversal',
      'b2c',
      'mpesa-by-hand',
    ],
    description: 'How the money came in or went back',
  })
  kind!: string;
  @ApiProperty({ description: 'Whole KES' }) amount!: number;
  @ApiProperty({ type: String, nullable: true, description: "An incoming M-Pesa entry's code" })
  code!: string | null;
  @ApiProperty({ description: "A prompt's reference, a payback's M-Pesa code or a note" })
  reference!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ enum: ['open', 'claimed', 'credited', 'claiming', 'recorded'] }) state!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The number that paid, or a B2C payback's number (null in a customer's view)",
  })
  payer!: string | null;
  @ApiProperty({
    type: MoneyEntryByDto,
    nullable: true,
    description: "Who recorded it (null in a customer's view)",
  })
  by!: MoneyEntryByDto | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The incoming entry a payback returns',
  })
  of!: string | null;
  @ApiProperty({ description: 'KES of an incoming entry given back so far' }) returned!: number;
  @ApiProperty({ type: MoneySplitDto, nullable: true }) split!: MoneySplitDto | null;
}

/** The order's money as its ledger entries say. */
export class OrderMoneyDto {
  @ApiProperty({ description: 'KES received on the order' }) received!: number;
  @ApiProperty({ description: 'KES given back' }) refunded!: number;
  @ApiProperty({ description: 'KES received and not given back: what a refund must be' })
  refundable!: number;
  @ApiProperty({ type: [MoneyEntryViewDto], description: 'Money in, then money back' })
  entries!: MoneyEntryViewDto[];
}

/** The order as its detail shows it: with what only the detail carries. */
export class OrderDetailOrderDto extends OrderDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'A012345678Z',
    description:
      "The buyer's KRA PIN (issue 45): the receipt is a tax invoice to it, in the order's name; null when none was given. Only here: not in the lists or the exports",
  })
  kraPin!: string | null;
}

export class OrderDetailData {
  @ApiProperty({
    type: OrderDetailOrderDto,
    description:
      "The order; in a customer's view the payment's recorder is the shop, not a staff member",
  })
  order!: OrderDetailOrderDto;
  @ApiProperty({ type: [OrderTimelineEntryDto], description: 'Every step, oldest first' })
  timeline!: OrderTimelineEntryDto[];
  @ApiProperty({
    type: [OrderActionCheckDto],
    description: "The actions the caller's role has on orders, each allowed or refused with why",
  })
  actions!: OrderActionCheckDto[];
  @ApiProperty({ type: OrderDocumentsDto }) documents!: OrderDocumentsDto;
  @ApiProperty({
    type: OrderMoneyDto,
    description:
      "What was received and given back, entry by entry; a customer's view names no staff and no numbers",
  })
  money!: OrderMoneyDto;
  @ApiProperty({
    type: OrderShopDto,
    description: 'What receipts and delivery notes print as the seller',
  })
  shop!: OrderShopDto;
  @ApiProperty({
    type: [EtimsDocumentDto],
    description:
      "The order's documents as KRA eTIMS signed them (its sale, a booking's deposits and balance, invoices, credit notes), in number order; empty while none was queued or eTIMS is off",
  })
  etims!: EtimsDocumentDto[];
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
