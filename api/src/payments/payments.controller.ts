import { Body, Controller, Get, HttpCode, Ip, Param, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { Answer, Answered, said } from '../common/answer';
import { MPESA_MESSAGES } from '@spc/shared-contracts';
import { Public } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal } from '../common/principal';
import { RateLimit } from '../common/rate-limit';
import {
  MpesaCallbackAckData,
  MpesaCallbackAckDto,
  MpesaCallbackDto,
  MpesaPayInfoData,
  MpesaPayInfoResponseDto,
  MpesaStatusData,
  MpesaStatusResponseDto,
  PaymentOptionsData,
  PaymentOptionsResponseDto,
  StkPushData,
  StkPushDto,
  StkPushResponseDto,
} from './dto/mpesa.dto';
import { MpesaSettlementService } from './mpesa-settlement.service';
import { MpesaService } from './mpesa.service';

@ApiTags('payments')
@Controller('payments')
export class PaymentsController {
  constructor(
    private readonly mpesa: MpesaService,
    private readonly settlement: MpesaSettlementService,
  ) {}

  @Get('options')
  @Public()
  @ApiOperation({ summary: 'Which ways to pay the checkout may offer' })
  @Answer('Payment options', PaymentOptionsResponseDto)
  options(): PaymentOptionsData {
    return { mpesaExpress: this.mpesa.enabled };
  }

  @Post('mpesa/stk-push')
  @HttpCode(200)
  @Public({ optionalUser: true })
  @RateLimit('orders')
  @ApiOperation({
    summary:
      'Send the M-Pesa PIN prompt for a pending, unpaid order to a phone; the amount is the order total',
  })
  @Answer(MPESA_MESSAGES.promptSent, StkPushResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No order with this number' })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'The order is paid, cancelled or already being processed',
  })
  @ApiTooManyRequestsResponse({
    type: ErrorResponseDto,
    description: 'Too many prompts for this order or to this phone; wait a few minutes',
  })
  @ApiServiceUnavailableResponse({
    type: ErrorResponseDto,
    description: 'M-Pesa Express is off, or M-Pesa is not answering',
  })
  async stkPush(
    @CurrentUser() actor: Principal | undefined,
    @Body() dto: StkPushDto,
  ): Promise<StkPushData> {
    const { checkoutRequestId } = await this.mpesa.push(dto.purchaseNumber, dto.phoneNumber, actor);
    return { checkoutRequestId };
  }

  @Get('mpesa/status/:checkoutRequestId')
  @Public()
  @RateLimit('tracking')
  @ApiOperation({
    summary: 'How a prompt ended: pending, paid or failed, with the message to show',
  })
  @Answer('The state of the M-Pesa prompt', MpesaStatusResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async status(
    @Param('checkoutRequestId') checkoutRequestId: string,
  ): Promise<Answered<MpesaStatusData>> {
    const { status, message } = await this.mpesa.status(checkoutRequestId);
    return said(message, { status });
  }

  @Get('mpesa/pay-info/:purchaseNumber')
  @Public()
  @RateLimit('tracking')
  @ApiOperation({
    summary:
      "How an order may still be paid by M-Pesa: the paybill, account and amount due, and how its latest prompt ended (the order page's 'Try M-Pesa again')",
  })
  @Answer('How to pay the order by M-Pesa', MpesaPayInfoResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No order with this number' })
  payInfo(@Param('purchaseNumber') purchaseNumber: string): Promise<MpesaPayInfoData> {
    return this.mpesa.payInfo(purchaseNumber);
  }

  @Post('mpesa/callback/:token')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary:
      "Daraja's STK callback (the secret token is part of the URL given to Daraja); answered at once, processed after",
  })
  @ApiBody({ type: MpesaCallbackDto })
  @Answer('Accepted', MpesaCallbackAckDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Wrong token, or M-Pesa is off' })
  callback(
    @Param('token') token: string,
    @Ip() ip: string,
    @Body() body: Record<string, unknown>,
  ): MpesaCallbackAckData {
    this.settlement.acceptCallback(token, ip, body);
    return { ResultCode: 0, ResultDesc: 'Accepted' };
  }
}
