import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { FilterQuery } from 'mongoose';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PlacementKeys, TillSaleKeys } from './order-idempotency';
import { OrderMoney } from './order-money';
import { OrderStock } from './order-stock';
import { OrdersRepository } from './orders.repository';
import { OrderRecoveryRepository } from './order-recovery.repository';
import type { Order } from './schemas/order.schema';

/**
 * Finishes or undoes what an interrupted placement or cancellation left (at start-up and every few
 * seconds): placements older than a threshold that never became `placed` are undone, placed orders
 * whose ledger was not settled are settled, interrupted cancellations are finished (the refund they
 * named recorded and counted, the stock returned). The order's
 * `placement` decides atomically whether a slow placement or this pass wins (`reserving` becomes
 * either `placed` or `undoing`, never both). Each order's work is claimed by one conditional write
 * before it is done (`reconcileUntil`), so of several instances sweeping at once one does it and
 * logs it; a claim its reconciler did not live to finish lapses and is taken again.
 */
@Injectable()
export class OrderReconciler
  implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger(OrderReconciler.name);
  private running = false;
  /** The pass started at start-up (tests and the shutdown wait for it). */
  startup: Promise<void> = Promise.resolve();

  constructor(
    private readonly orders: OrdersRepository,
    private readonly recovery: OrderRecoveryRepository,
    private readonly stock: OrderStock,
    private readonly money: OrderMoney,
    private readonly keys: PlacementKeys,
    private readonly tillKeys: TillSaleKeys,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'orders.reconcile',
      everyMs: Math.max(1000, this.config.orders.reconcileAfterMs / 2),
      runsOn: 'one',
      run: () => this.reconcile(),
    });
  }

  onApplicationBootstrap(): void {
    // Not awaited: the API serves meanwhile (stock a dead placement holds is only unavailable until
    // the pass returns it). Every instance's own start-up pass: the per-order claims share the work.
    this.startup = this.reconcile({ atStartup: true });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.startup;
  }

  async reconcile({
    atStartup = false,
    olderThanMs = this.config.orders.reconcileAfterMs,
  } = {}): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const before = new Date(Date.now() - olderThanMs);
      const { reserving, unsettled, returning } = await this.recovery.unfinished(before);
      for (const order of reserving) {
        // Only if still unplaced (a slow placement may finish first: then it is left alone) and
        // no other reconciler is undoing it.
        if (!(await this.claim(order._id))) continue;
        await this.stock.releaseAll(order);
        await this.orders.delete(order._id);
        this.logger.warn(`Undid the interrupted placement of ${order.purchaseNumber}`);
      }
      for (const order of unsettled)
        if (await this.claim(order._id, { placement: 'placed', ledgerSettled: false }))
          await this.stock.settle(order);
      for (const stale of returning) {
        // A cancellation still running may have finished meanwhile; another reconciler may have
        // it: then it is left alone. Read again once claimed.
        const claimed = await this.claim(stale._id, {
          stockReturn: { $in: ['pending', 'done'] },
          updatedAt: { $lt: before },
        });
        const order = claimed ? await this.orders.findAnyById(stale._id) : null;
        if (order?.stockReturn !== 'pending' && order?.stockReturn !== 'done') continue;
        // The cancellation happened: the refund it named counts, with its sales-record line (a
        // crash may have cut off its step's `after` between the two).
        await this.money.finishRefund(order.refundOut);
        await this.stock.returnStock(order);
        this.logger.warn(`Finished the interrupted stock return of ${order.purchaseNumber}`);
      }
      await this.keys.releaseStale(before);
      await this.tillKeys.releaseStale(before);
    } catch (error) {
      this.logger.error(
        `Order reconciliation failed${atStartup ? ' at start-up' : ''}: ${(error as Error).message}`,
      );
    } finally {
      this.running = false;
    }
  }

  /**
   * Claims the order's unfinished work (`state`; none: an interrupted placement's undo), held as
   * long as a placement is given (ORDER_RECONCILE_AFTER_MS): the work takes a few writes, and one
   * held longer was left by a reconciler that died.
   */
  private claim(id: string, state?: FilterQuery<Order>): Promise<boolean> {
    const holdMs = this.config.orders.reconcileAfterMs;
    return state
      ? this.recovery.claimUnfinished(id, state, holdMs)
      : this.recovery.claimUndo(id, holdMs);
  }
}
