import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { OrderData, OrderResponseDto } from '../orders/dto/order-view.dto';
import { BookingsService } from './bookings.service';
import {
  BookingCountsData,
  BookingCountsResponseDto,
  BookingQueueData,
  BookingQueueQueryDto,
  BookingQueueResponseDto,
  MoveBookingDto,
  RecordDepositDto,
} from './dto/bookings.dto';

@ApiTags('bookings')
@Controller()
export class BookingsController {
  constructor(private readonly bookings: BookingsService) {}

  @Post('orders/:id/booking/deposit')
  @HttpCode(200)
  @Auth('staff')
  @ApiOperation({
    summary:
      "Record a booking's deposit seen paid (its M-Pesa or receipt code); the amount must equal the deposit",
  })
  @Answer('Deposit recorded', OrderResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Not Deposit due, or code in use' })
  async deposit(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: RecordDepositDto,
  ): Promise<OrderData> {
    return { order: await this.bookings.recordDeposit(actor, id, dto) };
  }

  @Post('orders/:id/booking/move')
  @HttpCode(200)
  @Auth('staff', 'customer')
  @ApiOperation({
    summary:
      'Move an affected booking to another growing batch of the same product (staff, or the customer who owns it)',
  })
  @Answer('Booking moved', OrderResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto })
  async move(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: MoveBookingDto,
  ): Promise<OrderData> {
    return { order: await this.bookings.move(actor, id, dto) };
  }

  @Post('orders/:id/booking/refund')
  @HttpCode(200)
  @Auth('staff', 'customer')
  @ApiOperation({
    summary:
      'Refund an affected booking by M-Pesa and cancel it (staff, or the customer who owns it)',
  })
  @Answer('Booking refunded', OrderResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto })
  async refund(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<OrderData> {
    return { order: await this.bookings.refund(actor, id) };
  }

  @Get('bookings/queue')
  @Auth('staff', 'admin')
  @ApiOperation({
    summary:
      'The bookings queue: deposits to confirm, balances due this week (or overdue), ready to dispatch, affected',
  })
  @Answer('Bookings queue', BookingQueueResponseDto)
  async queue(@Query() query: BookingQueueQueryDto): Promise<BookingQueueData> {
    return this.bookings.queue(query);
  }

  @Get('bookings/counts')
  @Auth('staff', 'admin')
  @ApiOperation({ summary: "How many bookings wait in each of the queue's tabs" })
  @Answer('Bookings counts', BookingCountsResponseDto)
  async counts(): Promise<BookingCountsData> {
    return this.bookings.counts();
  }
}
