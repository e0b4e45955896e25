import { queryOptions, useQuery, keepPreviousData } from '@tanstack/react-query';
import { unwrap } from '@spc/shared-contracts/web-client';
import { api } from '../../../lib/api-client';

/** The bookings queue's tabs, in the API's words (`tab=`) and the screen's. */
export const BOOKING_TABS = ['deposits', 'balances', 'dispatch', 'affected'] as const;
export type BookingTab = (typeof BOOKING_TABS)[number];

export const BOOKING_TAB_LABELS: Record<BookingTab, string> = {
  deposits: 'Deposits to confirm',
  balances: 'Balances due this week',
  dispatch: 'Ready to dispatch',
  affected: 'Affected',
};

export const BOOKINGS_PAGE_SIZE = 20;

export const bookingKeys = {
  all: ['bookings'] as const,
  counts: () => [...bookingKeys.all, 'counts'] as const,
  queue: (tab: BookingTab, page: number) => [...bookingKeys.all, 'queue', { tab, page }] as const,
};

export async function getBookingQueue(tab: BookingTab, page: number) {
  return unwrap(
    await api.GET('/api/bookings/queue', {
      params: { query: { tab, page, limit: BOOKINGS_PAGE_SIZE } },
    }),
  );
}

export const bookingQueueQueryOptions = (tab: BookingTab, page: number) =>
  queryOptions({
    queryKey: bookingKeys.queue(tab, page),
    queryFn: () => getBookingQueue(tab, page),
    placeholderData: keepPreviousData,
  });

/** One tab of the bookings queue: booking orders, a page at a time. */
export const useBookingQueue = (tab: BookingTab, page: number) =>
  useQuery(bookingQueueQueryOptions(tab, page));

export type BookingQueuePage = Awaited<ReturnType<typeof getBookingQueue>>;
export type BookingOrder = BookingQueuePage['orders'][number];

export async function getBookingCounts() {
  return unwrap(await api.GET('/api/bookings/counts'));
}

/** How many booking orders wait in each tab. */
export const useBookingCounts = () =>
  useQuery({ queryKey: bookingKeys.counts(), queryFn: getBookingCounts });
