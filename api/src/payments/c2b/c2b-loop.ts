import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { Scheduler } from '../../common/scheduler/scheduler';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { MpesaConfig } from '../../config/mpesa-config';
import { DarajaClient } from '../daraja.client';
import { C2bService } from './c2b.service';
import { MpesaRefundsService } from './mpesa-refunds.service';

/**
 * On start, registers the paybill's C2B URLs with Daraja (MPESA_C2B_REGISTER_ON_START; registering
 * the same URLs again is harmless, and a failure is logged, not fatal: an admin's
 * `POST /api/payments/mpesa/c2b/register` does it again). Then, every half
 * MPESA_RECONCILE_AFTER_MS, asks again about paybill payments whose status query went unanswered
 * and sends the refunds that are due.
 */
@Injectable()
export class C2bLoop implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(C2bLoop.name);
  private readonly settings: MpesaConfig | null;
  private running?: Promise<void>;

  constructor(
    private readonly daraja: DarajaClient,
    private readonly c2b: C2bService,
    private readonly refunds: MpesaRefundsService,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = config.mpesa;
  }

  onModuleInit(): void {
    const s = this.settings;
    this.scheduler.declare({
      name: 'payments.paybill-and-refunds',
      everyMs: s && Math.max(500, Math.floor(s.reconcileAfterMs / 2)),
      runsOn: 'one',
      run: () => this.tick(),
    });
  }

  onApplicationBootstrap(): void {
    if (this.settings?.c2b.registerOnStart) void this.register();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.running;
  }

  /** Registers the validation and confirmation URLs; true when Daraja took them. */
  async register(): Promise<boolean> {
    try {
      await this.daraja.registerC2bUrls();
      this.logger.log(`Paybill C2B URLs registered for shortcode ${this.settings!.shortcode}`);
      return true;
    } catch (error) {
      this.logger.error(`Registering the paybill C2B URLs failed: ${(error as Error).message}`);
      return false;
    }
  }

  tick(): Promise<void> {
    this.running ??= (async () => {
      try {
        await this.c2b.sweep();
        await this.refunds.sweep();
      } catch (error) {
        this.logger.error(`Paybill and refund sweep failed: ${(error as Error).message}`);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
