import { deliveryLine, NURSERY_COLLECTION, type OrderDeliveryView } from './delivery';
import { formatMoney } from './format';

/** The WhatsApp message that ends a checkout: the lines, the delivery and its fee, the total. */
export interface ChatOrder {
  purchaseNumber: string;
  products: { productName: string; quantity: number; unitPrice: number; lineTotal: number }[];
  totalAmount: number;
  shippingFee?: number;
  delivery?: OrderDeliveryView;
  estimatedDeliveryDate?: string;
  guestInfo: {
    fullName: string;
    phoneNumber: string;
    county: string;
    subCounty?: string;
    ward?: string;
    streetAddress: string;
  };
}

export function orderChatMessage(order: ChatOrder): string {
  const place = [
    order.guestInfo.streetAddress,
    order.guestInfo.ward,
    order.guestInfo.subCounty,
    order.guestInfo.county,
  ]
    .filter(Boolean)
    .join(', ');
  return [
    `Hello, I have placed order ${order.purchaseNumber}:`,
    ...order.products.map(
      (l) =>
        `- ${l.productName} x ${l.quantity} @ ${formatMoney(l.unitPrice)} = ${formatMoney(l.lineTotal)}`,
    ),
    order.delivery ? deliveryLine(order.delivery, order.shippingFee ?? 0) : 'Shipping: ',
    `Total: ${formatMoney(order.totalAmount)}`,
    order.delivery?.method === 'collection'
      ? `Collect at: ${NURSERY_COLLECTION.address} (${NURSERY_COLLECTION.openingHours}), for ${order.guestInfo.fullName}, ${order.guestInfo.phoneNumber}`
      : `Deliver to: ${order.guestInfo.fullName}, ${order.guestInfo.phoneNumber}, ${place}`,
    ...(order.estimatedDeliveryDate
      ? [
          `${order.delivery?.method === 'collection' ? 'Ready from' : 'Expected by'}: ${order.estimatedDeliveryDate.slice(0, 10)}`,
        ]
      : []),
  ].join('\n');
}

/** `https://wa.me/<number>?text=...` for the shop's number in international form. */
export function whatsappLink(businessNumber: string, text: string): string {
  return `https://wa.me/${businessNumber.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`;
}
