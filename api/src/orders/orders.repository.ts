import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type FilterQuery, type Model, type UpdateQuery } from 'mongoose';
import { DEFAULT_DELIVERY_ZONE, DEFAULT_UNIT_NAME, type BookingState } from '@spc/shared-contracts';
import { duplicateKeyField } from '../common/mongo-errors';
import { MONEY_WRITE_CONCERN } from '../common/write-concern';
import { escapeRegExp } from '../common/pagination';
import { slotPrefix } from '../common/quota';
import { contactKeysOf, orderSearchOf } from './order-contact-keys';
import { listQuery, listSort, matchesFilter } from './order-list-query';
import type { OrderListFilter, OrderRecord } from './order.types';
import { amountDueNow } from './order-booking';
import { Order, type OrderBooking, type OrderLine } from './schemas/order.schema';
import { canonicalPhone } from '../common/identifiers';

type LeanOrder = Order & { _id: { toString(): string } };
/** A paid order as the sales figures read it. */
export type PaidOrder = Pick<
  OrderRecord,
  '_id' | 'paidAt' | 'totalAmount' | 'shippingFee' | 'products'
>;
const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A line's unit and tier; lines from before sale units were single seedlings. */
function lineUnit(l: OrderLine): Pick<OrderRecord['products'][number], 'unit' | 'tier'> {
  return {
    unit: {
      _id: l.unitId ?? l.productId,
      name: l.unitName ?? DEFAULT_UNIT_NAME,
      seedlings: l.seedlings ?? 1,
    },
    tier: l.tier ?? null,
  };
}

/** What was paid, what is still due and what was paid beyond the total. */
function amounts(
  doc: LeanOrder,
): Pick<OrderRecord, 'amountPaid' | 'amountOutstanding' | 'excessPaid'> {
  const credited = doc.amountPaid ?? 0;
  if (doc.paymentStatus === 'Paid') {
    const paid = Math.max(credited, doc.paymentDetails?.amount ?? doc.totalAmount);
    return {
      amountPaid: paid,
      amountOutstanding: 0,
      excessPaid: Math.max(0, paid - doc.totalAmount),
    };
  }
  return {
    amountPaid: credited,
    amountOutstanding: Math.max(0, doc.totalAmount - credited),
    excessPaid: 0,
  };
}

function bookingOf(b: OrderBooking | null | undefined): OrderRecord['booking'] {
  if (!b) return null;
  return {
    batchId: b.batchId,
    productName: b.productName,
    readyOn: b.readyOn,
    depositPercent: b.depositPercent,
    deposit: b.deposit,
    balance: b.balance,
    state: b.state,
    depositPaidAt: iso(b.depositPaidAt),
    depositReceipt: b.depositReceipt ?? null,
    readyAt: iso(b.readyAt),
    balanceDueBy: b.balanceDueBy ?? null,
    balancePaidAt: iso(b.balancePaidAt),
    releasedAt: iso(b.releasedAt),
    releaseDecision: b.releaseDecision ?? null,
    problem: b.problem ?? null,
    movedFromBatchId: b.movedFromBatchId ?? null,
    fulfilledAt: iso(b.fulfilledAt),
  };
}

function toRecord(doc: LeanOrder): OrderRecord {
  const record: Omit<OrderRecord, keyof ReturnType<typeof amounts> | 'amountDueNow'> = {
    _id: doc._id.toString(),
    purchaseNumber: doc.purchaseNumber,
    placedBy: doc.placedBy ?? null,
    guestInfo: {
      fullName: doc.guestInfo.fullName,
      phoneNumber: doc.guestInfo.phoneNumber,
      email: doc.guestInfo.email,
      county: doc.guestInfo.county,
      subCounty: doc.guestInfo.subCounty ?? '',
      ward: doc.guestInfo.ward ?? '',
      streetAddress: doc.guestInfo.streetAddress,
    },
    products: doc.products.map((l) => ({
      product: { _id: l.productId, productName: l.productName, productImage: l.productImage ?? '' },
      productName: l.productName,
      productImage: l.productImage ?? '',
      unitPrice: l.unitPrice,
      quantity: l.quantity,
      lineTotal: l.lineTotal,
      ...lineUnit(l),
    })),
    subtotal: doc.subtotal,
    shippingFee: doc.shippingFee,
    // Orders from before delivery zones were delivered on the old fixed terms.
    delivery: doc.delivery
      ? { method: doc.delivery.method, zoneName: doc.delivery.zoneName, days: doc.delivery.days }
      : {
          method: 'delivery',
          zoneName: DEFAULT_DELIVERY_ZONE.name,
          days: DEFAULT_DELIVERY_ZONE.days,
        },
    totalAmount: doc.totalAmount,
    orderStatus: doc.orderStatus,
    paymentStatus: doc.paymentStatus,
    fulfillmentStatus: doc.fulfillmentStatus,
    paymentMethod: doc.paymentMethod ?? null,
    paymentDetails: doc.paymentDetails
      ? {
          amount: doc.paymentDetails.amount,
          transactionCode: doc.paymentDetails.transactionCode ?? '',
          timePaid: iso(doc.paymentDetails.timePaid),
          completedBy: {
            _id: doc.paymentDetails.completedById,
            fullName: doc.paymentDetails.completedByName,
          },
        }
      : null,
    paidAt: iso(doc.paidAt),
    orderDate: iso(doc.orderDate)!,
    estimatedDeliveryDate: iso(doc.estimatedDeliveryDate)!,
    inTransitDate: iso(doc.inTransitDate),
    deliveredDate: iso(doc.deliveredDate),
    cancelledDate: iso(doc.cancelledDate),
    createdAt: iso(doc.createdAt)!,
    updatedAt: iso(doc.updatedAt)!,
    placement: doc.placement,
    ledgerSettled: doc.ledgerSettled,
    stockReturn: doc.stockReturn,
    credited: (doc.moneyCredits ?? []).map((c) => c.entry),
    refundOut: doc.refundOut ?? [],
    booking: bookingOf(doc.booking),
  };
  const money = { ...record, ...amounts(doc) };
  return { ...money, amountDueNow: amountDueNow(money) };
}

export type NewOrder = Omit<
  Order,
  | 'createdAt'
  | 'updatedAt'
  | 'orderStatus'
  | 'paymentStatus'
  | 'fulfillmentStatus'
  | 'paymentMethod'
  | 'paymentDetails'
  | 'amountPaid'
  | 'mpesaCredits'
  | 'moneyCredits'
  | 'refundOut'
  | 'paidAt'
  | 'inTransitDate'
  | 'deliveredDate'
  | 'cancelledDate'
  | 'placement'
  | 'ledgerSettled'
  | 'stockReturn'
>;

/** What makes an order hold its cap slots: it is Pending and unpaid (and carries slots). */
/** A purchase number's start (SPD and 3 or more characters) names at most this many orders. */
const NUMBER_PREFIX_MATCHES = 500;
const HOLDING = { orderStatus: 'Pending', paymentStatus: 'Pending' } as const;
const HOLD_SLOTS_INDEX = 'open_unpaid_hold_slots';
const RECEIPT_INDEX = 'receipt_code_pays_once';

/** The only place that touches the orders collections. */
@Injectable()
export class OrdersRepository implements OnModuleInit {
  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  /**
   * The two unique indexes the money and hoarding rules rest on, made before the API serves (it
   * refuses to start without them): a cap slot is held by one open unpaid order at a time (the
   * order leaves the index, freeing its slots, in the write that pays, confirms or cancels it), and
   * a receipt code is on one order, ever.
   */
  async onModuleInit(): Promise<void> {
    await this.orders.collection.createIndex(
      { holdSlots: 1 },
      {
        name: HOLD_SLOTS_INDEX,
        unique: true,
        partialFilterExpression: { ...HOLDING, holdSlots: { $exists: true } },
      },
    );
    await this.orders.collection.createIndex(
      { 'paymentDetails.receiptKey': 1 },
      {
        name: RECEIPT_INDEX,
        unique: true,
        partialFilterExpression: { 'paymentDetails.receiptKey': { $exists: true } },
      },
    );
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

  async findByPurchaseNumber(purchaseNumber: string): Promise<OrderRecord | null> {
    const doc = await this.orders
      .findOne({ purchaseNumber, placement: 'placed' })
      .lean<LeanOrder>();
    return doc ? toRecord(doc) : null;
  }

  async list(
    filter: OrderListFilter,
    skip: number,
    limit: number,
  ): Promise<{ items: OrderRecord[]; total: number }> {
    const searched = filter.search ? await this.searched(filter) : null;
    if (searched)
      return {
        items: searched.slice(skip, skip + limit).map(toRecord),
        total: searched.length,
      };
    const query = listQuery(filter);
    const [docs, total] = await Promise.all([
      this.orders.find(query).sort(listSort(filter)).skip(skip).limit(limit).lean<LeanOrder[]>(),
      this.orders.countDocuments(query),
    ]);
    return { items: docs.map(toRecord), total };
  }

  /** How many placed orders match the filter (the work queue's counts, the export's bound). */
  async countMatching(filter: OrderListFilter): Promise<number> {
    const searched = filter.search ? await this.searched(filter) : null;
    if (searched) return searched.length;
    return this.orders.countDocuments(listQuery(filter));
  }

  /**
   * A search for a purchase number, whole or its start: the orders are looked up by the unique
   * number index and checked against the other filters here (newest first). Null for any other
   * search, which `listQuery` asks by the contact keys.
   */
  private async searched(filter: OrderListFilter): Promise<LeanOrder[] | null> {
    const search = orderSearchOf(filter.search!);
    if (search.kind === 'number') {
      const doc = await this.orders.findOne({ purchaseNumber: search.number }).lean<LeanOrder>();
      return doc && matchesFilter(doc, filter) ? [doc] : [];
    }
    if (search.kind !== 'number-prefix') return null;
    const docs = await this.orders
      .find({ purchaseNumber: { $gte: search.from, $lte: search.to } })
      .limit(NUMBER_PREFIX_MATCHES)
      .lean<LeanOrder[]>();
    const sort = listSort(filter);
    const [field, dir] = Object.entries(sort)[0]!;
    const key = (d: LeanOrder) => {
      const v = (d as unknown as Record<string, unknown>)[field];
      return v instanceof Date ? v.getTime() : Number(v);
    };
    return docs
      .filter((d) => matchesFilter(d, filter))
      .sort((a, b) => (key(a) - key(b)) * dir || String(a._id).localeCompare(String(b._id)) * dir);
  }

  /**
   * The orders of a list's filters, sorted as the list, at most `max`, `size` at a time from one
   * cursor (the export streams them instead of holding them all).
   */
  async *batches(
    filter: OrderListFilter,
    size: number,
    max: number,
  ): AsyncGenerator<OrderRecord[]> {
    const cursor = this.orders
      .find(listQuery(filter))
      .sort(listSort(filter))
      .limit(max)
      .lean<LeanOrder[]>()
      .cursor({ batchSize: size });
    let batch: OrderRecord[] = [];
    for await (const doc of cursor) {
      batch.push(toRecord(doc as LeanOrder));
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  /** The purchase numbers of these placed orders, by id (ids with no placed order are left out). */
  async purchaseNumbersOf(ids: string[]): Promise<Map<string, string>> {
    const docs = await this.orders
      .find({ _id: { $in: ids }, placement: 'placed' })
      .select({ purchaseNumber: 1 })
      .lean<{ _id: { toString(): string }; purchaseNumber: string }[]>();
    return new Map(docs.map((d) => [d._id.toString(), d.purchaseNumber]));
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
   * Open unpaid orders whose phone is this one (E.164, however it was typed), newest first. Phones
   * are kept as typed, so the recent open orders are read and compared in their one spelling.
   */
  async openUnpaidByPhone(
    e164: string,
    statuses: readonly string[],
    limit: number,
  ): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({ placement: 'placed', paymentStatus: 'Pending', orderStatus: { $in: statuses } })
      .sort({ orderDate: -1 })
      .limit(2000)
      .lean<LeanOrder[]>();
    return docs
      .filter((d) => canonicalPhone(d.guestInfo.phoneNumber) === e164)
      .slice(0, limit)
      .map(toRecord);
  }

  /**
   * `reserving` becomes `placed`, for many orders in one write (each order's change atomic on its
   * own); answers the ids that became `placed` (not those the reconciler gave up first).
   */
  async markAllPlaced(ids: string[]): Promise<string[]> {
    const res = await this.orders.updateMany(
      { _id: { $in: ids }, placement: 'reserving' },
      { $set: { placement: 'placed' } },
    );
    if (res.modifiedCount === ids.length) return ids;
    // Some were undone meanwhile (rare): which became placed is read back.
    const placed = await this.orders
      .find({ _id: { $in: ids }, placement: 'placed' })
      .select({ _id: 1 })
      .lean<{ _id: Types.ObjectId }[]>();
    return placed.map((d) => d._id.toString());
  }

  /**
   * Claims the undo of an interrupted placement for `leaseMs` (one undoer at a time): `reserving`
   * becomes `undoing` (false when the placement finished first), or an `undoing` one whose last
   * claim has lapsed (its reconciler died midway) is taken again. False while another holds it.
   */
  async claimUndo(id: string, leaseMs: number, now = new Date()): Promise<boolean> {
    const until = new Date(now.getTime() + leaseMs);
    const res = await this.orders.updateOne(
      {
        _id: id,
        $or: [
          { placement: 'reserving' },
          {
            placement: 'undoing',
            $or: [{ reconcileUntil: null }, { reconcileUntil: { $lte: now } }],
          },
        ],
      },
      { $set: { placement: 'undoing', reconcileUntil: until } },
    );
    return res.modifiedCount === 1;
  }

  /**
   * Claims an order's unfinished work (`state`: what it still is, e.g. a stock return pending)
   * for one reconciler for `leaseMs`; false when it is finished or another holds it.
   */
  async claimUnfinished(
    id: string,
    state: FilterQuery<Order>,
    leaseMs: number,
    now = new Date(),
  ): Promise<boolean> {
    const until = new Date(now.getTime() + leaseMs);
    const res = await this.orders.updateOne(
      {
        _id: id,
        ...state,
        $or: [{ reconcileUntil: null }, { reconcileUntil: { $lte: now } }],
      },
      { $set: { reconcileUntil: until } },
    );
    return res.modifiedCount === 1;
  }

  /** Records that these orders' reservation markers left their products (one write for all). */
  async markSettled(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.orders.updateMany(
      { _id: { $in: ids }, ledgerSettled: false },
      { $set: { ledgerSettled: true } },
    );
  }

  async setFlags(
    id: string,
    flags: Partial<Pick<Order, 'ledgerSettled' | 'stockReturn'>>,
  ): Promise<void> {
    await this.orders.updateOne({ _id: id }, { $set: flags });
  }

  /** A batch's booking orders (placed), in booking order. */
  async bookingsOfBatch(batchId: string): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({ 'booking.batchId': batchId, placement: 'placed' })
      .sort({ orderDate: 1 })
      .limit(5000)
      .lean<LeanOrder[]>();
    return docs.map(toRecord);
  }

  /**
   * A booking's state changes from one of `from` (with `set`: other `booking.*` fields), in one
   * conditional update; false when it was no longer in one of them.
   */
  async setBookingState(
    id: string,
    from: readonly BookingState[],
    state: BookingState,
    set: Partial<Record<keyof OrderBooking, unknown>> = {},
  ): Promise<boolean> {
    const fields = Object.fromEntries(
      Object.entries({ ...set, state }).map(([key, value]) => [`booking.${key}`, value]),
    );
    const res = await this.orders.updateOne(
      { _id: id, 'booking.state': { $in: from } },
      { $set: fields },
    );
    return res.modifiedCount === 1;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.orders.deleteOne({ _id: id })).deletedCount === 1;
  }

  /** Work a crash may have left: placements never finished, markers not removed, returns not done. */
  async unfinished(
    reservingBefore: Date,
  ): Promise<{ reserving: OrderRecord[]; unsettled: OrderRecord[]; returning: OrderRecord[] }> {
    // One equality and one range per query, each a prefix of an index (placement/createdAt,
    // placement/ledgerSettled/createdAt, stockReturn/updatedAt): no scan of the years of orders.
    const find = (filter: FilterQuery<Order>) =>
      this.orders.find(filter).limit(500).lean<LeanOrder[]>();
    const before = { $lt: reservingBefore };
    const [reservingOnly, undoing, unsettled, pending, done] = await Promise.all([
      find({ placement: 'reserving', createdAt: before }),
      find({ placement: 'undoing', createdAt: before }),
      find({ placement: 'placed', ledgerSettled: false, createdAt: before }),
      find({ stockReturn: 'pending', updatedAt: before }),
      find({ stockReturn: 'done', updatedAt: before }),
    ]);
    const reserving = [...reservingOnly, ...undoing].slice(0, 500);
    const returning = [...pending, ...done].slice(0, 500);
    return {
      reserving: reserving.map(toRecord),
      unsettled: unsettled.map(toRecord),
      returning: returning.map(toRecord),
    };
  }

  /** Placed orders still Pending and unpaid, ordered before `before` (oldest first). */
  async unpaidPendingBefore(before: Date, limit = 100): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({
        placement: 'placed',
        orderStatus: 'Pending',
        paymentStatus: 'Pending',
        // A part-paid order holds the customer's money: a clerk settles it, not the clock.
        amountPaid: { $not: { $gt: 0 } },
        orderDate: { $lt: before },
      })
      .sort({ orderDate: 1 })
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.map(toRecord);
  }

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

  /** The orders written since `since` (by `updatedAt`), with the instant each was paid, if paid. */
  async changedSince(since: Date): Promise<{ _id: string; paidAt: Date | null }[]> {
    const docs = await this.orders
      .find({ updatedAt: { $gte: since } })
      .select({ paidAt: 1 })
      .lean<{ _id: { toString(): string }; paidAt: Date | null }[]>();
    return docs.map((d) => ({
      _id: d._id.toString(),
      paidAt: d.paidAt ? new Date(d.paidAt) : null,
    }));
  }

  /** The cap slots of these keys that open unpaid orders hold now. */
  async takenHoldSlots(keys: string[]): Promise<string[]> {
    if (!keys.length) return [];
    const prefixes = keys.map((k) => new RegExp(`^${escapeRegExp(slotPrefix(k))}`));
    const docs = await this.orders
      .find({ ...HOLDING, holdSlots: { $exists: true, $in: prefixes } })
      .select({ holdSlots: 1 })
      .lean<{ holdSlots: string[] }[]>();
    return docs.flatMap((d) => d.holdSlots);
  }

  /** True when an insert failed because another open unpaid order took one of its cap slots. */
  isHoldSlotCollision(error: unknown): boolean {
    return (
      duplicateKeyField(error) === 'holdSlots' ||
      (duplicateKeyField(error) !== undefined && String(error).includes(HOLD_SLOTS_INDEX))
    );
  }

  async count(): Promise<number> {
    return this.orders.countDocuments({ placement: 'placed' });
  }

  /** Placed bookings in one state and order status (a balance due by `dueBy` at the latest). */
  async bookingsIn(
    state: string,
    orderStatus: string | string[],
    options: { dueBefore?: string; dueBy?: string; skip?: number; limit?: number } = {},
  ): Promise<{ items: OrderRecord[]; total: number }> {
    const due = {
      ...(options.dueBefore ? { $lt: options.dueBefore } : {}),
      ...(options.dueBy ? { $lte: options.dueBy } : {}),
    };
    const query: FilterQuery<Order> = {
      'booking.state': state,
      orderStatus: Array.isArray(orderStatus) ? { $in: orderStatus } : orderStatus,
      ...(Object.keys(due).length ? { 'booking.balanceDueBy': due } : {}),
    };
    const [docs, total] = await Promise.all([
      this.orders
        .find(query)
        .sort({ 'booking.state': 1, orderStatus: 1, 'booking.balanceDueBy': 1 })
        .skip(options.skip ?? 0)
        .limit(options.limit ?? 100)
        .lean<LeanOrder[]>(),
      this.orders.countDocuments(query),
    ]);
    return { items: docs.filter((d) => d.placement === 'placed').map(toRecord), total };
  }

  /** Bookings with a move to another batch left unfinished since before `before`. */
  async movesPending(
    before: Date,
    limit = 50,
  ): Promise<(OrderRecord & { movingTo: string | null })[]> {
    const docs = await this.orders
      .find({ 'booking.movePending': true, updatedAt: { $lt: before } })
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.map((d) => ({ ...toRecord(d), movingTo: d.booking?.movingTo ?? null }));
  }

  /** Paid bookings sent out whose seedlings have not left their batch yet (a crash between). */
  async bookingsToFulfil(limit = 100): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({
        'booking.state': 'Paid',
        'booking.fulfilledAt': null,
        orderStatus: { $in: ['InTransit', 'Delivered', 'Completed'] },
      })
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.filter((d) => d.placement === 'placed').map(toRecord);
  }

  /** Bookings whose ready or affected notice is still to be sent (a crash after the change). */
  async bookingNoticesDue(limit = 100): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({ 'booking.noticeDue': true, 'booking.state': { $in: ['Balance due', 'Affected'] } })
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.filter((d) => d.placement === 'placed').map(toRecord);
  }

  async clearBookingNotice(id: string): Promise<void> {
    await this.orders.updateOne({ _id: id }, { $unset: { 'booking.noticeDue': '' } });
  }

  /** Deposits and balances of bookings received in [from, to) (KES), for the money received. */
  async bookingMoneyBetween(
    from: Date,
    to: Date,
  ): Promise<{ deposits: number; depositCount: number; balances: number; balanceCount: number }> {
    const [deposits, balances] = await Promise.all([
      this.orders
        .find({ 'booking.depositPaidAt': { $gte: from, $lt: to } })
        .select({ booking: 1, totalAmount: 1, placement: 1 })
        .lean<LeanOrder[]>(),
      this.orders
        .find({ 'booking.balancePaidAt': { $gte: from, $lt: to } })
        .select({ booking: 1, totalAmount: 1, placement: 1 })
        .lean<LeanOrder[]>(),
    ]);
    const placed = (d: LeanOrder) => d.placement === 'placed' && !!d.booking;
    const dep = deposits.filter(placed);
    const bal = balances.filter(placed);
    return {
      // A booking paid in full at once counts its deposit part as a deposit, the rest as balance.
      deposits: dep.reduce((n, d) => n + d.booking!.deposit, 0),
      depositCount: dep.length,
      balances: bal.reduce((n, d) => n + d.totalAmount - d.booking!.deposit, 0),
      balanceCount: bal.length,
    };
  }
}
