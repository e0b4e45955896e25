import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  DELIVERY_MESSAGES,
  DELIVERY_METHODS,
  LIMITS,
  VALIDATION_MESSAGES as M,
  ORDER_LIMITS,
  ORDER_QUEUES,
  ORDER_SORT_FIELDS,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  REFUND_MESSAGES,
  REFUND_REFERENCE_MAX,
  SORT_ORDERS,
  TEXT_LIMITS,
  type DeliveryMethod,
  type OrderQueue,
  type OrderSortField,
  type OrderStatus,
  type PaymentMethod,
  type PaymentStatus,
  type SortOrder,
} from '@spc/shared-contracts';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
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
  ValidateNested,
} from 'class-validator';
import { IsCalendarDay } from '../../common/calendar-day';
import { PageQueryDto } from '../../common/pagination';
import {
  EmailField,
  FullNameField,
  KraPinField,
  OptionalTextField,
  PhoneField,
  PurchaseNumberField,
  SINGLE_LINE_TEXT_PATTERN,
  singleLineText,
  trim,
} from '../../common/validation-decorators';
import { DeliveryChoiceDto } from '../../delivery/dto/delivery.dto';
import { CountyField, SubCountyField } from '../../locations/place-fields';

/** The checkout form: where the order goes and whom to call. */
export class DeliveryInfoDto {
  @FullNameField()
  fullName!: string;

  @PhoneField(LIMITS.checkoutPhoneMaxLength)
  phoneNumber!: string;

  @EmailField()
  email!: string;

  @CountyField()
  county!: string;

  @SubCountyField()
  subCounty?: string;

  @OptionalTextField(TEXT_LIMITS.county, 'Ward', 'Gitothua')
  ward?: string;

  @ApiProperty({
    example: 'Ruiru, near the stage',
    maxLength: TEXT_LIMITS.streetAddress,
    pattern: SINGLE_LINE_TEXT_PATTERN,
  })
  @singleLineText
  @IsNotEmpty({ message: M.streetAddressRequired })
  @IsString()
  @MaxLength(TEXT_LIMITS.streetAddress, {
    message: `Street address must be at most ${TEXT_LIMITS.streetAddress} characters`,
  })
  streetAddress!: string;
}

/**
 * One cart line. Only `_id` and `quantity` count: the name, price and other cart fields a client
 * sends along are accepted and ignored (prices come from the catalogue).
 */
export class OrderItemDto {
  @ApiProperty({ description: 'Product id' })
  @IsMongoId({ message: 'Each product needs a valid _id' })
  _id!: string;

  @ApiProperty({ minimum: 1, maximum: ORDER_LIMITS.maxQuantityPerLine, example: 2 })
  @IsInt({ message: 'Quantity must be a whole number' })
  @Min(1, { message: 'Quantity must be at least 1' })
  @Max(ORDER_LIMITS.maxQuantityPerLine, {
    message: `Quantity must be at most ${ORDER_LIMITS.maxQuantityPerLine}`,
  })
  quantity!: number;

  @ApiPropertyOptional({
    description:
      "The product's sale unit (its units[]._id); left out: the single seedling. quantity counts this unit (3 trays of 50 take 150 seedlings)",
    example: '665f1c2b9d3e4a00123456aa',
  })
  @IsOptional()
  @IsMongoId({ message: 'unitId must be the id of one of the product’s units' })
  unitId?: string;

  @ApiPropertyOptional({
    description:
      'A booking line: the growing batch of this product the seedlings are booked from (GET /api/bookable-batches). An order with a booking line books: all its lines must be booking lines of the same batch',
    example: '665f1c2b9d3e4a0012345678',
  })
  @IsOptional()
  @IsMongoId({ message: 'batchId must be the id of a batch of this product' })
  batchId?: string;

  @ApiPropertyOptional({ description: 'Ignored' }) @Allow() productName?: unknown;
  @ApiPropertyOptional({ description: 'Ignored' }) @Allow() productDescription?: unknown;
  @ApiPropertyOptional({ description: 'Ignored' }) @Allow() productImage?: unknown;
  @ApiPropertyOptional({ description: 'Ignored: the catalogue price is used' })
  @Allow()
  price?: unknown;
  @ApiPropertyOptional({ description: 'Ignored' }) @Allow() offerPrice?: unknown;
  @ApiPropertyOptional({ description: 'Ignored' }) @Allow() userId?: unknown;
}

export class CreateOrderDto {
  @ApiPropertyOptional({
    type: DeliveryInfoDto,
    nullable: true,
    description: 'Required for guests; a signed-in customer may send it to update their record',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => DeliveryInfoDto)
  guestInfo?: DeliveryInfoDto | null;

  @ApiProperty({ type: [OrderItemDto] })
  // Checked from the bottom up: a cart sent without products is told it is empty first.
  @ValidateNested({ each: true })
  @Type(() => OrderItemDto)
  @ArrayMaxSize(ORDER_LIMITS.maxLines, {
    message: `An order can have at most ${ORDER_LIMITS.maxLines} different products`,
  })
  @IsArray({ message: 'products must be a list' })
  @ArrayMinSize(1, { message: 'Your cart is empty.' })
  products!: OrderItemDto[];

  @ApiPropertyOptional({
    description: 'Ignored: the signed-in user comes from the token',
    nullable: true,
  })
  @Allow()
  placedBy?: unknown;

  @ApiPropertyOptional({ description: 'Ignored: totals are computed from the catalogue' })
  @Allow()
  totalAmount?: unknown;

  @ApiPropertyOptional({
    enum: DELIVERY_METHODS,
    default: 'delivery',
    description: "Delivered to the address (the zone's fee) or collected at the nursery (free)",
  })
  @IsOptional()
  @IsIn(DELIVERY_METHODS, { message: DELIVERY_MESSAGES.methodInvalid })
  deliveryMethod?: DeliveryMethod;

  @ApiPropertyOptional({
    type: DeliveryChoiceDto,
    description: 'The same choice as `deliveryMethod`, in the shape the order stores',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => DeliveryChoiceDto)
  delivery?: DeliveryChoiceDto;

  @ApiPropertyOptional({
    description: "Ignored: the fee is computed from the shop's delivery zones",
  })
  @Allow()
  shippingFee?: unknown;

  @KraPinField({
    emptyIsNone: true,
    description:
      "The buyer's KRA PIN (A or P, 9 digits, a letter), so the receipt is a tax invoice in their name: trimmed and upper-cased. Empty: none. Left out or null: a signed-in customer's profile PIN, none for a guest",
  })
  kraPin?: string | null;
}

export class PaymentDetailsDto {
  @ApiProperty({ example: 2400, description: 'Whole KES; must equal the order total' })
  @IsNotEmpty({ message: M.amountRequired })
  @IsInt({ message: 'Amount must be whole shillings' })
  @Min(1, { message: M.amountRequired })
  amount!: number;

  @ApiPropertyOptional({ example: 'SGH7K2LP9Q', description: 'Required for Mpesa' })
  @trim
  @ValidateIf((_, v) => v !== undefined && v !== null && v !== '')
  @IsString()
  @MaxLength(40)
  transactionCode?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Required for Mpesa' })
  @ValidateIf((_, v) => v !== undefined && v !== null && v !== '')
  @IsDateString({}, { message: 'Time paid must be a date and time' })
  timePaid?: string;

  @ApiPropertyOptional({ description: 'Ignored: the signed-in staff member is recorded' })
  @Allow()
  completedBy?: unknown;
}

export class CompletePaymentDto {
  @ApiProperty({ enum: PAYMENT_METHODS })
  @IsNotEmpty({ message: M.paymentMethodRequired })
  @IsIn(PAYMENT_METHODS, { message: M.paymentMethodRequired })
  paymentMethod!: PaymentMethod;

  @ApiProperty({ type: PaymentDetailsDto })
  @IsNotEmpty({ message: M.amountRequired })
  @ValidateNested()
  @Type(() => PaymentDetailsDto)
  paymentDetails!: PaymentDetailsDto;
}

/** The money given back when a paid order is cancelled. */
export class RefundDto {
  @ApiProperty({ enum: PAYMENT_METHODS, description: 'How the money was given back' })
  @IsIn(PAYMENT_METHODS, { message: REFUND_MESSAGES.method })
  method!: PaymentMethod;

  @ApiProperty({ example: 2400, description: 'Whole KES; must equal the amount paid' })
  @IsInt({ message: REFUND_MESSAGES.amountWhole })
  @Min(1, { message: REFUND_MESSAGES.amountMin })
  amount!: number;

  @ApiPropertyOptional({
    example: 'SGR4T5Y6U7',
    description: 'M-Pesa reversal or transaction code (required for Mpesa), or a note for cash',
  })
  @trim
  @IsOptional()
  @IsString()
  @MaxLength(REFUND_REFERENCE_MAX, { message: REFUND_MESSAGES.referenceMax })
  reference?: string;

  @ApiPropertyOptional({
    description:
      'Mpesa only: send the money back through M-Pesa (a reversal of the payment, or B2C to the payer); the reference is then left blank and filled in with the M-Pesa code once sent',
  })
  @IsOptional()
  @IsBoolean({ message: 'send must be true or false' })
  send?: boolean;
}

export class CancelOrderDto {
  @ApiPropertyOptional({ type: RefundDto, description: 'Required to cancel a paid order' })
  @IsOptional()
  @ValidateNested()
  @Type(() => RefundDto)
  refund?: RefundDto;
}

export class ConfirmDeliveryDto {
  @ApiProperty()
  @IsNotEmpty({ message: 'orderId is required' })
  @IsMongoId({ message: 'orderId is not a valid id' })
  orderId!: string;
}

export class UpdateOrderDto {
  @ApiProperty({ type: DeliveryInfoDto })
  @IsNotEmpty({ message: 'guestInfo is required' })
  @ValidateNested()
  @Type(() => DeliveryInfoDto)
  guestInfo!: DeliveryInfoDto;
}

export class OrderListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ORDER_STATUSES })
  @IsOptional()
  @IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus;

  @ApiPropertyOptional({ enum: PAYMENT_STATUSES })
  @IsOptional()
  @IsIn(PAYMENT_STATUSES, {
    message: `paymentStatus must be one of ${PAYMENT_STATUSES.join(', ')}`,
  })
  paymentStatus?: PaymentStatus;

  @ApiPropertyOptional({
    description:
      'A purchase number, whole or its start (SPD and 3 or more characters); or the start of any word of the name or e-mail (every word typed must match), a whole e-mail, or a phone by its start or its end (3 or more digits), however it was typed (0712 345 678, +254712345678)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ example: '2026-11-01', description: 'Orders placed on or after this day' })
  @IsOptional()
  @IsCalendarDay({ message: 'from must be a date (YYYY-MM-DD)' })
  from?: string;

  @ApiPropertyOptional({
    example: '2026-11-30',
    description: 'Orders placed on or before this day',
  })
  @IsOptional()
  @IsCalendarDay({ message: 'to must be a date (YYYY-MM-DD)' })
  to?: string;

  @ApiPropertyOptional({
    enum: ORDER_QUEUES,
    description:
      'A work-queue bucket: toConfirmPayment (unpaid, not cancelled or completed), toDispatch (paid, Pending or Processing), inTransit, toComplete (Delivered)',
  })
  @IsOptional()
  @IsIn(ORDER_QUEUES, { message: `queue must be one of ${ORDER_QUEUES.join(', ')}` })
  queue?: OrderQueue;

  @ApiPropertyOptional({ enum: ORDER_SORT_FIELDS, default: 'orderDate' })
  @IsOptional()
  @IsIn(ORDER_SORT_FIELDS, { message: `sortBy must be one of ${ORDER_SORT_FIELDS.join(', ')}` })
  sortBy?: OrderSortField;

  @ApiPropertyOptional({ enum: SORT_ORDERS, default: 'desc' })
  @IsOptional()
  @IsIn(SORT_ORDERS, { message: `sortOrder must be one of ${SORT_ORDERS.join(', ')}` })
  sortOrder?: SortOrder;
}

export class TrackQueryDto {
  @PurchaseNumberField()
  purchaseNumber!: string;
}
