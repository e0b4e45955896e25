import { shopToday } from '@spc/shared-contracts';

/** This week in the shop's calendar, Monday to Sunday, as YYYY-MM-DD days (as the API counts it). */
export function shopWeek(now = new Date()): { from: string; to: string } {
  const today = shopToday(now); // YYYY-MM-DD
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const noon = Date.UTC(y, m - 1, d, 12);
  const sinceMonday = (new Date(noon).getUTCDay() + 6) % 7;
  const day = (offset: number) => new Date(noon + offset * 86_400_000).toISOString().slice(0, 10);
  return { from: day(-sinceMonday), to: day(6 - sinceMonday) };
}
