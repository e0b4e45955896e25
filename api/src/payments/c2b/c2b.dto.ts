import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Envelope } from '../../common/answer';
import { C2B_STATUSES, REFUND_TRANSFER_STATUSES } from './c2b.schemas';

export class AssignPaymentDto {
  @ApiProperty({ example: 'SPD7K3MX9QA', description: 'The order to credit the payment to' })
  @IsNotEmpty({ message: 'purchaseNumber is required' })
  @IsString({ message: 'purchaseNumber must be text' })
  @MaxLength(40, { message: 'purchaseNumber is too long' })
  purchaseNumber!: string;
}

export class RefundPaymentDto {
  @ApiPropertyOptional({
    example: 'Sent back from the shop phone, code SKB3H2J1K0',
    description:
      'Given back by hand already (the M-Pesa code of the money sent back, or a note): recorded, nothing sent. Without it the shop sends it through M-Pesa',
    minLength: 1,
    maxLength: 200,
    pattern: '\\S',
  })
  @IsOptional()
  @IsString({ message: 'byHand must be text' })
  @IsNotEmpty({ message: 'byHand needs the code or a note' })
  @MaxLength(200, { message: 'byHand is too long' })
  byHand?: string;
}

export class C2bPaymentViewDto {
  @ApiProperty({ example: 'TKL7RT61SV', description: "M-Pesa's TransID" }) transId!: string;
  @ApiProperty({ description: 'Whole KES' }) amount!: number;
  @ApiProperty({ description: 'The account number the payer typed' }) account!: string;
  @ApiProperty() phone!: string;
  @ApiProperty() payerName!: string;
  @ApiProperty({ format: 'date-time' }) paidAt!: string;
  @ApiProperty({ enum: C2B_STATUSES }) status!: string;
  @ApiProperty({ description: 'Why it waits in the inbox' }) reason!: string;
  @ApiProperty({ nullable: true, type: String }) purchaseNumber!: string | null;
  @ApiProperty({ nullable: true, type: String, enum: ['account', 'phone', 'staff'] })
  matchedBy!: string | null;
  @ApiProperty({ description: 'Paid beyond the amount due, to refund' }) excess!: number;
  @ApiProperty({ nullable: true, type: String }) refundId!: string | null;
  @ApiProperty({
    description:
      "M-Pesa's status query did not confirm it: it can be checked again, not assigned or paid out",
  })
  unconfirmed!: boolean;
}

export class MpesaRefundViewDto {
  @ApiProperty({ example: 'order:665f1c2b9d3e4a0012345679' }) id!: string;
  @ApiProperty({ enum: ['reversal', 'b2c'] }) method!: string;
  @ApiProperty() amount!: number;
  @ApiProperty({ nullable: true, type: String }) purchaseNumber!: string | null;
  @ApiProperty({ nullable: true, type: String }) originalTransId!: string | null;
  @ApiProperty({ enum: REFUND_TRANSFER_STATUSES }) status!: string;
  @ApiProperty() attempts!: number;
  @ApiProperty({ description: "M-Pesa's word on a failure" }) resultDesc!: string;
  @ApiProperty({ nullable: true, type: String, description: "M-Pesa's code for the money sent" })
  transactionId!: string | null;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class PaymentInboxData {
  @ApiProperty({ type: [C2bPaymentViewDto] }) payments!: C2bPaymentViewDto[];
  @ApiProperty({ description: 'How many wait for staff' }) waiting!: number;
}
export class PaymentInboxResponseDto extends Envelope(PaymentInboxData) {}

export class PaymentInboxCountData {
  @ApiProperty() waiting!: number;
}
export class PaymentInboxCountResponseDto extends Envelope(PaymentInboxCountData) {}

export class C2bPaymentData {
  @ApiProperty({ type: C2bPaymentViewDto }) payment!: C2bPaymentViewDto;
}
export class C2bPaymentResponseDto extends Envelope(C2bPaymentData) {}

export class MpesaRefundData {
  @ApiProperty({ type: MpesaRefundViewDto }) refund!: MpesaRefundViewDto;
}
export class MpesaRefundResponseDto extends Envelope(MpesaRefundData) {}

export class OrderMpesaData {
  @ApiProperty({ type: [C2bPaymentViewDto], description: 'Paybill payments credited to the order' })
  payments!: C2bPaymentViewDto[];
  @ApiProperty({ type: [MpesaRefundViewDto] }) refunds!: MpesaRefundViewDto[];
}
export class OrderMpesaResponseDto extends Envelope(OrderMpesaData) {}

export class C2bAckData {
  @ApiProperty({ example: '0', oneOf: [{ type: 'string' }, { type: 'number' }] })
  ResultCode!: string | number;
  @ApiProperty({ example: 'Accepted' }) ResultDesc!: string;
}
export class C2bAckResponseDto extends Envelope(C2bAckData) {}

/** Daraja's C2B validation and confirmation body, documented for integrators. */
export class C2bNoticeDto {
  @ApiProperty({ example: 'Pay Bill' }) TransactionType!: string;
  @ApiProperty({ example: 'TKL7RT61SV' }) TransID!: string;
  @ApiProperty({ example: '20261125101500' }) TransTime!: string;
  @ApiProperty({ example: '1200.00' }) TransAmount!: string;
  @ApiProperty({ example: '174379' }) BusinessShortCode!: string;
  @ApiProperty({ example: 'SPD7K3MX9QA' }) BillRefNumber!: string;
  @ApiPropertyOptional() InvoiceNumber?: string;
  @ApiPropertyOptional() OrgAccountBalance?: string;
  @ApiPropertyOptional() ThirdPartyTransID?: string;
  @ApiProperty({ example: '254712345678' }) MSISDN!: string;
  @ApiPropertyOptional({ example: 'John' }) FirstName?: string;
  @ApiPropertyOptional() MiddleName?: string;
  @ApiPropertyOptional() LastName?: string;
}

export class RegisterC2bData {
  @ApiProperty() registered!: boolean;
}
export class RegisterC2bResponseDto extends Envelope(RegisterC2bData) {}
