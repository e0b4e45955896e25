import type { OrderTill } from './schemas/order.schema';
import type {
  BookingState,
  FulfillmentStatus,
  OrderQueue,
  OrderSortField,
  OrderDeliveryView,
  OrderStatus,
  PaymentMethod,
  PaymentStatus,
  SortOrder,
} from '@spc/shared-contracts';
import type { PlacementState, StockReturnState } from './schemas/order.schema';

export interface DeliveryInfoView {
  fullName: string;
  phoneNumber: string;
  email: string;
  county: string;
  subCounty: string;
  ward: string;
  streetAddress: string;
}

export interface OrderLineView {
  product: { _id: string; productName: string; productImage: string };
  productName: string;
  productImage: string;
  unitPrice: number;
  quantity: number;
  lineTotal: number;
  /** The unit sold: quantity counts it, and took quantity × seedlings from stock. */
  unit: { _id: string; name: string; seedlings: number };
  /** The quantity price applied, or null. */
  tier: { minQuantity: number; price: number } | null;
  /**
   * On an order from a quotation, what holds the line: the growing batch, or null for ready stock
   * (absent on other orders: a booking's lines are on its batch, the rest on ready stock).
   */
  batchId?: string | null;
}

/** A booking of seedlings still growing, as the API answers it (dates as ISO instants). */
export interface OrderBookingView {
  batchId: string;
  productName: string;
  /** `YYYY-MM-DD` */
  readyOn: string;
  depositPercent: number;
  deposit: number;
  balance: number;
  state: BookingState;
  depositPaidAt: string | null;
  depositReceipt: string | null;
  readyAt: string | null;
  /** `YYYY-MM-DD`: the shop day the balance is due by once the batch is ready. */
  balanceDueBy: string | null;
  balancePaidAt: string | null;
  releasedAt: string | null;
  releaseDecision: 'kept' | 'refunded' | null;
  problem: 'failed' | 'short' | null;
  movedFromBatchId: string | null;
  /** When its seedlings left the batch as a sale (dispatched), once. */
  fulfilledAt: string | null;
}

/** An order as the API stores it (before names of people are joined in). */
export interface OrderRecord {
  _id: string;
  purchaseNumber: string;
  placedBy: string | null;
  guestInfo: DeliveryInfoView;
  /** The buyer's KRA PIN the receipt is a tax invoice to (issue 45); null: none. */
  kraPin: string | null;
  products: OrderLineView[];
  subtotal: number;
  shippingFee: number;
  delivery: OrderDeliveryView;
  totalAmount: number;
  orderStatus: OrderStatus;
  paymentStatus: PaymentStatus;
  fulfillmentStatus: FulfillmentStatus;
  paymentMethod: PaymentMethod | null;
  paymentDetails: {
    amount: number;
    transactionCode: string;
    timePaid: string | null;
    completedBy: { _id: string; fullName: string };
  } | null;
  paidAt: string | null;
  orderDate: string;
  estimatedDeliveryDate: string;
  inTransitDate: string | null;
  deliveredDate: string | null;
  cancelledDate: string | null;
  createdAt: string;
  updatedAt: string;
  placement: PlacementState;
  ledgerSettled: boolean;
  stockReturn: StockReturnState;
  /** The money-ledger entries credited to it (internal: not in the API's views). */
  credited: string[];
  /** The outgoing entries its cancellation recorded (internal). */
  refundOut: string[];
  /** Paid so far (paybill part payments; the payment's amount once paid). */
  amountPaid: number;
  /** What is still due while unpaid. */
  amountOutstanding: number;
  /** Paid beyond the total (an over-payment), to refund. */
  excessPaid: number;
  /** What the customer is asked to pay now (a booking: the deposit, then the balance). */
  amountDueNow: number;
  /** A booking of seedlings still growing; null on an ordinary order. */
  booking: OrderBookingView | null;
  /** The accepted quotation the order is, with its organisation and LPO number (issue 42). */
  quotation?: { quotationId: string; organisationId: string; lpoNumber: string };
  /** On account (issue 43): its money is due by its invoice; false on every other order. */
  onAccount: boolean;
  /** Delivered in tranches (issue 43): its stock goes out tranche by tranche. */
  inTranches: boolean;
  /** `gate`: a sale at the till (issue 46); `web` for every other order. */
  channel: 'web' | 'gate';
  /** A gate sale's till record (internal: the till's views show it). */
  till?: OrderTillRecord;
}

/** A gate sale's till record, as stored. */
export type OrderTillRecord = OrderTill;

export interface OrderListFilter {
  placedBy?: string;
  orderStatus?: OrderStatus;
  paymentStatus?: PaymentStatus;
  search?: string;
  from?: Date;
  to?: Date;
  /** A work-queue bucket (see ORDER_QUEUE_RULES). */
  queue?: OrderQueue;
  sortBy?: OrderSortField;
  sortOrder?: SortOrder;
  /** Totals from (included) and to (excluded): where the rollup says a page sorted by total is. */
  amountFrom?: number;
  amountTo?: number;
}
