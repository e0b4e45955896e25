import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { canonicalEmail } from '../common/identifiers';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { MailTemplate } from '../mail/mail-log';
import type { QueuedMail } from '../mail/mail-outbox.repository';
import { MailQueue, type MailContent, type MailOutcome } from '../mail/mail-queue.service';
import { balanceDueMail, depositMail } from '../bookings/booking-mails';
import { confirmationMail } from './order-confirmation-mail';
import { OrderDocumentLinks } from './order-document-links';
import { orderMailFor } from './order-mail';
import { paidMail } from './order-paid-mail';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';

/** The e-mails an order's customer is sent, each once per event. */
export type OrderMail = 'confirmation' | 'paid' | 'deposit' | 'balance-due';

const TEMPLATES: Record<OrderMail, MailTemplate> = {
  confirmation: 'order-confirmation',
  paid: 'order-paid',
  deposit: 'booking-deposit',
  'balance-due': 'booking-balance-due',
};

/**
 * The event an order's e-mail is sent for, its key in the mail queue: once per order, except the
 * balance, due once per batch the booking is on (a booking moved to another batch is told again
 * when that one is ready).
 */
function eventKey(mail: OrderMail, order: OrderRecord): string {
  return mail === 'balance-due'
    ? `booking:${order._id}:balance-due:${order.booking?.batchId ?? ''}`
    : `order:${order._id}:${mail}`;
}

/**
 * An order's e-mails through the mail queue: queued under the event's key (a second sweeper or a
 * retried step finds it queued and sends nothing), their text made from the order as it is when
 * they are sent, so the receipt's signed link is made then and never stored.
 */
@Injectable()
export class OrderMails implements OnModuleInit {
  constructor(
    private readonly queue: MailQueue,
    private readonly orders: OrdersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly documents?: OrderDocumentLinks,
  ) {}

  onModuleInit(): void {
    const site = this.config.storefrontUrl;
    this.register('confirmation', (order) => confirmationMail(order, site));
    this.register('paid', (order) =>
      paidMail(order, this.documents?.storefrontUrl(order._id, 'receipt')),
    );
    this.register('deposit', (order) => depositMail(order, site) ?? { skip: 'not a booking' });
    this.register('balance-due', (order) =>
      // Paid, released or moved meanwhile: no balance is due any more.
      order.booking?.state === 'Balance due'
        ? (balanceDueMail(order, site, this.config.mpesa?.shortcode) ?? { skip: 'not a booking' })
        : { skip: `the booking is ${order.booking?.state.toLowerCase() ?? 'gone'}` },
    );
  }

  /** Queues and sends the order's e-mail for this event, unless the event has one already. */
  send(mail: OrderMail, order: OrderRecord): Promise<MailOutcome> {
    // A gate sale has no e-mail (its receipt is printed, or texted on request).
    if (!order.guestInfo.email) return Promise.resolve('skipped');
    return this.queue.send({
      key: eventKey(mail, order),
      template: TEMPLATES[mail],
      to: order.guestInfo.email,
      for: orderMailFor(order),
    });
  }

  private register(
    mail: OrderMail,
    build: (order: OrderRecord) => MailContent | { skip: string },
  ): void {
    this.queue.register(TEMPLATES[mail], async (queued: QueuedMail) => {
      const order = queued.orderId ? await this.orders.findAnyById(queued.orderId) : null;
      // A deleted order's e-mails go with it (one queued as it was deleted too), as an erased
      // one's do (its address is gone: one queued from the order as read before its erasure).
      if (!order) return { gone: 'the order is gone' };
      if (!order.guestInfo.email) return { gone: 'the order was erased' };
      // Its address corrected (or erased) since it was queued: the old one is no longer the
      // customer's, and the message names their phone and address.
      if (canonicalEmail(order.guestInfo.email) !== queued.to)
        return { skip: "the order's address changed" };
      return build(order);
    });
  }
}
