import {
  DEFAULT_UNIT_NAME,
  lineItemName,
  statusLabel,
  type CsvValue,
  type OrderStatus,
  type PaymentStatus,
} from '@spc/shared-contracts';
import { shopDateTime } from '../common/shop-clock';
import type { Order } from './schemas/order.schema';

/** The CSV export's columns, in order. */
export const EXPORT_HEADER = [
  'Purchase number',
  'Order date (Nairobi)',
  'Customer',
  'Phone',
  'E-mail',
  'County',
  'Sub-county',
  'Ward',
  'Street address',
  'Products',
  'Items',
  'Subtotal (KES)',
  'Delivery (KES)',
  'Total (KES)',
  'Deposit (KES)',
  'Balance (KES)',
  'Payment status',
  'Payment method',
  'Transaction code',
  'Paid at (Nairobi)',
  'Order status',
  'Fulfillment status',
] as const;

/**
 * The fields of an order its row needs, and only those: an order of years holds its search keys,
 * money entries and images too, and reading them for thousands of orders was most of an export.
 */
export const EXPORT_FIELDS = {
  _id: 0,
  purchaseNumber: 1,
  orderDate: 1,
  placedBy: 1,
  guestInfo: 1,
  'products.productName': 1,
  'products.quantity': 1,
  'products.unitName': 1,
  'products.seedlings': 1,
  'products.tier': 1,
  subtotal: 1,
  shippingFee: 1,
  totalAmount: 1,
  'booking.deposit': 1,
  'booking.balance': 1,
  paymentStatus: 1,
  paymentMethod: 1,
  'paymentDetails.transactionCode': 1,
  paidAt: 1,
  orderStatus: 1,
  fulfillmentStatus: 1,
} as const;

/** An order as the export reads it (EXPORT_FIELDS), as stored. */
export interface ExportOrder {
  purchaseNumber: string;
  orderDate: Date;
  placedBy?: string | null;
  guestInfo: Pick<
    Order['guestInfo'],
    'fullName' | 'phoneNumber' | 'email' | 'county' | 'streetAddress'
  > & { subCounty?: string; ward?: string };
  products: {
    productName: string;
    quantity: number;
    unitName?: string;
    seedlings?: number;
    tier?: { minQuantity: number; price: number } | null;
  }[];
  subtotal: number;
  shippingFee: number;
  totalAmount: number;
  booking?: { deposit?: number; balance?: number } | null;
  paymentStatus: PaymentStatus;
  paymentMethod?: string | null;
  paymentDetails?: { transactionCode?: string } | null;
  paidAt?: Date | null;
  orderStatus: OrderStatus;
  fulfillmentStatus: string;
}

/**
 * One order's row: the customer by their account's name when they placed it signed in (`name`),
 * else as typed on the order; each line as documents name it ("Tomato Anna F1 (Tray of 50) ·
 * 10+ price x 2"), and the seedlings of all lines; a booking's deposit and balance, blank on an
 * ordinary order; times in Nairobi.
 */
export function exportRow(o: ExportOrder, name: string | undefined): CsvValue[] {
  const g = o.guestInfo;
  let items = 0;
  const products: string[] = [];
  for (const l of o.products) {
    const unit = { name: l.unitName ?? DEFAULT_UNIT_NAME, seedlings: l.seedlings ?? 1 };
    products.push(
      `${lineItemName({ productName: l.productName, unit, tier: l.tier })} x ${l.quantity}`,
    );
    items += l.quantity * unit.seedlings;
  }
  return [
    o.purchaseNumber,
    shopDateTime(o.orderDate),
    name ?? g.fullName,
    g.phoneNumber,
    g.email,
    g.county,
    g.subCounty ?? '',
    g.ward ?? '',
    g.streetAddress,
    products.join('; '),
    items,
    o.subtotal,
    o.shippingFee,
    o.totalAmount,
    o.booking?.deposit ?? '',
    o.booking?.balance ?? '',
    statusLabel(o.paymentStatus),
    o.paymentMethod ?? '',
    o.paymentDetails?.transactionCode ?? '',
    shopDateTime(o.paidAt),
    statusLabel(o.orderStatus),
    statusLabel(o.fulfillmentStatus),
  ];
}
