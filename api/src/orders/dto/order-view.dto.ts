/** What the orders routes answer: an order as its customer, the desk and tracking see it. */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  BOOKING_STATES,
  FULFILLMENT_STATUSES,
  ORDER_SEARCH_COUNT_LIMIT,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { OrderDeliveryDto } from '../../delivery/dto/delivery.dto';
import { ScanAboutDto } from '../../scans/dto/scan-about.dto';

export class DeliveryInfoViewDto {
  @ApiProperty() fullName!: string;
  @ApiProperty() phoneNumber!: string;
  @ApiProperty() email!: string;
  @ApiProperty() county!: string;
  @ApiProperty() subCounty!: string;
  @ApiProperty() ward!: string;
  @ApiProperty() streetAddress!: string;
}

export class OrderProductRefDto {
  @ApiProperty() _id!: string;
  @ApiProperty() productName!: string;
  @ApiProperty() productImage!: string;
}

export class OrderLineUnitDto {
  @ApiProperty({ example: '665f1c2b9d3e4a00123456aa' }) _id!: string;
  @ApiProperty({ example: 'Tray of 50' }) name!: string;
  @ApiProperty({ type: 'integer', example: 50, description: 'Seedlings one unit held when sold' })
  seedlings!: number;
}

export class OrderLineTierDto {
  @ApiProperty({ type: 'integer', example: 10 }) minQuantity!: number;
  @ApiProperty({ type: 'integer', example: 1350 }) price!: number;
}

export class OrderLineDto {
  @ApiProperty({ type: OrderProductRefDto }) product!: OrderProductRefDto;
  @ApiProperty() productName!: string;
  @ApiProperty() productImage!: string;
  @ApiProperty({ description: 'KES at the time of the order' }) unitPrice!: number;
  @ApiProperty() quantity!: number;
  @ApiProperty() lineTotal!: number;
  @ApiProperty({
    type: OrderLineUnitDto,
    description: 'The unit sold (the single seedling on lines placed before units)',
  })
  unit!: OrderLineUnitDto;
  @ApiProperty({
    type: OrderLineTierDto,
    nullable: true,
    description: 'The quantity price applied, or null (the unit price or its offer)',
  })
  tier!: OrderLineTierDto | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'On an order from a quotation only: the growing batch holding the line, or null for ready stock',
  })
  batchId?: string | null;
}

/** The accepted quotation an order is (issue 42): its organisation, LPO number and its scan. */
export class OrderQuotationDto {
  @ApiProperty() quotationId!: string;
  @ApiProperty() organisationId!: string;
  @ApiProperty({ example: 'LPO/2026/114' }) lpoNumber!: string;
  @ApiProperty({
    type: ScanAboutDto,
    nullable: true,
    description:
      'The scanned LPO attached to the order (`GET /api/orders/{id}/lpo-scan`), or null when none is',
  })
  lpoScan!: ScanAboutDto | null;
}

export class PersonRefDto {
  @ApiProperty() _id!: string;
  @ApiProperty() fullName!: string;
}

export class PlacedByDto extends PersonRefDto {
  @ApiProperty() email!: string;
}

export class PaymentDetailsViewDto {
  @ApiProperty() amount!: number;
  @ApiProperty() transactionCode!: string;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) timePaid!: string | null;
  @ApiProperty({ type: PersonRefDto }) completedBy!: PersonRefDto;
}

/** A booking of seedlings still growing: its batch, deposit, balance and where it stands. */
export class OrderBookingDto {
  @ApiProperty() batchId!: string;
  @ApiProperty() productName!: string;
  @ApiProperty({ example: '2027-03-12', description: "The batch's expected ready day" })
  readyOn!: string;
  @ApiProperty({ example: 30 }) depositPercent!: number;
  @ApiProperty({ description: 'KES: round(totalAmount × depositPercent / 100)' }) deposit!: number;
  @ApiProperty({ description: 'KES: totalAmount − deposit' }) balance!: number;
  @ApiProperty({ enum: BOOKING_STATES }) state!: string;
  @ApiProperty({ nullable: true, format: 'date-time', type: String })
  depositPaidAt!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The code that completed the deposit' })
  depositReceipt!: string | null;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) readyAt!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: '2027-03-19',
    description: 'Last shop day to pay the balance; unpaid after it, the booking is released',
  })
  balanceDueBy!: string | null;
  @ApiProperty({ nullable: true, format: 'date-time', type: String })
  balancePaidAt!: string | null;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) releasedAt!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: ['kept', 'refunded'],
    description: "On release, the shop's policy on the deposit",
  })
  releaseDecision!: 'kept' | 'refunded' | null;
  @ApiProperty({ nullable: true, type: String, enum: ['failed', 'short'] })
  problem!: 'failed' | 'short' | null;
  @ApiProperty({ nullable: true, type: String }) movedFromBatchId!: string | null;
  @ApiProperty({
    nullable: true,
    format: 'date-time',
    type: String,
    description: 'When its seedlings left the batch as a sale (dispatched)',
  })
  fulfilledAt!: string | null;
}

export class OrderDto {
  @ApiProperty() _id!: string;
  @ApiProperty({ example: 'SPD7K3MX9QA' }) purchaseNumber!: string;
  @ApiProperty({ type: PlacedByDto, nullable: true }) placedBy!: PlacedByDto | null;
  @ApiProperty({ description: "The placer's or guest's name" }) customerName!: string;
  @ApiProperty({ type: DeliveryInfoViewDto }) guestInfo!: DeliveryInfoViewDto;
  @ApiProperty({ type: [OrderLineDto] }) products!: OrderLineDto[];
  @ApiProperty() subtotal!: number;
  @ApiProperty({ description: 'Delivery fee in whole KES, computed by the server' })
  shippingFee!: number;
  @ApiProperty({ type: OrderDeliveryDto }) delivery!: OrderDeliveryDto;
  @ApiProperty({ description: 'subtotal + shippingFee' }) totalAmount!: number;
  @ApiProperty({ enum: ORDER_STATUSES }) orderStatus!: string;
  @ApiProperty({ enum: PAYMENT_STATUSES }) paymentStatus!: string;
  @ApiProperty({ enum: FULFILLMENT_STATUSES }) fulfillmentStatus!: string;
  @ApiProperty({ enum: PAYMENT_METHODS, nullable: true, type: String }) paymentMethod!:
    string | null;
  @ApiProperty({ type: PaymentDetailsViewDto, nullable: true })
  paymentDetails!: PaymentDetailsViewDto | null;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) paidAt!: string | null;
  @ApiProperty({
    description:
      'Paid so far in whole KES: paybill part payments while paymentStatus is Pending, the payment once Paid',
  })
  amountPaid!: number;
  @ApiProperty({ description: 'Still due while unpaid (totalAmount − amountPaid); 0 once Paid' })
  amountOutstanding!: number;
  @ApiProperty({ description: 'Paid beyond the total (an over-payment), to be refunded' })
  excessPaid!: number;
  @ApiProperty({
    description:
      'What the customer is asked to pay now (KES): a booking its deposit while Deposit due, then its balance; an ordinary order what is outstanding; 0 once paid or closed',
  })
  amountDueNow!: number;
  @ApiProperty({ type: OrderBookingDto, nullable: true, description: 'Null on ordinary orders' })
  booking!: OrderBookingDto | null;
  @ApiPropertyOptional({
    type: OrderQuotationDto,
    description: 'On an order from an accepted quotation only',
  })
  quotation?: OrderQuotationDto;
  @ApiProperty({
    description:
      'On account (issue 43): made from an accepted quotation of an organisation whose terms let it order on account; its money is due by its invoice and it does not expire unpaid. False on every other order',
  })
  onAccount!: boolean;
  @ApiProperty({
    description:
      'Delivered in tranches (issue 43): its stock goes out tranche by tranche from the dispatch desk (`/api/orders/{id}/tranches`), so the whole order is not sent out, marked delivered or completed by hand; it is in transit from its first tranche and delivered once every unit is',
  })
  inTranches!: boolean;
  @ApiProperty({ format: 'date-time' }) orderDate!: string;
  @ApiProperty({ format: 'date-time' }) estimatedDeliveryDate!: string;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) inTransitDate!: string | null;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) deliveredDate!: string | null;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) cancelledDate!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class PlacedOrderDto extends OrderDto {
  @ApiProperty({ description: "Chat link to the shop's WhatsApp with the order summary" })
  whatsappUrl!: string;
}

export class PlaceOrderData {
  @ApiProperty({ type: PlacedOrderDto }) order!: PlacedOrderDto;
}

export class PlaceOrderResponseDto extends Envelope(PlaceOrderData) {}

export class OrderData {
  @ApiProperty({ type: OrderDto }) order!: OrderDto;
}

export class OrderResponseDto extends Envelope(OrderData) {}

export class OrderListData {
  @ApiProperty({ type: [OrderDto] }) orders!: OrderDto[];
  @ApiProperty({
    description: `Orders matching, all pages. A search's are counted up to ${ORDER_SEARCH_COUNT_LIMIT} (or to the end of the page asked for, if further): beyond that it is a lower bound, and totalIsLowerBound is true`,
  })
  totalOrders!: number;
  @ApiProperty({
    description:
      'true when more orders match than totalOrders says (a search counted up to its bound: show it as "1,000+", and a next page exists), else false',
  })
  totalIsLowerBound!: boolean;
  @ApiProperty({
    description: 'ceil(totalOrders / limit): a lower bound too when totalIsLowerBound',
  })
  totalPages!: number;
  @ApiProperty() page!: number;
}

export class OrderListResponseDto extends Envelope(OrderListData) {}

export class CurrentStatusDto {
  @ApiProperty({ enum: ORDER_STATUSES }) currentStatus!: string;
}

/** What tracking tells of a booking: its ready day and money, nothing about the customer. */
export class TrackBookingDto {
  @ApiProperty({ enum: BOOKING_STATES }) state!: string;
  @ApiProperty({ example: '2027-03-12' }) readyOn!: string;
  @ApiProperty({ example: 30 }) depositPercent!: number;
  @ApiProperty({ description: 'KES' }) deposit!: number;
  @ApiProperty({ description: 'KES paid so far (the deposit once paid)' }) amountPaid!: number;
  @ApiProperty({ description: 'KES of the total still to pay' }) balanceDue!: number;
  @ApiProperty({ description: 'KES the customer is asked to pay now (0 when nothing)' })
  amountDueNow!: number;
  @ApiProperty({ nullable: true, type: String, example: '2027-03-19' })
  balanceDueBy!: string | null;
}

export class TrackOrderData {
  @ApiProperty() purchaseNumber!: string;
  @ApiProperty({ type: CurrentStatusDto }) orderStatus!: CurrentStatusDto;
  @ApiProperty({ format: 'date-time' }) estimatedDeliveryDate!: string;
  @ApiProperty({ format: 'date-time' }) orderReceivedDate!: string;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) inTransitDate!: string | null;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) deliveredDate!: string | null;
  @ApiProperty({ type: TrackBookingDto, nullable: true, description: 'Null on ordinary orders' })
  booking!: TrackBookingDto | null;
}

export class TrackOrderResponseDto extends Envelope(TrackOrderData) {}
