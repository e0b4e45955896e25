import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiBadRequestResponse,
} from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { RateLimit } from '../common/rate-limit';
import {
  LowStockResponseDto,
  LowStockThresholdDto,
  MovementsQueryDto,
  MovementsResponseDto,
  RecordCountDto,
  RecordLossDto,
  StockChangeResponseDto,
  ThresholdResponseDto,
} from './dto/stock.dto';
import { StockService } from './stock.service';

/** The stock ledger, losses and counts, and low stock: back-office staff and admins only. */
@ApiTags('stock')
@Controller('stock')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class StockController {
  constructor(private readonly stock: StockService) {}

  @Get('low')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'Products out of stock or at or below their low-stock threshold (their own, else the ' +
      "shop's default, LOW_STOCK_THRESHOLD)",
  })
  @Answer('Low stock retrieved', LowStockResponseDto)
  low() {
    return this.stock.lowStock();
  }

  @Get('products/:id/movements')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      "A product's stock movements, newest first, with the quantity after each; filter by reason",
  })
  @Answer('Stock movements retrieved', MovementsResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  movements(@Param('id', ParseObjectIdPipe) id: string, @Query() query: MovementsQueryDto) {
    return this.stock.movements(id, query);
  }

  @Post('products/:id/losses')
  @Auth('admin', 'staff')
  @RateLimit('uploads')
  @ApiOperation({
    summary:
      'Record seedlings lost (died, damaged, given away); the stock goes down, never below 0',
  })
  @Answer('Loss recorded', StockChangeResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Fewer in stock than the loss' })
  recordLoss(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: RecordLossDto,
  ) {
    return this.stock.recordLoss(actor, id, dto);
  }

  @Post('products/:id/counts')
  @Auth('admin', 'staff')
  @RateLimit('uploads')
  @ApiOperation({
    summary: 'Record a count: the stock becomes the counted quantity (a correction)',
  })
  @Answer('Count recorded', StockChangeResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  recordCount(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: RecordCountDto,
  ) {
    return this.stock.recordCount(actor, id, dto);
  }

  @Patch('products/:id/threshold')
  @Auth('admin', 'staff')
  @RateLimit('uploads')
  @ApiOperation({ summary: "Set a product's low-stock threshold (null: the shop's default)" })
  @Answer('Low-stock threshold saved', ThresholdResponseDto)
  @ApiOkResponse({ type: ThresholdResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  setThreshold(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: LowStockThresholdDto,
  ) {
    return this.stock.setThreshold(actor, id, dto.lowStockThreshold);
  }
}
