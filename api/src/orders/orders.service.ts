import {
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { orderChatMessage, whatsappLink, PAGE_SIZE, type OrderAction } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { DomainEvents } from '../common/events/domain-events';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { gateSaleReason } from './order-credit-rule';
import { pageRequest, totalPages } from '../common/pagination';
import type { Actor, Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { MailLogRepository } from '../mail/mail-log.repository';
import { MailQueue } from '../mail/mail-queue.service';
import { smsSender } from '../sms/sms-budgets';
import { UsersService } from '../users/users.service';
import type { CreateOrderDto, OrderListQueryDto, RefundDto, UpdateOrderDto } from './dto/order.dto';
import { SHOP_ACTOR } from './shop-actor';
import { trackedBooking } from '../bookings/booking-tracking';
import type { OrderDto, PlacedOrderDto, TrackOrderData } from './dto/order-view.dto';
import type { OrderDetailOrderDto } from './dto/order-detail.dto';
import { ORDER_STEPS, type OrderStep, type StepContext } from './order-actions';
import { customerView } from './customer-view';
import { OrderMoney } from './order-money';
import { OrderPlacementService } from './order-placement.service';
import { orderListFilter } from './order-list-filter';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import {
  assertStepAllowed,
  bookingChanged,
  invokeWrites,
  orderChanged,
  stepAnnouncement,
  stepActors,
  stepStart,
} from './order-step-rules';
import { OrderLists } from './order-lists';
import { OrderLpoScans } from './order-lpo-scans';

/** The expiry loop (`OrderExpiry`), named by token: it runs its step through this runner. */
export const ORDER_EXPIRY = 'ORDER_EXPIRY';
interface OrderExpiryLoop {
  expireUnpaid(now: Date): Promise<number>;
}

export interface OrderPage {
  orders: OrderDto[];
  totalOrders: number;
  /** True when more orders match than `totalOrders` (a search counted up to its bound). */
  totalIsLowerBound: boolean;
  totalPages: number;
  page: number;
}

/**
 * Orders after placement: reading them, and the runner that moves them through their states (each
 * move a declared step of `ORDER_STEPS`, each step audited, mailed and texted the same way).
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly lists: OrderLists,
    private readonly placement: OrderPlacementService,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly money: OrderMoney,
    private readonly modules: ModuleRef,
    /** The e-mails recorded and queued for an order: a deleted order takes them along (issue 39). */
    private readonly mailLog: MailLogRepository,
    private readonly mailQueue: MailQueue,
    private readonly events: DomainEvents,
    private readonly lpoScans: OrderLpoScans,
  ) {}

  /** Cancels unpaid orders past their time (the callers of old; the loop is `OrderExpiry`). */
  expireUnpaid(now = new Date()): Promise<number> {
    return this.modules.get<OrderExpiryLoop>(ORDER_EXPIRY).expireUnpaid(now);
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
    // Not for an account deleted as it was placed (the erasure took the order's contacts; its
    // mail and text would name the person again).
    const closed = !!order.placedBy && (await this.users.isClosed(order.placedBy));
    if (closed && !replayed) {
      // Placed as its account was deleted: the shop cancels it, its stock back.
      await this.run(ORDER_STEPS.accountClosed, SHOP_ACTOR, order._id, undefined).catch(
        () => undefined,
      );
      throw new UnauthorizedException('This account was deleted');
    }
    if (!replayed)
      this.events.emitInBackground('order.placed', {
        actor: actor ?? SHOP_ACTOR,
        order,
        mail: 'confirmation',
        sms: { event: 'placed', sender: smsSender(actor?.id, clientAddress) },
      });
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
      booking: trackedBooking(order),
    };
  }

  async list(query: OrderListQueryDto, placedBy?: string): Promise<OrderPage> {
    const { page, limit, skip } = pageRequest(query, PAGE_SIZE.orders);
    const { items, total, totalIsLowerBound } = await this.lists.page(
      orderListFilter(query, placedBy),
      skip,
      limit,
    );
    return {
      orders: await this.views(items),
      totalOrders: total,
      totalIsLowerBound,
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
  async get(actor: Actor, id: string): Promise<OrderDto> {
    const { view } = await this.readable(actor, id);
    return view;
  }

  /** One order as its detail shows it (`get`), with the buyer's KRA PIN (issue 45). */
  async getDetail(actor: Actor, id: string): Promise<OrderDetailOrderDto> {
    const { order, view } = await this.readable(actor, id);
    return { ...view, kraPin: order.kraPin };
  }

  private async readable(
    actor: Actor,
    id: string,
  ): Promise<{ order: OrderRecord; view: OrderDto }> {
    const order = await this.mustFind(id);
    if (actor.role === 'customer' && order.placedBy !== actor.id)
      throw new NotFoundException('No order with this id');
    const [view] = await this.views([order]);
    return { order, view: actor.role === 'customer' ? customerView(view!) : view! };
  }

  /** A placed order by its id, or null (the payments module's way in). */
  findAnyOrder(id: string): Promise<OrderRecord | null> {
    return this.orders.findById(id);
  }

  /** A placed order by its confirmation number, or null (the payments module's way in). */
  findByPurchaseNumber(purchaseNumber: string): Promise<OrderRecord | null> {
    return this.orders.findByPurchaseNumber(purchaseNumber);
  }

  /**
   * Puts M-Pesa's receipt number on an M-Pesa Express payment recorded without it (Daraja's status
   * query confirmed the payment before the callback with the receipt came). False when the order's
   * transaction code is no longer `reference`.
   */
  async attachMpesaReceipt(
    actor: Actor,
    id: string,
    payment: { reference: string; receipt: string; timePaid: Date },
  ): Promise<boolean> {
    const order = await this.mustFind(id);
    const { reference, receipt, timePaid } = payment;
    if (order.paymentMethod !== 'Mpesa' || order.paymentDetails?.transactionCode !== reference)
      return false;
    const updated = await this.orders.transition(
      id,
      { paymentMethod: 'Mpesa', 'paymentDetails.transactionCode': reference },
      {
        $set: {
          'paymentDetails.transactionCode': receipt,
          'paymentDetails.timePaid': timePaid,
          paidAt: timePaid,
        },
      },
    );
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
    actor: Actor,
    id: string,
    payment: { receipt: string; reference: string },
  ): Promise<boolean> {
    const { receipt, reference } = payment;
    const updated = await this.orders.transition(
      id,
      { paymentMethod: 'Mpesa', 'paymentDetails.transactionCode': receipt },
      {
        $set: { 'paymentDetails.transactionCode': reference },
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
    return this.runOnWebOrder(ORDER_STEPS.inTransit, actor, id, undefined);
  }

  confirmDelivery(actor: Principal, id: string): Promise<OrderDto> {
    return this.runOnWebOrder(ORDER_STEPS.confirmDelivery, actor, id, undefined);
  }

  fulfil(actor: Principal, id: string): Promise<OrderDto> {
    return this.runOnWebOrder(ORDER_STEPS.fulfil, actor, id, undefined);
  }

  /** Cancels the order; a paid one only with its refund, which is recorded first. */
  cancel(actor: Principal, id: string, refund?: RefundDto): Promise<OrderDto> {
    return this.runOnWebOrder(ORDER_STEPS.cancel, actor, id, refund);
  }

  update(actor: Principal, id: string, dto: UpdateOrderDto): Promise<OrderDto> {
    return this.runOnWebOrder(ORDER_STEPS.update, actor, id, dto);
  }

  /** Deletes a cancelled or an unpaid pending/processing order (cancelled first). */
  remove(actor: Principal, id: string): Promise<OrderDto> {
    return this.runOnWebOrder(ORDER_STEPS.delete, actor, id, undefined);
  }

  /**
   * A step staff or a customer take from the order routes: refused (409) on a gate sale, which is
   * changed at the till only (its own steps run through `apply`). An order's channel never changes,
   * so the order read here decides.
   */
  private async runOnWebOrder<I>(
    step: OrderStep<I>,
    actor: Actor,
    id: string,
    input: I,
  ): Promise<OrderDto> {
    const order = await this.mustFind(id);
    const gate = gateSaleReason(order);
    if (gate) throw new ConflictException({ message: gate, code: 'ILLEGAL_TRANSITION' });
    return this.runOn(step, actor, order, input);
  }

  /** Runs one declared step on the order with this id (see `OrderStep`). */
  async run<I>(step: OrderStep<I>, actor: Actor, id: string, input: I): Promise<OrderDto> {
    return this.runOn(step, actor, await this.mustFind(id), input);
  }

  /** Runs one declared step on an order already read. */
  async runOn<I>(
    step: OrderStep<I>,
    actor: Actor,
    order: OrderRecord,
    input: I,
  ): Promise<OrderDto> {
    return (await this.views([await this.apply(step, actor, order, input)]))[0]!;
  }

  /** Runs one declared step on an order already read; answers the order as the step wrote it. */
  async apply<I>(
    step: OrderStep<I>,
    actor: Actor,
    order: OrderRecord,
    input: I,
  ): Promise<OrderRecord> {
    if (!stepActors(step).includes(actor.role))
      throw new ForbiddenException('You do not have permission to do this');
    const ctx: StepContext<I> = {
      order,
      actor,
      input,
      now: new Date(),
      money: this.money,
      placement: this.placement,
      orders: this.orders,
      forgetMail: async (orderId) => {
        // The queue first, as an erasure does (a message sent meanwhile takes back its log record).
        await this.mailQueue.forget({ orderIds: [orderId] });
        await this.mailLog.eraseFor({ orderIds: [orderId] });
      },
    };
    step.access?.(ctx);
    assertStepAllowed(step, ctx);
    const update = await step.prepare(ctx);
    const undoBefore = await step.before?.(ctx);
    const undoWrites = await invokeWrites(step.writes, ctx).catch(async (error: unknown) => {
      await undoBefore?.();
      throw error;
    });
    const undo = async () => {
      await undoWrites();
      await undoBefore?.();
    };
    // A refund taken for the step is named in its write: the step and its refund happen together.
    if (ctx.refundOut?.length)
      update.$set = { ...(update.$set as object), refundOut: ctx.refundOut };
    let updated: OrderRecord | null;
    try {
      updated = await this.orders.transition(
        order._id,
        { ...stepStart(step, actor), ...step.guard?.(ctx) },
        update,
      );
    } catch (error) {
      await undo();
      if (step.duplicate && isDuplicateKeyError(error)) throw await step.duplicate(ctx);
      throw error;
    }
    if (!updated) {
      await undo();
      if (typeof step.rule !== 'string') throw bookingChanged();
      return this.refuse(order._id, step.rule, actor);
    }
    await step.after?.(ctx, updated);
    // What follows (the audit entry, the e-mail, the text message) subscribes to the step's event.
    const event = typeof step.event === 'function' ? step.event(ctx, updated) : step.event;
    await this.events.emit(event, stepAnnouncement(step, ctx, updated));
    return updated;
  }

  /** The order changed under us (another clerk acted first): answer with its current state's reason. */
  private async refuse(id: string, action: OrderAction, actor?: Actor): Promise<never> {
    throw orderChanged(await this.mustFind(id), action, actor);
  }

  private async mustFind(id: string): Promise<OrderRecord> {
    const order = await this.orders.findById(id);
    if (!order) throw new NotFoundException('No order with this id');
    return order;
  }

  private target(order: OrderRecord) {
    return { type: 'order', id: order._id, label: order.purchaseNumber };
  }

  /**
   * Records as the back office shows them (the customer's name from their account; on an order
   * from a quotation, whether its scanned LPO is attached).
   */
  async views(records: OrderRecord[]): Promise<OrderDto[]> {
    const ids = [...new Set(records.map((r) => r.placedBy).filter((id): id is string => !!id))];
    const [people, scans] = await Promise.all([
      this.users.findManyByIds(ids).then((found) => new Map(found.map((u) => [u._id, u]))),
      this.lpoScans.aboutOrders(records.filter((r) => r.quotation).map((r) => r._id)),
    ]);
    return records.map(
      ({
        placement: _p,
        ledgerSettled: _l,
        stockReturn: _s,
        credited: _c,
        refundOut: _r,
        // The buyer's PIN is the order detail's alone (`getDetail`), not the lists' or the exports'.
        kraPin: _k,
        // A gate sale's till record is the till's own views' (who sold it, voids, approvers).
        till: _t,
        placedBy,
        quotation,
        ...rest
      }) => {
        const person = placedBy ? people.get(placedBy) : undefined;
        return {
          ...rest,
          ...(quotation && { quotation: { ...quotation, lpoScan: scans.get(rest._id) ?? null } }),
          placedBy: person
            ? { _id: person._id, fullName: person.fullName, email: person.email }
            : null,
          customerName: person?.fullName ?? rest.guestInfo.fullName,
        };
      },
    );
  }
}
