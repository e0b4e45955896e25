import { ApiProperty } from '@nestjs/swagger';
import {
  TILL_ATTENTION_REASONS,
  TILL_PAYMENT_METHODS,
  TILL_SALE_STATES,
  TILL_SESSION_STATES,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';

/** The till's answers (shared-contracts/src/till.ts), as Swagger and the generated types show them. */
export class TillSessionViewDto {
  @ApiProperty() _id!: string;
  @ApiProperty() staffId!: string;
  @ApiProperty() staffName!: string;
  @ApiProperty({ enum: TILL_SESSION_STATES }) state!: string;
  @ApiProperty() openedAt!: string;
  @ApiProperty() float!: number;
  @ApiProperty({ type: String, nullable: true }) closedAt!: string | null;
  @ApiProperty({ type: Number, nullable: true }) countedCash!: number | null;
  @ApiProperty({ description: 'Sales not voided' }) sales!: number;
  @ApiProperty({ description: 'Their total, less refunds' }) total!: number;
  @ApiProperty({
    type: 'array',
    items: {
      type: 'object',
      properties: { byName: { type: 'string' }, at: { type: 'string' } },
      required: ['byName', 'at'],
    },
  })
  reopened!: { byName: string; at: string }[];
}

export class TillMethodTotalsDto {
  @ApiProperty({ enum: ['cash', 'mpesa'] }) method!: 'cash' | 'mpesa';
  @ApiProperty() expected!: number;
  @ApiProperty({ type: Number, nullable: true }) counted!: number | null;
  @ApiProperty({ type: Number, nullable: true }) difference!: number | null;
}

export class TillSellerDto {
  @ApiProperty() staffId!: string;
  @ApiProperty() staffName!: string;
  @ApiProperty() sales!: number;
  @ApiProperty() total!: number;
}

export class TillReversalDto {
  @ApiProperty() purchaseNumber!: string;
  @ApiProperty() amount!: number;
  @ApiProperty() byName!: string;
  @ApiProperty() approvedByName!: string;
  @ApiProperty() at!: string;
  @ApiProperty() reason!: string;
}

export class TillCashUpViewDto {
  @ApiProperty({ type: TillSessionViewDto }) session!: TillSessionViewDto;
  @ApiProperty({ type: [TillMethodTotalsDto] }) methods!: TillMethodTotalsDto[];
  @ApiProperty({ type: [TillSellerDto] }) sellers!: TillSellerDto[];
  @ApiProperty({ type: [TillReversalDto] }) voids!: TillReversalDto[];
  @ApiProperty({ type: [TillReversalDto] }) refunds!: TillReversalDto[];
  @ApiProperty({
    type: () => [TillAttentionDto],
    description: 'Sales for the clerk: an M-Pesa code not counted, or stock taken below zero',
  })
  attention!: TillAttentionDto[];
}

export class TillAttentionDto {
  @ApiProperty() orderId!: string;
  @ApiProperty() purchaseNumber!: string;
  @ApiProperty() total!: number;
  @ApiProperty({ description: 'Not counted as money (its M-Pesa code)' }) unpaid!: number;
  @ApiProperty({ enum: TILL_ATTENTION_REASONS, isArray: true }) reasons!: string[];
  @ApiProperty({ description: 'It took stock below zero' }) short!: boolean;
  @ApiProperty({ description: 'Sold while the till was offline' }) offline!: boolean;
}

export class TillOfflineViewDto {
  @ApiProperty({ description: "The till's time of sale" }) soldAt!: string;
}

export class TillNeedsAttentionDto {
  @ApiProperty({ enum: TILL_ATTENTION_REASONS, isArray: true }) reasons!: string[];
  @ApiProperty({ description: 'What is not counted as money yet' }) unpaid!: number;
  @ApiProperty({ type: String, nullable: true }) code!: string | null;
}

export class TillPaymentViewDto {
  @ApiProperty({ enum: TILL_PAYMENT_METHODS }) method!: string;
  @ApiProperty() amount!: number;
  @ApiProperty({ type: Number, nullable: true }) given!: number | null;
  @ApiProperty({ type: Number, nullable: true }) change!: number | null;
  @ApiProperty({ type: String, nullable: true }) code!: string | null;
  @ApiProperty({ enum: ['received', 'waiting', 'failed'] }) state!: string;
}

export class TillSaleLineViewDto {
  @ApiProperty() productId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() unitName!: string;
  @ApiProperty() quantity!: number;
  @ApiProperty() unitPrice!: number;
  @ApiProperty() lineTotal!: number;
}

export class TillEtimsDto {
  @ApiProperty() invoiceNumber!: string;
  @ApiProperty() signedAt!: string;
  @ApiProperty() qrUrl!: string;
}

export class TillSaleViewDto {
  @ApiProperty() orderId!: string;
  @ApiProperty() purchaseNumber!: string;
  @ApiProperty() sessionId!: string;
  @ApiProperty() sellerName!: string;
  @ApiProperty() at!: string;
  @ApiProperty({ type: [TillSaleLineViewDto] }) lines!: TillSaleLineViewDto[];
  @ApiProperty() total!: number;
  @ApiProperty() paid!: number;
  @ApiProperty() change!: number;
  @ApiProperty({ type: [TillPaymentViewDto] }) payments!: TillPaymentViewDto[];
  @ApiProperty({ type: String, nullable: true }) phone!: string | null;
  @ApiProperty({ enum: TILL_SALE_STATES })
  state!: string;
  @ApiProperty() refunded!: number;
  @ApiProperty({ type: TillOfflineViewDto, nullable: true, description: 'Sold offline (issue 47)' })
  offline!: TillOfflineViewDto | null;
  @ApiProperty({ type: TillNeedsAttentionDto, nullable: true })
  needsAttention!: TillNeedsAttentionDto | null;
  @ApiProperty({ description: 'It took stock below zero (flagged on the stock ledger)' })
  short!: boolean;
  @ApiProperty({ type: TillEtimsDto, nullable: true }) etims!: TillEtimsDto | null;
}

export class TillSessionData {
  @ApiProperty({ type: TillSessionViewDto }) session!: TillSessionViewDto;
}
export class TillSessionResponseDto extends Envelope(TillSessionData) {}

export class TillCurrentSessionData {
  @ApiProperty({ type: TillSessionViewDto, nullable: true }) session!: TillSessionViewDto | null;
}
export class TillCurrentSessionResponseDto extends Envelope(TillCurrentSessionData) {}

export class TillSessionListData {
  @ApiProperty({ type: [TillSessionViewDto] }) sessions!: TillSessionViewDto[];
}
export class TillSessionListResponseDto extends Envelope(TillSessionListData) {}

export class TillCashUpData {
  @ApiProperty({ type: TillCashUpViewDto }) cashUp!: TillCashUpViewDto;
}
export class TillCashUpResponseDto extends Envelope(TillCashUpData) {}

export class TillSaleData {
  @ApiProperty({ type: TillSaleViewDto }) sale!: TillSaleViewDto;
}
export class TillSaleResponseDto extends Envelope(TillSaleData) {}

export class TillSaleListData {
  @ApiProperty({ type: [TillSaleViewDto] }) sales!: TillSaleViewDto[];
}
export class TillSaleListResponseDto extends Envelope(TillSaleListData) {}
