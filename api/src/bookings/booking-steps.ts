import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { formatMoney } from '@spc/shared-contracts';
import { cancelChange, type OrderStep } from '../orders/order-actions';
import type { OrderRecord } from '../orders/order.types';

/** How a booking's money goes back: by M-Pesa (a reversal or B2C, sent by the payments module). */
export function bookingRefund(order: OrderRecord) {
  return { method: 'Mpesa' as const, amount: order.amountPaid, send: true };
}

/**
 * A balance unpaid after its day: the booking is released (the order cancelled, its seedlings back
 * into ready stock from the batch), its deposit kept or refunded as the shop's policy says, the
 * decision recorded on the order and in the audit.
 */
export const RELEASE_BOOKING: OrderStep<{ decision: 'kept' | 'refunded' }> = {
  rule: 'cancel',
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
  before: ({ order, input, actor, money }) =>
    input.decision === 'refunded' && order.amountPaid > 0
      ? money.recordRefundForCancel(order, bookingRefund(order), actor)
      : Promise.resolve(null),
  after: ({ placement }, updated) => placement.returnStock(updated),
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
  access: ({ order, actor }) => {
    if (actor.role === 'customer' && order.placedBy !== actor.id)
      throw new NotFoundException('No order with this id');
    if (!order.booking) throw new BadRequestException('This order is not a booking');
  },
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
  before: ({ order, actor, money }) =>
    order.amountPaid > 0
      ? money.recordRefundForCancel(order, bookingRefund(order), actor)
      : Promise.resolve(null),
  after: ({ placement, actor }, updated) => placement.returnStock(updated, actor),
  sms: 'refunded',
  audit: {
    action: 'booking.refund',
    text: ({ actor, order }) =>
      `${actor.fullName} had booking ${order.purchaseNumber} refunded after its batch ${order.booking?.problem === 'short' ? 'fell short' : 'failed'}: ${order.amountPaid > 0 ? `${formatMoney(order.amountPaid)} back by M-Pesa` : 'nothing was paid'}; the order is cancelled and its seedlings released`,
  },
};
