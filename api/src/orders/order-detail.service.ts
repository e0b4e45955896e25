import { ConflictException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import {
  checkOrderAction,
  formatMoney,
  ORDER_DOCUMENT_MESSAGES,
  SHOP_IDENTITY,
  type OrderAction,
  type OrderDocument,
  type OrderStatus,
  type OrderTimelineEntry,
  type PaymentStatus,
  type Role,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { EtimsPrint } from '../etims/etims-pdf';
import { EtimsQueue } from '../etims/etims-queue.service';
import type { OrderDto } from './dto/order-view.dto';
import type {
  OrderActionCheckDto,
  OrderDetailData,
  OrderDocumentsDto,
} from './dto/order-detail.dto';
import { OrderDocumentLinks } from './order-document-links';
import { OrderMoney } from './order-money';
import { deliveryNotePdf, receiptPdf, type ShopContacts } from './order-pdf';
import { OrderSales } from './order-sales';
import { wholeOrderRefusal } from './order-tranche-steps';
import { OrdersService } from './orders.service';
import { SHOP_ACTOR } from './shop-actor';

/** Which actions each role has on orders at all (the state machine then allows or refuses each). */
const ROLE_ACTIONS: Record<Role, OrderAction[]> = {
  staff: ['completePayment', 'inTransit', 'confirmDelivery', 'fulfil', 'cancel', 'update'],
  admin: ['delete'],
  customer: ['cancel'],
};

/** The timeline's name for each audit action about an order. */
const AUDIT_STEPS: Record<string, string> = {
  'order.payment': 'Payment recorded',
  'order.payment.receipt': 'M-Pesa receipt added',
  'order.inTransit': 'In transit',
  'order.delivered': 'Delivered',
  'order.fulfil': 'Completed',
  'order.cancel': 'Cancelled',
  'order.expire': 'Cancelled (unpaid)',
  'order.update': 'Delivery details changed',
  'order.lpo-scan': 'Scanned LPO attached',
  'booking.deposit': 'Deposit paid',
  'booking.ready': 'Ready: balance due',
  'booking.affected': 'Batch problem',
  'booking.move': 'Moved to another batch',
  'booking.refund': 'Refunded',
  'booking.release': 'Released (balance unpaid)',
  'tranche.plan': 'Tranche planned',
  'tranche.change': 'Tranche changed',
  'tranche.cancel': 'Tranche cancelled',
  'tranche.dispatch': 'Tranche dispatched',
  'tranche.deliver': 'Tranche signed for',
  'tranche.signed-note': 'Signed note attached',
  'invoice.issued': 'Invoice issued',
};

/** What a customer's timeline says of each step (no names of staff, no audit wording). */
const CUSTOMER_TEXT: Record<string, string> = {
  Placed: 'We received your order',
  'Payment recorded': 'Your payment was received',
  'In transit': 'Your order is on its way',
  Delivered: 'Your order was delivered',
  Completed: 'Your order is complete',
  Cancelled: 'Your order was cancelled',
  'Cancelled (unpaid)': 'Your order was cancelled as it was not paid in time',
  'Scanned LPO attached': 'The scanned LPO was attached',
  'Deposit paid': 'Your deposit was received',
  'Ready: balance due': 'Your seedlings are ready: the balance is due',
  'Batch problem': 'Your batch did not grow as planned: move the booking or have it refunded',
  'Moved to another batch': 'Your booking was moved to another batch',
  Refunded: 'Your booking was cancelled and your payment refunded',
  'Released (balance unpaid)': 'Your booking was released as the balance was not paid in time',
  'Tranche dispatched': 'A load of your order left for its site',
  'Tranche signed for': 'A load of your order was signed for at its site',
  'Signed note attached': 'The signed delivery note of a load was attached',
  'Invoice issued': 'An invoice was issued for your order',
};

export interface OrderPdf {
  filename: string;
  pdf: Buffer;
}

/**
 * The order detail (the order, its timeline from its dates and the audit trail, the actions the
 * caller may take with the reasons for those refused) and its printable documents.
 */
@Injectable()
export class OrderDetailService {
  constructor(
    private readonly orders: OrdersService,
    private readonly sales: OrderSales,
    private readonly audit: AuditService,
    private readonly links: OrderDocumentLinks,
    private readonly money: OrderMoney,
    private readonly etims: EtimsQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Staff and admin: any order, all of it. A customer: their own (else 404), no staff-only parts. */
  async detail(actor: Principal, id: string): Promise<OrderDetailData> {
    const order = await this.orders.getDetail(actor, id);
    const customer = actor.role === 'customer';
    const [timeline, money, etims] = await Promise.all([
      this.timeline(order),
      this.money.moneyOf(order._id, customer),
      this.etims.forOrder(order._id),
    ]);
    return {
      order,
      timeline: customer
        ? timeline
            .filter((e) => e.step in CUSTOMER_TEXT)
            .map((e) => ({ step: e.step, at: e.at, by: null, text: CUSTOMER_TEXT[e.step]! }))
        : timeline,
      actions: this.actions(order, actor.role),
      documents: this.documents(order, actor.role),
      money,
      shop: { ...SHOP_IDENTITY, ...this.shopContacts() },
      etims,
    };
  }

  /**
   * A receipt or delivery note as a PDF: with a signed link (from the payment e-mail), or signed in
   * (staff and admin any order; a customer their own paid orders). A receipt needs a paid order.
   */
  async document(
    actor: Principal | undefined,
    id: string,
    kind: OrderDocument,
    link: { expires?: string; signature?: string },
  ): Promise<OrderPdf> {
    let order: OrderDto;
    let role: Role;
    const byLink = link.expires !== undefined || link.signature !== undefined;
    if (byLink) {
      this.links.verify(id, kind, link.expires, link.signature);
      order = await this.orders.get(SHOP_ACTOR, id);
      role = 'customer';
    } else if (actor) {
      order = await this.orders.get(actor, id);
      role = actor.role;
    } else {
      throw new UnauthorizedException({
        message: ORDER_DOCUMENT_MESSAGES.signInOrLink,
        code: 'UNAUTHENTICATED',
      });
    }
    const availability = this.documents(order, role)[
      kind === 'receipt' ? 'receipt' : 'deliveryNote'
    ];
    if (!availability.available)
      throw new ConflictException({ message: availability.reason, code: 'NOT_PAID' });
    const shop = this.shopContacts();
    // A paid order cancelled since: its receipt says so, with the refund, never just "paid".
    const refund =
      kind === 'receipt' && order.orderStatus === 'Cancelled'
        ? await this.sales.refundOf(order._id)
        : null;
    const etims = await this.etimsPrint(order);
    const pdf =
      kind === 'receipt'
        ? await receiptPdf(order, shop, refund, etims)
        : await deliveryNotePdf(order, shop, etims);
    const filename = `${kind}-${order.purchaseNumber}.pdf`;
    // Staff and admin print anyone's documents: the trail says who took which. (A customer's own,
    // or one opened through the e-mail's link, is the customer's.)
    if (actor && actor.role !== 'customer' && !byLink)
      await this.audit.recordExport(
        actor,
        'order.document',
        filename,
        `the ${kind === 'receipt' ? 'receipt' : 'delivery note'} of order ${order.purchaseNumber} as PDF`,
      );
    return { filename, pdf };
  }

  /** What the documents print as the shop's contacts. */
  shopContacts(): ShopContacts {
    return {
      phone: this.config.shopContacts.phone,
      website: this.config.storefrontUrl.replace(/^https?:\/\//, ''),
    };
  }

  /**
   * What the order's documents print of eTIMS: its signed (or pending) documents; with eTIMS on,
   * money received and nothing queued yet, "eTIMS pending" all the same. Null with eTIMS off.
   */
  private async etimsPrint(order: OrderDto): Promise<EtimsPrint | null> {
    if (!this.etims.enabled) return null;
    const documents = await this.etims.forOrder(order._id);
    const moneyIn =
      order.paymentStatus === 'Paid' || order.amountPaid > 0 || !!order.booking?.depositPaidAt;
    return { documents, expected: moneyIn && !order.onAccount };
  }

  private documents(order: OrderDto, role: Role): OrderDocumentsDto {
    const paid = order.paymentStatus === 'Paid';
    // A booking's deposit has its receipt (a deposit receipt) as soon as it is paid.
    const receipt =
      paid || !!order.booking?.depositPaidAt
        ? { available: true }
        : { available: false, reason: ORDER_DOCUMENT_MESSAGES.notPaid };
    const deliveryNote =
      paid || role !== 'customer'
        ? { available: true }
        : { available: false, reason: ORDER_DOCUMENT_MESSAGES.customerNotPaid };
    return { receipt, deliveryNote };
  }

  private actions(order: OrderDto, role: Role): OrderActionCheckDto[] {
    const state = {
      orderStatus: order.orderStatus as OrderStatus,
      paymentStatus: order.paymentStatus as PaymentStatus,
    };
    return ROLE_ACTIONS[role].map((action) => {
      // An accepted quotation's order is its organisation's, under an LPO: the shop cancels it.
      if (role === 'customer' && action === 'cancel' && order.quotation)
        return {
          action,
          allowed: false,
          reason: `This order was made from a quotation with LPO ${order.quotation.lpoNumber}: ask the shop to cancel it, in the quotation's messages`,
          code: 'ASK_THE_SHOP',
        };
      // With money received, cancelling a customer's order is the shop's act (it refunds them).
      if (
        role === 'customer' &&
        action === 'cancel' &&
        order.orderStatus === 'Pending' &&
        (order.paymentStatus === 'Paid' || order.amountPaid > 0)
      )
        return {
          action,
          allowed: false,
          reason: `We have received ${formatMoney(order.amountPaid)} on this order: ask the shop to cancel it, and it will refund you`,
          code: 'ASK_THE_SHOP',
        };
      // An order delivered in tranches is sent out and delivered tranche by tranche.
      const inTranches = wholeOrderRefusal(order, action);
      if (inTranches && checkOrderAction(state, action, role).allowed)
        return { action, allowed: false, reason: inTranches, code: 'ILLEGAL_TRANSITION' };
      const check = checkOrderAction(state, action, role);
      return check.allowed
        ? { action, allowed: true }
        : { action, allowed: false, reason: check.reason, code: check.code };
    });
  }

  /** The payment's recorder is a staff member's name: a customer sees the shop instead. */
  /**
   * Placement, then every audit entry about the order; a step the order's dates show but the trail
   * lacks (orders older than the trail, seeded ones) is added from the date, with no name.
   */
  private async timeline(order: OrderDto): Promise<OrderTimelineEntry[]> {
    const entries = await this.audit.forTarget('order', order._id);
    const placer = order.placedBy ? order.placedBy.fullName : `${order.guestInfo.fullName} (guest)`;
    const timeline: OrderTimelineEntry[] = [
      {
        step: 'Placed',
        at: order.orderDate,
        by: placer,
        text: `Order ${order.purchaseNumber} placed`,
      },
      ...entries.map((e) => ({
        step: AUDIT_STEPS[e.action] ?? e.action,
        at: e.timestamp,
        by: e.performedBy.fullName,
        text: e.message,
      })),
    ];
    const has = (...actions: string[]) => entries.some((e) => actions.includes(e.action));
    const fromDate = (step: string, at: string | null, ...actions: string[]) => {
      if (at && !has(...actions)) timeline.push({ step, at, by: null, text: step });
    };
    fromDate('Payment recorded', order.paidAt, 'order.payment');
    fromDate('In transit', order.inTransitDate, 'order.inTransit');
    fromDate('Delivered', order.deliveredDate, 'order.delivered', 'order.fulfil');
    fromDate('Cancelled', order.cancelledDate, 'order.cancel', 'order.expire');
    return timeline.sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
  }
}
