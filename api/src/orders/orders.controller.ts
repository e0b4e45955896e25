import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpStatus,
  Ip,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer, Answered, said } from '../common/answer';
import { Auth, Public } from '../common/access.decorators';
import { BodyLimit, ORDER_BODY_LIMIT_BYTES } from '../common/body-limit';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { RateLimit } from '../common/rate-limit';
import {
  CancelOrderDto,
  CompletePaymentDto,
  ConfirmDeliveryDto,
  CreateOrderDto,
  OrderListQueryDto,
  RefundDto,
  TrackQueryDto,
  UpdateOrderDto,
} from './dto/order.dto';
import {
  OrderData,
  OrderListData,
  OrderListResponseDto,
  OrderResponseDto,
  PlaceOrderData,
  PlaceOrderResponseDto,
  TrackOrderData,
  TrackOrderResponseDto,
} from './dto/order-view.dto';
import { OrderCredits } from './order-credits';
import { OrdersService } from './orders.service';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,100}$/;

@ApiTags('orders')
@Controller('orders')
@ApiNotFoundResponse({ type: ErrorResponseDto })
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly credits: OrderCredits,
  ) {}

  @Post()
  @BodyLimit(ORDER_BODY_LIMIT_BYTES)
  @Public({ optionalUser: true })
  @RateLimit('orders')
  @ApiOperation({
    summary:
      'Place an order as a guest or a signed-in user; prices and totals come from the catalogue',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Retries with the same key return the first order (8-100 letters, digits, _ . : -)',
  })
  @Answer('Order placed successfully', PlaceOrderResponseDto, { status: 201 })
  @ApiOkResponse({
    type: PlaceOrderResponseDto,
    description: 'A retry with the same Idempotency-Key: the order placed first',
  })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Not enough stock, or a product no longer sold; nothing was taken',
  })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponseDto,
    description: 'The Idempotency-Key was used for a different order',
  })
  async place(
    @CurrentUser() actor: Principal | undefined,
    @Body() dto: CreateOrderDto,
    @Headers('idempotency-key') key: string | undefined,
    @Ip() clientAddress: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Answered<PlaceOrderData>> {
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      throw new BadRequestException(
        'The Idempotency-Key header must be 8-100 letters, digits or _ . : -',
      );
    }
    const { order, replayed } = await this.orders.place(actor, dto, key, clientAddress);
    reply.status(replayed ? HttpStatus.OK : HttpStatus.CREATED);
    return replayed ? said('This order was already placed', { order }) : { order };
  }

  @Get('track/new-order')
  @Public()
  @RateLimit('tracking')
  @ApiOperation({ summary: 'Track an order by its confirmation number: status and dates only' })
  @Answer('Order found', TrackOrderResponseDto)
  track(@Query() query: TrackQueryDto): Promise<TrackOrderData> {
    return this.orders.track(query.purchaseNumber);
  }

  @Get()
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'All orders, newest first, 10 a page; filter by status, payment status, text and dates',
  })
  @Answer('Orders retrieved', OrderListResponseDto)
  async list(@Query() query: OrderListQueryDto): Promise<OrderListData> {
    return this.orders.list(query);
  }

  @Get('user')
  @Auth()
  @ApiOperation({ summary: 'Your own orders' })
  @Answer('Orders retrieved', OrderListResponseDto)
  async mine(
    @CurrentUser() actor: Principal,
    @Query() query: OrderListQueryDto,
  ): Promise<OrderListData> {
    return this.orders.listForUser(actor, actor.id, query);
  }

  @Get('user/:id')
  @Auth()
  @ApiOperation({
    summary: "One user's orders: staff and admin see anyone's, others only their own",
  })
  @Answer('Orders retrieved', OrderListResponseDto)
  async ofUser(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Query() query: OrderListQueryDto,
  ): Promise<OrderListData> {
    return this.orders.listForUser(actor, id, query);
  }

  @Get(':id')
  @Auth()
  @ApiOperation({ summary: 'One order: staff and admin any, a customer their own' })
  @Answer('Order retrieved', OrderResponseDto)
  async get(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<OrderData> {
    return { order: await this.orders.get(actor, id) };
  }

  @Patch('complete-payment/:orderId')
  @Auth('staff')
  @ApiOperation({
    summary:
      'Record the payment (Cash, or Mpesa with its code and time); the amount must equal the total',
  })
  @Answer('Payment completed successfully', OrderResponseDto)
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Already paid, or the status does not allow it',
  })
  async completePayment(
    @CurrentUser() actor: Principal,
    @Param('orderId', ParseObjectIdPipe) id: string,
    @Body() dto: CompletePaymentDto,
  ): Promise<OrderData> {
    const [order] = await this.orders.views([await this.credits.recordAtDesk(actor, id, dto)]);
    return { order: order! };
  }

  @Patch('inTransit/:id')
  @Auth('staff')
  @ApiOperation({ summary: 'Send the order out (from Pending or Processing)' })
  @Answer('Order moved to in transit', OrderResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto })
  async inTransit(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<OrderData> {
    return { order: await this.orders.moveInTransit(actor, id) };
  }

  @Patch('confirm-delivery')
  @Auth('staff')
  @ApiOperation({ summary: 'Mark an order in transit as delivered' })
  @Answer('Delivery confirmed', OrderResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto })
  async confirmDelivery(
    @CurrentUser() actor: Principal,
    @Body() dto: ConfirmDeliveryDto,
  ): Promise<OrderData> {
    return { order: await this.orders.confirmDelivery(actor, dto.orderId.toLowerCase()) };
  }

  @Patch('complete-order/:id')
  @Auth('staff')
  @ApiOperation({ summary: 'Fulfil a paid order in transit or delivered: Completed and Fulfilled' })
  @Answer('Order completed successfully', OrderResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto })
  async complete(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<OrderData> {
    return { order: await this.orders.fulfil(actor, id) };
  }

  @Patch('cancel/:id')
  @Auth('staff', 'customer')
  @ApiOperation({
    summary:
      'Cancel (staff: Pending or Processing; a customer: their own Pending order); stock is returned. A paid order needs `refund`, which is recorded',
  })
  @ApiBody({ type: CancelOrderDto, required: false })
  @Answer('Order cancelled successfully', OrderResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto })
  async cancel(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body('refund') refund: RefundDto | undefined,
  ): Promise<OrderData> {
    return { order: await this.orders.cancel(actor, id, refund) };
  }

  @Put('update/:id')
  @Auth('staff')
  @ApiOperation({ summary: 'Change the delivery details while the order is Pending or Processing' })
  @Answer('Order updated successfully', OrderResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto })
  async update(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: UpdateOrderDto,
  ): Promise<OrderData> {
    return { order: await this.orders.update(actor, id, dto) };
  }

  @Delete('delete/:id')
  @Auth('admin')
  @ApiOperation({
    summary:
      'Delete a cancelled order, or an unpaid pending/processing one (its stock is returned)',
  })
  @Answer('Order deleted successfully', OrderResponseDto)
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Paid or delivered orders are part of the sales record',
  })
  async remove(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<OrderData> {
    return { order: await this.orders.remove(actor, id) };
  }
}
