import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type FilterQuery, type Model, type UpdateQuery } from 'mongoose';
import { duplicateKeyField } from '../common/mongo-errors';
import { MONEY_WRITE_CONCERN } from '../common/write-concern';
import { contactKeysOf } from './order-contact-keys';
import type { OrderRecord } from './order.types';
import { toRecord, type LeanOrder, type NewOrder } from './order-record';
import { OrderDeletion } from './schemas/order-deletion.schema';
import { Order } from './schemas/order.schema';

export type { NewOrder } from './order-record';

const RECEIPT_INDEX = 'receipt_code_pays_once';
const QUOTATION_INDEX = 'one_order_per_quotation';
const LPO_INDEX = 'lpo_number_used_once';

/**
 * One order at a time: written, read, changed under a guard. The lists, the placement's marks,
 * the crash recovery, the sales figures, the cap slots and the bookings have repositories of their
 * own on the same collection.
 */
@Injectable()
export class OrdersRepository implements OnModuleInit {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(OrderDeletion.name) private readonly deletions: Model<OrderDeletion>,
  ) {}

  /**
   * The unique index the money rules rest on, made before the API serves (it refuses to start
   * without it): a receipt code is on one order, ever.
   */
  async onModuleInit(): Promise<void> {
    await this.orders.collection.createIndex(
      { 'paymentDetails.receiptKey': 1 },
      {
        name: RECEIPT_INDEX,
        unique: true,
        partialFilterExpression: { 'paymentDetails.receiptKey': { $exists: true } },
      },
    );
    // An accepted quotation is one order, however often (or concurrently) it is accepted; an
    // organisation's LPO number is on one order.
    await this.orders.collection.createIndex(
      { quotationId: 1 },
      {
        name: QUOTATION_INDEX,
        unique: true,
        partialFilterExpression: { quotationId: { $exists: true } },
      },
    );
    await this.orders.collection.createIndex(
      { organisationId: 1, lpoKey: 1 },
      { name: LPO_INDEX, unique: true, partialFilterExpression: { lpoKey: { $exists: true } } },
    );
  }

  /** Which rule of an order's unique indexes an insert broke: its quotation's, its LPO's, or none. */
  duplicateOf(error: unknown): 'quotation' | 'lpo' | null {
    const field = duplicateKeyField(error);
    if (field === undefined) return null;
    const text = String(error);
    if (field === 'quotationId' || text.includes(QUOTATION_INDEX)) return 'quotation';
    if (field === 'lpoKey' || field === 'organisationId' || text.includes(LPO_INDEX)) return 'lpo';
    return null;
  }

  /** The order an accepted quotation became, however far its placement got; null if none. */
  async findByQuotation(quotationId: string): Promise<OrderRecord | null> {
    const doc = await this.orders.findOne({ quotationId }).lean<LeanOrder>();
    return doc ? toRecord(doc) : null;
  }

  /**
   * Writes a new order, `reserving`, with the driver's insertOne (the schema's defaults written out
   * here, no document pipeline: placement's hot path), under the money write concern.
   */
  async insert(order: NewOrder): Promise<OrderRecord> {
    const now = new Date();
    const doc = {
      _id: new Types.ObjectId(),
      ...order,
      placedBy: order.placedBy ?? null,
      guestInfo: {
        ...order.guestInfo,
        subCounty: order.guestInfo.subCounty ?? '',
        ward: order.guestInfo.ward ?? '',
      },
      products: order.products.map((l) => ({
        ...l,
        productImage: l.productImage ?? '',
        tier: l.tier ?? null,
      })),
      delivery: order.delivery ?? null,
      clientAddress: order.clientAddress ?? null,
      kraPin: order.kraPin ?? null,
      booking: order.booking ?? null,
      contactKeys: contactKeysOf(order.guestInfo),
      orderStatus: 'Pending',
      paymentStatus: 'Pending',
      fulfillmentStatus: 'Unfulfilled',
      paymentMethod: null,
      paymentDetails: null,
      paidAt: null,
      inTransitDate: null,
      deliveredDate: null,
      cancelledDate: null,
      placement: 'reserving',
      ledgerSettled: false,
      stockReturn: 'none',
      amountPaid: 0,
      createdAt: now,
      updatedAt: now,
      __v: 0,
    } satisfies Omit<Order, 'mpesaCredits' | 'moneyCredits' | 'refundOut'> & {
      _id: Types.ObjectId;
      __v: number;
    };
    if (doc.holdSlots === undefined) delete doc.holdSlots;
    await this.orders.collection.insertOne(doc as never, { writeConcern: MONEY_WRITE_CONCERN });
    return toRecord(doc as LeanOrder);
  }

  async findById(id: string): Promise<OrderRecord | null> {
    // By id alone (the _id index), the placement checked here.
    const doc = await this.orders.findById(id).lean<LeanOrder>();
    return doc?.placement === 'placed' ? toRecord(doc) : null;
  }

  async findAnyById(id: string): Promise<OrderRecord | null> {
    const doc = await this.orders.findById(id).lean<LeanOrder>();
    return doc ? toRecord(doc) : null;
  }

  /**
   * Orders paid at or after `since`, oldest payment first, after `after` (the last `paidAt` and
   * `_id` of the page before): the eTIMS sweep's look for paid orders never queued, served by
   * `{ paymentStatus, paidAt }`.
   */
  async paidSince(since: Date, limit: number): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({ paymentStatus: 'Paid', paidAt: { $gte: since } })
      .sort({ paidAt: 1 })
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.map((doc) => toRecord(doc));
  }

  /**
   * Bookings and orders with money given back changed since `since`, oldest change first, by the
   * `{updatedAt}` index (eTIMS's sweep of deposits and refunds a lost listener left unsigned).
   */
  async bookedOrRefundedSince(since: Date, limit: number): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({
        updatedAt: { $gte: since },
        $or: [{ booking: { $type: 'object' } }, { 'refundOut.0': { $exists: true } }],
      })
      .sort({ updatedAt: 1 })
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.map((doc) => toRecord(doc));
  }

  async findByPurchaseNumber(purchaseNumber: string): Promise<OrderRecord | null> {
    const doc = await this.orders
      .findOne({ purchaseNumber, placement: 'placed' })
      .lean<LeanOrder>();
    return doc ? toRecord(doc) : null;
  }

  /** Applies `update` only if the order still matches `guard`; null when it did not. */
  async transition(
    id: string,
    guard: FilterQuery<Order>,
    update: UpdateQuery<Order>,
  ): Promise<OrderRecord | null> {
    const doc = await this.orders
      .findOneAndUpdate({ _id: id, placement: 'placed', ...guard }, update, { new: true })
      .lean<LeanOrder>();
    return doc ? toRecord(doc) : null;
  }

  /** A till session's sales (issue 46), oldest first. */
  /** The gate sale placed (or being placed) under a till key as stored, or null. */
  async gateSaleUnderKey(key: string): Promise<{ _id: string; placement: string } | null> {
    const doc = await this.orders
      .findOne({ channel: 'gate', 'till.key': key }, { _id: 1, placement: 1 })
      .lean<{ _id: unknown; placement: string }>();
    return doc ? { _id: String(doc._id), placement: doc.placement } : null;
  }

  async ofTillSession(sessionId: string): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({ 'till.sessionId': sessionId, placement: 'placed' })
      .sort({ orderDate: 1 })
      .lean<LeanOrder[]>();
    return docs.map(toRecord);
  }

  /** How a money-ledger entry counted on the order, or null when the order never took it. */
  async creditOf(
    id: string,
    entryId: string,
  ): Promise<{ deposit: number; balance: number; excess: number } | null> {
    const doc = await this.orders
      .findOne({ _id: id, 'moneyCredits.entry': entryId })
      .select({ moneyCredits: 1 })
      .lean<Pick<Order, 'moneyCredits'>>();
    const credit = doc?.moneyCredits?.find((c) => c.entry === entryId);
    return credit
      ? { deposit: credit.deposit, balance: credit.balance, excess: credit.excess }
      : null;
  }

  /**
   * Deletes the order, its deletion recorded first (the order counts rebuild the day that counted
   * it; recorded after, a crash between would leave the order counted for ever).
   */
  async delete(id: string): Promise<boolean> {
    await this.deletions.updateOne(
      { _id: id },
      { $set: { deletedAt: new Date() } },
      { upsert: true },
    );
    return (await this.orders.deleteOne({ _id: id })).deletedCount === 1;
  }

  async count(): Promise<number> {
    return this.orders.countDocuments({ placement: 'placed' });
  }
}
