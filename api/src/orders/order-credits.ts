import { ConflictException, Inject, Injectable, Logger } from '@nestjs/common';
import { formatMoney, ORDER_RULES } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { MailService } from '../mail/mail.service';
import { addDays, shopDay } from '../reports/shop-time';
import { SmsService } from '../sms/sms.service';
import { ORDER_STEPS, type OrderStep } from './order-actions';
import { bookingClosedReason, PAYABLE_BOOKING_STATES } from './order-booking';
import { balanceDueMail, depositMail } from './order-booking-mail';
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
  return bookingClosedReason(order);
}

/**
 * M-Pesa money credited toward an order's amount due: a paybill payment the shop matched, or one a
 * clerk assigned. Each transaction counts once on an order (its TransID is pushed in the same
 * conditional write that adds its amount). The payment that brings the credits up to the total
 * pays the order through the same step as a confirmed M-Pesa Express payment: its transaction code,
 * audit entry, SMS and e-mail. Until then the order stays `Pending` with `amountPaid` and
 * `amountOutstanding`; beyond the total, `excessPaid` is the money to give back.
 *
 * On a booking the money counts toward the deposit first: the credit that reaches it books the
 * order (`Booked`: audited, SMS and e-mail "deposit received"), then toward the balance, and the
 * credit that reaches the total pays it through the same paid step as any order.
 */
@Injectable()
export class OrderCredits {
  private readonly logger = new Logger(OrderCredits.name);

  constructor(
    private readonly orders: OrdersRepository,
    private readonly runner: OrdersService,
    private readonly audit: AuditService,
    private readonly sms: SmsService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
        ...(order.booking ? { 'booking.state': { $in: PAYABLE_BOOKING_STATES } } : {}),
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
    const depositBefore = !!order.booking?.depositPaidAt;
    const current = (await this.depositReached(actor, updated, payment.transId)) ?? updated;
    if (current.amountPaid < current.totalAmount) {
      const toward =
        order.booking?.state === 'Deposit due' && current.booking?.state === 'Deposit due'
          ? ` toward the deposit of ${formatMoney(current.booking.deposit)}`
          : '';
      await this.audit.record(
        actor,
        'order.payment.part',
        `${actor.fullName} credited M-Pesa payment ${payment.transId} of ${formatMoney(payment.amount)} to order ${order.purchaseNumber} (${payment.how})${toward}: part-paid, ${formatMoney(current.amountPaid)} of ${formatMoney(current.totalAmount)}, ${formatMoney(current.amountOutstanding)} outstanding`,
        target,
      );
      return { state: 'part', order: current };
    }
    const excess = current.amountPaid - current.totalAmount;
    // A booking's payment in full is its balance when the deposit was paid before.
    const amount =
      current.booking && depositBefore
        ? current.totalAmount - current.booking.deposit
        : current.totalAmount;
    await this.runner.runOn(PAYS_IN_FULL, actor, current, {
      amount,
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

  /**
   * A booking whose credits reach its deposit is booked, once (the write is conditional on it
   * still being `Deposit due`): audited, the customer told by SMS and e-mail. Its batch already
   * ready, it goes straight to `Balance due`. Answers the order as it is then, or null when it was
   * no booking with its deposit reached.
   */
  async depositReached(
    actor: Actor,
    order: OrderRecord,
    receipt: string,
  ): Promise<OrderRecord | null> {
    const b = order.booking;
    if (!b || b.state !== 'Deposit due' || order.amountPaid < b.deposit) return null;
    const now = new Date();
    const ready = !!b.readyAt;
    const balanceDueBy = ready ? addDays(shopDay(now), this.config.bookings.balanceDays) : null;
    const booked = await this.orders.transition(
      order._id,
      { 'booking.state': 'Deposit due', paymentStatus: 'Pending', orderStatus: { $in: OPEN } },
      {
        $set: {
          'booking.state': ready ? 'Balance due' : 'Booked',
          'booking.depositPaidAt': now,
          'booking.depositReceipt': receipt,
          ...(balanceDueBy ? { 'booking.balanceDueBy': balanceDueBy } : {}),
        },
        // A booking with its deposit paid no longer counts among the open unpaid orders.
        $unset: { holdSlots: '' },
      },
    );
    if (!booked) return this.orders.findById(order._id);
    await this.audit.record(
      actor,
      'booking.deposit',
      `${actor.fullName} recorded the deposit of booking ${order.purchaseNumber}: ${formatMoney(order.amountPaid)} paid (${receipt}) of a deposit of ${formatMoney(b.deposit)}; ${booked.booking!.state === 'Balance due' ? `its batch is ready, the balance is due by ${balanceDueBy}` : `booked for ${b.readyOn}`}`,
      { type: 'order', id: order._id, label: order.purchaseNumber },
    );
    void this.sms.notifyOrder(booked, 'deposit');
    await this.send(depositMail(booked, this.config.storefrontUrl), booked);
    if (booked.booking!.state === 'Balance due') {
      void this.sms.notifyOrder(booked, 'balance-due');
      await this.send(
        balanceDueMail(booked, this.config.storefrontUrl, this.config.mpesa?.shortcode),
        booked,
      );
    }
    return booked;
  }

  /**
   * Bookings whose credits reached the deposit but were never booked (a crash between the two
   * writes): booked now. Answers how many.
   */
  async finishDeposits(actor: Actor): Promise<number> {
    let done = 0;
    for (const order of await this.orders.depositsToConfirm()) {
      if (await this.depositReached(actor, order, order.booking?.depositReceipt ?? 'credits'))
        done++;
    }
    return done;
  }

  private async send(mail: ReturnType<typeof depositMail>, order: OrderRecord): Promise<void> {
    if (mail && !(await this.mail.send(mail)))
      this.logger.warn(`A booking e-mail for ${order.purchaseNumber} was not sent`);
  }

  /** Open unpaid orders placed with this phone (E.164), newest first, at most `limit`. */
  openOrdersOfPhone(e164: string, limit = 5): Promise<OrderRecord[]> {
    return this.orders.openUnpaidByPhone(e164, OPEN, limit);
  }
}
