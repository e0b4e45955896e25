import { SHOP_TIME_ZONE } from '@spc/shared-contracts';

const shopDayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** This week in the shop's calendar, Monday to Sunday, as YYYY-MM-DD days (as the API counts it). */
export function shopWeek(now = new Date()): { from: string; to: string } {
  const today = shopDayFormat.format(now); // YYYY-MM-DD
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const noon = Date.UTC(y, m - 1, d, 12);
  const sinceMonday = (new Date(noon).getUTCDay() + 6) % 7;
  const day = (offset: number) => new Date(noon + offset * 86_400_000).toISOString().slice(0, 10);
  return { from: day(-sinceMonday), to: day(6 - sinceMonday) };
}
