import { Injectable } from '@nestjs/common';
import { ORDER_SEARCH_COUNT_LIMIT } from '@spc/shared-contracts';
import { OrderCountRollup, type CountedFilter } from './order-count-rollup';
import { listSort, readsOneStatus } from './order-list-query';
import { OrderListsRepository } from './order-lists.repository';
import type { OrderListFilter, OrderRecord } from './order.types';

/** A list's total: exact, or, for a search, at least this many when `totalIsLowerBound`. */
export interface ListTotal {
  total: number;
  totalIsLowerBound: boolean;
}

/** A search newest first is counted in these last days first, then in the whole range. */
const SEARCH_WINDOWS_DAYS = [14, 56, 224, 896];
const DAY_MS = 86_400_000;

/**
 * The orders lists' pages and totals. The total is not counted from the orders where it can be
 * helped, and the page is read from as few orders as the list allows (some servers read every
 * order a filter matches before they sort and skip):
 * - a list without a search or a customer: its total is a sum of the order counts' rollup (days by
 *   status and payment), which also names the days holding the page when it is sorted by date;
 * - a search: counted up to ORDER_SEARCH_COUNT_LIMIT or the end of the page asked for, whichever
 *   is further (beyond, a lower bound), newest first in windows of the last days that grow until
 *   they hold that many, the page read from the first window holding it; so a first name thousands
 *   share answers its first pages without counting them all, and a page past the bound still says
 *   whether more follow;
 * - a customer's orders (few): counted.
 */
@Injectable()
export class OrderLists {
  constructor(
    private readonly repository: OrderListsRepository,
    private readonly counts: OrderCountRollup,
  ) {}

  async page(
    filter: OrderListFilter,
    skip: number,
    limit: number,
  ): Promise<{ items: OrderRecord[] } & ListTotal> {
    const numbered = await this.repository.byNumber(filter);
    if (numbered)
      return {
        items: numbered.slice(skip, skip + limit),
        total: numbered.length,
        totalIsLowerBound: false,
      };
    if (filter.search) return this.searched(filter, skip, limit);
    if (filter.placedBy) {
      const [items, total] = await Promise.all([
        this.repository.page(filter, skip, limit),
        this.repository.count(filter),
      ]);
      return { items, total, totalIsLowerBound: false };
    }
    return { ...(await this.counted(filter, skip, limit)), totalIsLowerBound: false };
  }

  /** How many placed orders match each filter without a search or a customer (the work queue's). */
  count(filters: CountedFilter[]): Promise<number[]> {
    return this.counts.count(filters);
  }

  /**
   * A list without a search or a customer: its total, and its page from the days (or, all orders
   * by total, the totals) holding it.
   */
  private async counted(filter: CountedFilter, skip: number, limit: number) {
    const [field, direction] = Object.entries(listSort(filter))[0]!;
    const { orderStatus, paymentStatus, queue, from, to } = filter;
    if (field === 'totalAmount' && !orderStatus && !paymentStatus && !queue && !from && !to) {
      const { total, amounts } = await this.counts.byAmount(skip, limit, direction === -1);
      const items = amounts
        ? await this.repository.page(
            { ...filter, amountFrom: amounts.from, amountTo: amounts.to },
            amounts.skip,
            limit,
          )
        : [];
      return { items, total };
    }
    if (field !== 'orderDate' || !readsOneStatus(filter)) {
      const [items, [total]] = await Promise.all([
        this.repository.page(filter, skip, limit),
        this.counts.count([filter]),
      ]);
      return { items, total: total! };
    }
    const { total, days } = await this.counts.page(filter, skip, limit, direction === -1);
    const items = days
      ? await this.repository.page({ ...filter, from: days.from, to: days.to }, days.skip, limit)
      : [];
    return { items, total };
  }

  private async searched(
    filter: OrderListFilter,
    skip: number,
    limit: number,
  ): Promise<{ items: OrderRecord[] } & ListTotal> {
    const pageEnd = skip + limit;
    const bound = Math.max(ORDER_SEARCH_COUNT_LIMIT, pageEnd);
    const bounded = (found: number): ListTotal =>
      found > bound
        ? { total: bound, totalIsLowerBound: true }
        : { total: found, totalIsLowerBound: false };
    const [field, direction] = Object.entries(listSort(filter))[0]!;
    if (field !== 'orderDate' || direction !== -1) {
      const [items, found] = await Promise.all([
        this.repository.page(filter, skip, limit),
        this.repository.count(filter, bound + 1),
      ]);
      return { items, ...bounded(found) };
    }
    // Windows of the last days, each within the list's dates, then the whole of them.
    const top = (filter.to ?? new Date()).getTime();
    const windows: (Date | undefined)[] = [
      ...SEARCH_WINDOWS_DAYS.map((days) => new Date(top - days * DAY_MS)).filter(
        (from) => !filter.from || from > filter.from,
      ),
      filter.from,
    ];
    let pageFrom: { from: Date | undefined } | null = null;
    let total: ListTotal = { total: 0, totalIsLowerBound: false };
    for (const from of windows) {
      const found = await this.repository.count({ ...filter, from }, bound + 1);
      pageFrom ??= found >= pageEnd ? { from } : null;
      total = bounded(found);
      if (total.totalIsLowerBound) break;
    }
    const items = await this.repository.page(
      { ...filter, from: (pageFrom ?? { from: filter.from }).from },
      skip,
      limit,
    );
    return { items, ...total };
  }
}
