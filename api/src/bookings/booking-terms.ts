import { Inject, Injectable } from '@nestjs/common';
import { formatMoney } from '@spc/shared-contracts';
import { addDays, shopDay } from '../common/shop-clock';
import type { Actor } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { CreditPlan, CreditTerms, TermsNews } from '../orders/order-credit-rule';
import type { OrderRecord } from '../orders/order.types';

/** Why a cancelled booking ended: unpaid, its money given back, or its balance unpaid in time. */
export type CancelEnding = 'Expired' | 'Refunded' | 'Released';

/** What a cancellation writes on a booking beyond the order's status: the state it ended in. */
export function cancelledTerms(
  order: Pick<OrderRecord, 'booking'>,
  ending: CancelEnding,
): Record<string, unknown> {
  return order.booking ? { 'booking.state': ending } : {};
}

/**
 * A booking's side of the money credited to its order (the orders' side is `CREDIT`): the state
 * and dates a credit brings it to, what a payment in full records, the deposit's news and texts.
 * An ordinary order has none of it. Provided to the orders module as its `CREDIT_TERMS`.
 */
@Injectable()
export class BookingTerms implements CreditTerms {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The deposit reached: the booking's event, audit action and text message. */
  readonly deposit: TermsNews = {
    event: 'booking.depositPaid',
    audit: 'booking.deposit',
    sms: 'deposit',
  };

  /**
   * A credit's change to the booking: paid in full, it is `Paid` (its deposit's date and receipt
   * too if not paid before); its deposit reached, `Booked`, or `Balance due` (by the shop's
   * balance days) once its batch is ready. Either way it leaves the open unpaid order caps.
   */
  change(
    order: OrderRecord,
    plan: CreditPlan,
    code: string,
    paidAt: Date,
    now: Date,
  ): { set: Record<string, unknown>; unset: Record<string, ''> } {
    const b = order.booking;
    if (!b || plan.outcome === 'part') return { set: {}, unset: {} };
    if (plan.outcome === 'paid')
      return {
        set: {
          'booking.state': 'Paid',
          'booking.balancePaidAt': paidAt,
          ...(b.depositPaidAt
            ? {}
            : { 'booking.depositPaidAt': paidAt, 'booking.depositReceipt': code }),
        },
        unset: { holdSlots: '' },
      };
    const ready = !!b.readyAt;
    const balanceDays = this.config.bookings.balanceDays;
    return {
      set: {
        'booking.state': ready ? 'Balance due' : 'Booked',
        'booking.depositPaidAt': now,
        'booking.depositReceipt': code,
        ...(ready ? { 'booking.balanceDueBy': addDays(shopDay(now), balanceDays) } : {}),
      },
      // A booking with its deposit paid no longer counts among the open unpaid orders.
      unset: { holdSlots: '' },
    };
  }

  /** What a payment that completes the order pays: the total, less a deposit paid before. */
  paidInFull(order: OrderRecord): number {
    const b = order.booking;
    return b?.depositPaidAt ? order.totalAmount - b.deposit : order.totalAmount;
  }

  /** The audit text of a credit that reached the deposit. */
  depositText(actor: Actor, order: OrderRecord, what: string, paidAfter: number): string {
    return `${actor.fullName} recorded the deposit of booking ${order.purchaseNumber}: ${what}, ${formatMoney(paidAfter)} paid of a deposit of ${formatMoney(order.booking!.deposit)}`;
  }

  /** What a part payment's audit text says of the deposit it went toward, if any. */
  towardDeposit(order: OrderRecord, plan: CreditPlan): string {
    return plan.split.deposit
      ? ` toward the deposit of ${formatMoney(order.booking!.deposit)}`
      : '';
  }

  /**
   * What follows a credit that reached a booking's deposit (alone, or by a payment in full at
   * once): the deposit's e-mail, and the balance's notices when its batch is ready.
   */
  after(
    actor: Actor,
    before: OrderRecord,
    after: OrderRecord,
    plan: CreditPlan,
  ): ReturnType<CreditTerms['after']> {
    const reached = !!before.booking && plan.split.deposit > 0 && plan.outcome !== 'part';
    if (!reached || !after.booking) return [];
    return [
      { name: 'booking.depositReached' as const, event: { actor, order: after, mail: 'deposit' } },
      ...(after.booking.state === 'Balance due'
        ? [
            {
              name: 'booking.balanceDue' as const,
              event: {
                actor,
                order: after,
                mail: 'balance-due' as const,
                sms: { event: 'balance-due' as const },
              },
            },
          ]
        : []),
    ];
  }
}
