import { Readable } from 'node:stream';
import { BadRequestException, HttpException, Injectable, Logger } from '@nestjs/common';
import {
  errorCodeForStatus,
  isErrorCode,
  ORDER_EXPORT_MAX_ROWS,
  ORDER_QUEUES,
  toCsv,
  type BulkOrderAction,
  type OrderQueue,
} from '@spc/shared-contracts';
import { AuditService, countOf, describeFilters } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import { shopDay } from '../common/shop-clock';
import { UsersService } from '../users/users.service';
import type { OrderListQueryDto } from './dto/order.dto';
import type { OrderDto } from './dto/order-view.dto';
import type {
  BulkOrderActionDto,
  BulkOrderResultData,
  BulkRefusedOrderDto,
  OrderQueueCountsDto,
} from './dto/order-desk.dto';
import { orderListFilter } from './order-list-filter';
import { EXPORT_HEADER, exportRow } from './order-export';
import { OrderExportRepository } from './order-export.repository';
import { OrderLists } from './order-lists';
import { OrderListsRepository } from './order-lists.repository';
import { OrdersService } from './orders.service';

/** Orders read and written at a time by the export. */
const EXPORT_BATCH = 1000;

/** The dispatch desk: the work queue's counts, actions on many orders at once, and the export. */
@Injectable()
export class OrderDeskService {
  private readonly logger = new Logger(OrderDeskService.name);

  constructor(
    private readonly orders: OrdersService,
    private readonly repository: OrderListsRepository,
    private readonly exports: OrderExportRepository,
    private readonly lists: OrderLists,
    private readonly audit: AuditService,
    private readonly users: UsersService,
  ) {}

  /** How many orders wait in each bucket of the work queue, and how many there are. */
  async queueCounts(): Promise<OrderQueueCountsDto> {
    const [all, ...counts] = await this.lists.count([
      {},
      ...ORDER_QUEUES.map((queue) => ({ queue })),
    ]);
    const byQueue = Object.fromEntries(ORDER_QUEUES.map((q, i) => [q, counts[i]!])) as Record<
      OrderQueue,
      number
    >;
    return { ...byQueue, all };
  }

  /**
   * Takes each order through the same step as the one-by-one action (same state rule, audit
   * entry and mail), one after the other; an order that is refused is left as it was and listed
   * with its reason, and the others go on.
   */
  async bulk(actor: Principal, dto: BulkOrderActionDto): Promise<BulkOrderResultData> {
    const numbers = await this.repository.purchaseNumbersOf(dto.orderIds);
    const result: BulkOrderResultData = {
      action: dto.action,
      done: 0,
      doneOrders: [],
      refused: [],
    };
    for (const id of dto.orderIds) {
      try {
        const order = await this.step(dto.action, actor, id);
        result.doneOrders.push({
          _id: order._id,
          purchaseNumber: order.purchaseNumber,
          orderStatus: order.orderStatus,
        });
        result.done++;
      } catch (error) {
        result.refused.push(this.refusal(error, id, numbers.get(id) ?? null));
      }
    }
    return result;
  }

  /**
   * The orders matching the list's filters as CSV, at most ORDER_EXPORT_MAX_ROWS of them, streamed:
   * read from one cursor EXPORT_BATCH at a time, only the fields the rows need (order-export.ts),
   * and written as they come, so the API holds one batch, not the month.
   */
  async exportCsv(
    actor: Principal,
    query: OrderListQueryDto,
  ): Promise<{ csv: Readable; fileName: string }> {
    const filter = orderListFilter(query);
    const { users } = this;
    // The first orders are read while they are all counted (the database reads both at once).
    const rows = this.exports.batches(filter, EXPORT_BATCH, ORDER_EXPORT_MAX_ROWS);
    const first = rows.next();
    first.catch(() => undefined);
    const total = await this.repository.countMatching(filter).catch(async (error: unknown) => {
      await rows.return(undefined);
      throw error;
    });
    if (total > ORDER_EXPORT_MAX_ROWS) {
      await rows.return(undefined);
      throw new BadRequestException(
        `${total.toLocaleString('en-US')} orders match; an export holds at most ${ORDER_EXPORT_MAX_ROWS.toLocaleString('en-US')}. Narrow the dates or filters.`,
      );
    }
    const span =
      query.from || query.to
        ? `${query.from ?? 'start'}_to_${query.to ?? shopDay(new Date())}`
        : shopDay(new Date());
    const fileName = `orders-${span}.csv`;
    await this.audit.recordExport(
      actor,
      'orders.export',
      fileName,
      `${countOf(total, 'order', 'orders')} as CSV (${describeFilters(query)})`,
    );
    async function* lines(): AsyncGenerator<string> {
      yield toCsv([EXPORT_HEADER]);
      // The names of the accounts that placed them, as the orders list shows them: each asked for
      // once an export (a regular customer orders every week).
      const names = new Map<string, string | undefined>();
      for (let read = await first; !read.done; read = await rows.next()) {
        const batch = read.value;
        const ids = [...new Set(batch.flatMap((o) => (o.placedBy ? [o.placedBy] : [])))];
        const asked = ids.filter((id) => !names.has(id));
        const found = await users.namesOf(asked);
        for (const id of asked) names.set(id, found.get(id));
        yield toCsv(batch.map((o) => exportRow(o, o.placedBy ? names.get(o.placedBy) : undefined)));
      }
    }
    const csv = Readable.from(lines());
    // The cursor is closed however the download ends: written whole, aborted, or never begun.
    csv.once('close', () => void rows.return(undefined));
    return { csv, fileName };
  }

  private step(action: BulkOrderAction, actor: Principal, id: string): Promise<OrderDto> {
    switch (action) {
      case 'inTransit':
        return this.orders.moveInTransit(actor, id);
      case 'confirmDelivery':
        return this.orders.confirmDelivery(actor, id);
      case 'cancel':
        // A paid order needs its refund recorded, so the batch refuses it with that reason.
        return this.orders.cancel(actor, id, undefined);
    }
  }

  private refusal(error: unknown, id: string, purchaseNumber: string | null): BulkRefusedOrderDto {
    if (error instanceof HttpException) {
      const response = error.getResponse();
      const body = typeof response === 'string' ? { message: response } : response;
      const { message, code } = body as { message?: unknown; code?: unknown };
      return {
        _id: id,
        purchaseNumber,
        code: isErrorCode(code) ? code : errorCodeForStatus(error.getStatus()),
        message: Array.isArray(message) ? message.join('; ') : String(message ?? error.message),
      };
    }
    // An unexpected failure stops nothing else; the clerk sees a generic reason, the log the cause.
    this.logger.error(`Bulk step on order ${id} failed: ${(error as Error)?.message}`);
    return {
      _id: id,
      purchaseNumber,
      code: 'INTERNAL_ERROR',
      message: 'Something went wrong with this order; please try it on its own',
    };
  }
}
