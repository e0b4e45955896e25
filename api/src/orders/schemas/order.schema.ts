import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import {
  BOOKING_STATES,
  DELIVERY_METHODS,
  FULFILLMENT_STATUSES,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  type BookingState,
  type DeliveryMethod,
  type FulfillmentStatus,
  type OrderStatus,
  type PaymentMethod,
  type PaymentStatus,
} from '@spc/shared-contracts';
import { MONEY_WRITE_CONCERN } from '../../common/write-concern';

@Schema({ _id: false })
export class DeliveryInfo {
  @Prop({ required: true }) fullName!: string;
  /** Empty on an erased order, and on a gate sale without the buyer's phone (none e-mail). */
  @Prop({ type: String, default: '' }) phoneNumber!: string;
  @Prop({ type: String, default: '' }) email!: string;
  @Prop({ type: String, default: '' }) county!: string;
  @Prop({ default: '' }) subCounty!: string;
  @Prop({ default: '' }) ward!: string;
  @Prop({ required: true }) streetAddress!: string;
}

/** One line as it was sold: the product's name, image and unit price at the time of the order. */
@Schema({ _id: false })
export class OrderLine {
  @Prop({ required: true }) productId!: string;
  @Prop({ required: true }) productName!: string;
  @Prop({ default: '' }) productImage!: string;
  @Prop({ required: true }) unitPrice!: number;
  @Prop({ required: true }) quantity!: number;
  @Prop({ required: true }) lineTotal!: number;
  /** The sale unit as it was sold (issue 29); absent on older lines: the single seedling. */
  @Prop({ type: String }) unitId?: string;
  @Prop({ type: String }) unitName?: string;
  /** Seedlings one unit held when sold: the line took quantity × seedlings from stock. */
  @Prop({ type: Number }) seedlings?: number;
  /** The quantity price applied ({ minQuantity, price }), or null. */
  @Prop({ type: Object, default: null }) tier?: { minQuantity: number; price: number } | null;
  /**
   * What holds the line, on an order whose lines each name theirs (an order from a quotation): the
   * growing batch, or null for ready stock. Absent on other orders: a booking's lines are on its
   * batch, any other order's on ready stock.
   */
  @Prop({ type: String, default: undefined }) batchId?: string | null;
}

/** How the order reaches the shopper, as charged when it was placed. */
@Schema({ _id: false })
export class OrderDelivery {
  @Prop({ type: String, enum: DELIVERY_METHODS, required: true }) method!: DeliveryMethod;
  @Prop({ required: true }) zoneName!: string;
  @Prop({ required: true }) days!: number;
}

@Schema({ _id: false })
export class PaymentDetails {
  @Prop({ required: true }) amount!: number;
  @Prop({ default: '' }) transactionCode!: string;
  @Prop({ type: Date, default: null }) timePaid!: Date | null;
  @Prop({ required: true }) completedById!: string;
  @Prop({ required: true }) completedByName!: string;
  /**
   * The transaction code in its one spelling (`canonicalReceiptCode`), absent without a code. A
   * unique index (OrdersRepository) lets one code pay one order, ever.
   */
  @Prop({ type: String, default: undefined }) receiptKey?: string;
}

/**
 * One money-ledger entry credited to the order, with how it counted (deposit, balance, beyond the
 * total): pushed in the same conditional write that adds its amount, so an entry counts once.
 */
@Schema({ _id: false })
export class MoneyCredit {
  @Prop({ required: true }) entry!: string;
  @Prop({ required: true }) amount!: number;
  @Prop({ default: 0 }) deposit!: number;
  @Prop({ default: 0 }) balance!: number;
  @Prop({ default: 0 }) excess!: number;
  @Prop({ required: true }) at!: Date;
}

/** One M-Pesa paybill payment credited to an order before the money ledger (read by the migration). */
@Schema({ _id: false })
export class MpesaCredit {
  @Prop({ required: true }) transId!: string;
  @Prop({ required: true }) amount!: number;
  @Prop({ required: true }) at!: Date;
}

/** One payment of a gate sale as the till took it (`given`, `change`: cash handed over and back). */
@Schema({ _id: false })
export class TillPayment {
  @Prop({ type: String, required: true }) method!: 'cash' | 'mpesa-express' | 'mpesa-code';
  @Prop({ required: true }) amount!: number;
  @Prop({ type: Number, default: null }) given!: number | null;
  @Prop({ type: Number, default: null }) change!: number | null;
  @Prop({ type: String, default: null }) code!: string | null;
  /** `waiting`: an M-Pesa prompt not answered yet. */
  @Prop({ type: String, default: 'received' }) state!: 'received' | 'waiting' | 'failed';
  /** The money-ledger entry it is (set once recorded). */
  @Prop({ type: String, default: null }) entry!: string | null;
}

/** A void or a refund at the till, with who approved it by their PIN. */
@Schema({ _id: false })
export class TillReversal {
  @Prop({ required: true }) amount!: number;
  @Prop({ required: true }) byId!: string;
  @Prop({ required: true }) byName!: string;
  @Prop({ required: true }) approvedById!: string;
  @Prop({ required: true }) approvedByName!: string;
  @Prop({ required: true }) reason!: string;
  @Prop({ required: true }) at!: Date;
  /** The money-ledger outgoing entries it recorded. */
  @Prop({ type: [String], default: [] }) out!: string[];
}

/**
 * A sale at the gate (issue 46): the till session it was rung up in, who sold it, how it was paid
 * (the change given), and its void or refunds. Its buyer's phone, if given, is `guestInfo`'s.
 */
@Schema({ _id: false })
export class OrderTill {
  @Prop({ required: true }) sessionId!: string;
  @Prop({ required: true }) sellerId!: string;
  @Prop({ required: true }) sellerName!: string;
  @Prop({ type: [TillPayment], default: [] }) payments!: TillPayment[];
  @Prop({ default: 0 }) change!: number;
  @Prop({ type: TillReversal, default: null }) voided!: TillReversal | null;
  @Prop({ type: [TillReversal], default: [] }) refunds!: TillReversal[];
  /** What the refunds took, moved in the same conditional write that pushes one. */
  @Prop({ default: 0 }) refunded!: number;
  /**
   * Sold while the till was offline (issue 47): the till's time of sale (the order's date) and
   * the prices it charged that differ from the shop's when it arrived.
   */
  @Prop({ type: Object, default: null }) offline!: {
    soldAt: Date;
    changed: { productId: string; unitId: string; name: string; till: number; now: number }[];
  } | null;
  /**
   * Handed over with its M-Pesa code not counted as money (issue 47): why, what is unpaid and the
   * code; null once settled (or never).
   */
  @Prop({ type: Object, default: null }) attention!: {
    reasons: ('code-unconfirmed' | 'code-taken' | 'code-amount')[];
    unpaid: number;
    code: string | null;
  } | null;
  /** A line took its product's stock below zero (flagged short on the stock ledger). */
  @Prop({ default: false }) short!: boolean;
  /**
   * When a settle of this sale began (issue 47), while it runs: a second settle sent meanwhile
   * waits for it and answers the sale as it left it, so the money is taken once.
   */
  @Prop({ type: Date, default: null }) settling?: Date | null;
  /**
   * The clerk's Idempotency-Key it was placed under (as `till_sale_keys` stores it), so a key the
   * crash left uncompleted (the order placed, the key not yet pointing at it) is completed with
   * this order by the reconciler, never released for a second sale.
   */
  @Prop({ type: String, default: undefined }) key?: string;
}

/**
 * A booking of seedlings still growing (issue 32): the order's lines are held against one batch
 * (not ready stock), a deposit is paid now and the balance when the batch is ready. Null on
 * ordinary orders.
 */
@Schema({ _id: false })
export class OrderBooking {
  @Prop({ required: true }) batchId!: string;
  @Prop({ required: true }) productName!: string;
  /** The batch's ready date when booked (`YYYY-MM-DD`). */
  @Prop({ required: true }) readyOn!: string;
  @Prop({ required: true }) depositPercent!: number;
  /** round(total × depositPercent / 100), whole KES; the balance is the rest of the total. */
  @Prop({ required: true }) deposit!: number;
  @Prop({ required: true }) balance!: number;
  @Prop({ type: String, enum: BOOKING_STATES, required: true }) state!: BookingState;
  @Prop({ type: Date, default: null }) depositPaidAt!: Date | null;
  @Prop({ type: String, default: null }) depositReceipt!: string | null;
  @Prop({ type: Date, default: null }) readyAt!: Date | null;
  @Prop({ type: String, default: null }) balanceDueBy!: string | null;
  @Prop({ type: Date, default: null }) balancePaidAt!: Date | null;
  @Prop({ type: Date, default: null }) releasedAt!: Date | null;
  @Prop({ type: String, enum: ['kept', 'refunded', null], default: null })
  releaseDecision!: 'kept' | 'refunded' | null;
  @Prop({ type: String, enum: ['failed', 'short', null], default: null })
  problem!: 'failed' | 'short' | null;
  @Prop({ type: String, default: null }) movedFromBatchId!: string | null;
  /**
   * A move to another batch under way (`movingTo` while the new hold is taken; then until the old
   * hold is released): a crash midway is finished or undone by the bookings sweep.
   */
  @Prop({ type: Boolean, default: undefined }) movePending?: boolean;
  @Prop({ type: String, default: undefined }) movingTo?: string | null;
  /** True from a change the customer must be told of (ready, affected) until they are told. */
  @Prop({ type: Boolean, default: undefined }) noticeDue?: boolean;
  /** Set once its seedlings left the batch as a sale (dispatched). */
  @Prop({ type: Date, default: null }) fulfilledAt?: Date | null;
}

/**
 * Placement is recoverable without transactions: an order is written `reserving`, then each line's
 * stock is reserved on its product (atomically, recorded on the product), then the order becomes
 * `placed`. Start-up and a timer finish or undo whatever a crash left half-done (see reconciler).
 */
/**
 * `reserving` while its stock is being reserved, `placed` once done; `undoing` when the reconciler
 * gave the placement up (it took too long or its process died) and is returning what it reserved.
 */
export type PlacementState = 'reserving' | 'placed' | 'undoing';
/** Cancellation's stock return: `pending` until every line is back, `done` then, `cleared` when tidy. */
export type StockReturnState = 'none' | 'pending' | 'done' | 'cleared';

@Schema({ collection: 'orders', timestamps: true, writeConcern: MONEY_WRITE_CONCERN })
export class Order {
  @Prop({ required: true }) purchaseNumber!: string;
  @Prop({ type: String, default: null }) placedBy!: string | null;
  @Prop({ type: DeliveryInfo, required: true }) guestInfo!: DeliveryInfo;
  /**
   * What the back office's search finds the order by: the starts of its contact's name and e-mail
   * words, the e-mail, the phone's start and end (order-contact-keys.ts). Written with `guestInfo`.
   */
  @Prop({ type: [String], default: undefined }) contactKeys?: string[];
  @Prop({ type: [OrderLine], required: true }) products!: OrderLine[];
  @Prop({ required: true }) subtotal!: number;
  @Prop({ required: true }) shippingFee!: number;
  /** Null on orders placed before delivery zones (they were delivered at KES 0 in 3 days). */
  @Prop({ type: OrderDelivery, default: null }) delivery?: OrderDelivery | null;
  @Prop({ required: true }) totalAmount!: number;
  @Prop({ type: String, enum: ORDER_STATUSES, default: 'Pending' }) orderStatus!: OrderStatus;
  @Prop({ type: String, enum: PAYMENT_STATUSES, default: 'Pending' }) paymentStatus!: PaymentStatus;
  @Prop({ type: String, enum: FULFILLMENT_STATUSES, default: 'Unfulfilled' })
  fulfillmentStatus!: FulfillmentStatus;
  @Prop({ type: String, enum: [...PAYMENT_METHODS, null], default: null })
  paymentMethod!: PaymentMethod | null;
  @Prop({ type: PaymentDetails, default: null }) paymentDetails!: PaymentDetails | null;
  /** When the payment was recorded; what the sales figures count by. */
  @Prop({ type: Date, default: null }) paidAt!: Date | null;
  @Prop({ required: true }) orderDate!: Date;
  @Prop({ required: true }) estimatedDeliveryDate!: Date;
  @Prop({ type: Date, default: null }) inTransitDate!: Date | null;
  @Prop({ type: Date, default: null }) deliveredDate!: Date | null;
  @Prop({ type: Date, default: null }) cancelledDate!: Date | null;
  @Prop({ type: String, default: 'reserving' }) placement!: PlacementState;
  /** The network address the order was placed from. */
  @Prop({ type: String, default: null }) clientAddress?: string | null;
  /**
   * The buyer's KRA PIN (issue 45): the receipt is a tax invoice to it, in the name the order
   * carries. Null when none was given (and on orders from before).
   */
  @Prop({ type: String, default: null }) kraPin?: string | null;
  /**
   * The slots of the open unpaid order caps this order holds while it is Pending and unpaid
   * (`OrderHoldLimits`); a unique partial index (OrdersRepository) lets each be held once.
   */
  @Prop({ type: [String], default: undefined }) holdSlots?: string[];
  /** True once the products' reservation markers of this order are removed. */
  @Prop({ default: false }) ledgerSettled!: boolean;
  @Prop({ type: String, default: 'none' }) stockReturn!: StockReturnState;
  /**
   * A reconciler finishing or undoing what a crash left of this order (an undo, a settle, a stock
   * return) holds it until then; another takes it only after (the first died midway).
   */
  @Prop({ type: Date, default: undefined }) reconcileUntil?: Date;
  /**
   * Money credited toward the order (part payments add up; the one that reaches the amount due
   * pays it); older orders' paybill credits are in `mpesaCredits`.
   */
  @Prop({ default: 0 }) amountPaid!: number;
  @Prop({ type: [MpesaCredit], default: undefined }) mpesaCredits?: MpesaCredit[];
  /**
   * The money-ledger entries credited to the order (issue 38): `amountPaid` is their sum, moved in
   * the same conditional write (`money:check` proves it).
   */
  @Prop({ type: [MoneyCredit], default: undefined }) moneyCredits?: MoneyCredit[];
  /** The money-ledger outgoing entries its cancellation gave back, written with the cancellation. */
  @Prop({ type: [String], default: undefined }) refundOut?: string[];
  /** A booking of seedlings still growing; null on an ordinary order. */
  @Prop({ type: OrderBooking, default: null }) booking?: OrderBooking | null;
  /**
   * The accepted quotation this order is (issue 42), its organisation and LPO number; absent on
   * other orders. Unique indexes (OrdersRepository): one order per quotation, an organisation's
   * LPO number (`lpoKey`, its one spelling) on one order.
   */
  @Prop({ type: String, default: undefined }) quotationId?: string;
  @Prop({ type: String, default: undefined }) organisationId?: string;
  @Prop({ type: String, default: undefined }) lpoNumber?: string;
  @Prop({ type: String, default: undefined }) lpoKey?: string;
  /**
   * On account (issue 43): its organisation's terms let it order on account when the quotation
   * was accepted. Its money is due by its invoice: the clock does not cancel it unpaid.
   */
  @Prop({ type: Boolean, default: undefined }) onAccount?: boolean;
  /**
   * Delivered in tranches (issue 43): set when its first tranche is planned, never unset. Its
   * stock goes out tranche by tranche, so the whole order's in-transit, delivered and completed
   * steps are refused while its tranches are under way (orders/order-tranche-steps.ts).
   */
  @Prop({ type: Boolean, default: undefined }) inTranches?: boolean;
  /** `gate`: sold at the till and handed over at once (issue 46); absent on the web shop's. */
  @Prop({ type: String, enum: ['web', 'gate'], default: undefined }) channel?: 'web' | 'gate';
  @Prop({ type: OrderTill, default: undefined }) till?: OrderTill;
  /** When the order lost its person (an erasure or the retention sweep; issue 39). */
  @Prop({ type: Date, default: undefined }) erasedAt?: Date;
  createdAt!: Date;
  updatedAt!: Date;
}

export const OrderSchema = SchemaFactory.createForClass(Order);
OrderSchema.index({ purchaseNumber: 1 }, { unique: true });
// A list sorts by a field and then `_id` (pages never repeat or skip an order): its index ends in
// both, or the database sorts every match to break the ties (200,000 orders in three years).
OrderSchema.index({ placement: 1, orderDate: -1, _id: -1 });
OrderSchema.index({ orderStatus: 1, orderDate: -1 });
OrderSchema.index({ placement: 1, totalAmount: -1, _id: -1 });
OrderSchema.index({ placedBy: 1, orderDate: -1 });
OrderSchema.index({ paymentStatus: 1, paidAt: 1 });
OrderSchema.index({ placement: 1, createdAt: 1 });
OrderSchema.index({ stockReturn: 1 });
OrderSchema.index({ ledgerSettled: 1 });
// The back office's lists, counts and figures (issue 33): each query's fields are a prefix of one
// index, an `$in` or a range last (SecantusDB plans by that rule; the explain test
// api/test/backoffice-explain.e2e-spec.ts fails on a collection scan).
OrderSchema.index({ placement: 1, orderStatus: 1, orderDate: -1, _id: -1 });
OrderSchema.index({ placement: 1, paymentStatus: 1, orderDate: -1, _id: -1 });
OrderSchema.index({ placement: 1, paymentStatus: 1, orderStatus: 1, orderDate: -1, _id: -1 });
OrderSchema.index({ placement: 1, paymentStatus: 1, paidAt: 1 });
OrderSchema.index({ placedBy: 1, placement: 1, orderDate: -1, _id: -1 });
// The search by a contact's name, e-mail or phone: one key by equality, newest first.
OrderSchema.index({ placement: 1, contactKeys: 1, orderDate: -1, _id: -1 });
// What the reconciler looks for after a crash, read every interval.
OrderSchema.index({ placement: 1, ledgerSettled: 1, createdAt: 1 });
OrderSchema.index({ stockReturn: 1, updatedAt: 1 });
// A batch's bookings in booking order, and the bookings queue by state.
OrderSchema.index({ 'booking.batchId': 1, placement: 1, orderDate: 1 });
OrderSchema.index({ 'booking.state': 1, orderDate: 1 });
// What the sales rollup reads to find the days to rebuild (reports/sales-rollup.ts).
OrderSchema.index({ updatedAt: 1 });
// Bookings (issue 32): the queue's tabs and counts, the sweeps (deposits reached, balances to
// release, ready batches caught up), a batch's bookings, and the money received per day.
OrderSchema.index({ 'booking.state': 1, orderStatus: 1, 'booking.balanceDueBy': 1 });
OrderSchema.index({ 'booking.state': 1, amountPaid: 1 });
OrderSchema.index({ 'booking.movePending': 1, updatedAt: 1 });
// The notices owed after a batch's step (the sweep runs every few seconds: never a scan).
OrderSchema.index({ 'booking.noticeDue': 1, 'booking.state': 1 });
OrderSchema.index({ 'booking.state': 1, 'booking.fulfilledAt': 1, orderStatus: 1 });
OrderSchema.index({ 'booking.depositPaidAt': 1 });
OrderSchema.index({ 'booking.balancePaidAt': 1 });
// A till session's sales (its cash-up and the day's list for reprints).
OrderSchema.index({ 'till.sessionId': 1, orderDate: 1 });

/** `Idempotency-Key` of an order placement: the first answer is kept and replayed for retries. */
@Schema({ collection: 'order_idempotency', versionKey: false })
export class OrderIdempotency {
  @Prop({ required: true }) key!: string;
  @Prop({ required: true }) fingerprint!: string;
  @Prop({ type: String, default: null }) orderId!: string | null;
  @Prop({ required: true, default: () => new Date() }) createdAt!: Date;
}

export const OrderIdempotencySchema = SchemaFactory.createForClass(OrderIdempotency);
OrderIdempotencySchema.index({ key: 1 }, { unique: true });
OrderIdempotencySchema.index({ createdAt: 1 }, { expireAfterSeconds: 24 * 60 * 60 });

/**
 * A till sale's `Idempotency-Key` (issue 47): kept with no expiry, so a sale queued offline over a
 * weekend and sent days later still answers the first sale, never a second one. The same shape as
 * `order_idempotency` (PlacementKeys works on either store).
 */
@Schema({ collection: 'till_sale_keys', versionKey: false })
export class TillSaleKey extends OrderIdempotency {}

export const TillSaleKeySchema = SchemaFactory.createForClass(TillSaleKey);
TillSaleKeySchema.index({ key: 1 }, { unique: true });
