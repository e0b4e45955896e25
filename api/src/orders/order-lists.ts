import { Injectable } from '@nestjs/common';
import { ORDER_SEARCH_COUNT_LIMIT } from '@spc/shared-contracts';
import { OrderCountRollup } from './order-count-rollup';
import { OrderListsRepository } from './order-lists.repository';
import type { OrderListFilter, OrderRecord } from './order.types';

/** A list's total: exact, or, for a search, at least this many when `totalIsLowerBound`. */
export interface ListTotal {
  total: number;
  totalIsLowerBound: boolean;
}

/**
 * The orders lists' pages and totals. Only the page is read from the orders, in index order; the
 * total is a sum of the order counts' rollup (days by status and payment), a customer's orders are
 * counted (they are few), and a search's are counted up to ORDER_SEARCH_COUNT_LIMIT or the end of
 * the page asked for, whichever is further, so a first name thousands share answers its first
 * pages without counting them all, and a page past the bound still says whether more follow.
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
    const [items, total] = await Promise.all([
      this.repository.page(filter, skip, limit),
      this.total(filter, skip + limit),
    ]);
    return { items, ...total };
  }

  /** How many placed orders match a filter without a search or a customer (the work queue's). */
  count(filter: Omit<OrderListFilter, 'search' | 'placedBy'>): Promise<number> {
    return this.counts.count(filter);
  }

  private async total(filter: OrderListFilter, pageEnd: number): Promise<ListTotal> {
    if (filter.search) {
      const bound = Math.max(ORDER_SEARCH_COUNT_LIMIT, pageEnd);
      const found = await this.repository.count(filter, bound + 1);
      return found > bound
        ? { total: bound, totalIsLowerBound: true }
        : { total: found, totalIsLowerBound: false };
    }
    if (filter.placedBy)
      return { total: await this.repository.count(filter), totalIsLowerBound: false };
    return { total: await this.counts.count(filter), totalIsLowerBound: false };
  }
}
