import { Readable } from 'node:stream';
import { BadRequestException, HttpException, Injectable, Logger } from '@nestjs/common';
import {
  errorCodeForStatus,
  isErrorCode,
  ORDER_EXPORT_MAX_ROWS,
  ORDER_QUEUES,
  statusLabel,
  toCsv,
  type BulkOrderAction,
  type CsvValue,
  type OrderQueue,
  lineItemName,
  lineSeedlings,
} from '@spc/shared-contracts';
import { AuditService, countOf, describeFilters } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import { shopDateTime, shopDay } from '../common/shop-clock';
import type { OrderListQueryDto } from './dto/order.dto';
import type { OrderDto } from './dto/order-view.dto';
import type {
  BulkOrderActionDto,
  BulkOrderResultData,
  BulkRefusedOrderDto,
  OrderQueueCountsDto,
} from './dto/order-desk.dto';
import { orderListFilter } from './order-list-filter';
import { OrderLists } from './order-lists';
import { OrderListsRepository } from './order-lists.repository';
import { OrdersService } from './orders.service';

/** Orders read and written at a time by the export. */
const EXPORT_BATCH = 500;

const EXPORT_HEADER = [
  'Purchase number',
  'Order date (Nairobi)',
  'Customer',
  'Phone',
  'E-mail',
  'County',
  'Sub-county',
  'Ward',
  'Street address',
  'Products',
  'Items',
  'Subtotal (KES)',
  'Delivery (KES)',
  'Total (KES)',
  'Deposit (KES)',
  'Balance (KES)',
  'Payment status',
  'Payment method',
  'Transaction code',
  'Paid at (Nairobi)',
  'Order status',
  'Fulfillment status',
] as const;

function exportRow(o: OrderDto): CsvValue[] {
  const g = o.guestInfo;
  return [
    o.purchaseNumber,
    shopDateTime(o.orderDate),
    o.customerName,
    g.phoneNumber,
    g.email,
    g.county,
    g.subCounty,
    g.ward,
    g.streetAddress,
    o.products.map((l) => `${lineItemName(l)} x ${l.quantity}`).join('; '),
    o.products.reduce((n, l) => n + lineSeedlings(l), 0),
    o.subtotal,
    o.shippingFee,
    o.totalAmount,
    // A booking's deposit and balance; blank on an ordinary order.
    o.booking?.deposit ?? '',
    o.booking?.balance ?? '',
    statusLabel(o.paymentStatus),
    o.paymentMethod ?? '',
    o.paymentDetails?.transactionCode ?? '',
    shopDateTime(o.paidAt),
    statusLabel(o.orderStatus),
    statusLabel(o.fulfillmentStatus),
  ];
}

/** The dispatch desk: the work queue's counts, actions on many orders at once, and the export. */
@Injectable()
export class OrderDeskService {
  private readonly logger = new Logger(OrderDeskService.name);

  constructor(
    private readonly orders: OrdersService,
    private readonly repository: OrderListsRepository,
    private readonly lists: OrderLists,
    private readonly audit: AuditService,
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
   * read from one cursor EXPORT_BATCH at a time and written as they come, so the API holds one
   * batch, not the month.
   */
  async exportCsv(
    actor: Principal,
    query: OrderListQueryDto,
  ): Promise<{ csv: Readable; fileName: string }> {
    const filter = orderListFilter(query);
    const total = await this.repository.countMatching(filter);
    if (total > ORDER_EXPORT_MAX_ROWS) {
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
    const { repository, orders } = this;
    async function* lines(): AsyncGenerator<string> {
      yield toCsv([EXPORT_HEADER]);
      for await (const batch of repository.batches(filter, EXPORT_BATCH, ORDER_EXPORT_MAX_ROWS))
        yield toCsv((await orders.views(batch)).map(exportRow));
    }
    return { csv: Readable.from(lines()), fileName };
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
