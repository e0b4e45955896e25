import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Auth, Public } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { BatchDeskService } from './batch-desk.service';
import {
  BatchListQueryDto,
  BatchListResponseDto,
  BatchLossDto,
  BatchResponseDto,
  BookableBatchesQueryDto,
  BookableBatchesResponseDto,
  BookingSettingsResponseDto,
  CreateBatchDto,
  FailBatchDto,
  UpdateBatchDto,
} from './dto/batch.dto';

/** Batches of seedlings still growing: back-office staff and admins, every step audited. */
@ApiTags('batches')
@Controller('batches')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class BatchesController {
  constructor(private readonly desk: BatchDeskService) {}

  @Get()
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Batches by ready date, with booked against available' })
  @Answer('Batches retrieved', BatchListResponseDto)
  list(@Query() query: BatchListQueryDto) {
    return this.desk.list(query);
  }

  @Post()
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'A new batch of a product: sown on a day, ready on a later one' })
  @Answer('Batch created', BatchResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  create(@CurrentUser() actor: Principal, @Body() dto: CreateBatchDto) {
    return this.desk.create(actor, dto);
  }

  @Get(':id')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'A batch with its bookings in booking order' })
  @Answer('Batch retrieved', BatchResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@Param('id', ParseObjectIdPipe) id: string) {
    return this.desk.get(id);
  }

  @Patch(':id')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: "A growing batch's ready date or note" })
  @Answer('Batch updated', BatchResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The batch is not growing' })
  update(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: UpdateBatchDto,
  ) {
    return this.desk.update(actor, id, dto);
  }

  @Post(':id/losses')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Seedlings of a growing batch lost (on the ledger); bookings that no longer fit, the latest first, become Affected',
  })
  @Answer('Loss recorded', BatchResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Not growing, or fewer held' })
  recordLoss(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: BatchLossDto,
  ) {
    return this.desk.recordLoss(actor, id, dto);
  }

  @Post(':id/ready')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'The batch is ready, once: seedlings no booking holds go into ready stock; bookings owe their balance',
  })
  @Answer('Batch ready', BatchResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The batch is not growing' })
  markReady(@CurrentUser() actor: Principal, @Param('id', ParseObjectIdPipe) id: string) {
    return this.desk.markReady(actor, id);
  }

  @Post(':id/fail')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'The batch failed, once: its seedlings are lost; bookings affected' })
  @Answer('Batch marked failed', BatchResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The batch is not growing' })
  markFailed(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: FailBatchDto,
  ) {
    return this.desk.markFailed(actor, id, dto.note);
  }
}

/** What shoppers read of batches: the ones they can book, and the booking terms. */
@ApiTags('batches')
@Controller()
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class BookableBatchesController {
  constructor(private readonly desk: BatchDeskService) {}

  @Get('bookable-batches')
  @Public()
  @ApiOperation({
    summary: 'Growing batches ready after today with seedlings left to book, soonest first',
  })
  @Answer('Bookable batches retrieved', BookableBatchesResponseDto)
  bookable(@Query() query: BookableBatchesQueryDto) {
    return this.desk.bookable(query.productId);
  }

  @Get('bookings/settings')
  @Public()
  @ApiOperation({
    summary: "The shop's booking terms (deposit share, balance days) and the coming seasons",
  })
  @Answer('Booking settings retrieved', BookingSettingsResponseDto)
  settings() {
    return this.desk.settings();
  }
}
