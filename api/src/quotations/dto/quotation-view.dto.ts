import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { QUOTATION_STATUSES, type QuotationStatus } from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { ScanAboutDto } from '../../scans/dto/scan-about.dto';

const ID = '665f1c2b9d3e4a0012345678';

export class QuotationDeliveryViewDto {
  @ApiProperty({ example: 'Gatundu North tree nursery site' })
  siteName!: string;
  @ApiProperty({ example: 'Kiambu' })
  county!: string;
  @ApiPropertyOptional({ example: 'Gatundu North', nullable: true, type: String })
  subCounty?: string | null;
  @ApiProperty({ example: 'Kamwangi, behind the sub-county office' })
  streetAddress!: string;
  @ApiProperty({ example: '2026-10-15', format: 'date' })
  date!: string;
}

export class QuotationRequestLineViewDto {
  @ApiProperty({ example: ID })
  productId!: string;
  @ApiProperty({ example: ID })
  unitId!: string;
  @ApiProperty({ example: 300 })
  quantity!: number;
  @ApiPropertyOptional({ example: ID, nullable: true, type: String })
  batchId?: string | null;
}

export class QuotationLineSourceDto {
  @ApiProperty({ enum: ['stock', 'batch'] })
  kind!: 'stock' | 'batch';
  @ApiPropertyOptional({ example: ID, description: 'The batch, when kind is batch' })
  batchId?: string;
}

export class QuotationLineViewDto {
  @ApiProperty({ example: ID })
  productId!: string;
  @ApiProperty({ example: ID })
  unitId!: string;
  @ApiProperty({ example: 'Grevillea robusta' })
  productName!: string;
  @ApiProperty({ example: 'Tray of 50' })
  unitName!: string;
  @ApiProperty({ example: 50 })
  seedlings!: number;
  @ApiProperty({ example: 200 })
  quantity!: number;
  @ApiProperty({ type: QuotationLineSourceDto })
  source!: QuotationLineSourceDto;
  @ApiProperty({ example: '2026-11-01', nullable: true, type: String })
  readyDate!: string | null;
  @ApiProperty({ example: 1500 })
  shopUnitPrice!: number;
  @ApiProperty({ example: 1400 })
  unitPrice!: number;
  @ApiProperty({ example: 280000 })
  lineTotal!: number;
}

export class QuotationVersionViewDto {
  @ApiProperty({ example: 1, description: "1, 2, …; 0 for the staff's unsent draft" })
  version!: number;
  @ApiProperty({ type: [QuotationLineViewDto] })
  lines!: QuotationLineViewDto[];
  @ApiProperty({ type: QuotationDeliveryViewDto, nullable: true })
  delivery!: QuotationDeliveryViewDto | null;
  @ApiProperty({ example: 15000 })
  deliveryFee!: number;
  @ApiProperty({ example: 280000 })
  subtotal!: number;
  @ApiProperty({ example: 295000 })
  total!: number;
  @ApiProperty({ example: '2026-12-31', format: 'date' })
  validUntil!: string;
  @ApiProperty({ example: 'Prices hold for the short rains season' })
  note!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  sentAt!: string | null;
  @ApiProperty({ example: 'Jane Clerk', nullable: true, type: String })
  sentBy!: string | null;
}

export class QuotationMessageViewDto {
  @ApiProperty({ example: ID })
  _id!: string;
  @ApiProperty({ enum: ['organisation', 'shop'] })
  from!: 'organisation' | 'shop';
  @ApiProperty({ example: 'Grace Wambui' })
  authorName!: string;
  @ApiProperty({ example: 'Can the first tranche come in October?' })
  text!: string;
  @ApiProperty({ format: 'date-time' })
  at!: string;
}

export class QuotationAcceptanceViewDto {
  @ApiProperty({ example: 2 })
  version!: number;
  @ApiProperty({ example: 'KCG/LPO/2026/0412' })
  lpoNumber!: string;
  @ApiProperty({ format: 'date-time' })
  acceptedAt!: string;
  @ApiProperty({ example: 'Grace Wambui' })
  acceptedBy!: string;
  @ApiProperty({ example: false })
  byShop!: boolean;
  @ApiProperty({ example: ID })
  orderId!: string;
  @ApiProperty({ example: 'SPDAB12CD34' })
  purchaseNumber!: string;
  @ApiProperty({
    type: ScanAboutDto,
    nullable: true,
    description: 'The scanned LPO attached to its order (`GET /api/orders/{orderId}/lpo-scan`)',
  })
  lpoScan!: ScanAboutDto | null;
}

export class QuotationRequestViewDto {
  @ApiProperty({ type: [QuotationRequestLineViewDto] })
  lines!: QuotationRequestLineViewDto[];
  @ApiProperty({ example: 'For the county greening programme' })
  note!: string;
  @ApiProperty({ type: QuotationDeliveryViewDto, nullable: true })
  delivery!: QuotationDeliveryViewDto | null;
}

export class QuotationViewDto {
  @ApiProperty({ example: ID })
  _id!: string;
  @ApiProperty({ example: 'QUO-000123' })
  number!: string;
  @ApiProperty({ example: ID })
  organisationId!: string;
  @ApiProperty({ example: 'Kiambu County Government' })
  organisationName!: string;
  @ApiProperty({ enum: QUOTATION_STATUSES, enumName: 'QuotationStatus' })
  status!: QuotationStatus;
  @ApiProperty({ type: QuotationRequestViewDto })
  request!: QuotationRequestViewDto;
  @ApiProperty({ example: 'Grace Wambui' })
  requestedBy!: string;
  @ApiProperty({ type: [QuotationVersionViewDto], description: 'Versions sent, oldest first' })
  versions!: QuotationVersionViewDto[];
  @ApiProperty({
    type: QuotationVersionViewDto,
    nullable: true,
    description: "Staff's unsent draft: null for the organisation",
  })
  draft!: QuotationVersionViewDto | null;
  @ApiProperty({ type: [QuotationMessageViewDto] })
  messages!: QuotationMessageViewDto[];
  @ApiProperty({ type: QuotationAcceptanceViewDto, nullable: true })
  acceptance!: QuotationAcceptanceViewDto | null;
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

export class QuotationData {
  @ApiProperty({ type: QuotationViewDto })
  quotation!: QuotationViewDto;
}
export class QuotationResponseDto extends Envelope(QuotationData) {}

export class QuotationSummaryDto {
  @ApiProperty({ example: ID })
  _id!: string;
  @ApiProperty({ example: 'QUO-000123' })
  number!: string;
  @ApiProperty({ example: ID })
  organisationId!: string;
  @ApiProperty({ example: 'Kiambu County Government' })
  organisationName!: string;
  @ApiProperty({ enum: QUOTATION_STATUSES, enumName: 'QuotationStatus' })
  status!: QuotationStatus;
  @ApiProperty({ example: 295000, nullable: true, type: Number })
  total!: number | null;
  @ApiProperty({ example: '2026-12-31', nullable: true, type: String })
  validUntil!: string | null;
  @ApiProperty({ example: 2 })
  versions!: number;
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

export class QuotationListData {
  @ApiProperty({ type: [QuotationSummaryDto] })
  quotations!: QuotationSummaryDto[];
  @ApiProperty({ example: 12 })
  totalQuotations!: number;
  @ApiProperty({ example: 1 })
  totalPages!: number;
  @ApiProperty({ example: 1 })
  page!: number;
}
export class QuotationListResponseDto extends Envelope(QuotationListData) {}

export class QuotationCountData {
  @ApiProperty({ example: 3, description: 'Requests waiting for the shop to price them' })
  count!: number;
}
export class QuotationCountResponseDto extends Envelope(QuotationCountData) {}

export class QuotationOrderDto {
  @ApiProperty({ example: ID })
  _id!: string;
  @ApiProperty({ example: 'SPDAB12CD34' })
  purchaseNumber!: string;
  @ApiProperty({ example: 1245000 })
  totalAmount!: number;
}

export class AcceptedQuotationData {
  @ApiProperty({ type: QuotationViewDto })
  quotation!: QuotationViewDto;
  @ApiProperty({ type: QuotationOrderDto })
  order!: QuotationOrderDto;
}
export class AcceptedQuotationResponseDto extends Envelope(AcceptedQuotationData) {}
