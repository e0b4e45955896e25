import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { REFUND_MESSAGES } from '@spc/shared-contracts';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { Actor } from '../common/principal';
import { MoneyLedgerService, type MoneyEntryView } from '../money/money-ledger.service';
import type { RefundDto } from './dto/order.dto';
import type { OrderRecord } from './order.types';
import { OrderRefund } from './schemas/order-refund.schema';

export interface RefundView {
  orderId: string;
  purchaseNumber: string;
  method: string;
  amount: number;
  reference: string;
  refundedBy: { _id: string; fullName: string };
  refundedAt: string;
}

/** An order's money as its entries say: received, given back, and each entry. */
export interface OrderMoneyView {
  received: number;
  refunded: number;
  /** What may still be given back (received less what went back). */
  refundable: number;
  entries: MoneyEntryView[];
}

/** How a cancellation gives money back: as a clerk says, or all of it by M-Pesa (a booking). */
export type CancelRefund = RefundDto | 'all-by-mpesa' | undefined;

/**
 * The money side of an order's steps: a cancellation of an order with money on it gives that
 * money back as money-ledger entries against what came in (capped by it, sent only to who paid),
 * recorded before the cancellation and kept with the sales record.
 */
@Injectable()
export class OrderMoney {
  constructor(
    readonly ledger: MoneyLedgerService,
    @InjectModel(OrderRefund.name) private readonly refunds: Model<OrderRefund>,
  ) {}

  /**
   * For cancelling `order`: nothing to do when nothing was received; otherwise the refund must be
   * given (method, the amount received and not yet given back, and for M-Pesa by hand its
   * reference), and is taken from the incoming entries before the cancellation. Answers the
   * outgoing entries (to be recorded once the step happens) and an undo for when it does not.
   */
  async recordRefundForCancel(
    order: OrderRecord,
    refund: CancelRefund,
    actor: Actor,
  ): Promise<{ out: string[]; undo: () => Promise<void> } | null> {
    const all = await this.ledger.ofOrder(order._id);
    // What the order took: credited entries, and those it took whose claim is not yet marked.
    const entries = all.filter(
      (e) =>
        e.direction === 'in' &&
        (e.state === 'credited' || (e.state === 'claimed' && order.credited.includes(e._id))),
    );
    const refundable = entries.reduce((n, e) => n + e.returnable, 0);
    const received = entries.reduce((n, e) => n + e.amount, 0);
    if (received < order.amountPaid)
      throw new ConflictException(
        `Order ${order.purchaseNumber} shows KES ${order.amountPaid.toLocaleString('en-US')} paid but its money ledger has KES ${received.toLocaleString('en-US')}: run the migration (npm run migrate) before refunding it`,
      );
    // Another clerk's refund of this money is under way (or took it all): never "nothing to give".
    if (
      all.some((e) => e.direction === 'out' && e.state === 'claiming') ||
      (received > 0 && !refundable)
    )
      throw new ConflictException({
        message: 'This order is being refunded already: reload to see the refund',
        code: 'CONFLICT',
      });
    if (!received) return null;
    if (!refund) {
      throw new ConflictException(
        `This order is ${order.paymentStatus === 'Paid' ? 'paid' : 'part-paid'} (KES ${refundable.toLocaleString('en-US')}). To cancel it, record the refund: its method, amount and reference.`,
      );
    }
    const request =
      refund === 'all-by-mpesa'
        ? { method: 'Mpesa' as const, send: true, reference: '', amount: refundable }
        : {
            method: refund.method,
            send: refund.method === 'Mpesa' && !!refund.send,
            reference: refund.reference?.trim() ?? '',
            amount: refund.amount,
          };
    if (request.amount !== refundable)
      throw new BadRequestException(REFUND_MESSAGES.amountPaid(refundable));
    if (request.method === 'Mpesa' && !request.send && !request.reference)
      throw new BadRequestException(REFUND_MESSAGES.mpesaReference);
    const parts = this.ledger.planPayback(entries, request.amount, request);
    const out = await this.ledger.takeOut(actor, parts, 'refund', request.reference);
    return { out, undo: () => this.ledger.abandonOut(out) };
  }

  /**
   * The refund's entries count: the cancellation happened (its write named them). Its summary for
   * the sales record is written from them then, once per order; the reconciler does the same for a
   * cancellation a crash cut off here, so a refund is in the record exactly when it happened.
   */
  async finishRefund(out: string[] | undefined): Promise<void> {
    if (!out?.length) return;
    // The line first: a crash between the two leaves entries still `claiming`, which the money
    // reconciler finishes through here again (the line is written once, on insert).
    await this.recordSummary(out);
    await this.ledger.finishOut(out);
  }

  /**
   * The sales record's line for a cancellation's refund, from its outgoing entries (recorded, or
   * still `claiming` with the step that named them done).
   */
  private async recordSummary(out: string[]): Promise<void> {
    const entries = (await this.ledger.findByIds(out)).filter(
      (e) =>
        e.direction === 'out' && (e.state === 'recorded' || e.state === 'claiming') && e.orderId,
    );
    const first = entries[0];
    if (!first) return;
    // A gate sale may be refunded in parts (issue 46): the line holds what all its refunds gave.
    const all = (await this.ledger.ofOrder(first.orderId!)).filter(
      (e) =>
        e.direction === 'out' &&
        e.purpose === 'refund' &&
        (e.state === 'recorded' || out.includes(e._id)),
    );
    // Two finishers at once (the step's own and a reconciler's): one inserts, the other's upsert
    // meets the unique index, the line being written either way.
    await this.refunds
      .updateOne(
        { orderId: first.orderId },
        {
          $setOnInsert: {
            orderId: first.orderId,
            purchaseNumber: first.purchaseNumber ?? '',
            method: entries.every((e) => e.kind === 'cash') ? 'Cash' : 'Mpesa',
            reference: entries.find((e) => e.reference)?.reference ?? '',
            sendByMpesa: entries.some((e) => e.send),
            refundedById: first.byId,
            refundedByName: first.byName,
            refundedAt: first.at,
          },
          $set: { amount: all.reduce((n, e) => n + e.amount, 0) },
        },
        { upsert: true },
      )
      .catch((error: unknown) => {
        if (!isDuplicateKeyError(error)) throw error;
      });
  }

  /** An order's money from its entries; a customer's view names no staff and no numbers. */
  async moneyOf(orderId: string, forCustomer: boolean): Promise<OrderMoneyView> {
    const all = await this.ledger.ofOrder(orderId);
    const ins = all.filter((e) => e.direction === 'in' && e.state === 'credited');
    const outs = all.filter((e) => e.direction === 'out' && e.state === 'recorded');
    const received = ins.reduce((n, e) => n + e.amount, 0);
    const refunded = outs.reduce((n, e) => n + e.amount, 0);
    const views = [...ins, ...outs]
      .map((e) => this.ledger.view(e))
      .map((v) =>
        forCustomer
          ? {
              ...v,
              by: null,
              payer: null,
              // M-Pesa's own codes for money sent back; never a clerk's note.
              reference: v.kind === 'reversal' || v.kind === 'b2c' ? v.reference : '',
            }
          : v,
      );
    return { received, refunded, refundable: received - refunded, entries: views };
  }

  /** The refund recorded when this order was cancelled, or null. */
  async refundOf(orderId: string): Promise<RefundView | null> {
    const d = await this.refunds.findOne({ orderId }).sort({ refundedAt: -1 }).lean<OrderRefund>();
    return d ? this.view(d) : null;
  }

  /** The refunds made in [from, to): how many and the KES (the sales report's; a year is thousands). */
  async refundTotalsBetween(from: Date, to: Date): Promise<{ orders: number; amount: number }> {
    const docs = await this.refunds
      .find({ refundedAt: { $gte: from, $lt: to } })
      .select({ _id: 0, amount: 1 })
      .lean<Pick<OrderRefund, 'amount'>[]>();
    return { orders: docs.length, amount: docs.reduce((n, d) => n + d.amount, 0) };
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
