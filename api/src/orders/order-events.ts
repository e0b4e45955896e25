import type { OrderSmsEvent } from '@spc/shared-contracts';
import type { DomainEvent, DomainEventMap, DomainEventName } from '../common/events/domain-events';
import type { OrderMail } from './order-mails';
import type { OrderRecord } from './order.types';

/**
 * A step of an order (or of a booking, which is an order) happened: the order as written, and what
 * follows it for the customer. The audit trail, the e-mail queue and the SMS sender subscribe.
 */
export interface OrderEvent extends DomainEvent {
  order: OrderRecord;
  /** The customer's e-mail, if the step sends one (queued once per order and event). */
  mail?: OrderMail;
  /** The customer's text message, if any, and whose SMS budget it counts against. */
  sms?: { event: OrderSmsEvent; sender?: string };
}

declare module '../common/events/domain-events' {
  interface DomainEventMap {
    'order.placed': OrderEvent;
    'order.inTransit': OrderEvent;
    'order.delivered': OrderEvent;
    'order.fulfilled': OrderEvent;
    'order.updated': OrderEvent;
    'order.cancelled': OrderEvent;
    'order.expired': OrderEvent;
    'order.accountClosed': OrderEvent;
    'order.deleted': OrderEvent;
    'order.paid': OrderEvent;
    'order.partPaid': OrderEvent;
    'booking.depositPaid': OrderEvent;
    'booking.released': OrderEvent;
    'booking.refunded': OrderEvent;
    'booking.affected': OrderEvent;
    'booking.balanceDue': OrderEvent;
    'booking.depositReached': OrderEvent;
    'order.overPaid': OrderEvent;
    /** Part of a gate sale given back at the till (issue 46); the sale stays handed over. */
    'order.refunded': OrderEvent;
  }
}

/**
 * The names of the events an order step may announce: every event about an order (a booking's
 * module adds its own to the map, `bookings/booking-steps.ts`).
 */
export type OrderEventName = {
  [K in DomainEventName]: DomainEventMap[K] extends OrderEvent ? K : never;
}[DomainEventName];
