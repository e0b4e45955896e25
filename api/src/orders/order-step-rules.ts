import { ConflictException } from '@nestjs/common';
import type { FilterQuery } from 'mongoose';
import {
  BOOKING_RULES,
  BOOKING_STATES,
  checkOrderAction,
  onAccountExempt,
  ORDER_RULES,
  startingStatuses,
  type ActorKind,
  type BookingAction,
  type BookingState,
  type OrderAction,
} from '@spc/shared-contracts';
import type { Actor } from '../common/principal';
import { smsSender } from '../sms/sms-budgets';
import type { OrderStep, StepContext } from './order-actions';
import type { OrderEvent } from './order-events';
import { NOT_ON_ACCOUNT } from './order-terms';
import type { OrderRecord } from './order.types';
import type { Order } from './schemas/order.schema';

/**
 * A write to another record that a step's change depends on (a move's hold on its new batch),
 * named, with the write that takes it back. A sweep that finds the step cut off by a crash calls
 * the same `compensate`, with the order as stored.
 */
export interface StepWrite<I> {
  name: string;
  invoke: (ctx: StepContext<I>) => Promise<void>;
  compensate: (ctx: Pick<StepContext<I>, 'order' | 'input'>) => Promise<void>;
}

/** The booking states that take `action` from `role` (`BOOKING_RULES`). */
const bookingStatesFor = (action: BookingAction, role: ActorKind): BookingState[] =>
  BOOKING_STATES.filter((s) => BOOKING_RULES[s].acts[action]?.includes(role));

/** Who may take a step at all: `by`, else its order rule's actors, else any its booking action has. */
export function stepActors<I>(step: OrderStep<I>): readonly ActorKind[] {
  if (step.by) return step.by;
  const { rule } = step;
  if (typeof rule === 'string') return ORDER_RULES[rule].by;
  return [...new Set(BOOKING_STATES.flatMap((s) => BOOKING_RULES[s].acts[rule.booking] ?? []))];
}

/** Throws the 409 when the order as read may not take the step now (its state table's reason). */
export function assertStepAllowed<I>(step: OrderStep<I>, ctx: StepContext<I>): void {
  const { rule } = step;
  const { order, actor } = ctx;
  if (typeof rule === 'string') return assertAllowed(order, rule, actor);
  const state = order.booking?.state;
  if (state && BOOKING_RULES[state].acts[rule.booking]?.includes(actor.role)) return;
  throw new ConflictException({
    message:
      step.refusal?.(ctx) ??
      `Booking ${order.purchaseNumber} is ${state?.toLowerCase() ?? 'not a booking'}`,
    code: 'ILLEGAL_TRANSITION',
  });
}

export function assertAllowed(order: OrderRecord, action: OrderAction, actor?: Actor): void {
  const check = checkOrderAction(order, action, actor?.role);
  if (!check.allowed) throw new ConflictException({ message: check.reason, code: check.code });
}

/** What the order must still be when the change is written: in one of the rule's starting states. */
export function stepStart<I>(step: OrderStep<I>, actor: Actor): FilterQuery<Order> {
  const { rule } = step;
  if (typeof rule !== 'string')
    return { 'booking.state': { $in: bookingStatesFor(rule.booking, actor.role) } };
  return {
    orderStatus: { $in: startingStatuses(rule, actor.role) },
    // Orders on account are not this actor's to take the step on (the clock's cancel).
    ...(onAccountExempt(rule, actor.role) ? NOT_ON_ACCOUNT : {}),
  };
}

/** The 409 when the order changed under a step: its current state's reason, if it has one. */
export function orderChanged(now: OrderRecord, action: OrderAction, actor?: Actor) {
  const check = checkOrderAction(now, action, actor?.role);
  return new ConflictException(
    check.allowed
      ? {
          message: 'The order changed while you were working on it; please reload and try again',
          code: 'CONFLICT',
        }
      : { message: check.reason, code: check.code },
  );
}

/** A booking's step whose change matched nothing: another hand moved the booking first. */
export const bookingChanged = () =>
  new ConflictException({
    message: 'The booking changed while you were working on it; please reload and try again',
    code: 'CONFLICT',
  });

/**
 * Runs a step's writes in order; one failing has those before it undone, last first. Answers
 * the undo of them all.
 */
export async function invokeWrites<I>(
  writes: readonly StepWrite<I>[] = [],
  ctx: StepContext<I>,
): Promise<() => Promise<void>> {
  const done: StepWrite<I>[] = [];
  const undo = async () => {
    for (const write of [...done].reverse()) await write.compensate(ctx);
  };
  for (const write of writes) {
    try {
      await write.invoke(ctx);
    } catch (error) {
      await undo();
      throw error;
    }
    done.push(write);
  }
  return undo;
}

/** What a step announces once it happened: its audit entry, its e-mail and its text. */
export function stepAnnouncement<I>(
  step: OrderStep<I>,
  ctx: StepContext<I>,
  updated: OrderRecord,
): OrderEvent {
  const { actor, order } = ctx;
  const sms = typeof step.sms === 'function' ? step.sms(ctx) : step.sms;
  return {
    actor,
    order: updated,
    audit: {
      action: typeof step.audit.action === 'function' ? step.audit.action(ctx) : step.audit.action,
      text: step.audit.text(ctx),
      target: { type: 'order', id: order._id, label: order.purchaseNumber },
    },
    mail: step.mail?.(ctx, updated),
    // A customer's own step (cancelling) counts against what they may cause; staff steps do not.
    sms: sms && {
      event: sms,
      sender: actor.role === 'customer' && !step.shopText ? smsSender(actor.id) : undefined,
    },
  };
}
