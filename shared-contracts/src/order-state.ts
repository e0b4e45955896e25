/**
 * The order state machine (which action each status and payment status allows, and for whom),
 * shared so that the API enforces it and the back office greys out what it would refuse, with the
 * same reason and the same machine-readable code.
 */
import type { ActorKind, OrderStatus, PaymentStatus } from './constants';
import type { ErrorCode } from './error-codes';

export const ORDER_ACTIONS = [
  'completePayment',
  'inTransit',
  'confirmDelivery',
  'fulfil',
  'cancel',
  'update',
  'delete',
  'void',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export interface OrderState {
  orderStatus: OrderStatus;
  paymentStatus: PaymentStatus;
  /**
   * An order on account (issue 43): made from an accepted quotation of an organisation whose
   * terms let it order on account; its money is due by its invoice. Absent or false: today's rules.
   */
  onAccount?: boolean;
}

export type ActionCheck =
  { allowed: true } | { allowed: false; reason: string; code: ActionRefusal };

/** Why an action is refused, as the error code the API answers with. */
export type ActionRefusal = Extract<
  ErrorCode,
  'ILLEGAL_TRANSITION' | 'ALREADY_PAID' | 'NOT_PAID' | 'SALES_RECORD'
>;

/** How each status reads in a refusal: "This order is {words}". */
const STATUS_IN_REFUSALS: Record<OrderStatus, string> = {
  Pending: 'pending',
  Processing: 'being processed',
  InTransit: 'in transit',
  Delivered: 'delivered',
  Completed: 'completed',
  Cancelled: 'cancelled',
};

/** One action of the order state machine. */
export interface OrderActionRule {
  /** The statuses it starts from. */
  from: readonly OrderStatus[];
  /** Narrower starting statuses for some kinds of actor (a customer cancels only a pending order). */
  fromFor?: Partial<Record<ActorKind, readonly OrderStatus[]>>;
  /** Who may take it (the API's controllers say the same with their guards). */
  by: readonly ActorKind[];
  /** The refusal from another status: "This order is {status}; {refusal}". */
  refusal: string;
  /** The refusal for the actors of `fromFor`. */
  refusalFor?: Partial<Record<ActorKind, string>>;
  code?: ActionRefusal;
  /** "and paid" is said in the refusal of a paid order. */
  saysPaid?: true;
  /** The payment status the order must have, and the refusal otherwise (the status one if absent). */
  payment?: { is: PaymentStatus; refusal?: string; code?: ActionRefusal; checkedFirst?: true };
  /**
   * The actors who may not take it on an order on account, and why ("This order is on account;
   * {refusal}"). The API's atomic guards leave orders on account out for them (`onAccountExempt`).
   */
  notOnAccountFor?: Partial<Record<ActorKind, string>>;
}

const PEOPLE_OF_THE_SHOP = ['staff', 'admin'] as const;

/**
 * The order state machine, written once: each action's starting statuses, its payment condition,
 * who may take it and why it is refused. `checkOrderAction` reads it (the API before every change,
 * the back office and the storefront to grey out what would be refused), and the API's atomic
 * guards take their starting statuses from it (`startingStatuses`).
 */
export const ORDER_RULES: Record<OrderAction, OrderActionRule> = {
  completePayment: {
    from: ['Pending', 'Processing', 'InTransit', 'Delivered'],
    by: [...PEOPLE_OF_THE_SHOP, 'system'],
    refusal: 'it can no longer be paid',
    payment: {
      is: 'Pending',
      refusal: 'This order is already paid',
      code: 'ALREADY_PAID',
      checkedFirst: true,
    },
  },
  inTransit: {
    from: ['Pending', 'Processing'],
    by: PEOPLE_OF_THE_SHOP,
    refusal: 'only pending or processing orders can be sent out',
  },
  confirmDelivery: {
    from: ['InTransit'],
    by: PEOPLE_OF_THE_SHOP,
    refusal: 'only an order in transit can be marked delivered',
  },
  fulfil: {
    from: ['InTransit', 'Delivered'],
    by: PEOPLE_OF_THE_SHOP,
    refusal: 'only orders in transit or delivered can be fulfilled',
    payment: {
      is: 'Paid',
      refusal: 'Complete the payment before fulfilling this order',
      code: 'NOT_PAID',
    },
  },
  cancel: {
    from: ['Pending', 'Processing'],
    // The expiry loop cancels only orders nobody confirmed (still pending and unpaid).
    fromFor: { customer: ['Pending'], system: ['Pending'] },
    by: [...PEOPLE_OF_THE_SHOP, 'customer', 'system'],
    refusal: 'only pending or processing orders can be cancelled',
    refusalFor: { customer: 'please contact the shop to cancel it' },
    // The clock cancels unpaid orders (expiry, an account closed as it ordered); an order on
    // account is unpaid by design until its invoice falls due, so only the shop cancels it.
    notOnAccountFor: {
      system: 'it does not expire unpaid: its money is due by its invoice',
    },
  },
  update: {
    from: ['Pending', 'Processing'],
    by: PEOPLE_OF_THE_SHOP,
    refusal: 'delivery details can only change before it is sent out',
  },
  delete: {
    // A paid order stays in the sales record even once cancelled (its refund is recorded).
    from: ['Pending', 'Processing', 'Cancelled'],
    by: PEOPLE_OF_THE_SHOP,
    refusal: 'it is part of the sales record and cannot be deleted',
    code: 'SALES_RECORD',
    saysPaid: true,
    payment: { is: 'Pending' },
  },
  /**
   * A gate sale undone at the till with a second person's PIN (issue 46): handed over, or still
   * waiting for its M-Pesa prompt (declined: its cash part given back, its stock returned).
   */
  void: {
    // InTransit: a gate sale handed over with its M-Pesa code not counted (issue 47).
    from: ['Pending', 'Processing', 'InTransit', 'Completed'],
    by: PEOPLE_OF_THE_SHOP,
    refusal: 'only a gate sale can be voided',
  },
};

/** The statuses `action` starts from when taken by this kind of actor. */
export function startingStatuses(
  action: OrderAction,
  kind: ActorKind = 'staff',
): readonly OrderStatus[] {
  const rule = ORDER_RULES[action];
  return rule.fromFor?.[kind] ?? rule.from;
}

/**
 * Whether this kind of actor's `action` leaves orders on account out (`notOnAccountFor`): the
 * API's atomic guards and the loops' queries add `onAccount: { $ne: true }` when it does.
 */
export const onAccountExempt = (action: OrderAction, kind: ActorKind): boolean =>
  !!ORDER_RULES[action].notOnAccountFor?.[kind];

/** May this action be taken on an order in this state, by this kind of actor? And if not, why. */
export function checkOrderAction(
  order: OrderState,
  action: OrderAction,
  role: ActorKind = 'staff',
): ActionCheck {
  const { orderStatus: status, paymentStatus } = order;
  const rule = ORDER_RULES[action];
  const state = `This order is ${STATUS_IN_REFUSALS[status]}${rule.saysPaid && paymentStatus === 'Paid' ? ' and paid' : ''}`;
  const code = rule.code ?? 'ILLEGAL_TRANSITION';
  const statusRefusal: ActionCheck = {
    allowed: false,
    reason: `${state}; ${rule.refusalFor?.[role] ?? rule.refusal}`,
    code,
  };
  const pay = rule.payment;
  const paymentRefusal: ActionCheck | null =
    pay && paymentStatus !== pay.is
      ? pay.refusal
        ? { allowed: false, reason: pay.refusal, code: pay.code ?? code }
        : statusRefusal
      : null;
  if (pay?.checkedFirst && paymentRefusal) return paymentRefusal;
  if (!startingStatuses(action, role).includes(status)) return statusRefusal;
  const onAccountRefusal = order.onAccount ? rule.notOnAccountFor?.[role] : undefined;
  if (onAccountRefusal)
    return {
      allowed: false,
      reason: `This order is on account; ${onAccountRefusal}`,
      code: 'ILLEGAL_TRANSITION',
    };
  return paymentRefusal ?? { allowed: true };
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
