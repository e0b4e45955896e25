import { Injectable } from '@nestjs/common';
import { OrderMoney } from './order-money';
import { BookingsRepository } from '../bookings/bookings.repository';
import { OrderSalesRepository } from './order-sales.repository';

/** What the sales figures read of the orders: paid orders and recorded refunds. */
@Injectable()
export class OrderSales {
  constructor(
    private readonly orders: OrderSalesRepository,
    private readonly bookings: BookingsRepository,
    private readonly money: OrderMoney,
  ) {}

  /** Paid, not cancelled orders paid in [from, to), for the sales figures. */
  paidBetween(from: Date, to: Date) {
    return this.orders.paidBetween(from, to);
  }

  /** When the first paid order was paid, or null (where the sales rollup starts). */
  firstPaidAt() {
    return this.orders.firstPaidAt();
  }

  /** When the first booking deposit came, or null (a deposit comes before its order is paid). */
  firstBookingPaymentAt() {
    return this.bookings.firstDepositAt();
  }

  /** Orders written since `since`, with when each was paid, in full or in part (the sales rollup's changes). */
  changedSince(since: Date) {
    return this.orders.changedSince(since);
  }

  /** The refund recorded when this order was cancelled, or null. */
  refundOf(orderId: string) {
    return this.money.refundOf(orderId);
  }

  /** Refunds recorded in [from, to), for the sales report. */
  refundTotalsBetween(from: Date, to: Date) {
    return this.money.refundTotalsBetween(from, to);
  }

  /** Booking deposits and balances received in [from, to), each with its order and instant. */
  bookingPaymentsBetween(from: Date, to: Date) {
    return this.bookings.bookingPaymentsBetween(from, to);
  }

  /**
   * Bookings whose balance is due by `lastDay` (seven days after today: balancesDueBy) or overdue, still unpaid: how
   * many and the KES still due.
   */
  async balancesDueBy(lastDay: string): Promise<{ count: number; amount: number }> {
    const { items, total } = await this.bookings.bookingsIn('Balance due', 'Pending', {
      dueBy: lastDay,
      limit: 1000,
    });
    return { count: total, amount: items.reduce((n, o) => n + o.amountDueNow, 0) };
  }
}
