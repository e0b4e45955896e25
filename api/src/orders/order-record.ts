import { DEFAULT_DELIVERY_ZONE, DEFAULT_UNIT_NAME } from '@spc/shared-contracts';
import type { OrderRecord } from './order.types';
import { amountDueNow } from './order-credit-rule';
import type { Order, OrderBooking, OrderLine } from './schemas/order.schema';

/** An order as the driver reads it (`lean`). */
export type LeanOrder = Order & { _id: { toString(): string } };
export const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A line's unit and tier; lines from before sale units were single seedlings. */
export function lineUnit(l: OrderLine): Pick<OrderRecord['products'][number], 'unit' | 'tier'> {
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

/** A stored order as the API hands it on: plain, with what is paid and due worked out. */
export function toRecord(doc: LeanOrder): OrderRecord {
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
    kraPin: doc.kraPin ?? null,
    products: doc.products.map((l) => ({
      product: { _id: l.productId, productName: l.productName, productImage: l.productImage ?? '' },
      productName: l.productName,
      productImage: l.productImage ?? '',
      unitPrice: l.unitPrice,
      quantity: l.quantity,
      lineTotal: l.lineTotal,
      ...lineUnit(l),
      // Only on an order whose lines name their hold (from a quotation): other orders as before.
      ...(l.batchId !== undefined ? { batchId: l.batchId } : {}),
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
    onAccount: doc.onAccount === true,
    inTranches: doc.inTranches === true,
    channel: doc.channel ?? 'web',
    ...(doc.till ? { till: doc.till } : {}),
    ...(doc.quotationId
      ? {
          quotation: {
            quotationId: doc.quotationId,
            organisationId: doc.organisationId!,
            lpoNumber: doc.lpoNumber!,
          },
        }
      : {}),
  };
  const money = { ...record, ...amounts(doc) };
  return { ...money, amountDueNow: amountDueNow(money) };
}

/** What placement writes of a new order; the repository writes the rest. */
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
