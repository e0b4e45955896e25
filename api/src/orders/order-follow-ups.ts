import { Injectable } from '@nestjs/common';
import { OnDomainEvent } from '../common/events/domain-events';
import { SmsService } from '../sms/sms.service';
import type { OrderEvent } from './order-events';
import { OrderMails } from './order-mails';

/**
 * What follows an order's (or a booking's) step for its customer: the e-mail, queued before the
 * step answers, and the text message, sent without holding the answer up. Subscribed to the
 * steps' events; no step calls the senders itself.
 */
@Injectable()
export class OrderFollowUps {
  constructor(
    private readonly mails: OrderMails,
    private readonly sms: SmsService,
  ) {}

  @OnDomainEvent('order.*')
  ofOrder(event: OrderEvent): Promise<void> {
    return this.follow(event);
  }

  @OnDomainEvent('booking.*')
  ofBooking(event: OrderEvent): Promise<void> {
    return this.follow(event);
  }

  private async follow({ order, mail, sms }: OrderEvent): Promise<void> {
    // The text message does not wait for the e-mail's queueing (nor the step for the message).
    // A gate sale's buyer is texted only the receipt the clerk sends (the till's).
    if (sms && order.channel !== 'gate') void this.sms.notifyOrder(order, sms.event, sms.sender);
    if (mail) await this.mails.send(mail, order);
  }
}
