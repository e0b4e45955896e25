import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model, Types } from 'mongoose';
import { canonicalEmail, canonicalPhone } from '../common/identifiers';
import {
  ANONYMOUS_NAME,
  NO_PERSONAL_DATA,
  OwnsPersonalData,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { contactKeysOf, nationalDigits } from './order-contact-keys';
import { Order } from './schemas/order.schema';
import { OrderRefund } from './schemas/order-refund.schema';

/** Order statuses that are settled: nothing more can happen to the order. */
export const SETTLED_STATUSES = ['Completed', 'Cancelled'];

/** What the privacy module needs of a person's order to find, refuse or erase them. */
export interface PersonOrder {
  _id: string;
  purchaseNumber: string;
  orderStatus: string;
  /** `reserving` while its placement runs (see OrderPlacementService). */
  placement: string;
  fullName: string;
  phoneNumber: string;
  email: string;
}

type LeanOrder = Order & { _id: Types.ObjectId };

const PLACED = { $in: ['placed', 'undoing'] };

function personOrder(o: LeanOrder): PersonOrder {
  return {
    _id: String(o._id),
    purchaseNumber: o.purchaseNumber,
    orderStatus: o.orderStatus,
    placement: o.placement,
    fullName: o.guestInfo?.fullName ?? '',
    phoneNumber: o.guestInfo?.phoneNumber ?? '',
    email: o.guestInfo?.email ?? '',
  };
}

const PERSON_FIELDS = {
  _id: 1,
  purchaseNumber: 1,
  orderStatus: 1,
  placement: 1,
  'guestInfo.fullName': 1,
  'guestInfo.phoneNumber': 1,
  'guestInfo.email': 1,
} as const;

/**
 * Orders keep the name, phone, e-mail and address typed at checkout, the buyer's KRA PIN when they
 * gave one (issue 45) and the client's network address. Exported: the person's orders as they would read them, without the shop's internals
 * (hold slots, search keys, receipt keys, ledger states) or the staff who handled them. Erased: the
 * order stays whole (lines, totals, payment, dates: the sales report and the tax records do not
 * change) and loses the person.
 */
@Injectable()
@OwnsPersonalData()
export class OrdersPersonalData implements PersonalDataOwner {
  readonly collections = {
    orders:
      "the name, phone, e-mail and address typed at checkout, the buyer's KRA PIN given for a tax invoice, the network address it came from",
    order_refunds: 'the staff member who recorded each refund (no customer data)',
    order_idempotency: NO_PERSONAL_DATA,
    till_sale_keys: NO_PERSONAL_DATA,
  };

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(OrderRefund.name) private readonly refunds: Model<OrderRefund>,
  ) {}

  /** The orders an account placed, and any it is placing now (open: an erasure waits for them). */
  async ofAccount(accountId: string): Promise<PersonOrder[]> {
    const docs = await this.orders
      .find({ placedBy: accountId })
      .select(PERSON_FIELDS)
      .sort({ orderDate: 1 })
      .lean<LeanOrder[]>();
    return docs.map(personOrder);
  }

  /**
   * A guest's orders: every order without an account given with this phone (E.164), however it was
   * typed ("0781 354 880", "+254781354880"…), found by the search keys and checked canonically.
   */
  async ofGuestPhone(phone: string): Promise<PersonOrder[]> {
    const digits = nationalDigits(phone);
    if (!digits) return [];
    const docs = await this.orders
      .find({ placement: PLACED, contactKeys: digits, placedBy: null })
      .select(PERSON_FIELDS)
      .sort({ orderDate: 1 })
      .lean<LeanOrder[]>();
    return docs.map(personOrder).filter((o) => canonicalPhone(o.phoneNumber) === phone);
  }

  /** A guest order by its purchase number (null when it has an account or does not exist). */
  async guestOrder(purchaseNumber: string): Promise<PersonOrder | null> {
    const doc = await this.orders
      .findOne({ purchaseNumber, placedBy: null, placement: PLACED })
      .select(PERSON_FIELDS)
      .lean<LeanOrder>();
    return doc ? personOrder(doc) : null;
  }

  /** Settled orders placed before `before` that still name someone (the retention sweep's). */
  async pastRetention(before: Date, limit: number): Promise<PersonOrder[]> {
    const docs = await this.orders
      .find({
        orderDate: { $lt: before },
        orderStatus: { $in: SETTLED_STATUSES },
        // Not yet erased: by the mark, or (orders erased before it) by what they still hold; a
        // guest may have typed "Deleted customer" as their name.
        erasedAt: { $exists: false },
        $or: [
          { 'guestInfo.fullName': { $ne: ANONYMOUS_NAME } },
          { 'guestInfo.phoneNumber': { $ne: '' } },
          { 'guestInfo.email': { $ne: '' } },
        ],
      })
      .select(PERSON_FIELDS)
      .limit(limit)
      .lean<LeanOrder[]>();
    return docs.map(personOrder);
  }

  /** Purchase numbers of these orders that are not settled yet (erasure waits for them). */
  static open(orders: PersonOrder[]): string[] {
    return orders
      .filter((o) => !SETTLED_STATUSES.includes(o.orderStatus))
      .map((o) => o.purchaseNumber);
  }

  /** The names, canonical phones and folded e-mails these orders were given with. */
  static contactsOf(orders: PersonOrder[]) {
    const names = orders.map((o) => o.fullName).filter((n) => n && n !== ANONYMOUS_NAME);
    const phones = orders
      .map((o) => o.phoneNumber)
      .filter(Boolean)
      .map(canonicalPhone);
    const emails = orders
      .map((o) => o.email)
      .filter(Boolean)
      .map(canonicalEmail);
    return { names, phones, emails };
  }

  private async eraseAsContact(subject: DataSubject): Promise<void> {
    const docs = await this.orders
      .find({ organisationId: { $exists: true }, placedBy: { $ne: subject.accountId } })
      .select({ ...PERSON_FIELDS, organisationId: 1 })
      .lean<(LeanOrder & { organisationId?: string })[]>();
    const ids = docs
      .filter((o) =>
        subject.otherIds.includes(o.organisationId ?? '')
          ? namesContact(personOrder(o), subject)
          : namesContact(personOrder(o), { names: [], ...subject.proven }),
      )
      .map((o) => o._id);
    if (!ids.length) return;
    await this.orders.updateMany(
      { _id: { $in: ids } },
      {
        $set: {
          'guestInfo.fullName': ANONYMOUS_NAME,
          'guestInfo.phoneNumber': '',
          'guestInfo.email': '',
          contactKeys: contactKeysOf({ fullName: ANONYMOUS_NAME }),
        },
      },
      { timestamps: false },
    );
  }

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    if (!subject.orderIds.length) return { orders: [], payments: [], refunds: [] };
    const docs = await this.orders
      .find({ _id: { $in: subject.orderIds } })
      .sort({ orderDate: 1 })
      .lean<LeanOrder[]>();
    const refunds = await this.refunds
      .find({ orderId: { $in: subject.orderIds } })
      .sort({ refundedAt: 1 })
      .lean();
    return {
      orders: docs.map(orderForPerson),
      payments: docs
        .filter((o) => o.paymentDetails)
        .map((o) => ({
          kind: 'payment',
          purchaseNumber: o.purchaseNumber,
          paymentMethod: o.paymentMethod,
          amount: o.paymentDetails!.amount,
          transactionCode: o.paymentDetails!.transactionCode,
          timePaid: o.paymentDetails!.timePaid,
        })),
      refunds: refunds.map((r) => ({
        kind: 'refund',
        purchaseNumber: r.purchaseNumber,
        method: r.method,
        amount: r.amount,
        reference: r.reference,
        refundedAt: r.refundedAt,
      })),
    };
  }

  async erase(subject: DataSubject): Promise<void> {
    await this.eraseAsContact(subject);
    if (!subject.orderIds.length) return;
    await this.orders.updateMany(
      { _id: { $in: subject.orderIds } },
      {
        $set: {
          'guestInfo.fullName': ANONYMOUS_NAME,
          'guestInfo.phoneNumber': '',
          'guestInfo.email': '',
          'guestInfo.streetAddress': '',
          'guestInfo.ward': '',
          'guestInfo.subCounty': '',
          kraPin: null,
          clientAddress: null,
          // The search finds an erased order only by what it still shows.
          contactKeys: contactKeysOf({ fullName: ANONYMOUS_NAME }),
          erasedAt: new Date(),
        },
        // A settled order holds no slot of the open-order caps; their names key the person.
        $unset: { holdSlots: '' },
      },
      { timestamps: false },
    );
  }
}

/**
 * Orders from quotations are delivered to their organisation's delivery contact, who may be a
 * person other than the one they were placed for. The person erased leaves them as they leave the
 * organisation's contacts (OrganisationsPersonalData): in the orders of the organisation they buy
 * for, matched by name, e-mail or phone; in any other organisation's, only by an address proven
 * theirs. The order keeps its site; the shop asks the organisation for its new contact.
 */
function namesContact(
  o: PersonOrder,
  by: { names: string[]; emails: string[]; phones: string[] },
): boolean {
  const name = o.fullName.trim().toLowerCase();
  return (
    (!!o.email && by.emails.includes(canonicalEmail(o.email))) ||
    (!!o.phoneNumber && by.phones.includes(canonicalPhone(o.phoneNumber))) ||
    (name !== '' && by.names.some((n) => n.trim().toLowerCase() === name))
  );
}

/** An order as its person reads it in their export: no internals, no staff. */
function orderForPerson(o: LeanOrder): Record<string, unknown> {
  const b = o.booking;
  return {
    _id: String(o._id),
    purchaseNumber: o.purchaseNumber,
    orderDate: o.orderDate,
    orderStatus: o.orderStatus,
    paymentStatus: o.paymentStatus,
    fulfillmentStatus: o.fulfillmentStatus,
    paymentMethod: o.paymentMethod,
    guestInfo: o.guestInfo,
    kraPin: o.kraPin ?? null,
    products: o.products.map((l) => ({
      productName: l.productName,
      unitName: l.unitName ?? null,
      unitPrice: l.unitPrice,
      quantity: l.quantity,
      lineTotal: l.lineTotal,
    })),
    subtotal: o.subtotal,
    shippingFee: o.shippingFee,
    delivery: o.delivery ?? null,
    totalAmount: o.totalAmount,
    amountPaid: o.amountPaid,
    paidAt: o.paidAt,
    estimatedDeliveryDate: o.estimatedDeliveryDate,
    inTransitDate: o.inTransitDate,
    deliveredDate: o.deliveredDate,
    cancelledDate: o.cancelledDate,
    clientAddress: o.clientAddress ?? null,
    booking: b
      ? {
          productName: b.productName,
          readyOn: b.readyOn,
          deposit: b.deposit,
          balance: b.balance,
          state: b.state,
          depositPaidAt: b.depositPaidAt,
          readyAt: b.readyAt,
          balanceDueBy: b.balanceDueBy,
          balancePaidAt: b.balancePaidAt,
          releasedAt: b.releasedAt,
        }
      : null,
  };
}
