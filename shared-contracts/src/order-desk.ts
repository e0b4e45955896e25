/**
 * The dispatch desk: status labels, the work queue's buckets, list sorting, bulk actions and the
 * export's bound, shared so that the API filters and the back office shows the same things.
 */
import type { FulfillmentStatus, OrderStatus, PaymentStatus } from './constants';
import { ORDER_RULES } from './order-state';

/** How a status reads to a person: "In transit", not "InTransit". */
export const STATUS_LABELS: Record<OrderStatus | PaymentStatus | FulfillmentStatus, string> = {
  Pending: 'Pending',
  Processing: 'Processing',
  InTransit: 'In transit',
  Delivered: 'Delivered',
  Completed: 'Completed',
  Cancelled: 'Cancelled',
  Paid: 'Paid',
  Unfulfilled: 'Unfulfilled',
  Fulfilled: 'Fulfilled',
};

/** The words for an order, payment or fulfilment status; an unknown value is shown as it is. */
export function statusLabel(status: string | null | undefined): string {
  if (!status) return '';
  return (STATUS_LABELS as Record<string, string>)[status] ?? status;
}

/**
 * The work queue's buckets. A bucket is what needs doing next, so an order may sit in two (a
 * delivered order still unpaid is both "to confirm payment" and "delivered, to complete"):
 * - toConfirmPayment: unpaid and still open (Pending, Processing, InTransit or Delivered);
 *   cancelled orders are never asked for money.
 * - toDispatch: paid and not yet sent out (Pending or Processing).
 * - inTransit: sent out, paid or not.
 * - toComplete: delivered, waiting to be fulfilled (completed).
 */
export const ORDER_QUEUES = ['toConfirmPayment', 'toDispatch', 'inTransit', 'toComplete'] as const;
export type OrderQueue = (typeof ORDER_QUEUES)[number];

export const ORDER_QUEUE_LABELS: Record<OrderQueue | 'all', string> = {
  toConfirmPayment: 'To confirm payment',
  toDispatch: 'To dispatch',
  inTransit: 'In transit',
  toComplete: 'Delivered, to complete',
  all: 'All orders',
};

/**
 * The statuses each bucket covers (with its payment status, when it matters): the starting
 * statuses of the action each bucket waits for, from the state machine.
 */
export const ORDER_QUEUE_RULES: Record<
  OrderQueue,
  { orderStatus: readonly OrderStatus[]; paymentStatus?: PaymentStatus }
> = {
  toConfirmPayment: { orderStatus: ORDER_RULES.completePayment.from, paymentStatus: 'Pending' },
  toDispatch: { orderStatus: ORDER_RULES.inTransit.from, paymentStatus: 'Paid' },
  inTransit: { orderStatus: ORDER_RULES.confirmDelivery.from },
  toComplete: { orderStatus: ['Delivered'] },
};

/** Is this order in this bucket? */
export function inQueue(
  order: { orderStatus: OrderStatus; paymentStatus: PaymentStatus },
  queue: OrderQueue,
): boolean {
  const rule = ORDER_QUEUE_RULES[queue];
  return (
    rule.orderStatus.includes(order.orderStatus) &&
    (!rule.paymentStatus || rule.paymentStatus === order.paymentStatus)
  );
}

/** What orders lists sort by (newest first unless told). */
export const ORDER_SORT_FIELDS = ['orderDate', 'totalAmount'] as const;
export type OrderSortField = (typeof ORDER_SORT_FIELDS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** What a batch of orders can be moved through at once. */
export const BULK_ORDER_ACTIONS = ['inTransit', 'confirmDelivery', 'cancel'] as const;
export type BulkOrderAction = (typeof BULK_ORDER_ACTIONS)[number];

export const BULK_ORDER_ACTION_LABELS: Record<BulkOrderAction, string> = {
  inTransit: 'Move to In Transit',
  confirmDelivery: 'Confirm delivery',
  cancel: 'Cancel',
};

/** At most this many orders in one bulk call. */
export const BULK_ORDERS_MAX = 100;

/**
 * A search's orders are counted up to this many (or to the end of the page asked for, if further);
 * beyond it the list's total is a lower bound (`totalIsLowerBound`), shown as "1,000+".
 */
export const ORDER_SEARCH_COUNT_LIMIT = 1_000;

/** At most this many rows in one orders export; more matching orders are refused (narrow the filters). */
export const ORDER_EXPORT_MAX_ROWS = 10_000;

/** The confirmation question of a bulk action, naming the count (a sentence: capital, question mark). */
export function bulkConfirmQuestion(action: BulkOrderAction, count: number): string {
  const what = count === 1 ? '1 order' : `${count} orders`;
  const verb: Record<BulkOrderAction, string> = {
    inTransit: `move ${what} to in transit`,
    confirmDelivery: `confirm delivery of ${what}`,
    cancel: `cancel ${what}`,
  };
  return `Are you sure you want to ${verb[action]}?`;
}
