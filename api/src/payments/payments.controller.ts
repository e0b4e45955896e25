import { Body, Controller, Get, HttpCode, Ip, Param, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { MPESA_MESSAGES } from '@spc/shared-contracts';
import { Public } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal } from '../common/principal';
import { RateLimit } from '../common/rate-limit';
import {
  MpesaCallbackAckDto,
  MpesaCallbackDto,
  MpesaStatusResponseDto,
  PaymentOptionsResponseDto,
  StkPushDto,
  StkPushResponseDto,
} from './dto/mpesa.dto';
import { MpesaService } from './mpesa.service';

@ApiTags('payments')
@Controller('payments')
export class PaymentsController {
  constructor(private readonly mpesa: MpesaService) {}

  @Get('options')
  @Public()
  @ApiOperation({ summary: 'Which ways to pay the checkout may offer' })
  @ApiOkResponse({ type: PaymentOptionsResponseDto })
  options(): PaymentOptionsResponseDto {
    return { success: true, message: 'Payment options', mpesaExpress: this.mpesa.enabled };
  }

  @Post('mpesa/stk-push')
  @HttpCode(200)
  @Public({ optionalUser: true })
  @RateLimit('orders')
  @ApiOperation({
    summary:
      'Send the M-Pesa PIN prompt for a pending, unpaid order to a phone; the amount is the order total',
  })
  @ApiOkResponse({ type: StkPushResponseDto })
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
  ): Promise<StkPushResponseDto> {
    const { checkoutRequestId } = await this.mpesa.push(dto.purchaseNumber, dto.phoneNumber, actor);
    return { success: true, message: MPESA_MESSAGES.promptSent, checkoutRequestId };
  }

  @Get('mpesa/status/:checkoutRequestId')
  @Public()
  @RateLimit('tracking')
  @ApiOperation({
    summary: 'How a prompt ended: pending, paid or failed, with the message to show',
  })
  @ApiOkResponse({ type: MpesaStatusResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async status(
    @Param('checkoutRequestId') checkoutRequestId: string,
  ): Promise<MpesaStatusResponseDto> {
    const { status, message } = await this.mpesa.status(checkoutRequestId);
    return { success: true, message, status };
  }

  @Post('mpesa/callback/:token')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary:
      "Daraja's STK callback (the secret token is part of the URL given to Daraja); answered at once, processed after",
  })
  @ApiBody({ type: MpesaCallbackDto })
  @ApiOkResponse({ type: MpesaCallbackAckDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Wrong token, or M-Pesa is off' })
  callback(
    @Param('token') token: string,
    @Ip() ip: string,
    @Body() body: Record<string, unknown>,
  ): MpesaCallbackAckDto {
    this.mpesa.acceptCallback(token, ip, body);
    return { success: true, message: 'Accepted', ResultCode: 0, ResultDesc: 'Accepted' };
  }
}
