import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  NotFoundException,
} from '@nestjs/common';
import type { FilterQuery, UpdateQuery } from 'mongoose';
import {
  formatMoney,
  ORDER_RULES,
  type ActorKind,
  type BookingAction,
  type OrderAction,
  type OrderSmsEvent,
} from '@spc/shared-contracts';
import { cancelledTerms, type CancelEnding } from '../bookings/booking-terms';
import type { Actor } from '../common/principal';
import type { RefundDto, UpdateOrderDto } from './dto/order.dto';
import type { OrderEventName } from './order-events';
import type { OrderMail } from './order-mails';
import type { CancelRefund, OrderMoney } from './order-money';
import type { OrderPlacementService } from './order-placement.service';
import type { OrderRecord } from './order.types';
import type { StepWrite } from './order-step-rules';
import type { OrdersRepository } from './orders.repository';
import { contactKeysOf } from './order-contact-keys';
import { refuseWholeOrderStep, wholeOrderGuard } from './order-tranche-steps';
import type { Order } from './schemas/order.schema';

/** What every hook of a step sees: the order as read, who acts, what they sent, and when. */
export interface StepContext<I> {
  order: OrderRecord;
  actor: Actor;
  input: I;
  now: Date;
  money: OrderMoney;
  placement: OrderPlacementService;
  orders: OrdersRepository;
  /** The new delivery terms an address change worked out (for its audit entry). */
  requoted?: { shippingFee: number; totalAmount: number; zoneName: string };
  /** The money-ledger entries a cancellation's refund took, recorded once the step happened. */
  refundOut?: string[];
  /**
   * Forgets the e-mails recorded and queued for an order that is deleted (they name its person;
   * issue 39).
   */
  forgetMail?: (orderId: string) => Promise<unknown>;
}

/**
 * One thing staff, a customer or the shop itself do to an order, declared once. The runner
 * (`OrdersService.run`) reads the order, checks who may act (`ORDER_RULES` in shared-contracts,
 * narrowed by `by`), `access` and the state machine's `rule` for the actor, lets `prepare` refuse with a 4xx and build the change, runs `before` (what must
 * be written first) and `writes`, applies the change in one conditional update (the order must
 * still be in one of the rule's starting statuses and match `guard`), runs `after`, then
 * announces its event (the audit entry, the mail, the text). When the conditional update matches
 * nothing the order changed under us: `writes` and `before` are taken back, last first, and the
 * answer is the reason for the order's current state.
 */
export interface OrderStep<I = void> {
  /**
   * The state-machine rule (`ORDER_RULES`), which gives the starting statuses and who may act; or,
   * for a step of a booking's own life that leaves the order's status alone (its batch ready, a
   * move), the booking action of `BOOKING_RULES`, whose states it starts from and who takes it.
   */
  rule: OrderAction | { booking: BookingAction };
  /** The 409's words when the booking's state does not take the step (`rule: { booking }`). */
  refusal?: (ctx: StepContext<I>) => string;
  /** Fewer actors than the rule allows, if so (the controller enforces it too). */
  by?: readonly ActorKind[];
  /** Runs before the state rule: may this actor see the order at all (throws a 4xx if not). */
  access?: (ctx: StepContext<I>) => void;
  /** More conditions the order must still meet when it is changed (may narrow the statuses). */
  guard?: (ctx: StepContext<I>) => FilterQuery<Order>;
  /** Extra checks (throwing a 4xx changes nothing) and the change itself. */
  prepare: (ctx: StepContext<I>) => UpdateQuery<Order> | Promise<UpdateQuery<Order>>;
  /**
   * Writes what must be in place before the change (e.g. a refund), after `prepare`; answers how
   * to take it back if the conditional update then matches nothing.
   */
  before?: (ctx: StepContext<I>) => Promise<(() => Promise<void>) | null | undefined>;
  /**
   * Writes to other records the change needs, in order, after `before`, each with its undo: when
   * one fails or the change matches nothing, those done are undone, last first.
   */
  writes?: readonly StepWrite<I>[];
  /**
   * The 4xx to answer when the change breaks a unique index (a receipt code another order took
   * between `prepare`'s check and the write); without it such an error is a server error.
   */
  duplicate?: (ctx: StepContext<I>) => Promise<Error>;
  /** Work that follows the change, before the audit entry (e.g. returning stock). */
  after?: (ctx: StepContext<I>, updated: OrderRecord) => Promise<void>;
  /**
   * The domain event that announces the step once it happened (`order.cancelled`): the audit
   * trail, the e-mail queue and the SMS sender subscribe to it (`order-follow-ups.ts`).
   */
  event: OrderEventName | ((ctx: StepContext<I>, updated: OrderRecord) => OrderEventName);
  /** The audit entry the event asks for: its action name and its text. */
  audit: {
    action: string | ((ctx: StepContext<I>) => string);
    text: (ctx: StepContext<I>) => string;
  };
  /** The customer's e-mail once the change is made, if any (sent at most once per order and event). */
  mail?: (ctx: StepContext<I>, updated: OrderRecord) => OrderMail | undefined;
  /** The customer's text message once the change is made (sent at most once per order and event). */
  sms?: OrderSmsEvent | ((ctx: StepContext<I>) => OrderSmsEvent | undefined);
  /** Its text is the shop's news, whoever asked: it counts against no customer's SMS budget. */
  shopText?: boolean;
}

/**
 * The change that cancels an order and marks its stock to be returned; `ending` says why its
 * terms ended (`Expired` unpaid, `Refunded` with its money given back, `Released`), written where
 * the order has such terms (`cancelledTerms`).
 */
export const cancelChange = (
  at: Date,
  ending?: CancelEnding,
  order?: OrderRecord,
): UpdateQuery<Order> => ({
  $set: {
    orderStatus: 'Cancelled',
    cancelledDate: at,
    stockReturn: 'pending',
    ...(order && ending ? cancelledTerms(order, ending) : {}),
  },
});

/**
 * A step's `before` for giving an order's money back: takes the refund from the money ledger
 * (kept on the context, recorded in `after` by `money.finishRefund`) and answers its undo.
 */
export async function takeRefund<I>(
  ctx: StepContext<I>,
  refund: CancelRefund,
): Promise<(() => Promise<void>) | null> {
  const taken = await ctx.money.recordRefundForCancel(ctx.order, refund, ctx.actor);
  if (!taken) return null;
  ctx.refundOut = taken.out;
  return taken.undo;
}

export const ORDER_STEPS = {
  inTransit: {
    rule: 'inTransit',
    event: 'order.inTransit',
    // What holds its lines says whether it may go out now (seedlings on a batch: paid, the batch
    // ready); what they still hold then leaves as a sale.
    guard: ({ order, placement }) => ({
      ...placement.stock.dispatchGuard(order),
      // An order delivered in tranches goes out tranche by tranche (its stock would move twice).
      ...wholeOrderGuard('inTransit'),
    }),
    prepare: async ({ order, placement, now }) => {
      refuseWholeOrderStep(order, 'inTransit');
      await placement.stock.checkDispatch(order);
      return { $set: { orderStatus: 'InTransit', inTransitDate: now } };
    },
    after: async ({ placement, actor }, updated) => {
      await placement.stock.handOver(updated, actor);
    },
    sms: 'sent',
    audit: {
      action: 'order.inTransit',
      text: ({ actor, order }) =>
        `${actor.fullName} marked order ${order.purchaseNumber} in transit`,
    },
  } satisfies OrderStep,

  confirmDelivery: {
    rule: 'confirmDelivery',
    event: 'order.delivered',
    guard: () => wholeOrderGuard('confirmDelivery'),
    prepare: ({ order, now }) => {
      refuseWholeOrderStep(order, 'confirmDelivery');
      return { $set: { orderStatus: 'Delivered', deliveredDate: now } };
    },
    sms: 'delivered',
    audit: {
      action: 'order.delivered',
      text: ({ actor, order }) =>
        `${actor.fullName} confirmed delivery of order ${order.purchaseNumber}`,
    },
  } satisfies OrderStep,

  fulfil: {
    rule: 'fulfil',
    event: 'order.fulfilled',
    guard: () => ({ paymentStatus: 'Paid', ...wholeOrderGuard('fulfil') }),
    // Fulfilling an order still in transit also delivers it (its one "delivered" message).
    sms: 'delivered',
    prepare: ({ order, now }) => {
      refuseWholeOrderStep(order, 'fulfil');
      return {
        $set: {
          orderStatus: 'Completed',
          fulfillmentStatus: 'Fulfilled',
          deliveredDate: order.deliveredDate ? new Date(order.deliveredDate) : now,
        },
      };
    },
    audit: {
      action: 'order.fulfil',
      text: ({ actor, order }) => `${actor.fullName} fulfilled order ${order.purchaseNumber}`,
    },
  } satisfies OrderStep,

  /**
   * A clerk corrects the delivery details. The fee follows the new place (the order's total with
   * it); a paid order keeps its total, so a new place that costs another fee is refused: cancel it
   * with a refund and place it again, or choose a place in the same zone.
   */
  update: {
    rule: 'update',
    event: 'order.updated',
    // The fee was worked out from the order as read: it must still be unpaid (or paid) and priced so.
    guard: ({ order }) => ({
      paymentStatus: order.paymentStatus,
      amountPaid: order.amountPaid > 0 ? order.amountPaid : { $not: { $gt: 0 } },
      shippingFee: order.shippingFee,
      totalAmount: order.totalAmount,
    }),
    prepare: async (ctx) => {
      const { order, input: dto, placement } = ctx;
      const quote = await placement.requote(order, dto.guestInfo);
      // Money received was for this total: a part-paid order keeps it as a paid one does.
      if (
        (order.paymentStatus === 'Paid' || order.amountPaid > 0) &&
        quote.fee !== order.shippingFee
      ) {
        throw new ConflictException({
          message: `Order ${order.purchaseNumber} is ${order.paymentStatus === 'Paid' ? 'paid' : `part-paid (${formatMoney(order.amountPaid)})`} with delivery at ${formatMoney(order.shippingFee)}; delivery to ${dto.guestInfo.county} costs ${formatMoney(quote.fee)}. Choose a place in the same zone, or cancel the order with a refund and place it again.`,
          code: 'PAID_FEE_CHANGE',
        });
      }
      ctx.requoted = {
        shippingFee: quote.fee,
        totalAmount: order.subtotal + quote.fee,
        zoneName: quote.zoneName,
      };
      return {
        $set: {
          guestInfo: {
            ...dto.guestInfo,
            subCounty: dto.guestInfo.subCounty ?? '',
            ward: dto.guestInfo.ward ?? '',
          },
          contactKeys: contactKeysOf(dto.guestInfo),
          shippingFee: quote.fee,
          totalAmount: order.subtotal + quote.fee,
          delivery: { method: quote.method, zoneName: quote.zoneName, days: quote.days },
          estimatedDeliveryDate: quote.estimatedDeliveryDate,
        },
      };
    },
    audit: {
      action: 'order.update',
      text: ({ actor, order, requoted }) => {
        const changed =
          requoted &&
          (requoted.shippingFee !== order.shippingFee ||
            requoted.zoneName !== order.delivery.zoneName)
            ? `; delivery ${formatMoney(order.shippingFee)} (${order.delivery.zoneName}) became ${formatMoney(requoted.shippingFee)} (${requoted.zoneName}), total ${formatMoney(order.totalAmount)} became ${formatMoney(requoted.totalAmount)}`
            : '';
        return `${actor.fullName} changed the delivery details of order ${order.purchaseNumber}${changed}`;
      },
    },
  } satisfies OrderStep<UpdateOrderDto>,

  /**
   * Cancels the order and returns its stock. With money received, only the shop cancels it, with
   * its refund taken from the money ledger first; a customer cancels their own only while nothing
   * was received, and never chooses a refund.
   */
  cancel: {
    rule: 'cancel',
    event: 'order.cancelled',
    access: ({ order, actor, input }) => {
      if (actor.role !== 'customer') return;
      if (order.placedBy !== actor.id) throw new NotFoundException('No order with this id');
      // An accepted quotation's order is its organisation's under an LPO, placed for one of its
      // people (who may be a buyer, or no longer one of them): the shop cancels it.
      if (order.quotation)
        throw new ForbiddenException({
          message: `Order ${order.purchaseNumber} was made from a quotation with LPO ${order.quotation.lpoNumber}: ask the shop to cancel it, in the quotation's messages`,
          code: 'ASK_THE_SHOP',
        });
      if (input != null)
        throw new BadRequestException({
          message: 'A refund is decided by the shop: cancel without a refund, or ask the shop',
          code: 'ASK_THE_SHOP',
        });
      // (Beyond Pending the state table's own reason answers: only the shop cancels then.)
      if (
        order.orderStatus === 'Pending' &&
        (order.paymentStatus === 'Paid' || order.amountPaid > 0)
      )
        throw new ConflictException({
          message: `We have received ${formatMoney(order.amountPaid)} on order ${order.purchaseNumber}: ask the shop to cancel it, and it will refund you`,
          code: 'ASK_THE_SHOP',
        });
    },
    // Paid or part-paid as read: the refund recorded is for that money.
    guard: ({ order }) => ({
      paymentStatus: order.paymentStatus,
      amountPaid: order.amountPaid > 0 ? order.amountPaid : { $not: { $gt: 0 } },
    }),
    before: (ctx) => takeRefund(ctx, ctx.input),
    prepare: ({ order, now }) =>
      cancelChange(
        now,
        order.paymentStatus === 'Paid' || order.amountPaid > 0 ? 'Refunded' : 'Expired',
        order,
      ),
    sms: 'cancelled',
    after: async (ctx, updated) => {
      await ctx.money.finishRefund(ctx.refundOut);
      await ctx.placement.returnStock(updated, ctx.actor);
    },
    audit: {
      action: 'order.cancel',
      text: ({ actor, order, input: r, refundOut }) => {
        const refunded =
          refundOut?.length && r
            ? ` and refunded ${formatMoney(r.amount)} by ${r.method}${r.method === 'Mpesa' && r.send ? ' (sent to the paying number)' : ''}${r.reference ? ` (${r.reference})` : ''}`
            : '';
        return `${actor.fullName} cancelled order ${order.purchaseNumber}${refunded}; its stock was returned`;
      },
    },
  } satisfies OrderStep<RefundDto | undefined>,
  /** The shop cancels an order nobody paid or confirmed in time, and returns its stock. */
  expire: {
    rule: 'cancel',
    event: 'order.expired',
    by: ['system'],
    guard: () => ({ paymentStatus: 'Pending', amountPaid: { $not: { $gt: 0 } } }),
    prepare: ({ order, now }) => cancelChange(now, 'Expired', order),
    sms: 'cancelled',
    after: ({ placement }, updated) => placement.returnStock(updated),
    audit: {
      action: 'order.expire',
      text: ({ order, input }) =>
        `${order.purchaseNumber} was cancelled automatically, unpaid after ${input.hours} hours; its stock was returned`,
    },
  } satisfies OrderStep<{ hours: number }>,

  /**
   * An unpaid order placed as its account was deleted (the session still open a moment): the shop
   * cancels it and returns its stock, as an expiry does; it names nobody (the erasure took it).
   */
  accountClosed: {
    rule: 'cancel',
    event: 'order.accountClosed',
    by: ['system'],
    guard: () => ({ paymentStatus: 'Pending', amountPaid: { $not: { $gt: 0 } } }),
    prepare: ({ order, now }) => cancelChange(now, 'Expired', order),
    after: ({ placement }, updated) => placement.returnStock(updated),
    audit: {
      action: 'order.expire',
      text: ({ order }) =>
        `${order.purchaseNumber} was cancelled automatically: its account was deleted as it was placed; its stock was returned`,
    },
  } satisfies OrderStep,

  /**
   * Deletes a cancelled order, or an unpaid pending or processing one, which is cancelled first
   * (its stock returned, the customer told as of any cancellation).
   */
  delete: {
    rule: 'delete',
    event: 'order.deleted',
    by: ['admin'],
    // Unpaid still: a payment recorded meanwhile puts the order in the sales record.
    guard: ({ order }) => ({
      paymentStatus: 'Pending',
      amountPaid: { $not: { $gt: 0 } },
      orderStatus:
        order.orderStatus === 'Cancelled'
          ? 'Cancelled'
          : { $in: ORDER_RULES.delete.from.filter((s) => s !== 'Cancelled') },
    }),
    prepare: ({ order, now }) => {
      // Money received is in the books: the order is cancelled with its refund, never deleted.
      if (order.amountPaid > 0)
        throw new ConflictException({
          message: `${formatMoney(order.amountPaid)} was received on order ${order.purchaseNumber}: cancel it with its refund instead of deleting it`,
          code: 'SALES_RECORD',
        });
      return order.orderStatus === 'Cancelled'
        ? { $set: { orderStatus: 'Cancelled' } }
        : cancelChange(now);
    },
    // Told once, when the delete is what cancels it.
    sms: ({ order }) => (order.orderStatus === 'Cancelled' ? undefined : 'cancelled'),
    after: async ({ placement, orders, actor, forgetMail }, updated) => {
      // A return a crash interrupted is finished before the order goes.
      if (updated.stockReturn === 'pending' || updated.stockReturn === 'done')
        await placement.returnStock(updated, actor);
      await orders.delete(updated._id);
      // Its e-mails go with it: no erasure could find them by an order that is gone.
      await forgetMail?.(updated._id);
    },
    audit: {
      action: 'order.delete',
      text: ({ actor, order }) => `${actor.fullName} deleted order ${order.purchaseNumber}`,
    },
  } satisfies OrderStep,
};
