import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { addDays, shopDay, startOfShopDay } from '../common/shop-clock';
import { statusMatcher } from './order-list-query';
import {
  OrderCountRowsRepository,
  type DayCounts,
  type RebuiltDay,
} from './order-count-rows.repository';
import { OrderCountsRepository, type CountedOrder } from './order-counts.repository';
import type { OrderListFilter } from './order.types';

/**
 * Writes still in flight when a refresh starts are caught by the next one: the changes are read
 * from the last refresh's start less this margin (an order write takes milliseconds; API
 * instances' clocks must agree within it). A day rebuilt this long after an order's write has it.
 */
const MARGIN_MS = 60_000;

function rebuilt(day: string, at: Date, orders: CountedOrder[]): RebuiltDay {
  const counts: DayCounts = {};
  for (const o of orders) {
    const byPayment = (counts[o.orderStatus] ??= {});
    byPayment[o.paymentStatus] = (byPayment[o.paymentStatus] ?? 0) + 1;
  }
  return { day, at, orderIds: orders.map((o) => o._id), counts };
}

/**
 * The order counts' rollup: how many placed orders each shop day holds by order and payment
 * status, in one row per month, so a list's total is a sum of a few hundred days instead of a
 * count of every matching order (a count that reads each order on some servers: about a second
 * for 200,000).
 *
 * It is kept as the sales report's rollup is (reports/sales-rollup.ts): rebuilt from the orders,
 * never written beside them. Before each read, the orders written since the last refresh
 * (`updatedAt`, indexed) and those deleted (`order_deletions`) name the days to rebuild: the day
 * each is placed on now and any day that counted it before (a day's row lists its orders). Each
 * such day is recounted from its placed orders and replaced whole, unless a rebuild that read the
 * orders later already wrote it, so two API instances refreshing at once leave the newer rows. The
 * first refresh on a database builds every day in one pass.
 */
@Injectable()
export class OrderCountRollup implements OnApplicationBootstrap {
  private readonly logger = new Logger(OrderCountRollup.name);
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(
    private readonly orders: OrderCountsRepository,
    private readonly rows: OrderCountRowsRepository,
  ) {}

  /** Brought up to date once at start-up, so the first list after a restart reads few days. */
  onApplicationBootstrap(): void {
    this.refresh().catch((error: Error) =>
      this.logger.warn(`The order counts could not be refreshed: ${error.message}`),
    );
  }

  /**
   * How many placed orders match the filter's statuses, payment status, queue and days, brought
   * up to date first. `from` and `to` are starts of shop days (`orderListFilter`); a search and a
   * customer are not counted here.
   */
  async count(filter: Omit<OrderListFilter, 'search' | 'placedBy'>): Promise<number> {
    await this.refresh();
    const from = filter.from ? shopDay(filter.from) : '';
    const to = filter.to ? shopDay(filter.to) : undefined;
    const months = await this.rows.monthsBetween(from.slice(0, 7), to?.slice(0, 7));
    const matches = statusMatcher(filter);
    let total = 0;
    for (const month of months)
      for (const [dd, { counts }] of Object.entries(month.days)) {
        const day = `${month.month}-${dd}`;
        if (day < from || (to && day >= to)) continue;
        for (const [status, byPayment] of Object.entries(counts))
          for (const [payment, n] of Object.entries(byPayment ?? {}))
            if (matches(status, payment)) total += n ?? 0;
      }
    return total;
  }

  /**
   * Brings the days up to date. A refresh under way may have read the orders before the caller's
   * write, so a caller arriving during one waits for the next (one for all who arrive meanwhile).
   */
  refresh(): Promise<void> {
    if (!this.running) {
      this.running = this.refreshNow().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.refresh();
      });
    return this.next;
  }

  private async refreshNow(): Promise<void> {
    const started = new Date();
    const upTo = await this.rows.upTo();
    if (!upTo) await this.rebuildAll(started);
    else await this.rebuildChanged(new Date(upTo.getTime() - MARGIN_MS));
    await this.rows.refreshedAt(started);
  }

  /** The days the orders written or deleted since `since` were or are counted in, recounted. */
  private async rebuildChanged(since: Date): Promise<void> {
    const [changed, deleted] = await Promise.all([
      this.orders.changedSince(since),
      this.orders.deletedSince(since),
    ]);
    if (!changed.length && !deleted.length) return;
    const writtenAt = new Map<string, number>();
    for (const { _id, at } of [
      ...changed.map((o) => ({ _id: o._id, at: o.updatedAt })),
      ...deleted.map((d) => ({ _id: d._id, at: d.deletedAt })),
    ])
      writtenAt.set(_id, Math.max(writtenAt.get(_id) ?? 0, at.getTime()));
    const due = new Set<string>();
    const heldOn = new Map<string, string>();
    for (const row of await this.rows.daysHolding([...writtenAt.keys()]))
      for (const id of row.orderIds) {
        const at = writtenAt.get(id);
        if (at === undefined) continue;
        heldOn.set(id, row._id);
        // A rebuild that read the orders a margin after this write has it already.
        if (row.at.getTime() < at + MARGIN_MS) due.add(row._id);
      }
    for (const order of changed)
      if (order.orderDate) {
        const day = shopDay(order.orderDate);
        if (heldOn.get(order._id) !== day) due.add(day);
      }
    const days = await Promise.all(
      [...due].map(async (day) => {
        const at = new Date();
        const from = startOfShopDay(day);
        const orders = await this.orders.placedBetween(from, startOfShopDay(addDays(day, 1)));
        return rebuilt(day, at, orders);
      }),
    );
    await this.rows.write(days);
    // Deletions before this refresh's window were read by the refreshes before it.
    await this.orders.forgetDeletionsBefore(new Date(since.getTime() - MARGIN_MS));
  }

  /** Every day with placed orders, read newest first from one cursor, written a month at a time. */
  private async rebuildAll(started: Date): Promise<void> {
    let month: { day: string; orders: CountedOrder[] }[] = [];
    const flush = async () => {
      await this.rows.write(month.map(({ day, orders }) => rebuilt(day, started, orders)));
      month = [];
    };
    for await (const order of this.orders.everyPlaced()) {
      const day = shopDay(order.orderDate);
      if (month.at(-1)?.day !== day) {
        if (month.length && month[0]!.day.slice(0, 7) !== day.slice(0, 7)) await flush();
        month.push({ day, orders: [] });
      }
      month.at(-1)!.orders.push(order);
    }
    await flush();
  }
}
