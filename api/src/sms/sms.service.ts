import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import {
  toKenyanMsisdn,
  type InvoiceSmsEvent,
  type OrderSmsEvent,
  type TrancheSmsEvent,
  type TillSmsEvent,
} from '@spc/shared-contracts';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { OrderRecord } from '../orders/order.types';
import { UsersService } from '../users/users.service';
import { SmsBudgets } from './sms-budgets';
import { AfricasTalkingGateway, type SmsGateway } from './sms-gateway';
import { SmsOutboxRepository, type SmsRecord, type SmsStatus } from './sms-outbox.repository';
import { orderSmsText } from './sms-text';

/** A text about an order to someone other than its customer (`notifyContact`). */
export interface ContactText {
  /** Its one key: the same key is never sent twice. */
  id: string;
  orderId: string;
  /** The account the order is for (its people's data export and erasure find the text by it). */
  accountId: string | null;
  purchaseNumber: string;
  event: TrancheSmsEvent | InvoiceSmsEvent | TillSmsEvent;
  /** As typed; sent to its +254 form (a number that is not a Kenyan mobile is skipped). */
  phone: string;
  message: string;
}

/** A message about to be recorded: its key, whom and what about, and its words (made once). */
type Outgoing = Pick<SmsRecord, 'orderId' | 'accountId' | 'purchaseNumber' | 'event' | 'to'> & {
  id: string;
  message: () => string;
};

/** Injection token of the gateway (Africa's Talking, or the simulator speaking its protocol). */
export const SMS_GATEWAY = Symbol('SMS_GATEWAY');

/** How long one instance holds a message it is sending before another may try it. */
const LEASE_MS = 60_000;
/** The longest wait between two attempts at one message. */
const MAX_BACKOFF_MS = 60 * 60_000;

/**
 * Order text messages. Each event of an order is recorded once in the outbox (its key is the order
 * and the event, so it is never sent twice, whoever asks again), then sent; a failed send never
 * fails the order: it stays due and the retry loop, on whichever API instance leases it first,
 * tries again later with a growing wait, up to SMS_MAX_ATTEMPTS. Does nothing when SMS is off.
 */
@Injectable()
export class SmsService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(SmsService.name);
  private draining?: Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SMS_GATEWAY) private readonly gateway: SmsGateway | null,
    private readonly outbox: SmsOutboxRepository,
    private readonly users: UsersService,
    private readonly budgets: SmsBudgets,
    private readonly scheduler: Scheduler,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'sms.send-due',
      everyMs: this.config.sms?.retryIntervalMs ?? null,
      runsOn: 'one',
      run: () => this.drain(),
    });
  }

  onApplicationBootstrap(): void {
    if (!this.config.sms && this.config.env === 'production')
      this.logger.warn('SMS_PROVIDER is off: customers get order e-mails only, no text messages.');
  }

  /**
   * Records and sends the text message for this order event, unless it already has one. `sender`
   * (`smsSender`) is who caused it, when a customer did. A message over a day's budget is recorded
   * as skipped, with why. Never throws: the order's own work is done whatever becomes of the message.
   */
  async notifyOrder(order: OrderRecord, event: OrderSmsEvent, sender?: string): Promise<void> {
    if (!this.config.sms) return;
    // A booking's notices come once per batch it is on: moved, it is told again about the new one.
    const perBatch = event === 'balance-due' || event === 'affected';
    const id = perBatch
      ? `order:${order._id}:${event}:${order.booking?.batchId ?? ''}`
      : `order:${order._id}:${event}`;
    const to = toKenyanMsisdn(order.guestInfo.phoneNumber);
    await this.record(
      {
        id,
        orderId: order._id,
        accountId: order.placedBy ?? null,
        purchaseNumber: order.purchaseNumber,
        event,
        to: to ?? order.guestInfo.phoneNumber,
        message: () =>
          orderSmsText(event, order, {
            storefrontUrl: this.config.storefrontUrl,
            shopPhone: this.config.shopContacts.phone,
            paybill: this.config.mpesa?.shortcode,
          }),
      },
      async () => (to ? this.skipReason(order) : 'not a Kenyan mobile number'),
      sender,
    );
  }

  /**
   * Records and sends a text about an order to someone other than its customer (a tranche's site
   * contact, issue 43), once per `id`, within the day's budgets (to the number, the shop's, and
   * `sender`'s own when a person sends it). Never throws, like `notifyOrder`.
   */
  async notifyContact(text: ContactText, sender?: string): Promise<void> {
    if (!this.config.sms) return;
    const to = toKenyanMsisdn(text.phone);
    await this.record(
      { ...text, to: to ?? text.phone, message: () => text.message },
      async () => (to ? null : 'not a Kenyan mobile number'),
      sender,
    );
  }

  /** The shop's contacts a text message may name. */
  smsLinks(): { storefrontUrl: string; shopPhone: string } {
    return { storefrontUrl: this.config.storefrontUrl, shopPhone: this.config.shopContacts.phone };
  }

  /**
   * Records one message under its key (never twice) within the budgets, or skipped with why, and
   * sends it now when it may go.
   */
  private async record(
    text: Outgoing,
    skip: () => Promise<string | null>,
    sender?: string,
  ): Promise<void> {
    try {
      let skipped = await skip();
      let ticket: string[] = [];
      if (!skipped) {
        const budget = await this.budgets.claim(text.to, sender);
        if (budget.granted) ticket = budget.ticket;
        else skipped = budget.why;
      }
      const now = new Date();
      const inserted = await this.outbox.insertOnce({
        _id: text.id,
        orderId: text.orderId,
        accountId: text.accountId,
        purchaseNumber: text.purchaseNumber,
        event: text.event,
        to: text.to,
        message: text.message(),
        status: (skipped ? 'skipped' : 'pending') satisfies SmsStatus,
        attempts: 0,
        nextTryAt: now,
        leaseUntil: now,
        lastError: skipped ?? '',
        gatewayId: '',
        gatewayStatus: '',
        createdAt: now,
        sentAt: null,
      });
      if (!inserted) {
        // This event already has its message: it costs nothing more.
        await this.budgets.release(ticket);
        return;
      }
      if (skipped) return;
      const leased = await this.outbox.lease(now, LEASE_MS, text.id);
      if (leased) await this.attempt(leased);
    } catch (error) {
      this.logger.error(
        `The ${text.event} SMS for ${text.purchaseNumber} was not recorded: ${(error as Error).message}`,
      );
    }
  }

  /** Every text message recorded for an order, oldest first. */
  forOrder(orderId: string): Promise<SmsRecord[]> {
    return this.outbox.findByOrder(orderId);
  }

  /** Sends every message now due; one pass at a time per instance. */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      try {
        for (;;) {
          const leased = await this.outbox.lease(new Date(), LEASE_MS);
          if (!leased) break;
          await this.attempt(leased);
        }
      } catch (error) {
        this.logger.error(`Sending due text messages failed: ${(error as Error).message}`);
      } finally {
        this.draining = undefined;
      }
    })();
    return this.draining;
  }

  private async skipReason(order: OrderRecord): Promise<string | null> {
    if (!order.placedBy) return null;
    const user = await this.users.findById(order.placedBy);
    return user && !user.smsNotifications ? 'the customer turned SMS off' : null;
  }

  private async attempt(record: SmsRecord): Promise<void> {
    const result = await this.gateway!.send(record.to, record.message).catch(
      (error: Error) => ({ ok: false, permanent: false, error: error.message }) as const,
    );
    const now = new Date();
    if (result.ok) {
      await this.outbox.markSent(record._id, now, result.gatewayId, result.gatewayStatus);
      return;
    }
    const attempts = record.attempts + 1;
    const giveUp = result.permanent || attempts >= this.config.sms!.maxAttempts;
    const wait = Math.min(MAX_BACKOFF_MS, this.config.sms!.retryIntervalMs * 2 ** (attempts - 1));
    await this.outbox.markFailed(
      record._id,
      now,
      result.error,
      giveUp ? null : new Date(now.getTime() + wait),
    );
    this.logger.warn(
      `The ${record.event} SMS for ${record.purchaseNumber} failed (attempt ${attempts}): ${result.error}${giveUp ? '; given up' : '; will retry'}`,
    );
  }
}

/** The gateway the settings choose; null when SMS is off. */
export function smsGatewayFor(config: AppConfig): SmsGateway | null {
  return config.sms ? new AfricasTalkingGateway(config.sms) : null;
}
