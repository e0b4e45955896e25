import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { formatMoney } from '@spc/shared-contracts';
import {
  cancelChange,
  takeRefund,
  type OrderStep,
  type StepContext,
} from '../orders/order-actions';
import type { OrderEvent } from '../orders/order-events';

declare module '../common/events/domain-events' {
  interface DomainEventMap {
    /** Its batch is ready: the booking's balance is due (its notice is sent apart, owed till then). */
    'booking.ready': OrderEvent;
    /** An affected booking moved to another batch, its money with it. */
    'booking.moved': OrderEvent;
  }
}

/** A booking step's `access`: a customer sees only their own (404), and only a booking (400). */
export function ownBooking({ order, actor }: StepContext<unknown>): void {
  if (actor.role === 'customer' && order.placedBy !== actor.id)
    throw new NotFoundException('No order with this id');
  if (!order.booking) throw new BadRequestException('This order is not a booking');
}

/**
 * Its batch is ready: a `Booked` booking owes its balance by `balanceDueBy`, its notice owed
 * (`noticeDue`) until `tell` sends it. The shop's step, once per booking.
 */
export const READY_BOOKING: OrderStep<{ readyAt: Date; balanceDueBy: string }> = {
  rule: { booking: 'ready' },
  event: 'booking.ready',
  guard: () => ({ 'booking.state': 'Booked' }),
  prepare: ({ input }) => ({
    $set: {
      'booking.state': 'Balance due',
      'booking.readyAt': input.readyAt,
      'booking.balanceDueBy': input.balanceDueBy,
      'booking.noticeDue': true,
    },
  }),
  audit: {
    action: 'booking.ready',
    text: ({ order, input }) =>
      `The batch of booking ${order.purchaseNumber} is ready: its balance of ${formatMoney(order.totalAmount - order.amountPaid)} is due by ${input.balanceDueBy}`,
  },
};

/**
 * Its batch failed or fell short: a booking it still held becomes `Affected`, to be moved or
 * refunded, its notice owed (`noticeDue`) until `tell` sends it. The shop's step, once per booking.
 */
export const AFFECT_BOOKING: OrderStep<{ problem: 'failed' | 'short' }> = {
  rule: { booking: 'affect' },
  event: 'booking.affected',
  prepare: ({ input }) => ({
    $set: {
      'booking.state': 'Affected',
      'booking.problem': input.problem,
      'booking.noticeDue': true,
    },
  }),
  audit: {
    action: 'booking.affected',
    text: ({ order, input }) =>
      `Booking ${order.purchaseNumber} is affected: its batch ${input.problem === 'short' ? 'fell short and cannot give it its seedlings' : 'failed'}; it waits to be moved to another batch or refunded`,
  },
};

/**
 * A balance unpaid after its day: the booking is released (the order cancelled, its seedlings back
 * into ready stock from the batch), its deposit kept or refunded as the shop's policy says, the
 * decision recorded on the order and in the audit.
 */
export const RELEASE_BOOKING: OrderStep<{ decision: 'kept' | 'refunded' }> = {
  rule: 'cancel',
  event: 'booking.released',
  by: ['system'],
  guard: ({ order }) => ({
    'booking.state': 'Balance due',
    paymentStatus: 'Pending',
    amountPaid: order.amountPaid,
  }),
  prepare: ({ order, now, input }) => {
    const change = cancelChange(now, 'Released', order);
    return {
      $set: {
        ...(change.$set as object),
        'booking.releasedAt': now,
        'booking.releaseDecision': input.decision,
      },
    };
  },
  // Its money goes back, all of it to the numbers that paid (cash by hand), by the shop's policy.
  before: (ctx) =>
    ctx.input.decision === 'refunded' ? takeRefund(ctx, 'all-by-mpesa') : Promise.resolve(null),
  after: async (ctx, updated) => {
    await ctx.money.finishRefund(ctx.refundOut);
    await ctx.placement.returnStock(updated);
  },
  sms: 'released',
  audit: {
    action: 'booking.release',
    text: ({ order, input }) =>
      `Booking ${order.purchaseNumber} was released: its balance of ${formatMoney(order.totalAmount - order.amountPaid)} was not paid by ${order.booking?.balanceDueBy}; its seedlings went back into ready stock and its deposit of ${formatMoney(order.amountPaid)} was ${input.decision === 'refunded' ? 'refunded by M-Pesa (shop policy: refund)' : 'kept (shop policy: keep)'}`,
  },
};

/**
 * An affected booking (its batch failed or fell short) is refunded: the money paid goes back by
 * M-Pesa through the refund path of any paid order (recorded, then sent), the order is cancelled
 * and its seedlings released. Staff, or the customer who owns it.
 */
export const REFUND_BOOKING: OrderStep = {
  rule: 'cancel',
  event: 'booking.refunded',
  access: ownBooking,
  guard: ({ order }) => ({
    'booking.state': 'Affected',
    paymentStatus: order.paymentStatus,
    amountPaid: order.amountPaid,
  }),
  prepare: ({ order, now }) => {
    if (order.booking?.state !== 'Affected')
      throw new ConflictException({
        message: `Only a booking whose batch failed or fell short can be refunded this way; booking ${order.purchaseNumber} is ${order.booking?.state.toLowerCase()}`,
        code: 'ILLEGAL_TRANSITION',
      });
    return cancelChange(now, 'Refunded', order);
  },
  // What its entries brought goes back to the numbers that paid (cash by hand), never elsewhere.
  before: (ctx) => takeRefund(ctx, 'all-by-mpesa'),
  after: async (ctx, updated) => {
    await ctx.money.finishRefund(ctx.refundOut);
    await ctx.placement.returnStock(updated, ctx.actor);
  },
  sms: 'refunded',
  audit: {
    action: 'booking.refund',
    text: ({ actor, order }) =>
      `${actor.fullName} had booking ${order.purchaseNumber} refunded after its batch ${order.booking?.problem === 'short' ? 'fell short' : 'failed'}: ${order.amountPaid > 0 ? `${formatMoney(order.amountPaid)} back by M-Pesa` : 'nothing was paid'}; the order is cancelled and its seedlings released`,
  },
};
