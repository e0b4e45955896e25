import {
  ORDER_QUEUES,
  ORDER_SORT_FIELDS,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  SORT_ORDERS,
  type OrderQueue,
  type OrderSortField,
  type OrderStatus,
  type PaymentStatus,
  type SortOrder,
} from '@spc/shared-contracts';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { OrdersFilter } from '../api/get-orders';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** The filter an orders list's URL holds; unknown or malformed values are left out. */
export function filterFromParams(params: URLSearchParams): OrdersFilter {
  const page = Number(params.get('page'));
  const day = (key: string) => {
    const v = params.get(key);
    return v && DAY.test(v) ? v : undefined;
  };
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    queue: oneOf<OrderQueue>(ORDER_QUEUES, params.get('queue')),
    status: oneOf<OrderStatus>(ORDER_STATUSES, params.get('status')),
    paymentStatus: oneOf<PaymentStatus>(PAYMENT_STATUSES, params.get('paymentStatus')),
    search: params.get('search')?.trim() || undefined,
    from: day('from'),
    to: day('to'),
    sortBy: oneOf<OrderSortField>(ORDER_SORT_FIELDS, params.get('sortBy')),
    sortOrder: oneOf<SortOrder>(SORT_ORDERS, params.get('sortOrder')),
  };
}

export type FilterChange = Partial<Omit<OrdersFilter, 'page'>>;

/** "Clear filters": every filter but the work-queue tab. */
export const CLEARED_FILTERS: FilterChange = {
  status: undefined,
  paymentStatus: undefined,
  from: undefined,
  to: undefined,
  search: undefined,
  sortBy: undefined,
  sortOrder: undefined,
};

/**
 * The orders list's filters, kept in the URL's search params (named as the API names them), so the
 * back button and a shared link give the same list. A filter change goes back to page 1.
 */
export function useOrderFilters() {
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => filterFromParams(params), [params]);
  // react-router's functional update starts from the params of the last render, so two changes
  // before the next render (a "from" date and then a "to" date typed quickly, or the debounced
  // search landing just after a date) would drop the first. Changes start from the params last
  // written here instead, until the router renders newer ones (a navigation, the back button).
  const latest = useRef({ seen: params, value: params });
  useEffect(() => {
    if (latest.current.seen !== params) latest.current = { seen: params, value: params };
  }, [params]);

  const write = useCallback(
    (edit: (next: URLSearchParams) => void, options: { replace?: boolean } = {}) => {
      const next = new URLSearchParams(latest.current.value);
      edit(next);
      latest.current = { ...latest.current, value: next };
      setParams(next, { replace: options.replace });
    },
    [setParams],
  );

  const update = useCallback(
    (change: FilterChange, options: { replace?: boolean } = {}) =>
      write((next) => {
        for (const [key, value] of Object.entries(change)) {
          if (value === undefined || value === '') next.delete(key);
          else next.set(key, String(value));
        }
        next.delete('page');
      }, options),
    [write],
  );

  const setPage = useCallback(
    (page: number) =>
      write((next) => {
        if (page > 1) next.set('page', String(page));
        else next.delete('page');
      }),
    [write],
  );

  return { filter, update, setPage };
}
