/** The WhatsApp message that ends a checkout; shipping is left blank, as the spec says. */
export interface ChatOrder {
  purchaseNumber: string;
  products: { productName: string; quantity: number; unitPrice: number; lineTotal: number }[];
  totalAmount: number;
  guestInfo: {
    fullName: string;
    phoneNumber: string;
    county: string;
    subCounty?: string;
    ward?: string;
    streetAddress: string;
  };
}

const kes = (amount: number) => `KES ${amount.toLocaleString('en-US')}`;

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
      (l) => `- ${l.productName} x ${l.quantity} @ ${kes(l.unitPrice)} = ${kes(l.lineTotal)}`,
    ),
    'Shipping: ',
    `Total: ${kes(order.totalAmount)}`,
    `Deliver to: ${order.guestInfo.fullName}, ${order.guestInfo.phoneNumber}, ${place}`,
  ].join('\n');
}

/** `https://wa.me/<number>?text=...` for the shop's number in international form. */
export function whatsappLink(businessNumber: string, text: string): string {
  return `https://wa.me/${businessNumber.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`;
}
