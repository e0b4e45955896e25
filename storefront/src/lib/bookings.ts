/** Bookings of growing batches (issue 32): the shop's booking settings, texts and figures. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from './api-client';

/** A batch the shop books from: ready on `readyOn` (YYYY-MM-DD), `available` seedlings left to book. */
export interface BookableBatch {
  _id: string;
  readyOn: string;
  available: number;
}

/** `order.booking`: what a booking order adds to an ordinary one. */
export interface OrderBooking {
  batchId: string;
  productName: string;
  readyOn: string;
  depositPercent: number;
  deposit: number;
  balance: number;
  state: string;
  depositPaidAt: string | null;
  readyAt: string | null;
  balanceDueBy: string | null;
  balancePaidAt: string | null;
  releaseDecision?: 'kept' | 'refunded' | null;
  problem?: 'failed' | 'short' | null;
}

/** The booking of an order (or of a tracking answer), null on ordinary orders and older APIs. */
export function bookingOf(order: object | null | undefined): OrderBooking | null {
  return (order as { booking?: OrderBooking | null } | null | undefined)?.booking ?? null;
}

/** The bookable batches of a product (the product read model carries up to 3, soonest first). */
export function batchesOf(product: object): BookableBatch[] {
  return (product as { batches?: BookableBatch[] }).batches ?? [];
}

/** The deposit share the shop asks when its settings are not known yet (the API's default). */
export const DEFAULT_DEPOSIT_PERCENT = 30;

export const bookingKeys = { settings: () => ['bookings', 'settings'] as const };

export const getBookingSettings = () => unwrap(api.GET('/api/bookings/settings' as never));

export interface BookingSeason {
  key: 'long-rains' | 'short-rains';
  name: string;
  from: string;
  to: string;
}

export interface BookingSettings {
  depositPercent: number;
  balanceDays: number;
  seasons: BookingSeason[];
}

/** The deposit share and the seasons (their coming dates); kept a while, they rarely change. */
export const bookingSettingsQueryOptions = () =>
  queryOptions({
    queryKey: bookingKeys.settings(),
    queryFn: async () => (await getBookingSettings()) as unknown as BookingSettings,
    staleTime: 10 * 60_000,
    retry: 1,
  });

export const useBookingSettings = () => useQuery(bookingSettingsQueryOptions());

const dayMonth = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  timeZone: 'UTC',
});
const dayMonthYear = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "12 March" from "2027-03-12" (a shop day: no time zone moves it); "" when missing. */
export function readyDay(day: string | null | undefined, withYear = false): string {
  if (!day) return '';
  const d = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return '';
  return (withYear ? dayMonthYear : dayMonth).format(d);
}

/** Whole KES of the deposit, as the API computes it: the total's share, rounded. */
export const depositOf = (total: number, percent: number) => Math.round((total * percent) / 100);

/** "Ready from 12 March: book with a 30 % deposit". */
export const bookOfferText = (readyOn: string, percent: number) =>
  `Ready from ${readyDay(readyOn)}: book with a ${percent} % deposit`;

/** What the shopper reads of a booking's state. */
export const BOOKING_STATE_TEXTS: Record<string, string> = {
  'Deposit due': 'Deposit due',
  Booked: 'Booked: deposit paid',
  'Balance due': 'Ready: balance due',
  Paid: 'Paid in full',
  Expired: 'Expired: the deposit was not paid',
  Released: 'Released: the balance was not paid in time',
  Affected: 'The batch failed or fell short: the shop will contact you',
  Refunded: 'Refunded',
};

export const bookingStateText = (state: string) => BOOKING_STATE_TEXTS[state] ?? state;

/** Whether a booking may be paid now (its deposit, or its balance early or once ready). */
export const bookingPayable = (b: OrderBooking) =>
  b.state === 'Deposit due' || b.state === 'Booked' || b.state === 'Balance due';
