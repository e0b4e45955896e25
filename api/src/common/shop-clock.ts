/**
 * The shop's clock (Africa/Nairobi) on the API: an instant's calendar day and hour, a day's start,
 * and the times staff read. The one place the API turns an instant into shop time (the apps use
 * shared-contracts' formatDate / formatDateTime); the day and week arithmetic that needs no clock
 * is shared-contracts' (shop-clock.ts), re-exported here so the API has one clock to import.
 */
import { balancesDueByDay, SHOP_TIME_ZONE } from '@spc/shared-contracts';

export { addDays, mondayOf } from '@spc/shared-contracts';

const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

const QUARTER_HOUR_MS = 15 * 60_000;
/** The shop's offset from UTC by quarter hour of UTC (at most about three years of them). */
const offsets = new Map<number, number>();
const MAX_OFFSETS = 100_000;

/**
 * The shop's offset from UTC at an instant, in ms: asked of Intl once per quarter hour of UTC and
 * remembered (a zone's offset changes only at a transition, and every transition of the zones in
 * use falls on a quarter hour of UTC: their offsets are whole quarter hours). Intl's formatToParts
 * costs microseconds, and an export writes two times an order for thousands of orders.
 */
function offsetAt(t: number): number {
  const quarter = Math.floor(t / QUARTER_HOUR_MS);
  let offset = offsets.get(quarter);
  if (offset === undefined) {
    const at = quarter * QUARTER_HOUR_MS;
    const p = Object.fromEntries(parts.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
    offset = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!) - at;
    if (offsets.size >= MAX_OFFSETS) offsets.clear();
    offsets.set(quarter, offset);
  }
  return offset;
}

function zoned(date: Date): { y: number; m: number; d: number; h: number; min: number; s: number } {
  const t = date.getTime();
  const w = new Date(t + offsetAt(t));
  return {
    y: w.getUTCFullYear(),
    m: w.getUTCMonth() + 1,
    d: w.getUTCDate(),
    h: w.getUTCHours(),
    min: w.getUTCMinutes(),
    s: w.getUTCSeconds(),
  };
}

/** The shop's calendar day of an instant, as YYYY-MM-DD. */
export function shopDay(date: Date): string {
  const { y, m, d } = zoned(date);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The shop's calendar day (YYYY-MM-DD) and hour of an instant. */
export function shopDayAndHour(at: Date): { day: string; hour: number } {
  return { day: shopDay(at), hour: zoned(at).h };
}

/** `YYYY-MM-DD HH:mm` in the shop's time zone: what a clerk reads in a spreadsheet. */
export function shopDateTime(iso: string | Date | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  const { h, min } = zoned(at);
  return `${shopDay(at)} ${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
}

/** The instant a shop day (YYYY-MM-DD) starts, in UTC. */
export function startOfShopDay(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const z = zoned(new Date(guess));
  const offset = Date.UTC(z.y, z.m - 1, z.d, z.h, z.min, z.s) - guess;
  return new Date(guess - offset);
}

/**
 * The last shop day of "balances due this week": today, the seven days after it, and every
 * overdue one before them (shared-contracts' balancesDueByDay says why not a calendar week).
 */
export function balancesDueBy(now: Date): string {
  return balancesDueByDay(shopDay(now));
}
