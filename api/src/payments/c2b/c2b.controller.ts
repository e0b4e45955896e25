import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Ip,
  Logger,
  NotFoundException,
  Param,
  Post,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Answer, said, type Answered } from '../../common/answer';
import { Auth, Public } from '../../common/access.decorators';
import { CurrentUser } from '../../common/current-user.decorator';
import { ErrorResponseDto } from '../../common/error-response.dto';
import type { Principal } from '../../common/principal';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { checkDarajaCaller } from '../daraja-caller';
import { C2bLoop } from './c2b-loop';
import {
  AssignPaymentDto,
  C2bAckData,
  C2bAckResponseDto,
  C2bNoticeDto,
  C2bPaymentData,
  C2bPaymentResponseDto,
  MpesaRefundData,
  MpesaRefundResponseDto,
  OrderMpesaData,
  OrderMpesaResponseDto,
  PaymentInboxCountData,
  PaymentInboxCountResponseDto,
  PaymentInboxData,
  PaymentInboxResponseDto,
  RefundPaymentDto,
  RegisterC2bData,
  RegisterC2bResponseDto,
} from './c2b.dto';
import type { C2bPayment, MpesaRefund } from './c2b.schemas';
import { C2bInboxService } from './c2b-inbox.service';
import { C2B_ACCEPT, C2bService } from './c2b.service';
import { parseC2bNotice, parseDarajaResult } from './daraja-messages';
import { MpesaRefundsService } from './mpesa-refunds.service';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';

const RESULT_KINDS = ['status', 'reversal', 'b2c', 'timeout'] as const;
/** A payment's id as the inbox gives it: an M-Pesa code (any case), or a prompt's own reference. */
const paymentId = (id: string) => (/^ws_CO_/.test(id) ? id : id.toUpperCase());
/** A refund's id as the API gives it: what it refunds, a colon, that thing's id. */
const REFUND_ID = /^(out|payment|excess|order):[0-9A-Za-z_]{1,60}$/;

const paymentView = (p: C2bPayment) => ({
  transId: p._id,
  amount: p.amount,
  account: p.account,
  phone: p.phone,
  payerName: p.payerName,
  paidAt: new Date(p.paidAt).toISOString(),
  status: p.status,
  reason: p.reason,
  purchaseNumber: p.purchaseNumber,
  matchedBy: p.matchedBy,
  excess: p.excess,
  refundId: p.refundId,
  unconfirmed: !!p.unconfirmed,
});

const refundView = (r: MpesaRefund) => ({
  id: r._id,
  method: r.method,
  amount: r.amount,
  purchaseNumber: r.purchaseNumber,
  originalTransId: r.originalTransId,
  status: r.status,
  attempts: r.attempts,
  resultDesc: r.resultDesc,
  transactionId: r.transactionId,
  updatedAt: new Date(r.updatedAt).toISOString(),
});

/** Paybill (C2B) payments, the payments inbox, and M-Pesa refunds sent through Daraja. */
@ApiTags('payments')
@Controller('payments/mpesa')
export class C2bController {
  private readonly logger = new Logger(C2bController.name);

  constructor(
    private readonly c2b: C2bService,
    private readonly paymentsInbox: C2bInboxService,
    private readonly refunds: MpesaRefundsService,
    private readonly loop: C2bLoop,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('c2b/validation/:token')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary:
      "Daraja's C2B validation: accepts an account number that is an open order's purchase number (or any, with MPESA_C2B_ANY_ACCOUNT)",
  })
  @ApiBody({ type: C2bNoticeDto })
  @Answer('Validated', C2bAckResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Wrong token, or M-Pesa is off' })
  validation(
    @Param('token') token: string,
    @Ip() ip: string,
    @Body() body: Record<string, unknown>,
  ): Promise<C2bAckData> {
    checkDarajaCaller(this.config.mpesa, token, ip, this.logger);
    return this.c2b.validate(parseC2bNotice(body));
  }

  @Post('c2b/confirmation/:token')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary:
      "Daraja's C2B confirmation: recorded once per TransID, confirmed with the transaction status query, then matched to an order or left in the payments inbox",
  })
  @ApiBody({ type: C2bNoticeDto })
  @Answer('Accepted', C2bAckResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Wrong token, or M-Pesa is off' })
  async confirmation(
    @Param('token') token: string,
    @Ip() ip: string,
    @Body() body: Record<string, unknown>,
  ): Promise<C2bAckData> {
    checkDarajaCaller(this.config.mpesa, token, ip, this.logger);
    const notice = parseC2bNotice(body);
    if (!notice) throw new BadRequestException('Not a C2B confirmation');
    await this.c2b.confirm(notice);
    return C2B_ACCEPT;
  }

  @Post('result/:kind/:token')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary:
      "Daraja's result of a transaction status query, reversal or B2C payment (kind: status, reversal, b2c, timeout)",
  })
  @Answer('Accepted', C2bAckResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Wrong token, or M-Pesa is off' })
  async result(
    @Param('kind') kind: string,
    @Param('token') token: string,
    @Ip() ip: string,
    @Body() body: Record<string, unknown>,
  ): Promise<C2bAckData> {
    checkDarajaCaller(this.config.mpesa, token, ip, this.logger);
    if (!(RESULT_KINDS as readonly string[]).includes(kind)) throw new NotFoundException();
    const result = parseDarajaResult(body);
    if (!result) throw new BadRequestException('Not a Daraja result');
    if (kind === 'status') await this.c2b.onStatusResult(result);
    else if (kind === 'timeout') await this.refunds.onTimeout(result);
    else await this.refunds.onResult(result);
    return { ResultCode: 0, ResultDesc: 'Accepted' };
  }

  @Post('c2b/register')
  @HttpCode(200)
  @Auth('admin')
  @ApiOperation({
    summary: "Register the paybill's validation and confirmation URLs with Daraja again",
  })
  @Answer('Registration tried', RegisterC2bResponseDto)
  async register(): Promise<Answered<RegisterC2bData>> {
    if (!this.config.mpesa) throw new NotFoundException('M-Pesa is off');
    const registered = await this.loop.register();
    return said(registered ? 'C2B URLs registered' : 'Daraja did not take the URLs: see the log', {
      registered,
    });
  }

  @Get('inbox')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Payments to match: paybill payments that matched no order (or several, or a closed one), and over-payments not yet refunded',
  })
  @Answer('Payments to match', PaymentInboxResponseDto)
  async inbox(): Promise<PaymentInboxData> {
    const [payments, waiting] = await Promise.all([
      this.paymentsInbox.inbox(),
      this.paymentsInbox.countWaiting(),
    ]);
    return { payments: payments.map(paymentView), waiting };
  }

  @Get('inbox/count')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'How many payments wait in the inbox (the dashboard count)' })
  @Answer('Payments waiting', PaymentInboxCountResponseDto)
  async inboxCount(): Promise<PaymentInboxCountData> {
    return { waiting: await this.paymentsInbox.countWaiting() };
  }

  @Post('c2b/:transId/assign')
  @HttpCode(200)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Credit an inbox payment to an order, with the rules of recording a payment (an open, unpaid order)',
  })
  @Answer('Payment assigned', C2bPaymentResponseDto)
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'The payment was matched or refunded already, or the order is not open and unpaid',
  })
  async assign(
    @CurrentUser() actor: Principal,
    @Param('transId') transId: string,
    @Body() dto: AssignPaymentDto,
  ): Promise<Answered<C2bPaymentData>> {
    const payment = await this.paymentsInbox.assign(actor, paymentId(transId), dto.purchaseNumber);
    return said(`Payment credited to order ${payment.purchaseNumber}`, {
      payment: paymentView(payment),
    });
  }

  @Post('c2b/:transId/refund')
  @HttpCode(200)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      "Give a payment back: through M-Pesa (an inbox payment is reversed, a matched one's excess sent by B2C to the number that paid it), or record that it was given back by hand (`byHand`)",
  })
  @ApiBody({ type: RefundPaymentDto, required: false })
  @Answer('Refund asked for', C2bPaymentResponseDto)
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Being refunded already, or nothing to refund',
  })
  async refund(
    @CurrentUser() actor: Principal,
    @Param('transId') transId: string,
    @Body('byHand') byHand: unknown,
  ): Promise<C2bPaymentData> {
    // Optional body (older clients send none): `byHand` alone, checked here as the DTO states.
    if (
      byHand !== undefined &&
      (typeof byHand !== 'string' || !byHand.trim() || byHand.length > 200)
    )
      throw new BadRequestException({
        message:
          'byHand must be the M-Pesa code of the money sent back, or a note (200 characters at most)',
        errors: [{ field: 'byHand', messages: ['byHand needs the code or a note'] }],
      });
    return {
      payment: paymentView(
        await this.paymentsInbox.refund(actor, paymentId(transId), byHand?.trim() || undefined),
      ),
    };
  }

  @Get('orders/:orderId')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: "An order's paybill payments and M-Pesa refunds, with their status" })
  @Answer("The order's M-Pesa payments and refunds", OrderMpesaResponseDto)
  async forOrder(@Param('orderId', ParseObjectIdPipe) orderId: string): Promise<OrderMpesaData> {
    const [payments, refunds] = await Promise.all([
      this.c2b.forOrder(orderId),
      this.refunds.forOrder(orderId),
    ]);
    return { payments: payments.map(paymentView), refunds: refunds.map(refundView) };
  }

  @Post('refunds/:refundId/retry')
  @HttpCode(200)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Send a failed M-Pesa refund again (only a failed one: never twice; two retries at once: one 409)',
  })
  @ApiParam({
    name: 'refundId',
    description:
      "The refund's id as the API gives it (`refunds[].id`): `out:<entry>`, `payment:<M-Pesa code or prompt reference>`, `excess:<M-Pesa code>`, or `order:<order id>` for refunds from before the money ledger",
    schema: { type: 'string', pattern: REFUND_ID.source },
  })
  @Answer('Refund sent again', MpesaRefundResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Sent already, or on its way' })
  async retry(
    @CurrentUser() actor: Principal,
    @Param('refundId') id: string,
  ): Promise<MpesaRefundData> {
    if (!REFUND_ID.test(id)) throw new BadRequestException('Not a refund id');
    return { refund: refundView(await this.refunds.retry(actor, id)) };
  }

  @Post('c2b/:transId/check')
  @HttpCode(200)
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Ask M-Pesa again about an inbox payment its status query did not confirm (it cannot be assigned or paid out until confirmed)',
  })
  @Answer('Asked M-Pesa again', C2bPaymentResponseDto)
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Not in the inbox, or checks are off',
  })
  async checkAgain(
    @CurrentUser() actor: Principal,
    @Param('transId') transId: string,
  ): Promise<C2bPaymentData> {
    return { payment: paymentView(await this.paymentsInbox.checkAgain(actor, paymentId(transId))) };
  }
}
