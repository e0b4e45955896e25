/**
 * The order state machine of DECISIONS §5, shared so that the API enforces it and the back office
 * greys out what it would refuse, with the same reason.
 */
import type { OrderStatus, PaymentStatus, Role } from './constants';

export const ORDER_ACTIONS = [
  'completePayment',
  'inTransit',
  'confirmDelivery',
  'fulfil',
  'cancel',
  'update',
  'delete',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export interface OrderState {
  orderStatus: OrderStatus;
  paymentStatus: PaymentStatus;
}

export type ActionCheck = { allowed: true } | { allowed: false; reason: string };

const ok: ActionCheck = { allowed: true };
const no = (reason: string): ActionCheck => ({ allowed: false, reason });

const STATUS_WORDS: Record<OrderStatus, string> = {
  Pending: 'pending',
  Processing: 'being processed',
  InTransit: 'in transit',
  Delivered: 'delivered',
  Completed: 'completed',
  Cancelled: 'cancelled',
};

/** May this action be taken on an order in this state, by this role? And if not, why. */
export function checkOrderAction(
  order: OrderState,
  action: OrderAction,
  role: Role = 'staff',
): ActionCheck {
  const { orderStatus: status, paymentStatus } = order;
  const is = (...statuses: OrderStatus[]) => statuses.includes(status);
  const state = `This order is ${STATUS_WORDS[status]}`;
  switch (action) {
    case 'completePayment':
      if (paymentStatus === 'Paid') return no('This order is already paid');
      return is('Pending', 'Processing', 'InTransit', 'Delivered')
        ? ok
        : no(`${state}; it can no longer be paid`);
    case 'inTransit':
      return is('Pending', 'Processing')
        ? ok
        : no(`${state}; only pending or processing orders can be sent out`);
    case 'confirmDelivery':
      return is('InTransit')
        ? ok
        : no(`${state}; only an order in transit can be marked delivered`);
    case 'fulfil':
      if (!is('InTransit', 'Delivered'))
        return no(`${state}; only orders in transit or delivered can be fulfilled`);
      return paymentStatus === 'Paid'
        ? ok
        : no('Complete the payment before fulfilling this order');
    case 'cancel':
      if (role === 'customer') {
        return is('Pending') ? ok : no(`${state}; please contact the shop to cancel it`);
      }
      return is('Pending', 'Processing')
        ? ok
        : no(`${state}; only pending or processing orders can be cancelled`);
    case 'update':
      return is('Pending', 'Processing')
        ? ok
        : no(`${state}; delivery details can only change before it is sent out`);
    case 'delete':
      // A paid order stays in the sales record even once cancelled (its refund is recorded).
      if (is('Cancelled') && paymentStatus !== 'Paid') return ok;
      if (is('Pending', 'Processing') && paymentStatus === 'Pending') return ok;
      return no(
        `${state}${paymentStatus === 'Paid' ? ' and paid' : ''}; it is part of the sales record and cannot be deleted`,
      );
  }
}

/** The three steps of the storefront's tracking timeline and whether each is done. */
export function trackingSteps(status: OrderStatus): {
  received: boolean;
  inTransit: boolean;
  delivered: boolean;
} {
  return {
    received: status !== 'Cancelled',
    inTransit: ['InTransit', 'Delivered', 'Completed'].includes(status),
    delivered: ['Delivered', 'Completed'].includes(status),
  };
}
