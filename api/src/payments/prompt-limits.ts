import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { MPESA_MESSAGES } from '@spc/shared-contracts';
import { canonicalPhone } from '../common/identifiers';
import { QuotaService, type QuotaClaim, type WindowLimit } from '../common/quota';
import { TooManyRequestsException } from '../common/rate-limit';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { BudgetAlerts } from '../users/budget-alerts';

/** Prompts allowed per order and per phone number within the window. */
export const PUSH_LIMITS = { perOrder: 5, perPhone: 5, windowMs: 10 * 60_000 } as const;

/**
 * How many M-Pesa PIN prompts may go out, claimed before each one is sent (QuotaService: one
 * conditional counter step each, so a burst cannot pass a limit): per order and per phone in ten
 * minutes, per phone in a shop day (MPESA_PROMPTS_PER_PHONE_PER_DAY) and in all in a shop day
 * (MPESA_PROMPTS_PER_DAY, past which staff and admins are e-mailed once). A phone is counted in
 * E.164 whichever way it was typed. A prompt Daraja did not take is given back.
 */
@Injectable()
export class PromptLimits {
  private readonly perOrder: WindowLimit = {
    name: 'mpesa-order',
    limit: PUSH_LIMITS.perOrder,
    per: PUSH_LIMITS.windowMs,
  };
  private readonly perPhone: WindowLimit = {
    name: 'mpesa-phone',
    limit: PUSH_LIMITS.perPhone,
    per: PUSH_LIMITS.windowMs,
  };
  private readonly perPhoneToday: WindowLimit;
  private readonly today: WindowLimit;

  constructor(
    private readonly quota: QuotaService,
    private readonly alerts: BudgetAlerts,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const budgets = config.mpesa?.budgets ?? { perPhonePerDay: 1, perDay: 1 };
    this.perPhoneToday = { name: 'mpesa-phone-day', limit: budgets.perPhonePerDay, per: 'day' };
    this.today = { name: 'mpesa-day', limit: budgets.perDay, per: 'day' };
  }

  /**
   * Claims one prompt for this order to this phone, or refuses: 429 over a per-order or per-phone
   * limit, 503 once the day's prompts are used up. Answers the ticket to give back if not sent.
   */
  async claim(orderId: string, phone: string): Promise<string[]> {
    const e164 = canonicalPhone(phone);
    const claims: QuotaClaim[] = [
      { limit: this.perOrder, key: orderId },
      // The day's limit before the ten minutes': a unit of the shorter window held for a moment by
      // a prompt the day then refuses would otherwise turn a "come back tomorrow" into "wait".
      { limit: this.perPhoneToday, key: e164 },
      { limit: this.perPhone, key: e164 },
      { limit: this.today, key: 'shop' },
    ];
    const answer = await this.quota.take(claims);
    if (answer.granted) return answer.ticket;
    const wait = answer.retryAfterSeconds;
    switch (answer.refused.limit) {
      case this.perOrder:
        throw new TooManyRequestsException(MPESA_MESSAGES.tooManyForOrder, wait);
      case this.perPhone:
        throw new TooManyRequestsException(MPESA_MESSAGES.tooManyForPhone, wait);
      case this.perPhoneToday:
        throw new TooManyRequestsException(MPESA_MESSAGES.tooManyForPhoneToday, wait);
      default:
        await this.alerts.ranOut(this.today, {
          subject: 'M-Pesa prompts used up',
          consequence:
            'No more M-Pesa PIN prompts go out until midnight; shoppers are asked to pay through the paybill or on delivery.',
          setting: 'MPESA_PROMPTS_PER_DAY',
        });
        throw new ServiceUnavailableException(MPESA_MESSAGES.pausedForToday);
    }
  }

  /** Gives a claimed prompt back: Daraja did not send it. */
  release(ticket: string[]): Promise<void> {
    return this.quota.giveBack(ticket);
  }
}
