import { addDays, startOfShopDay } from '../common/shop-clock';
import type { OrderListQueryDto } from './dto/order.dto';
import type { OrderListFilter } from './order.types';

/**
 * An orders list's query as the repository's filter. `from` and `to` are the shop's calendar days
 * (Africa/Nairobi), both included: "today's orders" are the ones placed today in Kiambu.
 */
export function orderListFilter(query: OrderListQueryDto, placedBy?: string): OrderListFilter {
  return {
    placedBy,
    orderStatus: query.status,
    paymentStatus: query.paymentStatus,
    search: query.search?.trim() || undefined,
    from: query.from ? startOfShopDay(query.from) : undefined,
    to: query.to ? startOfShopDay(addDays(query.to, 1)) : undefined,
    queue: query.queue,
    sortBy: query.sortBy,
    sortOrder: query.sortOrder,
  };
}
