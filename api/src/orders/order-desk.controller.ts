import type { Readable } from 'node:stream';
import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { BULK_ORDERS_MAX, ORDER_EXPORT_MAX_ROWS } from '@spc/shared-contracts';
import { Answer, said, type Answered } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import type { Principal } from '../common/principal';
import { OrderListQueryDto } from './dto/order.dto';
import {
  BulkOrderActionDto,
  BulkOrderResultData,
  BulkOrderResultResponseDto,
  OrderQueueData,
  OrderQueueResponseDto,
} from './dto/order-desk.dto';
import { OrderDeskService } from './order-desk.service';

const plural = (n: number) => (n === 1 ? '1 order' : `${n} orders`);

/** The dispatch desk's routes: the work queue's counts, bulk actions and the CSV export. */
@ApiTags('orders')
@Controller('orders')
export class OrderDeskController {
  constructor(private readonly desk: OrderDeskService) {}

  @Get('queue')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary:
      'The work queue: orders to confirm payment, to dispatch, in transit, delivered to complete, and all',
  })
  @Answer('Order queue counted', OrderQueueResponseDto)
  async queue(): Promise<OrderQueueData> {
    return { counts: await this.desk.queueCounts() };
  }

  @Post('bulk')
  @HttpCode(200)
  @Auth('staff')
  @ApiOperation({
    summary: `Move up to ${BULK_ORDERS_MAX} orders in transit, confirm their delivery or cancel them; each goes through the same rules, audit and mail as one by one, and those refused are listed with the reason`,
  })
  @Answer('Bulk action done', BulkOrderResultResponseDto)
  async bulk(
    @CurrentUser() actor: Principal,
    @Body() dto: BulkOrderActionDto,
  ): Promise<Answered<BulkOrderResultData>> {
    const result = await this.desk.bulk(actor, dto);
    const refused = result.refused.length ? `, ${plural(result.refused.length)} refused` : '';
    return said(`${plural(result.done)} done${refused}`, result);
  }

  @Get('export.csv')
  @Auth('admin', 'staff')
  @ApiOperation({
    summary: `The orders matching the list's filters as CSV (at most ${ORDER_EXPORT_MAX_ROWS} rows; more is a 400: narrow the filters). Cells a spreadsheet would run as a formula are written as text`,
  })
  @ApiOkResponse({
    description: 'CSV, one order a row',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  async exportCsv(
    @CurrentUser() actor: Principal,
    @Query() query: OrderListQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable> {
    const { csv, fileName } = await this.desk.exportCsv(actor, query);
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store');
    return csv;
  }
}
