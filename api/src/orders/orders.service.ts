import {
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { FilterQuery } from 'mongoose';
import {
  checkOrderAction,
  deliveryLine,
  formatMoney,
  NURSERY_COLLECTION,
  orderChatMessage,
  whatsappLink,
  PAGE_SIZE,
  type OrderAction,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { canonicalReceiptCode } from '../common/identifiers';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { pageRequest, totalPages } from '../common/pagination';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { customerText } from '../mail/mail-text';
import { MailService } from '../mail/mail.service';
import { smsSender } from '../sms/sms-budgets';
import { SmsService } from '../sms/sms.service';
import { UsersService } from '../users/users.service';
import type {
  CompletePaymentDto,
  CreateOrderDto,
  OrderDto,
  OrderListQueryDto,
  PlacedOrderDto,
  TrackOrderData,
  RefundDto,
  UpdateOrderDto,
} from './dto/order.dto';
import { cancelChange, FROM, ORDER_STEPS, type OrderStep, type StepContext } from './order-actions';
import { customerView } from './customer-view';
import { OrderDocumentLinks } from './order-document-links';
import { OrderMoney } from './order-money';
import { OrderPlacementService } from './order-placement.service';
import { orderListFilter } from './order-list-filter';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import type { Order } from './schemas/order.schema';

export interface OrderPage {
  orders: OrderDto[];
  totalOrders: number;
  totalPages: number;
  page: number;
}

/** Who the audit trail names for what the shop does by itself. */
export const SHOP_ACTOR: Principal = {
  id: 'shop',
  role: 'staff',
  fullName: 'The shop (automatic)',
};

/** Orders after placement: reading them, moving them through their states, and what that writes. */
@Injectable()
export class OrdersService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OrdersService.name);
  private expiryTimer?: NodeJS.Timeout;

  constructor(
    private readonly orders: OrdersRepository,
    private readonly placement: OrderPlacementService,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly money: OrderMoney,
    private readonly sms: SmsService,
    @Optional() private readonly documents?: OrderDocumentLinks,
  ) {}

  onApplicationBootstrap(): void {
    const expiry = this.config.orders.unpaidExpiryMs;
    if (!expiry) return;
    // Checked a few times per expiry period (at most every 10 minutes, at least every second).
    const every = Math.min(10 * 60_000, Math.max(1000, Math.round(expiry / 4)));
    this.expiryTimer = setInterval(() => {
      this.expireUnpaid().catch((e: Error) =>
        this.logger.error(`Cancelling unpaid orders failed: ${e.message}`),
      );
    }, every);
    this.expiryTimer.unref();
  }

  onApplicationShutdown(): void {
    if (this.expiryTimer) clearInterval(this.expiryTimer);
  }

  /**
   * Cancels orders still Pending and unpaid after UNPAID_ORDER_EXPIRY_HOURS and returns their stock:
   * orders nobody means to pay cannot hold stock for long. Staff confirm a real pay-on-delivery order
   * by moving it on from Pending, which keeps it. Safe on several instances (the change is
   * conditional on it still being Pending and unpaid). Answers how many it cancelled.
   */
  async expireUnpaid(now = new Date()): Promise<number> {
    const expiry = this.config.orders.unpaidExpiryMs;
    if (!expiry) return 0;
    const hours = +(expiry / 3_600_000).toFixed(2);
    const stale = await this.orders.unpaidPendingBefore(new Date(now.getTime() - expiry));
    let expired = 0;
    for (const order of stale) {
      const cancelled = await this.cancelReturningStock(
        order._id,
        { orderStatus: 'Pending', paymentStatus: 'Pending' },
        now,
      );
      if (!cancelled) continue;
      void this.sms.notifyOrder(cancelled, 'cancelled');
      await this.audit.record(
        SHOP_ACTOR,
        'order.expire',
        `${order.purchaseNumber} was cancelled automatically, unpaid after ${hours} hours; its stock was returned`,
        this.target(order),
      );
      expired++;
    }
    return expired;
  }

  async place(
    actor: Principal | undefined,
    dto: CreateOrderDto,
    idempotencyKey?: string,
    clientAddress?: string,
  ): Promise<{ order: PlacedOrderDto; replayed: boolean }> {
    const { order, replayed } = await this.placement.place(
      actor,
      dto,
      idempotencyKey,
      clientAddress,
    );
    if (!replayed) {
      void this.sendConfirmation(order);
      void this.sms.notifyOrder(order, 'placed', smsSender(actor?.id, clientAddress));
    }
    const [view] = await this.views([order]);
    const whatsappUrl = whatsappLink(this.config.businessWhatsapp, orderChatMessage(order));
    return { order: { ...view!, whatsappUrl }, replayed };
  }

  /** Status and dates only: no names, phones or addresses. */
  async track(purchaseNumber: string): Promise<TrackOrderData> {
    const order = await this.orders.findByPurchaseNumber(purchaseNumber);
    if (!order)
      throw new NotFoundException('Error fetching order. Please check your confirmation number.');
    return {
      purchaseNumber: order.purchaseNumber,
      orderStatus: { currentStatus: order.orderStatus },
      estimatedDeliveryDate: order.estimatedDeliveryDate,
      orderReceivedDate: order.orderDate,
      inTransitDate: order.inTransitDate,
      deliveredDate: order.deliveredDate,
    };
  }

  async list(query: OrderListQueryDto, placedBy?: string): Promise<OrderPage> {
    const { page, limit, skip } = pageRequest(query, PAGE_SIZE.orders);
    const { items, total } = await this.orders.list(orderListFilter(query, placedBy), skip, limit);
    return {
      orders: await this.views(items),
      totalOrders: total,
      totalPages: totalPages(total, limit),
      page,
    };
  }

  /**
   * Orders of one user: staff and admin see anyone's, others only their own (without the names of
   * the staff who handled them).
   */
  async listForUser(
    actor: Principal,
    userId: string,
    query: OrderListQueryDto,
  ): Promise<OrderPage> {
    if (actor.role === 'customer' && actor.id !== userId)
      throw new ForbiddenException('You can only see your own orders');
    const page = await this.list(query, userId);
    return actor.role === 'customer' ? { ...page, orders: page.orders.map(customerView) } : page;
  }

  /** One order: staff and admin any, a customer their own (without staff names), else a 404. */
  async get(actor: Principal, id: string): Promise<OrderDto> {
    const order = await this.mustFind(id);
    if (actor.role === 'customer' && order.placedBy !== actor.id)
      throw new NotFoundException('No order with this id');
    const [view] = await this.views([order]);
    return actor.role === 'customer' ? customerView(view!) : view!;
  }

  completePayment(actor: Principal, id: string, dto: CompletePaymentDto): Promise<OrderDto> {
    return this.run(ORDER_STEPS.completePayment, actor, id, dto);
  }

  /** A placed order by its confirmation number, or null (the payments module's way in). */
  findByPurchaseNumber(purchaseNumber: string): Promise<OrderRecord | null> {
    return this.orders.findByPurchaseNumber(purchaseNumber);
  }

  /**
   * Records a payment Daraja confirmed (M-Pesa Express), with no staff member involved: the same
   * state rules and amount check as Complete Payment, `actor` being the system. Recording the same
   * transaction code again changes nothing and answers `recorded: false`.
   */
  async recordMpesaExpressPayment(
    actor: Principal,
    id: string,
    payment: { amount: number; transactionCode: string; timePaid: Date },
  ): Promise<{ order: OrderDto; recorded: boolean }> {
    const order = await this.mustFind(id);
    if (
      order.paymentStatus === 'Paid' &&
      order.paymentMethod === 'Mpesa' &&
      order.paymentDetails?.transactionCode === payment.transactionCode
    )
      return { order: (await this.views([order]))[0]!, recorded: false };
    const updated = await this.apply(ORDER_STEPS.mpesaExpressPayment, actor, order, payment);
    return { order: updated, recorded: true };
  }

  /**
   * Puts M-Pesa's receipt number on an M-Pesa Express payment recorded without it (Daraja's status
   * query confirmed the payment before the callback with the receipt came). False when the order's
   * transaction code is no longer `reference`.
   */
  async attachMpesaReceipt(
    actor: Principal,
    id: string,
    payment: { reference: string; receipt: string; timePaid: Date },
  ): Promise<boolean> {
    const order = await this.mustFind(id);
    const { reference, receipt, timePaid } = payment;
    if (order.paymentMethod !== 'Mpesa' || order.paymentDetails?.transactionCode !== reference)
      return false;
    const updated = await this.orders
      .transition(
        id,
        { paymentMethod: 'Mpesa', 'paymentDetails.transactionCode': reference },
        {
          $set: {
            'paymentDetails.transactionCode': receipt,
            'paymentDetails.receiptKey': canonicalReceiptCode(receipt),
            'paymentDetails.timePaid': timePaid,
            paidAt: timePaid,
          },
        },
      )
      .catch((error: unknown) => {
        // A receipt code already on another order is not put on this one (it pays one order, ever).
        if (this.orders.isReceiptCollision(error)) return null;
        throw error;
      });
    if (!updated) return false;
    await this.audit.record(
      actor,
      'order.payment.receipt',
      `${actor.fullName} added M-Pesa receipt ${receipt} to the payment of order ${order.purchaseNumber} (recorded as ${reference})`,
      this.target(order),
    );
    return true;
  }

  /**
   * Takes a receipt number that turned out to be disputed off an M-Pesa Express payment: the order
   * goes back to the prompt's reference until the shop checks its statement. False when the order
   * no longer carries that receipt.
   */
  async withdrawMpesaReceipt(
    actor: Principal,
    id: string,
    payment: { receipt: string; reference: string },
  ): Promise<boolean> {
    const { receipt, reference } = payment;
    const updated = await this.orders.transition(
      id,
      { paymentMethod: 'Mpesa', 'paymentDetails.transactionCode': receipt },
      {
        $set: { 'paymentDetails.transactionCode': reference },
        $unset: { 'paymentDetails.receiptKey': '' },
      },
    );
    if (!updated) return false;
    await this.audit.record(
      actor,
      'order.payment.receipt',
      `${actor.fullName} took M-Pesa receipt ${receipt} off the payment of order ${updated.purchaseNumber}: M-Pesa callbacks named more than one receipt for it. It is recorded as ${reference} until the shop checks its M-Pesa statement`,
      this.target(updated),
    );
    return true;
  }

  moveInTransit(actor: Principal, id: string): Promise<OrderDto> {
    return this.run(ORDER_STEPS.inTransit, actor, id, undefined);
  }

  confirmDelivery(actor: Principal, id: string): Promise<OrderDto> {
    return this.run(ORDER_STEPS.confirmDelivery, actor, id, undefined);
  }

  fulfil(actor: Principal, id: string): Promise<OrderDto> {
    return this.run(ORDER_STEPS.fulfil, actor, id, undefined);
  }

  /** Cancels the order; a paid one only with its refund, which is recorded first. */
  cancel(actor: Principal, id: string, refund?: RefundDto): Promise<OrderDto> {
    return this.run(ORDER_STEPS.cancel, actor, id, refund);
  }

  update(actor: Principal, id: string, dto: UpdateOrderDto): Promise<OrderDto> {
    return this.run(ORDER_STEPS.update, actor, id, dto);
  }

  async remove(actor: Principal, id: string): Promise<OrderDto> {
    const order = await this.mustFind(id);
    this.assertAllowed(order, 'delete', actor);
    // A paid order is part of the sales record, cancelled (and refunded) or not.
    if (order.paymentStatus === 'Paid') {
      throw new ConflictException(
        `Order ${order.purchaseNumber} is paid; it is part of the sales record and cannot be deleted`,
      );
    }
    let current = order;
    if (order.orderStatus !== 'Cancelled') {
      const cancelled = await this.cancelReturningStock(
        id,
        { orderStatus: { $in: FROM.cancel }, paymentStatus: 'Pending' },
        new Date(),
        actor,
      );
      if (!cancelled) return this.refuse(id, 'delete', actor);
      current = cancelled;
    } else if (order.stockReturn === 'pending' || order.stockReturn === 'done') {
      await this.placement.returnStock(order);
    }
    await this.orders.delete(id);
    await this.audit.record(
      actor,
      'order.delete',
      `${actor.fullName} deleted order ${order.purchaseNumber}`,
      this.target(order),
    );
    return (await this.views([current]))[0]!;
  }

  /** Paid, not cancelled orders paid in [from, to), for the sales figures. */
  paidBetween(from: Date, to: Date) {
    return this.orders.paidBetween(from, to);
  }

  paidTotal(): Promise<number> {
    return this.orders.paidTotal();
  }

  /** The refund recorded when this order was cancelled, or null. */
  refundOf(orderId: string) {
    return this.money.refundOf(orderId);
  }

  /** Refunds recorded in [from, to), for the sales report. */
  refundedBetween(from: Date, to: Date) {
    return this.money.refundedBetween(from, to);
  }

  /**
   * Cancels the order if it still matches `guard` (one conditional update) and returns its stock;
   * null when it no longer matches. `by`: who cancels it (none for the expiry).
   */
  private async cancelReturningStock(
    id: string,
    guard: FilterQuery<Order>,
    at = new Date(),
    by?: Principal,
  ): Promise<OrderRecord | null> {
    const cancelled = await this.orders.transition(id, guard, cancelChange(at));
    if (cancelled) await this.placement.returnStock(cancelled, by);
    return cancelled;
  }

  /** Runs one declared step on the order with this id (see `OrderStep`). */
  async run<I>(step: OrderStep<I>, actor: Principal, id: string, input: I): Promise<OrderDto> {
    return this.apply(step, actor, await this.mustFind(id), input);
  }

  private async apply<I>(
    step: OrderStep<I>,
    actor: Principal,
    order: OrderRecord,
    input: I,
  ): Promise<OrderDto> {
    if (!step.roles.includes(actor.role))
      throw new ForbiddenException('You do not have permission to do this');
    const ctx: StepContext<I> = {
      order,
      actor,
      input,
      now: new Date(),
      money: this.money,
      placement: this.placement,
      receiptLink: this.documents && ((id) => this.documents!.storefrontUrl(id, 'receipt')),
    };
    step.access?.(ctx);
    this.assertAllowed(order, step.rule, actor);
    const update = await step.prepare(ctx);
    const undo = await step.before?.(ctx);
    let updated: OrderRecord | null;
    try {
      updated = await this.orders.transition(
        order._id,
        { orderStatus: { $in: FROM[step.rule] }, ...step.guard?.(ctx) },
        update,
      );
    } catch (error) {
      await undo?.();
      if (step.duplicate && isDuplicateKeyError(error)) throw await step.duplicate(ctx);
      throw error;
    }
    if (!updated) {
      await undo?.();
      return this.refuse(order._id, step.rule, actor);
    }
    await step.after?.(ctx, updated);
    await this.audit.record(actor, step.audit.action, step.audit.text(ctx), this.target(order));
    const mail = step.mail?.(ctx, updated);
    if (mail && !(await this.mail.send(mail)))
      this.logger.warn(`The ${step.audit.action} e-mail for ${order.purchaseNumber} was not sent`);
    // A customer's own step (cancelling) counts against what they may cause; staff steps do not.
    if (step.sms)
      void this.sms.notifyOrder(
        updated,
        step.sms,
        actor.role === 'customer' ? smsSender(actor.id) : undefined,
      );
    return (await this.views([updated]))[0]!;
  }

  /** The order changed under us (another clerk acted first): answer with its current state's reason. */
  private async refuse(id: string, action: OrderAction, actor?: Principal): Promise<never> {
    const now = await this.mustFind(id);
    const check = checkOrderAction(now, action, actor?.role);
    throw new ConflictException(
      check.allowed
        ? {
            message: 'The order changed while you were working on it; please reload and try again',
            code: 'CONFLICT',
          }
        : { message: check.reason, code: check.code },
    );
  }

  private assertAllowed(order: OrderRecord, action: OrderAction, actor?: Principal): void {
    const check = checkOrderAction(order, action, actor?.role);
    if (!check.allowed) throw new ConflictException({ message: check.reason, code: check.code });
  }

  private async mustFind(id: string): Promise<OrderRecord> {
    const order = await this.orders.findById(id);
    if (!order) throw new NotFoundException('No order with this id');
    return order;
  }

  private target(order: OrderRecord) {
    return { type: 'order', id: order._id, label: order.purchaseNumber };
  }

  /** Joins the placer's name and e-mail in, one query for the whole page. */
  private async views(records: OrderRecord[]): Promise<OrderDto[]> {
    const ids = [...new Set(records.map((r) => r.placedBy).filter((id): id is string => !!id))];
    const people = new Map((await this.users.findManyByIds(ids)).map((u) => [u._id, u]));
    return records.map(
      ({ placement: _p, ledgerSettled: _l, stockReturn: _s, placedBy, ...rest }) => {
        const person = placedBy ? people.get(placedBy) : undefined;
        return {
          ...rest,
          placedBy: person
            ? { _id: person._id, fullName: person.fullName, email: person.email }
            : null,
          customerName: person?.fullName ?? rest.guestInfo.fullName,
        };
      },
    );
  }

  /** The confirmation e-mail. What the customer typed is quoted as plain text, never as a link. */
  private async sendConfirmation(order: OrderRecord): Promise<void> {
    const link = `${this.config.storefrontUrl}/track-orders?purchaseNumber=${order.purchaseNumber}`;
    const g = order.guestInfo;
    const address = [g.streetAddress, g.ward, g.subCounty, g.county].filter(Boolean).join(', ');
    const text = [
      `Hello ${customerText(g.fullName, 80)},`,
      '',
      `Thank you for your order ${order.purchaseNumber} with the Seedling Propagation Centre.`,
      '',
      ...order.products.map(
        (l) =>
          `  ${l.productName} x ${l.quantity} @ ${formatMoney(l.unitPrice)} = ${formatMoney(l.lineTotal)}`,
      ),
      '',
      `Subtotal: ${formatMoney(order.subtotal)}`,
      deliveryLine(order.delivery, order.shippingFee),
      `Total: ${formatMoney(order.totalAmount)}`,
      '',
      ...(order.delivery.method === 'collection'
        ? [
            `Collect at: ${NURSERY_COLLECTION.address} (${NURSERY_COLLECTION.openingHours})`,
            `Phone: ${customerText(g.phoneNumber, 20)}`,
            `Ready to collect from: ${order.estimatedDeliveryDate.slice(0, 10)}`,
          ]
        : [
            `Delivery to: "${customerText(address, 300)}"`,
            `Phone: ${customerText(g.phoneNumber, 20)}`,
            `Estimated delivery: ${order.estimatedDeliveryDate.slice(0, 10)}`,
          ]),
      '',
      `Track your order: ${link}`,
      '',
      'Seedling Propagation Centre, Kiambu',
    ].join('\n');
    const sent = await this.mail.send({
      to: g.email,
      subject: `Your order ${order.purchaseNumber}`,
      text,
      link,
    });
    if (!sent) this.logger.warn(`Order confirmation for ${order.purchaseNumber} was not sent`);
  }
}
