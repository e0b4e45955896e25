import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { REFUND_MESSAGES } from '@spc/shared-contracts';
import { canonicalReceiptCode, isReceiptCode } from '../common/identifiers';
import type { Actor } from '../common/principal';
import type { RefundDto } from './dto/order.dto';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import { OrderRefund } from './schemas/order-refund.schema';

const receiptTaken = (code: string, purchaseNumber: string | null) =>
  new ConflictException(
    `The transaction code ${code} is already recorded for ${purchaseNumber ? `order ${purchaseNumber}` : 'another order'}. Check the code on the M-Pesa message.`,
  );

/** Allowance for a payment device's clock running a little ahead of or behind the server's. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

export interface RefundView {
  orderId: string;
  purchaseNumber: string;
  method: string;
  amount: number;
  reference: string;
  refundedBy: { _id: string; fullName: string };
  refundedAt: string;
}

/**
 * The rules that keep paid money on the books: a receipt code pays one order only, a payment's
 * time lies between the order's placement and now, and a paid order is cancelled only with its
 * refund recorded (method, amount, reference and who), which the sales report shows.
 */
@Injectable()
export class OrderMoney {
  constructor(
    private readonly orders: OrdersRepository,
    @InjectModel(OrderRefund.name) private readonly refunds: Model<OrderRefund>,
  ) {}

  /** Refuses (400) a payment time before the order was placed or in the future. */
  checkTimePaid(order: Pick<OrderRecord, 'orderDate'>, paid: Date, now = new Date()): void {
    if (Number.isNaN(paid.getTime()))
      throw new BadRequestException('Time paid must be a date and time');
    if (paid.getTime() > now.getTime() + CLOCK_SKEW_MS)
      throw new BadRequestException('Time paid cannot be in the future');
    const placed = new Date(order.orderDate);
    if (paid.getTime() < placed.getTime() - CLOCK_SKEW_MS) {
      throw new BadRequestException(
        `Time paid cannot be before the order was placed (${placed.toISOString()})`,
      );
    }
  }

  /**
   * The one spelling of a transaction code typed by a clerk (upper case; blanks, punctuation and
   * invisible characters removed), refusing (400) one with other letters than A-Z (a look-alike),
   * and (409) one already on another order. The unique index on the code decides when two clerks
   * record it at the same moment (`receiptInUse`).
   */
  async receiptCode(orderId: string, typed: string | undefined): Promise<string> {
    if (!typed?.trim()) return '';
    const code = canonicalReceiptCode(typed);
    if (!code || !isReceiptCode(code)) {
      throw new BadRequestException({
        message: 'The transaction code must be the letters and digits of the M-Pesa message',
        errors: [
          {
            field: 'paymentDetails.transactionCode',
            messages: ['Only the letters A-Z and digits 0-9'],
          },
        ],
      });
    }
    const other = await this.orders.orderWithReceiptCode(code, orderId);
    if (other) throw receiptTaken(code, other);
    return code;
  }

  /** The 409 for a code that another order took, once the database refused it a second time. */
  async receiptInUse(orderId: string, code: string): Promise<ConflictException> {
    const key = canonicalReceiptCode(code);
    return receiptTaken(key, await this.orders.orderWithReceiptCode(key, orderId));
  }

  /**
   * For cancelling `order`: nothing to do if it is unpaid; otherwise the refund must be given, for
   * the amount paid (and, for M-Pesa, with its reference), and is recorded before the cancellation.
   * Answers an undo for when the cancellation does not happen after all.
   */
  async recordRefundForCancel(
    order: OrderRecord,
    refund: RefundDto | undefined,
    actor: Actor,
    now = new Date(),
  ): Promise<(() => Promise<void>) | null> {
    // A part-paid order (paybill part payments) gives back what was paid, as a paid one does.
    const paid =
      order.paymentStatus === 'Paid'
        ? (order.paymentDetails?.amount ?? order.totalAmount)
        : order.amountPaid;
    if (!paid) return null;
    if (!refund) {
      throw new ConflictException(
        `This order is ${order.paymentStatus === 'Paid' ? 'paid' : 'part-paid'} (KES ${paid.toLocaleString('en-US')}). To cancel it, record the refund: its method, amount and reference.`,
      );
    }
    if (refund.amount !== paid) {
      throw new BadRequestException(REFUND_MESSAGES.amountPaid(paid));
    }
    if (refund.method === 'Mpesa' && !refund.send && !refund.reference?.trim()) {
      throw new BadRequestException(REFUND_MESSAGES.mpesaReference);
    }
    const doc = await this.refunds.create({
      orderId: order._id,
      purchaseNumber: order.purchaseNumber,
      method: refund.method,
      amount: refund.amount,
      reference: refund.reference?.trim() ?? '',
      // Sent through Daraja by the payments module (payments/refunds), which fills the reference in.
      ...(refund.method === 'Mpesa' && refund.send ? { sendByMpesa: true } : {}),
      refundedById: actor.id,
      refundedByName: actor.fullName,
      refundedAt: now,
    });
    return async () => {
      await this.refunds.deleteOne({ _id: doc._id });
    };
  }

  /** The refund recorded when this order was cancelled, or null. */
  async refundOf(orderId: string): Promise<RefundView | null> {
    const d = await this.refunds.findOne({ orderId }).sort({ refundedAt: -1 }).lean<OrderRefund>();
    return d ? this.view(d) : null;
  }

  /** Refunds recorded in [from, to), for the sales report. */
  async refundedBetween(from: Date, to: Date): Promise<RefundView[]> {
    const docs = await this.refunds
      .find({ refundedAt: { $gte: from, $lt: to } })
      .sort({ refundedAt: 1 })
      .lean<OrderRefund[]>();
    return docs.map((d) => this.view(d));
  }

  private view(d: OrderRefund): RefundView {
    return {
      orderId: d.orderId,
      purchaseNumber: d.purchaseNumber,
      method: d.method,
      amount: d.amount,
      reference: d.reference,
      refundedBy: { _id: d.refundedById, fullName: d.refundedByName },
      refundedAt: new Date(d.refundedAt).toISOString(),
    };
  }
}
