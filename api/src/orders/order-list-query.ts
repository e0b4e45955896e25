import type { FilterQuery } from 'mongoose';
import { ORDER_QUEUE_RULES, type OrderStatus } from '@spc/shared-contracts';
import { orderSearchOf } from './order-contact-keys';
import type { OrderListFilter } from './order.types';
import type { Order } from './schemas/order.schema';

const byOrderDate = { orderDate: -1, _id: -1 } as const;

/** The statuses both the status filter and the queue allow (either alone when only one is given). */
function allowedStatuses(
  filter: Pick<OrderListFilter, 'orderStatus' | 'queue'>,
): OrderStatus[] | undefined {
  const queue = filter.queue ? [...ORDER_QUEUE_RULES[filter.queue].orderStatus] : undefined;
  if (!filter.orderStatus) return queue;
  return !queue || queue.includes(filter.orderStatus) ? [filter.orderStatus] : [];
}

/**
 * The filters of an orders list except the search, as one flat condition per field (no `$and`):
 * every shape is served by one of the orders' back-office indexes (order.schema.ts), which the
 * explain test (api/test/backoffice-explain.e2e-spec.ts) checks.
 */
export function filterQuery(filter: OrderListFilter): FilterQuery<Order> {
  const query: FilterQuery<Order> = { placement: 'placed' };
  if (filter.placedBy) query.placedBy = filter.placedBy;
  const statuses = allowedStatuses(filter);
  if (statuses) query.orderStatus = statuses.length === 1 ? statuses[0] : { $in: statuses };
  const payment =
    filter.queue && ORDER_QUEUE_RULES[filter.queue].paymentStatus
      ? ORDER_QUEUE_RULES[filter.queue].paymentStatus
      : undefined;
  if (filter.paymentStatus && payment && filter.paymentStatus !== payment) {
    query.orderStatus = { $in: [] };
  } else if (filter.paymentStatus ?? payment) {
    query.paymentStatus = filter.paymentStatus ?? payment;
  }
  if (filter.from || filter.to) {
    query.orderDate = {
      ...(filter.from ? { $gte: filter.from } : {}),
      ...(filter.to ? { $lt: filter.to } : {}),
    };
  }
  if (filter.amountFrom !== undefined || filter.amountTo !== undefined) {
    query.totalAmount = {
      ...(filter.amountFrom !== undefined ? { $gte: filter.amountFrom } : {}),
      ...(filter.amountTo !== undefined ? { $lt: filter.amountTo } : {}),
    };
  }
  return query;
}

/**
 * The database query for an orders list: every filter given, all of them at once. The search is
 * looked up by equality in an index (order-contact-keys.ts): a purchase number, or its start, by the
 * unique number; anything else by the order's contact keys (`placement, contactKeys, orderDate, _id`),
 * every word typed being one of the order's keys (the only `$and` of these queries).
 */
export function listQuery(filter: OrderListFilter): FilterQuery<Order> {
  const query = filterQuery(filter);
  if (!filter.search) return query;
  const search = orderSearchOf(filter.search);
  switch (search.kind) {
    case 'number':
      return { ...query, purchaseNumber: search.number };
    case 'number-prefix':
      return { ...query, purchaseNumber: { $gte: search.from, $lte: search.to } };
    case 'keys': {
      // The first key by equality, the others beside it: a server reads the index by the equality
      // (the rarest key, order-contact-keys.ts) and checks the others on those orders alone; with
      // `$all` the Rust SecantusDB read every order of the placement to check them.
      const [first, ...others] = search.keys;
      return {
        ...query,
        contactKeys: first,
        ...(others.length ? { $and: others.map((key) => ({ contactKeys: key })) } : {}),
      };
    }
    case 'nothing':
      return { ...query, purchaseNumber: { $in: [] } };
  }
}

/**
 * Whether the list names at most one order status: a range of order dates can then narrow its
 * read (beside a status `$in`, two ranges, which SecantusDB plans as a scan).
 */
export function readsOneStatus(filter: Pick<OrderListFilter, 'orderStatus' | 'queue'>): boolean {
  const statuses = allowedStatuses(filter);
  return !statuses || statuses.length <= 1;
}

/** Newest first unless told; ties broken by id so pages never repeat or skip an order. */
export function listSort(filter: OrderListFilter): Record<string, 1 | -1> {
  if (!filter.sortBy && !filter.sortOrder) return { ...byOrderDate };
  const dir = filter.sortOrder === 'asc' ? 1 : -1;
  return { [filter.sortBy ?? 'orderDate']: dir, _id: dir };
}

type Comparable = string | number | Date | { toString(): string };
interface ListedOrder {
  _id: Comparable;
  placement?: string;
  placedBy?: string | null;
  orderStatus: string;
  paymentStatus: string;
  orderDate: Date;
  totalAmount: number;
}

/**
 * Whether an order of this status and payment status is in the filter's lists, as `filterQuery`
 * says (its customer, dates and search aside): the order counts' rollup adds its cells up by it.
 */
export function statusMatcher(
  filter: Pick<OrderListFilter, 'orderStatus' | 'paymentStatus' | 'queue'>,
): (orderStatus: string, paymentStatus: string) => boolean {
  const statuses = allowedStatuses(filter);
  const queuePayment = filter.queue ? ORDER_QUEUE_RULES[filter.queue].paymentStatus : undefined;
  if (filter.paymentStatus && queuePayment && filter.paymentStatus !== queuePayment)
    return () => false;
  const payment = filter.paymentStatus ?? queuePayment;
  return (orderStatus, paymentStatus) =>
    (!statuses || statuses.includes(orderStatus as OrderStatus)) &&
    (!payment || paymentStatus === payment);
}

/** `filterQuery` on one order in memory (the search's orders are fetched by id, then narrowed). */
export function matchesFilter(order: ListedOrder, filter: OrderListFilter): boolean {
  if (order.placement !== 'placed') return false;
  if (filter.placedBy && order.placedBy !== filter.placedBy) return false;
  if (!statusMatcher(filter)(order.orderStatus, order.paymentStatus)) return false;
  const at = new Date(order.orderDate).getTime();
  if (filter.from && at < filter.from.getTime()) return false;
  if (filter.to && at >= filter.to.getTime()) return false;
  if (filter.amountFrom !== undefined && order.totalAmount < filter.amountFrom) return false;
  if (filter.amountTo !== undefined && order.totalAmount >= filter.amountTo) return false;
  return true;
}
