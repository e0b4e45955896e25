import { Inject, Injectable } from '@nestjs/common';
import { clientNetwork } from '../common/identifiers';
import { QuotaService, type QuotaClaim, type WindowLimit } from '../common/quota';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { BudgetAlerts } from '../users/budget-alerts';

/**
 * Who caused a text message, for the per-sender budget: the signed-in customer, else the client
 * network (an IPv4 address, an IPv6 /64) that placed the order. Staff and the shop's own steps
 * (paid, sent, delivered, an unpaid order expiring) have none.
 */
export function smsSender(accountId?: string, clientAddress?: string): string | undefined {
  if (accountId) return `account:${accountId}`;
  return clientAddress ? `net:${clientNetwork(clientAddress)}` : undefined;
}

/** Which budget refused a message: to its number, of whoever caused it, or the shop's day. */
export type SmsBudgetName = 'recipient' | 'sender' | 'day';

export type SmsBudgetAnswer =
  | { granted: true; ticket: string[] }
  | { granted: false; why: string; budget: SmsBudgetName; retryAfterSeconds: number };

/**
 * The shop-day budgets of text messages (SMS_PER_RECIPIENT_PER_DAY, SMS_PER_SENDER_PER_DAY,
 * SMS_PER_DAY), claimed before a message is recorded to be sent (QuotaService: one conditional
 * counter step each), so no burst of orders sends more. The number is counted in E.164.
 */
@Injectable()
export class SmsBudgets {
  private readonly perRecipient: WindowLimit;
  private readonly perSender: WindowLimit;
  private readonly today: WindowLimit;

  constructor(
    private readonly quota: QuotaService,
    private readonly alerts: BudgetAlerts,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const b = config.sms?.budgets ?? { perRecipientPerDay: 1, perSenderPerDay: 1, perDay: 1 };
    this.perRecipient = { name: 'sms-recipient', limit: b.perRecipientPerDay, per: 'day' };
    this.perSender = { name: 'sms-sender', limit: b.perSenderPerDay, per: 'day' };
    this.today = { name: 'sms-day', limit: b.perDay, per: 'day' };
  }

  /** One message to `to` (E.164) caused by `sender`, or why it may not go out today. */
  async claim(to: string, sender: string | undefined): Promise<SmsBudgetAnswer> {
    const claims: QuotaClaim[] = [
      { limit: this.perRecipient, key: to },
      ...(sender ? [{ limit: this.perSender, key: sender }] : []),
      { limit: this.today, key: 'shop' },
    ];
    const answer = await this.quota.take(claims);
    if (answer.granted) return answer;
    const { retryAfterSeconds } = answer;
    if (answer.refused.limit === this.perRecipient)
      return {
        granted: false,
        why: 'too many text messages to this number today',
        budget: 'recipient',
        retryAfterSeconds,
      };
    if (answer.refused.limit === this.perSender)
      return {
        granted: false,
        why: 'too many text messages caused by this customer today',
        budget: 'sender',
        retryAfterSeconds,
      };
    await this.alerts.ranOut(this.today, {
      subject: 'Text messages used up',
      consequence:
        'No more order text messages go out until midnight; customers still get their e-mails.',
      setting: 'SMS_PER_DAY',
    });
    return {
      granted: false,
      why: "the shop's text messages for today are used up",
      budget: 'day',
      retryAfterSeconds,
    };
  }

  release(ticket: string[]): Promise<void> {
    return this.quota.giveBack(ticket);
  }
}
