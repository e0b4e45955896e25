import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { OrderRecord } from './order.types';
import { iso, lineUnit } from './order-record';
import { Order } from './schemas/order.schema';

/** A paid order as the sales figures read it. */
export type PaidOrder = Pick<
  OrderRecord,
  '_id' | 'paidAt' | 'totalAmount' | 'shippingFee' | 'products'
>;

/** The paid orders the sales figures and their rollup add up. */
@Injectable()
export class OrderSalesRepository {
  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  /**
   * Paid, not cancelled orders paid in [from, to): what the sales figures add up. The query names
   * only indexed fields ({placement, paymentStatus, paidAt}); the cancelled ones are left out here.
   */
  async paidBetween(from: Date, to: Date): Promise<PaidOrder[]> {
    const docs = await this.orders
      .find({ placement: 'placed', paymentStatus: 'Paid', paidAt: { $gte: from, $lt: to } })
      .select({ paidAt: 1, totalAmount: 1, shippingFee: 1, products: 1, orderStatus: 1 })
      .lean<
        (Pick<Order, 'paidAt' | 'totalAmount' | 'shippingFee' | 'products' | 'orderStatus'> & {
          _id: { toString(): string };
        })[]
      >();
    return docs
      .filter((d) => d.orderStatus !== 'Cancelled')
      .map((d) => ({
        _id: d._id.toString(),
        paidAt: iso(d.paidAt),
        totalAmount: d.totalAmount,
        shippingFee: d.shippingFee ?? 0,
        products: d.products.map((l) => ({
          product: { _id: l.productId, productName: l.productName, productImage: '' },
          productName: l.productName,
          productImage: '',
          unitPrice: l.unitPrice,
          quantity: l.quantity,
          lineTotal: l.lineTotal,
          ...lineUnit(l),
        })),
      }));
  }

  /** When the first order still counted as paid was paid, or null. */
  async firstPaidAt(): Promise<Date | null> {
    const doc = await this.orders
      .findOne({ placement: 'placed', paymentStatus: 'Paid', paidAt: { $gte: new Date(0) } })
      .sort({ paidAt: 1 })
      .select({ paidAt: 1 })
      .lean<{ paidAt: Date | null }>();
    return doc?.paidAt ? new Date(doc.paidAt) : null;
  }

  /**
   * The orders written since `since` (by `updatedAt`), each with the instants money came for it:
   * paid in full, and a booking's deposit and balance.
   */
  async changedSince(since: Date): Promise<{ _id: string; paidAt: Date[] }[]> {
    const docs = await this.orders
      .find({ updatedAt: { $gte: since } })
      .select({ paidAt: 1, 'booking.depositPaidAt': 1, 'booking.balancePaidAt': 1 })
      .lean<
        {
          _id: { toString(): string };
          paidAt: Date | null;
          booking?: { depositPaidAt?: Date | null; balancePaidAt?: Date | null } | null;
        }[]
      >();
    return docs.map((d) => ({
      _id: d._id.toString(),
      paidAt: [d.paidAt, d.booking?.depositPaidAt, d.booking?.balancePaidAt]
        .filter((at): at is Date => !!at)
        .map((at) => new Date(at)),
    }));
  }
}
