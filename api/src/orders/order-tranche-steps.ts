import { ConflictException } from '@nestjs/common';
import { trancheLabel, type OrderAction } from '@spc/shared-contracts';
import type { OrderStep, StepContext } from './order-actions';
import type { OrderRecord } from './order.types';

/**
 * The whole order's steps that an order delivered in tranches does not take by hand (issue 43):
 * its stock goes out tranche by tranche (each dispatched from the desk), so sending the whole
 * order out would move it twice; it is delivered once every unit is, and completed after that.
 */
const BY_TRANCHES: Partial<Record<OrderAction, (o: { purchaseNumber: string }) => string>> = {
  inTransit: (o) =>
    `Order ${o.purchaseNumber} is delivered in tranches: dispatch each tranche from the dispatch desk (the order is in transit from its first)`,
  confirmDelivery: (o) =>
    `Order ${o.purchaseNumber} is delivered in tranches: record each tranche's signed delivery note (the order is delivered once every unit is)`,
  fulfil: (o) =>
    `Order ${o.purchaseNumber} is delivered in tranches and some are not delivered yet: record their signed notes before completing it`,
};

/** The atomic guard of those steps: the order is not (or no longer may be) sent in tranches. */
export const NOT_IN_TRANCHES = { inTranches: { $ne: true } } as const;

/**
 * Refuses (409) a whole order's step that an order in tranches takes tranche by tranche; its
 * completion only once every tranche is delivered (the order then reads Delivered).
 */
export function refuseWholeOrderStep(order: OrderRecord, action: OrderAction): void {
  const words = wholeOrderRefusal(order, action);
  if (words) throw new ConflictException({ message: words, code: 'ILLEGAL_TRANSITION' });
}

/** Why an order in tranches does not take this whole order's step now (null: it may). */
export function wholeOrderRefusal(
  order: { inTranches: boolean; orderStatus: string; purchaseNumber: string },
  action: OrderAction,
): string | null {
  if (!order.inTranches) return null;
  if (action === 'fulfil' && order.orderStatus !== 'InTransit') return null;
  return BY_TRANCHES[action]?.(order) ?? null;
}

/** The guard those steps add: not in tranches (completing one: only once it is delivered). */
export function wholeOrderGuard(action: OrderAction) {
  if (action === 'fulfil')
    return { $or: [NOT_IN_TRANCHES, { orderStatus: 'Delivered' }] } as Record<string, unknown>;
  return NOT_IN_TRANCHES;
}

/** Which tranche a step of the order in tranches is about. */
export interface TrancheStepInput {
  number: number;
}

/**
 * Its first tranche left the nursery: the order is in transit (its buyer is told, as when a whole
 * order leaves). Only for an order in tranches; what goes out is the tranche's, moved by its step.
 */
export const FIRST_TRANCHE_OUT: OrderStep<TrancheStepInput> = {
  rule: 'inTransit',
  event: 'order.inTransit',
  guard: () => ({ inTranches: true }),
  prepare: ({ now }: StepContext<TrancheStepInput>) => ({
    $set: { orderStatus: 'InTransit', inTransitDate: now },
  }),
  sms: 'sent',
  audit: {
    action: 'order.inTransit',
    text: ({ actor, order, input }) =>
      `${actor.fullName} dispatched tranche ${trancheLabel(input.number)} of order ${order.purchaseNumber}: the order is in transit`,
  },
};

/**
 * The signed note of its last tranche is recorded and every unit of the order was delivered: the
 * order is delivered (its buyer is told, as when a whole order is).
 */
export const ALL_TRANCHES_DELIVERED: OrderStep<TrancheStepInput> = {
  rule: 'confirmDelivery',
  event: 'order.delivered',
  guard: () => ({ inTranches: true }),
  prepare: ({ now }: StepContext<TrancheStepInput>) => ({
    $set: { orderStatus: 'Delivered', deliveredDate: now },
  }),
  sms: 'delivered',
  audit: {
    action: 'order.delivered',
    text: ({ actor, order, input }) =>
      `${actor.fullName} recorded the signed note of tranche ${trancheLabel(input.number)} of order ${order.purchaseNumber}: every unit of the order is delivered`,
  },
};
