/**
 * What the order detail, the receipt and the delivery note agree on in the API (PDFs, e-mail) and
 * in both apps (the print pages, the customer's order page): the shop's identity, the documents'
 * words, the delivery line and the timeline's shape.
 */
import { ORDER_STATUSES, type OrderStatus } from './constants';
import { formatMoney } from './format';
import { STATUS_LABELS } from './order-desk';

/** The shop as it signs its receipts and delivery notes. */
export const SHOP_IDENTITY = {
  name: 'Seedling Propagation Centre',
  place: 'Kiambu, Kenya',
} as const;

export const ORDER_DOCUMENT_TEXTS = {
  receipt: 'Receipt',
  /** The title of a booking's receipt while only its deposit is paid. */
  depositReceipt: 'Deposit receipt',
  /** The stamp of a booking's receipt while only its deposit is paid. */
  depositStamp: 'DEPOSIT PAID',
  deliveryNote: 'Delivery note',
  paidStamp: 'PAID',
  /** The stamp of a paid order that was cancelled and its money given back. */
  refundedStamp: 'REFUNDED',
  /** The stamp of a paid order cancelled with no refund on record (before refunds were recorded). */
  cancelledStamp: 'CANCELLED',
  signature: 'Received in good order by (name, signature, date)',
  downloadReceipt: 'Download receipt (PDF)',
  downloadDeliveryNote: 'Download delivery note (PDF)',
} as const;

/** The API's refusals for receipts and delivery notes, shown as they come by both apps. */
export const ORDER_DOCUMENT_MESSAGES = {
  notPaid: 'This order is not paid yet; its receipt is available once it is paid',
  customerNotPaid: 'Receipts and delivery notes are available once the order is paid',
  linkInvalid: 'This link is not valid; please use the link from your e-mail as it was sent',
  linkExpired:
    'This link has expired; sign in and open My Orders to download your receipt, or ask the shop',
  signInOrLink: 'Sign in, or use the link from your e-mail, to download this document',
} as const;

/** The two printable documents of an order, as they appear in their URLs. */
export const ORDER_DOCUMENTS = ['receipt', 'delivery-note'] as const;
export type OrderDocument = (typeof ORDER_DOCUMENTS)[number];

/** How long the signed receipt link in the payment e-mail works. */
export const ORDER_DOCUMENT_LINK_DAYS = 30;

/** The delivery choice another part of checkout records on an order (absent on older orders). */
export interface OrderDeliveryChoice {
  method: 'delivery' | 'collection';
  zoneName: string;
  days: number;
}

/** "Delivery · Kiambu town (2 days)" or "Collection at the nursery · ..."; '' when there is none. */
export function deliveryChoiceText(delivery: OrderDeliveryChoice | null | undefined): string {
  if (!delivery) return '';
  const method = delivery.method === 'collection' ? 'Collection' : 'Delivery';
  const days = delivery.days === 1 ? '1 day' : `${delivery.days} days`;
  return [method, delivery.zoneName].filter(Boolean).join(' · ') + ` (${days})`;
}

/** The delivery fee as a receipt shows it: "Free" when nothing is charged. */
export function deliveryFeeText(fee: number, label: 'KES' | 'KSH' = 'KES'): string {
  return fee > 0 ? formatMoney(fee, label) : 'Free';
}

/** Street, ward, sub-county and county on one line, skipping the empty ones. */
export function deliveryAddressText(info: {
  streetAddress?: string;
  ward?: string;
  subCounty?: string;
  county?: string;
}): string {
  return [info.streetAddress, info.ward, info.subCounty, info.county]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(', ');
}

/** Status words for people ("In transit", never "InTransit"). */
export const ORDER_STATUS_WORDS = Object.fromEntries(
  ORDER_STATUSES.map((s) => [s, STATUS_LABELS[s]]),
) as Record<OrderStatus, string>;

/** One step of an order's timeline: what happened, when, and (for staff only) who did it. */
export interface OrderTimelineEntry {
  /** A short name of the step: "Placed", "Payment recorded", "In transit", ... */
  step: string;
  /** ISO date-time. */
  at: string;
  /** Who did it (staff view only; null in the customer's view or when unknown). */
  by: string | null;
  /** The sentence the audit trail wrote, or a plain description. */
  text: string;
}
