import type { OrderStatus, PaymentStatus } from '@spc/shared-contracts';
import type { Order } from '../features/orders/api/get-orders';

/** An order as the API lists it, in the given state. */
export function createOrder(
  overrides: Partial<Order> & { orderStatus?: OrderStatus; paymentStatus?: PaymentStatus } = {},
): Order {
  return {
    _id: '6650f0c2a1b2c3d4e5f60001',
    purchaseNumber: 'SPDBMUYD9PD',
    placedBy: { _id: '6650f0c2a1b2c3d4e5f60009', fullName: 'Kamau Mwangi' },
    customerName: 'Kamau Mwangi',
    guestInfo: null,
    products: [
      {
        product: { _id: 'p1', productName: 'Terere (Amaranth) Tray of 200', productImage: '' },
        productName: 'Terere (Amaranth) Tray of 200',
        productImage: '',
        unitPrice: 1270,
        quantity: 1,
        lineTotal: 1270,
      },
    ],
    subtotal: 1270,
    shippingFee: 0,
    totalAmount: 1270,
    orderStatus: 'Pending',
    paymentStatus: 'Pending',
    fulfillmentStatus: 'Unfulfilled',
    paymentMethod: null,
    paymentDetails: null,
    paidAt: null,
    orderDate: '2026-11-22T07:30:00.000Z',
    estimatedDeliveryDate: '2026-11-25T07:30:00.000Z',
    inTransitDate: null,
    deliveredDate: null,
    cancelledDate: null,
    createdAt: '2026-11-22T07:30:00.000Z',
    updatedAt: '2026-11-22T07:30:00.000Z',
    ...overrides,
  } as unknown as Order;
}
