import { Injectable } from '@nestjs/common';
import type { BookingState } from '@spc/shared-contracts';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import type { OrderBooking } from './schemas/order.schema';

/** What other modules (bookings, batches) ask of booking orders: read a batch's, change a state. */
@Injectable()
export class OrderBookings {
  constructor(private readonly orders: OrdersRepository) {}

  /** A batch's booking orders, in booking order (the order they were placed). */
  ofBatch(batchId: string): Promise<OrderRecord[]> {
    return this.orders.bookingsOfBatch(batchId);
  }

  /** One placed order (any status), or null. */
  find(id: string): Promise<OrderRecord | null> {
    return this.orders.findAnyById(id);
  }

  /** A booking's state from one of `from` to `state`, once; false when it had moved on. */
  setState(
    orderId: string,
    from: readonly BookingState[],
    state: BookingState,
    set: Partial<Record<keyof OrderBooking, unknown>> = {},
  ): Promise<boolean> {
    return this.orders.setBookingState(orderId, from, state, set);
  }
}
