import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { StockLedgerRepository } from './stock-ledger.repository';

/**
 * Keeps the stock ledger whole. At start-up it gives every product without a ledger its opening
 * balance (the migration for products that existed before the ledger; idempotent) and copies every
 * movement still waiting inside a product document; then, every few seconds, it copies movements
 * waiting longer than the order reconciler's threshold: what a process killed between a stock
 * change and its copy to `stock_movements` left behind.
 */
@Injectable()
export class StockLedgerReconciler
  implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('StockLedger');
  private running = false;
  /** The pass started at start-up (tests and the shutdown wait for it). */
  startup: Promise<void> = Promise.resolve();

  constructor(
    private readonly ledger: StockLedgerRepository,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'stock.copy-movements',
      everyMs: Math.max(1000, this.config.orders.reconcileAfterMs / 2),
      runsOn: 'one',
      run: () => this.pass(false),
    });
  }

  onApplicationBootstrap(): void {
    // Every instance's own: the ledgers opened and the movements copied before it serves stock.
    this.startup = this.pass(true);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.startup;
  }

  /** One pass; at start-up every waiting movement, later only those older than the threshold. */
  async pass(atStartup: boolean): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      if (atStartup) {
        const opened = await this.ledger.openLedgers();
        if (opened) this.logger.log(`Opened the stock ledger of ${opened} products`);
      }
      const before = atStartup
        ? undefined
        : new Date(Date.now() - this.config.orders.reconcileAfterMs);
      const copied = await this.ledger.flushPending(before);
      if (copied) this.logger.warn(`Copied ${copied} interrupted stock movements to the ledger`);
    } catch (error) {
      this.logger.error(`Stock ledger reconciliation failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }
}
