import { SHOP_IDENTITY } from '@spc/shared-contracts';
import type { OrderDto } from './dto/order-view.dto';

/**
 * An order as its customer sees it: the payment was received by the shop, not by a named member
 * of staff (staff names and ids stay inside the shop).
 */
export function customerView<T extends OrderDto>(order: T): T {
  if (!order.paymentDetails) return order;
  return {
    ...order,
    paymentDetails: {
      ...order.paymentDetails,
      completedBy: { _id: '', fullName: SHOP_IDENTITY.name },
    },
  };
}
