/**
 * The shop's calendar arithmetic (Africa/Nairobi days as `YYYY-MM-DD`): what needs no server, so
 * the API and both apps count days and weeks the same way. The API's clock (instants to shop days
 * and back) is `api/src/common/shop-clock.ts`.
 */
import { shopToday } from './format';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How many days "balances due this week" looks ahead of today. */
export const BALANCES_DUE_WINDOW_DAYS = 7;

function utcNoon(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d, 12);
}

/** The shop day `days` after `day` (before it when negative). */
export function addDays(day: string, days: number): string {
  return new Date(utcNoon(day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Monday of the shop week (Monday to Sunday) that contains `day`. */
export function mondayOf(day: string): string {
  const weekday = new Date(utcNoon(day)).getUTCDay(); // 0 Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** This week in the shop's calendar, Monday to Sunday, as YYYY-MM-DD days. */
export function shopWeek(now: Date = new Date()): { from: string; to: string } {
  const from = mondayOf(shopToday(now));
  return { from, to: addDays(from, 6) };
}

/**
 * The last shop day of "balances due this week" on the shop day `today`: today, the seven days
 * after it, and every overdue one before them. A booking's balance falls due
 * BOOKING_BALANCE_DAYS after its batch is ready, so a calendar week would hide most of them until
 * the week they run out.
 */
export function balancesDueByDay(today: string): string {
  return addDays(today, BALANCES_DUE_WINDOW_DAYS);
}
