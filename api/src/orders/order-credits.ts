import { ConflictException, Injectable } from '@nestjs/common';
import { formatMoney, ORDER_RULES } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../common/principal';
import { ORDER_STEPS, type OrderStep } from './order-actions';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

/** What came of crediting a payment to an order. */
export type CreditResult =
  | { state: 'part'; order: OrderRecord }
  | { state: 'paid'; order: OrderRecord; excess: number }
  /** This transaction was credited to this order before: nothing changed. */
  | { state: 'already'; order: OrderRecord };

/** The statuses an unpaid order may take a payment in (the state table's completePayment). */
const OPEN = ORDER_RULES.completePayment.from;

/** The M-Pesa payment step, taken by the shop on its own or by staff assigning a payment. */
const PAYS_IN_FULL: OrderStep<{ amount: number; transactionCode: string; timePaid: Date }> = {
  ...ORDER_STEPS.mpesaExpressPayment,
  by: ['system', 'staff', 'admin'],
};

/** Why an order cannot take a payment, or null when it can. */
export function closedReason(order: OrderRecord): string | null {
  if (order.paymentStatus === 'Paid') return `order ${order.purchaseNumber} is already paid`;
  if (!(OPEN as readonly string[]).includes(order.orderStatus))
    return `order ${order.purchaseNumber} is ${order.orderStatus.toLowerCase()}`;
  return null;
}

/**
 * M-Pesa money credited toward an order's amount due: a paybill payment the shop matched, or one a
 * clerk assigned. Each transaction counts once on an order (its TransID is pushed in the same
 * conditional write that adds its amount). The payment that brings the credits up to the total
 * pays the order through the same step as a confirmed M-Pesa Express payment: its transaction code,
 * audit entry, SMS and e-mail. Until then the order stays `Pending` with `amountPaid` and
 * `amountOutstanding`; beyond the total, `excessPaid` is the money to give back.
 *
 * The amount due is the order's total less what was credited; a booking's deposit and balance
 * (issue 32) are meant to credit the same way, toward their own amount due.
 */
@Injectable()
export class OrderCredits {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly runner: OrdersService,
    private readonly audit: AuditService,
  ) {}

  /** Credits one M-Pesa transaction to an open unpaid order; 409 when it cannot take it. */
  async credit(
    actor: Actor,
    order: OrderRecord,
    payment: { transId: string; amount: number; timePaid: Date; how: string },
  ): Promise<CreditResult> {
    const closed = closedReason(order);
    if (closed) throw new ConflictException(`This payment cannot be credited: ${closed}`);
    const updated = await this.orders.transition(
      order._id,
      {
        paymentStatus: 'Pending',
        orderStatus: { $in: OPEN },
        'mpesaCredits.transId': { $ne: payment.transId },
      },
      {
        $inc: { amountPaid: payment.amount },
        $push: {
          mpesaCredits: { transId: payment.transId, amount: payment.amount, at: new Date() },
        },
      },
    );
    if (!updated) {
      const now = await this.orders.findById(order._id);
      if (!now) throw new ConflictException('This payment cannot be credited: no such order');
      const raw = await this.orders.hasMpesaCredit(order._id, payment.transId);
      if (raw) return { state: 'already', order: now };
      throw new ConflictException(
        `This payment cannot be credited: ${closedReason(now) ?? 'the order changed'}`,
      );
    }
    const target = { type: 'order', id: order._id, label: order.purchaseNumber };
    if (updated.amountPaid < updated.totalAmount) {
      await this.audit.record(
        actor,
        'order.payment.part',
        `${actor.fullName} credited M-Pesa payment ${payment.transId} of ${formatMoney(payment.amount)} to order ${order.purchaseNumber} (${payment.how}): part-paid, ${formatMoney(updated.amountPaid)} of ${formatMoney(updated.totalAmount)}, ${formatMoney(updated.amountOutstanding)} outstanding`,
        target,
      );
      return { state: 'part', order: updated };
    }
    const excess = updated.amountPaid - updated.totalAmount;
    await this.runner.runOn(PAYS_IN_FULL, actor, updated, {
      amount: updated.totalAmount,
      transactionCode: payment.transId,
      timePaid: payment.timePaid,
    });
    if (excess > 0)
      await this.audit.record(
        actor,
        'order.payment.excess',
        `Order ${order.purchaseNumber} was over-paid by ${formatMoney(excess)} (M-Pesa ${payment.transId}); the excess is to be refunded`,
        target,
      );
    return { state: 'paid', order: (await this.orders.findById(order._id)) ?? updated, excess };
  }

  /** Open unpaid orders placed with this phone (E.164), newest first, at most `limit`. */
  openOrdersOfPhone(e164: string, limit = 5): Promise<OrderRecord[]> {
    return this.orders.openUnpaidByPhone(e164, OPEN, limit);
  }
}
