import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { addDays, shopDay, startOfShopDay } from '../common/shop-clock';
import { amountsHolding, bandOf, type AmountBands } from './order-amount-bands';
import { statusMatcher } from './order-list-query';
import {
  OrderCountRowsRepository,
  type CountMonth,
  type DayCounts,
  type RebuiltDay,
} from './order-count-rows.repository';
import { OrderCountsRepository, type CountedOrder } from './order-counts.repository';
import type { OrderListFilter } from './order.types';

/**
 * Writes still in flight when a refresh starts are caught by the next one: the changes are read
 * from the last refresh's start less this margin (an order write takes milliseconds; API
 * instances' clocks must agree within it).
 */
const MARGIN_MS = 60_000;

/** What the rollup counts by: a list's filter without its search or customer. */
export type CountedFilter = Omit<OrderListFilter, 'search' | 'placedBy'>;

interface Scope {
  /** First shop day (YYYY-MM-DD), '' for none. */
  from: string;
  /** The shop day after the last, or none. */
  to?: string;
  matches: (orderStatus: string, paymentStatus: string) => boolean;
}

const scopeOf = (filter: CountedFilter): Scope => ({
  from: filter.from ? shopDay(filter.from) : '',
  to: filter.to ? shopDay(filter.to) : undefined,
  matches: statusMatcher(filter),
});

/** The days in scope holding matching orders, with how many each holds. */
function matchingDays(months: CountMonth[], scope: Scope): [string, number][] {
  const days: [string, number][] = [];
  for (const month of months)
    for (const [dd, { counts }] of Object.entries(month.days)) {
      const day = `${month.month}-${dd}`;
      if (day < scope.from || (scope.to && day >= scope.to)) continue;
      let n = 0;
      for (const [status, byPayment] of Object.entries(counts))
        for (const [payment, c] of Object.entries(byPayment ?? {}))
          if (scope.matches(status, payment)) n += c ?? 0;
      if (n) days.push([day, n]);
    }
  return days;
}

/** An order as a day row lists it: what it is counted by. */
const stateOf = (o: { orderStatus: string; paymentStatus: string; totalAmount: number }) =>
  `${o.orderStatus}/${o.paymentStatus}/${bandOf(o.totalAmount)}`;

function rebuilt(day: string, at: Date, orders: CountedOrder[]): RebuiltDay {
  const counts: DayCounts = {};
  const amounts: AmountBands = {};
  for (const o of orders) {
    const byPayment = (counts[o.orderStatus] ??= {});
    byPayment[o.paymentStatus] = (byPayment[o.paymentStatus] ?? 0) + 1;
    const band = bandOf(o.totalAmount);
    amounts[band] = (amounts[band] ?? 0) + 1;
  }
  const [orderIds, states] = [orders.map((o) => o._id), orders.map(stateOf)];
  return { day, at, orderIds, states, counts, amounts };
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
 * orders later already wrote it, so two API instances refreshing at once leave the newer rows. A
 * day lists each order's statuses too, so an order written again as it was counted (a contact's
 * edit, a reconciler's mark) rebuilds nothing. The first refresh on a database builds every day in
 * one pass.
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
   * How many placed orders match each filter's statuses, payment status, queue and days, from one
   * refresh. `from` and `to` are starts of shop days (`orderListFilter`); a search and a customer
   * are not counted here.
   */
  async count(filters: CountedFilter[]): Promise<number[]> {
    await this.refresh();
    const scopes = filters.map(scopeOf);
    const earliest = scopes.reduce((d, s) => (s.from < d ? s.from : d), scopes[0]?.from ?? '');
    const latest = scopes.some((s) => !s.to)
      ? undefined
      : scopes.reduce((d, s) => (s.to! > d ? s.to! : d), '');
    const months = await this.rows.monthsBetween(earliest.slice(0, 7), latest?.slice(0, 7));
    return scopes.map((scope) => matchingDays(months, scope).reduce((n, [, c]) => n + c, 0));
  }

  /**
   * A list's total and the shop days that hold its page when sorted by order date (newest or
   * oldest first): the page is then read from those days' orders alone, `skip` of them first
   * (on some servers a read takes every order its filter matches before it sorts, so the whole
   * list's filter would read every order). Null days: the page is past the end.
   */
  async page(
    filter: CountedFilter,
    skip: number,
    limit: number,
    newestFirst: boolean,
  ): Promise<{ total: number; days: { from: Date; to: Date; skip: number } | null }> {
    await this.refresh();
    const scope = scopeOf(filter);
    const months = await this.rows.monthsBetween(scope.from.slice(0, 7), scope.to?.slice(0, 7));
    const days = matchingDays(months, scope).sort(([a], [b]) =>
      newestFirst ? b.localeCompare(a) : a.localeCompare(b),
    );
    const total = days.reduce((n, [, c]) => n + c, 0);
    if (skip >= total) return { total, days: null };
    // The day of the page's first order, then on to the day of its last (or the list's end).
    let [first, before] = [0, 0];
    while (before + days[first]![1] <= skip) before += days[first++]![1];
    let [last, through] = [first, before + days[first]![1]];
    while (through < skip + limit && last + 1 < days.length) through += days[++last]![1];
    const [oldest, newest] = newestFirst
      ? [days[last]![0], days[first]![0]]
      : [days[first]![0], days[last]![0]];
    return {
      total,
      days: {
        from: startOfShopDay(oldest),
        to: startOfShopDay(addDays(newest, 1)),
        skip: skip - before,
      },
    };
  }

  /**
   * All placed orders' total, and the totals holding a page of them sorted by total (biggest or
   * smallest first): the page is then read from the orders of those totals alone.
   */
  async byAmount(skip: number, limit: number, biggestFirst: boolean) {
    await this.refresh();
    return amountsHolding(await this.rows.amounts(), skip, limit, biggestFirst);
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
    await this.rows.refreshedAt(started, !upTo);
  }

  /**
   * The days the orders written or deleted since `since` were or are counted in, recounted: a day
   * is due when it lists a deleted order, or an order no longer as it lists it (another status,
   * payment or day, or not placed), or does not list a placed order it holds now.
   */
  private async rebuildChanged(since: Date): Promise<void> {
    const [changed, deleted] = await Promise.all([
      this.orders.changedSince(since),
      this.orders.deletedSince(since),
    ]);
    if (!changed.length && !deleted.length) return;
    const now = new Map(changed.map((o) => [o._id, o]));
    const gone = new Set(deleted.map((d) => d._id));
    const due = new Set<string>();
    const listed = new Set<string>();
    for (const row of await this.rows.daysHolding([...now.keys(), ...gone]))
      row.orderIds.forEach((id, i) => {
        const order = now.get(id);
        if (!order && !gone.has(id)) return;
        const same =
          order?.orderDate &&
          !gone.has(id) &&
          shopDay(order.orderDate) === row._id &&
          row.states?.[i] === stateOf(order);
        if (same) listed.add(id);
        else due.add(row._id);
      });
    for (const order of changed)
      if (order.orderDate && !listed.has(order._id)) due.add(shopDay(order.orderDate));
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
