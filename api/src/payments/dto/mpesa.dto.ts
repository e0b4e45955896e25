import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import {
  MPESA_MESSAGES,
  MPESA_PHONE_PATTERN,
  MPESA_PUSH_STATUSES,
  VALIDATION_MESSAGES as M,
} from '@spc/shared-contracts';
import { PurchaseNumberField } from '../../common/validation-decorators';
import { Envelope } from '../../common/answer';

export class StkPushDto {
  @PurchaseNumberField('The order to pay; its total is charged')
  purchaseNumber!: string;

  @ApiProperty({
    example: '0712345678',
    description:
      'The Safaricom number that gets the prompt: 0712 345 678, +254 712 345 678, 254712345678 or 712345678',
    pattern: MPESA_PHONE_PATTERN.source,
  })
  @IsNotEmpty({ message: M.phoneRequired })
  @IsString({ message: MPESA_MESSAGES.invalidPhone })
  @MaxLength(20, { message: MPESA_MESSAGES.invalidPhone })
  phoneNumber!: string;
}

export class StkPushData {
  @ApiProperty({
    example: 'ws_CO_22112026103015123456',
    description: "Daraja's CheckoutRequestID: poll its status with it",
  })
  checkoutRequestId!: string;
}

export class StkPushResponseDto extends Envelope(StkPushData) {}

export class MpesaStatusData {
  @ApiProperty({ enum: MPESA_PUSH_STATUSES }) status!: string;
}

export class MpesaStatusResponseDto extends Envelope(MpesaStatusData) {}

export class PaymentOptionsData {
  @ApiProperty({ description: 'True when the checkout may offer M-Pesa Express (STK push)' })
  mpesaExpress!: boolean;
}

export class PaymentOptionsResponseDto extends Envelope(PaymentOptionsData) {}

// Daraja's callback, documented for integrators; it is read with a schema of its own, so that a
// field Safaricom adds one day does not make the shop refuse the payment.
export class MpesaCallbackItemDto {
  @ApiProperty({ example: 'MpesaReceiptNumber' }) Name!: string;
  @ApiPropertyOptional({ example: 'TKL7RT61SV', oneOf: [{ type: 'string' }, { type: 'number' }] })
  Value?: string | number;
}

export class MpesaCallbackMetadataDto {
  @ApiProperty({ type: [MpesaCallbackItemDto] }) Item!: MpesaCallbackItemDto[];
}

export class MpesaStkCallbackDto {
  @ApiProperty() MerchantRequestID!: string;
  @ApiProperty({ example: 'ws_CO_22112026103015123456' }) CheckoutRequestID!: string;
  @ApiProperty({ example: 0 }) ResultCode!: number;
  @ApiProperty({ example: 'The service request is processed successfully.' }) ResultDesc!: string;
  @ApiPropertyOptional({ type: MpesaCallbackMetadataDto })
  CallbackMetadata?: MpesaCallbackMetadataDto;
}

export class MpesaCallbackBodyContentDto {
  @ApiProperty({ type: MpesaStkCallbackDto }) stkCallback!: MpesaStkCallbackDto;
}

export class MpesaCallbackDto {
  @ApiProperty({ type: MpesaCallbackBodyContentDto }) Body!: MpesaCallbackBodyContentDto;
}

export class MpesaCallbackAckData {
  @ApiProperty({ example: 0 }) ResultCode!: number;
  @ApiProperty({ example: 'Accepted' }) ResultDesc!: string;
}

export class MpesaCallbackAckDto extends Envelope(MpesaCallbackAckData) {}

export class LastPromptDto {
  @ApiProperty({ enum: MPESA_PUSH_STATUSES }) status!: string;
  @ApiProperty() message!: string;
}

export class MpesaPayInfoData {
  @ApiProperty({
    description:
      'True while the order may still be paid by M-Pesa (pending, unpaid, M-Pesa configured)',
  })
  payable!: boolean;
  @ApiProperty({ nullable: true, type: String, description: "The shop's paybill number" })
  paybill!: string | null;
  @ApiProperty({ description: 'The account number to type: the purchase number' })
  account!: string;
  @ApiProperty({ description: 'Whole KES still due (part payments taken off)' })
  amountDue!: number;
  @ApiProperty({
    type: LastPromptDto,
    nullable: true,
    description: "How the order's latest prompt ended",
  })
  lastPrompt!: LastPromptDto | null;
}

export class MpesaPayInfoResponseDto extends Envelope(MpesaPayInfoData) {}
